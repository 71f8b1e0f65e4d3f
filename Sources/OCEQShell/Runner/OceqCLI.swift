// The command line: `oceq [OPTIONS] [run] [FILE [ARGS...]]`, `oceq -c TEXT...`, statements on
// stdin when it is not a terminal, the REPL otherwise, and `oceq serve ...`. Everything runs
// through `ScriptRunner` or `REPL`; this file only picks the mode, connects and maps outcomes
// to exit codes (0 ok, 1 a statement or the connection failed, 2 usage or syntax, 130 Ctrl-C).

import ChannelServer
import Foundation
import OCEQLanguage
import TerminalMedia

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// What the command line asked for.
public struct CLIOptions: Equatable {
    /// `-c TEXT`, in order.
    public var commands: [String] = []
    /// The script to run.
    public var file: String?
    /// `$1`...
    public var arguments: [String] = []
    /// Connection flags.
    public var overrides = Credentials.Overrides()
    /// `--format`, `--json`.
    public var format: OutputFormat?
    /// `--keep-going`.
    public var keepGoing = false
    /// `--color auto|always|never`.
    public var color = ColorMode.auto
    /// `--images auto|never|symbols|sixel|kitty|iterm`.
    public var images: ImageMode?
    /// `--plugin FILE`, in order.
    public var plugins: [String] = []

    /// When to colour messages.
    public enum ColorMode: String, Sendable, CaseIterable {
        case auto, always, never

        /// Whether to colour a stream that `isTerminal` or not, given the environment.
        public func enabled(isTerminal: Bool, environment: [String: String]) -> Bool {
            switch self {
            case .always: return true
            case .never: return false
            case .auto:
                return isTerminal && environment["NO_COLOR"].map(\.isEmpty) != false
                    && environment["TERM"] != "dumb"
            }
        }
    }
    /// `--help`, `--version`.
    public var help = false
    public var version = false

    /// Defaults.
    public init() {}

    /// The usage text.
    public static let usage = """
        usage: oceq [OPTIONS] [repl]                   open the REPL on the channel
               oceq [OPTIONS] [run] FILE [ARGS...]     run a script ($1..$9 are ARGS)
               oceq [OPTIONS] -c TEXT [-c TEXT...] [ARGS...]
               oceq [OPTIONS] < FILE                   statements on stdin
               oceq serve PATH... [options]            serve the delivery API from an export (oceq serve --help)
               oceq [OPTIONS] mirror DIR [--query STATEMENT]
                                                       write the channel (or a selection) to DIR as an export
               oceq lint [--plugin FILE]... FILE|FOLDER...   check .oceq files without a channel

        options:
          --profile NAME       connect as profile NAME of ~/.config/oceq/profiles.json
          --credentials FILE   read url, channelToken (and authorization) from FILE
                               (default ./credentials.json, else ~/.config/oceq/credentials.json)
          --url URL            server (https://host[:port]) or a channel export folder/zip  (OCEQ_URL)
          --token TOKEN        channel token                                              (OCEQ_CHANNEL_TOKEN)
          --bearer TOKEN       bearer token for a secure channel                          (OCEQ_BEARER)
          --format FORMAT      table, expanded, json, ndjson or csv;  --json is --format json
          --keep-going         run every statement of a script even after one fails
          --color WHEN         auto (default: on a terminal, unless NO_COLOR is set), always, never
          --images MODE        auto (default), never, symbols, sixel, kitty or iterm (only on a terminal)
          -c TEXT              run TEXT (repeatable; all parsed before any runs)
          --plugin FILE        read the define blocks of FILE at start (repeatable), after those of
                               $XDG_CONFIG_HOME/oceq/plugins/*.oceq (~/.config/oceq/plugins)
          --version, --help

        exit codes: 0 success, 1 a statement failed, 2 usage or syntax error, 130 interrupted
        """

