// The command line: `oceq [OPTIONS] [run] [FILE [ARGS...]]`, `oceq -c TEXT...`, statements on
// stdin when it is not a terminal, the REPL otherwise (`oceq serve ...` is the executable's own).
// Everything runs through `ScriptRunner` or `REPL`; this file only picks the mode, connects and
// maps outcomes to exit codes (0 ok, 1 a statement or the connection failed, 2 usage or syntax,
// 130 Ctrl-C); the messages of failures before a statement runs are `ErrorPresenter`'s.

import DeliveryTransport
import FoundationEssentials
import OCEQCore
import OCEQLanguage
import TerminalMedia

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// What the command line asked for.
package struct CLIOptions: Equatable {
    /// `-c TEXT`, in order.
    package var commands: [String] = []
    /// The script to run.
    package var file: String?
    /// `$1`...
    package var arguments: [String] = []
    /// Connection flags.
    package var overrides = Credentials.Overrides()
    /// `--format`, `--json`.
    package var format: OutputFormat?
    /// `--keep-going`.
    package var keepGoing = false
    /// `--color auto|always|never`.
    package var color = ColorMode.auto
    /// `--images auto|never|symbols|sixel|kitty|iterm`.
    package var images: ImageMode?
    /// `--csv-raw`: CSV cells as they are, formulas not neutralised.
    package var csvRaw = false
    /// `--plugin FILE`, in order.
    package var plugins: [String] = []

    /// When to colour messages.
    package enum ColorMode: String, Sendable, CaseIterable {
        case auto, always, never

        /// Whether to colour a stream that `isTerminal` or not, given the environment.
        package func enabled(isTerminal: Bool, environment: [String: String]) -> Bool {
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
    package var help = false
    package var version = false

    /// Defaults.
    package init() {}

    /// The usage text.
    package static let usage = """
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
          --cacert FILE        trust the certificate authorities in FILE (PEM) for https, as curl --cacert
          --insecure           do not check the server's TLS certificate or host name (curl -k); warned
          --format FORMAT      table, expanded, json, ndjson or csv;  --json is --format json
          --keep-going         run every statement of a script even after one fails
          --csv-raw            write CSV cells as they are (by default a cell starting with = + - @
                               tab or CR is written as '... so that a spreadsheet does not run it)
          --color WHEN         auto (default: on a terminal, unless NO_COLOR is set), always, never
          --images MODE        auto (default), never, symbols, sixel, kitty or iterm (only on a terminal)
          -c TEXT              run TEXT (repeatable; all parsed before any runs)
          --plugin FILE        read the define blocks of FILE at start (repeatable), after those of
                               $XDG_CONFIG_HOME/oceq/plugins/*.oceq (~/.config/oceq/plugins)
          --version, --help

        exit codes: 0 success, 1 a statement failed, 2 usage or syntax error, 130 interrupted,
                    143 SIGTERM, 129 SIGHUP (the running statement stops as on Ctrl-C first)
        """

    /// The options `oceq` accepts (before the script or the first operand).
    static let scannerOptions: [ArgumentScanner.Option] = [
        .value("--command", "-c"), .value("--credentials"), .value("--url"), .value("--token"), .value("--bearer"),
        .value("--profile"), .flag("--json"), .value("--format"), .flag("--keep-going", "-k"), .value("--plugin"),
        .value("--color"), .value("--images"), .flag("--csv-raw"), .flag("--help", "-h"), .flag("--version", "-V"),
        .value("--cacert"), .flag("--insecure"),
    ]

    /// Parses the arguments (after the program name).
    package static func parse(_ arguments: [String]) throws(UsageError) -> CLIOptions {
        var options = CLIOptions()
        var positional: [String] = []
        var scanner = ArgumentScanner(arguments, options: scannerOptions, operandsEndOptions: true)
        while let item = try scanner.next() {
            guard case .option(let name, let value) = item else {
                if case .operand(let word) = item { positional.append(word) }
                continue
            }
            let text = value ?? ""
            switch name {
            case "--command": options.commands.append(text)
            case "--credentials": options.overrides.credentialsFile = text
            case "--url": options.overrides.url = text
            case "--token": options.overrides.token = text
            case "--bearer": options.overrides.bearer = text
            case "--cacert": options.overrides.caBundle = text
            case "--insecure": options.overrides.insecure = true
            case "--profile": options.overrides.profile = text
            case "--json": options.format = .json
            case "--format":
                guard let format = OutputFormat(rawValue: text) else {
                    throw UsageError(
                        "unknown format '\(text)'; formats: \(OutputFormat.allCases.map(\.rawValue).joined(separator: ", "))"
                    )
                }
                options.format = format
            case "--keep-going": options.keepGoing = true
            case "--csv-raw": options.csvRaw = true
            case "--plugin": options.plugins.append(text)
            case "--color":
                guard let mode = ColorMode(rawValue: text) else {
                    throw UsageError("--color takes auto, always or never, not '\(text)'")
                }
                options.color = mode
            case "--images":
                guard let mode = ImageMode(rawValue: text) else {
                    throw UsageError("--images takes auto, never, symbols, sixel, kitty or iterm, not '\(text)'")
                }
                options.images = mode
            case "--help": options.help = true
            case "--version": options.version = true
            default: break
            }
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
package enum OceqCLI {
    /// Runs oceq with `arguments` (without the program name); returns the exit code.
    /// `registry` holds the commands of the modules the executable lists (the core module alone
    /// by default); `localExports` serves a channel export named as the url (nil: none can be).
    package static func run(
        _ arguments: [String], version: String, registry: CommandRegistry = .standard,
        localExports: (any LocalExportOpener)? = nil,
        environment: [String: String] = ProcessEnvironment.current()
    ) async -> Int32 {
        let errors = FileOutput.standardError()
        let output = FileOutput.standardOutput()
        if arguments.first == "lint" {
            let colors = errors.isTerminal && output.isTerminal && environment["NO_COLOR"] == nil
            return Linter.main(
                Array(arguments.dropFirst()), registry: registry, output: output, errors: errors, colors: colors)
        }
        switch CommandLineHelp.answer(arguments, registry: registry) {
        case .success(let text)?:
            output.write(text + "\n")
            return 0
        case .failure(let error)?:
            return ErrorPresenter.reportProgramFailure(error, program: "oceq", to: errors)
        case nil: break
        }
        // Ctrl-C ends oceq with 130 until the REPL or a script's run takes it over (reading stdin included).
        Interrupts.install()
        let options: CLIOptions
        do {
            options = try CLIOptions.parse(arguments)
        } catch {
            // One line and where to look, as git and gh answer a mistake; the whole usage is `--help`.
            return ErrorPresenter.reportProgramFailure(error, program: "oceq", usage: "see 'oceq --help'", to: errors)
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
            let path = XDGPaths.resolve(file, in: currentDirectory)
            let data: Data?
            if file == "-" {
                data = FileSystem.readToEnd(fd: 0).map { Data($0) }
            } else {
                data = FileManager.default.contents(atPath: path)
            }
            guard let data else {
                let error = CommandLineHelp.unreadableScript(
                    file, path: path, arguments: options.arguments, registry: registry)
                return ErrorPresenter.reportProgramFailure(error, program: "oceq", to: errors)
            }
            script = (
                Parser.parse(String(decoding: data, as: UTF8.self), options: parserOptions), file,
                PathText.parent(of: path)
            )
        } else if !stdinIsTerminal {
            guard let data = FileSystem.readToEnd(fd: 0) else {
                let error = UsageError(
                    "cannot read the script from standard input: \(String(cString: strerror(errno)))")
                return ErrorPresenter.reportProgramFailure(error, program: "oceq", to: errors)
            }
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

        // A script whose first statement is checked against the channel's catalog reads the catalog before
        // anything runs: that read stands for the probe (`Session.checkChannelByCatalog`), one request less.
        let catalogFirst = script?.parsed.statements.first.map(Session.readsCatalog) ?? false
        // The REPL ignores Ctrl-C while it connects, as it does between statements.
        let ignoring = script == nil ? Interrupts.subscribe {} : nil
        defer { ignoring?.cancel() }
        let connection: Connection
        let items: Int?
        do {
            let credentials = try Credentials.resolve(
                options.overrides, environment: environment, currentDirectory: currentDirectory)
            for warning in credentials.warnings {
                errors.write(ErrorPresenter.programWarning(warning, program: "oceq"))
            }
            connection = try Connection.open(credentials, opener: localExports)
            for warning in connection.warnings {
                errors.write(ErrorPresenter.programWarning(warning, program: "oceq"))
            }
            items = catalogFirst ? nil : try await connection.probe()
        } catch {
            return ErrorPresenter.reportProgramFailure(error, program: "oceq", to: errors)
        }
        var settings = Settings()
        if let format = options.format { settings.format = format }
        settings.color = colors
        settings.csvRaw = options.csvRaw
        if let images = options.images { settings.images = images }
        if output.isTerminal { settings.pager = Pager.defaultCommand(environment: environment) }
        let session = Session(
            registry: registry, connection: connection, output: output, errors: errors, arguments: options.arguments,
            settings: settings, baseDirectory: script?.directory ?? currentDirectory)
        session.localExportOpener = localExports
        if catalogFirst {
            // The first statement's first request travels while the catalog is read and the statement checked; its
            // answer is used only if the statement passes and sends that request (`CommandAhead`).
            if let first = script?.parsed.statements.first { session.sendAhead(first) }
            do {
                try await session.checkChannelByCatalog()
            } catch {
                return ErrorPresenter.reportProgramFailure(error, program: "oceq", to: errors)
            }
        }

        if let script {
            let code = await ScriptRunner.runInterruptibly(
                script.parsed, fileName: script.fileName, in: session, keepGoing: options.keepGoing)
            return terminated(or: code == ScriptRunner.ExitCode.quit ? 0 : code)
        }
        output.write(REPL.banner(channel: connection.channelName, items: items, version: version))
        return terminated(or: await REPL(reader: makeLineReader(), session: session).run())
    }

    /// 128 + the signal when SIGTERM or SIGHUP stopped the run (as a shell reports a process it
    /// ended), else `code`.
    static func terminated(or code: Int32) -> Int32 {
        Interrupts.terminationSignal.map { 128 + $0 } ?? code
    }

    /// Starts what connecting needs and takes a while (`CurlTransport.prepare`: libcurl's set-up) on a thread
    /// of its own, unless `arguments` ask for something that never connects (`lint`, help, the version). The
    /// caller then leaves by `_exit`, never `exit`, whose handlers could run while that set-up is under way.
    package static func prepareToConnect(_ arguments: [String]) {
        let neverConnects: Set<String> = ["--help", "-h", "--version", "-V"]
        guard arguments.first != "lint", arguments.first != "help", !arguments.contains(where: neverConnects.contains)
        else { return }
        CurlTransport.prepare()
    }

    /// The reader for the REPL: libedit with the history file on a terminal (the REPL gives it the
    /// completer for each line), plain lines otherwise (never both on one stdin), or when libedit is missing.
    static func makeLineReader() -> sending any LineReader {
        guard EditLineReader.isUsable() else { return PlainLineReader() }
        if let problem = EditLineReader.libraryProblem() {
            FileOutput.standardError().write(
                ErrorPresenter.programWarning("no line editing: \(problem)", program: "oceq"))
            return PlainLineReader()
        }
        let history = History(path: History.defaultPath())
        do {
            try history.load()
        } catch {
            FileOutput.standardError().write(
                ErrorPresenter.programWarning("history not loaded: \(error)", program: "oceq"))
        }
        guard let reader = EditLineReader(history: history) else { return PlainLineReader() }
        return reader
    }
}
