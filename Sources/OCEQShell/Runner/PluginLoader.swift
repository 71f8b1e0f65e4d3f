// Plugin files at start: every `*.oceq` of `$XDG_CONFIG_HOME/oceq/plugins/` (else
// `~/.config/oceq/plugins/`) in name order, then each `--plugin FILE` in the order given. A plugin
// holds only `define` blocks (nothing runs at start). Each file is parsed whole against the
// commands loaded before it, and is loaded whole or not at all: a file that cannot be read, does
// not parse, holds another statement, or defines a name already taken is reported with file, line
// and column and skipped, and oceq starts anyway. Only regular files are read: a FIFO, a device
// or a socket (which would block the start forever) is skipped with a line, checked with `stat`
// before opening and again with `fstat` on a descriptor opened with `O_NONBLOCK`.

import FoundationEssentials
import OCEQCore
import OCEQLanguage

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Reads plugin files into a registry.
package enum PluginLoader {
    /// The plugins folder for `environment`; nil when neither XDG_CONFIG_HOME nor HOME names one.
    package static func directory(environment: [String: String]) -> String? {
        XDGPaths(environment: environment).pluginsFolder
    }

    /// The `*.oceq` files of `directory`, sorted by name; none when it does not exist. Listed with
    /// readdir: Foundation's listing of a folder that is missing (the usual case) cost every start
    /// 0.4 M instructions, most of them in building the error it throws.
    package static func files(in directory: String) -> [String] {
        let names = ((try? FileSystem.list(directory)) ?? []).map(\.name)
        return names.filter { $0.hasSuffix(".oceq") }.sorted().map { directory + "/" + $0 }
    }

    /// Loads the plugins folder's files, then `flagFiles`, into `registry`; problems go to `errors`.
    package static func loadAll(
        flagFiles: [String], environment: [String: String], into registry: inout CommandRegistry,
        errors: any OutputSink, colors: Bool
    ) {
        for path in directory(environment: environment).map(files(in:)) ?? [] {
            load(path: path, origin: .directory, into: &registry, errors: errors, colors: colors)
        }
        for path in flagFiles {
            load(path: path, origin: .flag, into: &registry, errors: errors, colors: colors)
        }
    }

    /// Loads one file (or records why not, and reports it to `errors`).
    package static func load(
        path: String, origin: PluginFile.Origin, into registry: inout CommandRegistry, errors: any OutputSink,
        colors: Bool
    ) {
        let renderer = DiagnosticRenderer(fileName: path, colors: colors)
        let text: String
        switch read(path) {
        case .success(let contents): text = contents
        case .failure(let reason):
            errors.write(
                renderer.header(.error, "cannot read plugin: \(reason)", at: SourceLocation(line: 1, column: 1)))
            errors.write("\n")
            skip(path, origin, "cannot read it (\(reason))", into: &registry, errors: errors)
            return
        }
        let (commands, diagnostics, source) = check(text, fileName: path, registry: registry)
        if diagnostics.contains(where: { $0.severity == .error }) {
            errors.write(renderer.render(diagnostics, in: source))
            let count = diagnostics.filter { $0.severity == .error }.count
            skip(path, origin, "\(count) error\(count == 1 ? "" : "s")", into: &registry, errors: errors)
            return
        }
        for command in commands { try? registry.define(command) }
        registry.record(PluginFile(path: path, origin: origin, commands: commands.map(\.name), problem: nil))
    }

    /// The commands of a plugin's text and every problem found, without changing `registry`.
    static func check(
        _ text: String, fileName: String, registry: CommandRegistry
    ) -> (
        [UserCommand], [Diagnostic], SourceText
    ) {
        let parsed = Parser.parse(text, options: registry.parserOptions)
        var diagnostics = parsed.diagnostics
        var commands: [UserCommand] = []
        var trial = registry
        for statement in parsed.statements {
            guard case .define(let definition) = statement else {
                diagnostics.append(Diagnostic(.pluginStatementNotDefine(statement.commandName), at: statement.span))
                continue
            }
            let command = UserCommand(definition: definition, source: parsed.source, fileName: fileName)
            do {
                try trial.define(command)
                commands.append(command)
            } catch {
                diagnostics.append(error.diagnostic)
            }
        }
        diagnostics.sort { $0.span.start < $1.span.start }
        return (commands, diagnostics, parsed.source)
    }

    static func skip(
        _ path: String, _ origin: PluginFile.Origin, _ problem: String, into registry: inout CommandRegistry,
        errors: any OutputSink
    ) {
        errors.write(TerminalText.clean("oceq: plugin \(path) skipped: \(problem)") + "\n")
        registry.record(PluginFile(path: path, origin: origin, commands: [], problem: problem))
    }

    /// The file's text, or why it cannot be read (`no such file or directory`, `is a directory`,
    /// `not a regular file (a FIFO)`, ...).
    static func read(_ path: String) -> Result<String, PluginReadError> {
        func failure() -> Result<String, PluginReadError> {
            .failure(PluginReadError(String(cString: strerror(errno)).lowercased()))
        }
        var status = stat()
        guard stat(path, &status) == 0 else { return failure() }
        if let kind = irregularKind(status.st_mode) { return .failure(PluginReadError(kind)) }
        // A second guard: the path may have been replaced since; a FIFO opened non-blocking does not wait.
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { return failure() }
        defer { close(descriptor) }
        guard fstat(descriptor, &status) == 0 else { return failure() }
        if let kind = irregularKind(status.st_mode) { return .failure(PluginReadError(kind)) }
        guard let bytes = FileSystem.readToEnd(fd: descriptor) else {
            return .failure(PluginReadError("read failed"))
        }
        return .success(String(decoding: bytes, as: UTF8.self))
    }

    /// Why a file of mode `mode` is not read as a plugin (`is a directory`, `not a regular file (a
    /// FIFO)`); nil for a regular file.
    static func irregularKind(_ mode: mode_t) -> String? {
        switch mode & S_IFMT {
        case S_IFREG: return nil
        case S_IFDIR: return "is a directory"
        case S_IFIFO: return "not a regular file (a FIFO)"
        case S_IFSOCK: return "not a regular file (a socket)"
        case S_IFCHR, S_IFBLK: return "not a regular file (a device)"
        default: return "not a regular file"
        }
    }
}

/// Why a plugin file could not be read.
struct PluginReadError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