    /// Parses the arguments (after the program name).
    public static func parse(_ arguments: [String]) throws(UsageError) -> CLIOptions {
        var options = CLIOptions()
        var index = 0
        func value(_ flag: String) throws(UsageError) -> String {
            index += 1
            guard index < arguments.count else { throw UsageError("\(flag) needs a value") }
            return arguments[index]
        }
        var positional: [String] = []
        while index < arguments.count {
            let argument = arguments[index]
            if !positional.isEmpty || (!argument.hasPrefix("-") || argument == "-") {
                positional.append(argument)
                index += 1
                continue
            }
            var flag = argument
            var inline: String?
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                flag = String(argument[..<equals])
                inline = String(argument[argument.index(after: equals)...])
            }
            func take() throws(UsageError) -> String {
                if let inline { return inline }
                return try value(flag)
            }
            switch flag {
            case "-c", "--command": options.commands.append(try take())
            case "--credentials": options.overrides.credentialsFile = try take()
            case "--url": options.overrides.url = try take()
            case "--token": options.overrides.token = try take()
            case "--bearer": options.overrides.bearer = try take()
            case "--profile": options.overrides.profile = try take()
            case "--json": options.format = .json
            case "--format":
                let text = try take()
                guard let format = OutputFormat(rawValue: text) else {
                    throw UsageError(
                        "unknown format '\(text)'; formats: \(OutputFormat.allCases.map(\.rawValue).joined(separator: ", "))"
                    )
                }
                options.format = format
            case "--keep-going", "-k": options.keepGoing = true
            case "--plugin": options.plugins.append(try take())
            case "--color":
                let text = try take()
                guard let mode = ColorMode(rawValue: text) else {
                    throw UsageError("--color takes auto, always or never, not '\(text)'")
                }
                options.color = mode
            case "--images":
                let text = try take()
                guard let mode = ImageMode(rawValue: text) else {
                    throw UsageError("--images takes auto, never, symbols, sixel, kitty or iterm, not '\(text)'")
                }
                options.images = mode
            case "--help", "-h": options.help = true
            case "--version", "-V": options.version = true
            case "--":
                index += 1
                positional.append(contentsOf: arguments[index...])
                index = arguments.count
                continue
            default:
                let known = [
                    "-c", "--credentials", "--url", "--token", "--bearer", "--json", "--format", "--keep-going",
                    "--color", "--profile", "--images", "--plugin",
                    "--help", "--version",
                ]
                throw UsageError(
                    "unknown option '\(flag)'"
                        + (Suggest.nearest(to: flag, in: known).map { "; did you mean '\($0)'?" } ?? ""))
            }
            index += 1
        }
        if options.commands.isEmpty && positional.first == "mirror" {
            options.commands = [try SubcommandStatement.mirror(Array(positional.dropFirst()))]
        } else if options.commands.isEmpty {
            if positional == ["repl"] { positional = [] }
            if positional.first == "run" {
                positional.removeFirst()
                guard !positional.isEmpty else { throw UsageError("run needs a script file") }
            }
            options.file = positional.first
            options.arguments = Array(positional.dropFirst())
        } else {
            options.arguments = positional
        }
        return options
    }
}

/// The `oceq` program.
@MainActor
public enum OceqCLI {
    /// Runs oceq with `arguments` (without the program name); returns the exit code.
    /// `registry` holds the commands of the modules the executable lists (the core module alone
    /// by default).
    public static func run(
        _ arguments: [String], version: String, registry: CommandRegistry = .standard,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) async -> Int32 {
        let errors = FileOutput.standardError()
        let output = FileOutput.standardOutput()
        if arguments.first == "serve" {
            return ServeCommand.run(Array(arguments.dropFirst()), environment: environment)
        }
        if arguments.first == "lint" {
            let colors = errors.isTerminal && output.isTerminal && environment["NO_COLOR"] == nil
            return Linter.main(
                Array(arguments.dropFirst()), registry: registry, output: output, errors: errors, colors: colors)
        }
        // Ctrl-C ends oceq with 130 until the REPL or a script's run takes it over (reading stdin included).
        Interrupts.install()
        let options: CLIOptions
        do {
            options = try CLIOptions.parse(arguments)
        } catch {
            errors.write("oceq: \(error.message)\n\(CLIOptions.usage)\n")
            return ScriptRunner.ExitCode.usage
        }
        if options.help {
            output.write(CLIOptions.usage + "\n")
            return 0
        }
        if options.version {
            output.write("oceq \(version)\n")
            return 0
        }
        let colors = options.color.enabled(isTerminal: errors.isTerminal, environment: environment)
        // Plugins first: a broken one is reported and skipped, and the script may call the others.
        var registry = registry
        PluginLoader.loadAll(
            flagFiles: options.plugins, environment: environment, into: &registry, errors: errors, colors: colors)
        let parserOptions = registry.parserOptions

        // What to run, parsed whole before connecting: a syntax error runs nothing and needs no channel.
        var script: (parsed: ParsedInput, fileName: String?, directory: String)?
        let currentDirectory = FileManager.default.currentDirectoryPath
        let stdinIsTerminal = isatty(0) == 1
        if !options.commands.isEmpty {
            script = (
                Parser.parse(options.commands.joined(separator: "\n"), options: parserOptions), nil, currentDirectory
            )
        } else if let file = options.file {
            let path = Credentials.absolute(file, in: currentDirectory)
            let data: Data?
            if file == "-" {
                data = FileHandle.standardInput.readDataToEndOfFile()
            } else {
                data = FileManager.default.contents(atPath: path)
            }
            guard let data else {
                errors.write("oceq: cannot read script \(file)\n")
                return ScriptRunner.ExitCode.usage
            }
            script = (
                Parser.parse(String(decoding: data, as: UTF8.self), options: parserOptions), file,
                (path as NSString).deletingLastPathComponent
            )
        } else if !stdinIsTerminal {
            let data = FileHandle.standardInput.readDataToEndOfFile()
            script = (
                Parser.parse(String(decoding: data, as: UTF8.self), options: parserOptions), "<stdin>", currentDirectory
            )
        }
        if let script, script.parsed.hasErrors {
            // No session yet: hide the secrets the command line and credentials name in the echoed line.
            let redact = Credentials.redaction(
                options.overrides, environment: environment, currentDirectory: currentDirectory)
            errors.write(
                redact(
                    DiagnosticRenderer(fileName: script.fileName, colors: colors, redact: redact).render(
                        script.parsed.diagnostics, in: script.parsed.source)))
            return ScriptRunner.ExitCode.usage
        }

        // The REPL ignores Ctrl-C while it connects, as it does between statements.
        let ignoring = script == nil ? Interrupts.subscribe {} : nil
        defer { ignoring?.cancel() }
        let connection: Connection
        let items: Int?
        do {
            let credentials = try Credentials.resolve(
                options.overrides, environment: environment, currentDirectory: currentDirectory)
            for warning in credentials.warnings { errors.write("oceq: warning: \(warning)\n") }
            connection = try Connection.open(credentials)
            for warning in connection.warnings { errors.write("oceq: warning: \(TerminalText.clean(warning))\n") }
            items = try await connection.probe()
        } catch {
            errors.write("oceq: \(TerminalText.clean(error.description))\n")
            return ScriptRunner.ExitCode.failure
        }
        var settings = Settings()
        if let format = options.format { settings.format = format }
        settings.color = colors
        if let images = options.images { settings.images = images }
        if output.isTerminal { settings.pager = Pager.defaultCommand(environment: environment) }
        let session = Session(
            registry: registry, connection: connection, output: output, errors: errors, arguments: options.arguments,
            settings: settings, baseDirectory: script?.directory ?? currentDirectory)

        if let script {
            let code = await ScriptRunner.runInterruptibly(
                script.parsed, fileName: script.fileName, in: session, keepGoing: options.keepGoing)
            return code == ScriptRunner.ExitCode.quit ? 0 : code
        }
        output.write(REPL.banner(channel: connection.channelName, items: items, version: version))
        return await REPL(reader: makeLineReader(), session: session).run()
    }

    /// The reader for the REPL: libedit with the history file on a terminal (the REPL gives it the
    /// completer for each line), plain lines otherwise (never both on one stdin).
    static func makeLineReader() -> sending any LineReader {
        guard EditLineReader.isUsable() else { return PlainLineReader() }
        let history = History(path: History.defaultPath())
        do {
            try history.load()
        } catch {
            FileHandle.standardError.write(Data("oceq: history not loaded: \(error)\n".utf8))
        }
        guard let reader = EditLineReader(history: history) else { return PlainLineReader() }
        return reader
    }
}
