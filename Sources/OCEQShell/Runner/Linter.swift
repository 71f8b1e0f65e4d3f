// `oceq lint FILE|FOLDER...` and the `swift package oceq-lint` plugin that runs it: checks `.oceq`
// files without a channel. Errors: syntax, unknown commands (every command of the modules oceq is
// built with, and the file's own `define`s), `define` blocks (no `end`, parameters, names in the
// body that are neither parameters nor set by a `let` above), calls of a user command with missing
// or extra arguments, and a `define` of a name a module already holds. Warnings: a `$name` that no
// `let` above sets (none are reported after a `source`, which may set it), and a user command that
// calls itself; a command with a fixed number of arguments (`quit`, `source FILE`, ...) given
// another number. Output is the diagnostics as the compiler draws them, `FILE:LINE:COL: error: ...`
// first; the exit code is 1 when any error was found, 2 for a usage error.

import FoundationEssentials
import OCEQCore
import OCEQLanguage

/// Checks oceq scripts without running them.
package struct Linter {
    /// The commands known to exist.
    package var registry: CommandRegistry

    /// A linter knowing the commands of `registry`.
    package init(registry: CommandRegistry) {
        self.registry = registry
    }

    /// Every problem of `text`, in source order.
    package func check(_ text: String) -> ParsedInput {
        var parsed = Parser.parse(text, options: registry.parserOptions)
        var diagnostics = parsed.diagnostics
        var known: Set<String> = []
        var sawSource = false
        var defines: [DefineStatement] = []
        for statement in parsed.statements {
            if case .define(let definition) = statement {
                defines.append(definition)
                let command = UserCommand(definition: definition, source: parsed.source, fileName: nil)
                if let conflict = registry.conflict(for: command) { diagnostics.append(conflict.diagnostic) }
                continue
            }
            if !sawSource {
                for value in statement.values {
                    if case .variable(let name) = value.kind, !known.contains(name) {
                        diagnostics.append(Diagnostic(.variableNotSet(name), at: value.span))
                    }
                }
            }
            if case .let(let binding) = statement { known.insert(binding.name) }
            if statement.commandName == "source" { sawSource = true }
        }
        diagnostics += Linter.recursion(defines)
        diagnostics += parsed.statements.flatMap(\.commandCalls).flatMap(argumentCountProblems)
        parsed.diagnostics = diagnostics.enumerated().sorted {
            ($0.element.span.start, $0.offset) < ($1.element.span.start, $1.offset)
        }.map(\.element)
        return parsed
    }

    /// A call of a command with a fixed number of arguments given too few or too many.
    func argumentCountProblems(_ call: CommandStatement) -> [Diagnostic] {
        guard registry.userCommand(named: call.name) == nil, let descriptor = registry.descriptor(named: call.name),
            let count = descriptor.argumentCount
        else { return [] }
        if call.arguments.count > count.upperBound {
            return [
                Diagnostic(
                    .extraArgument(command: call.name, maximum: count.upperBound),
                    at: call.arguments[count.upperBound].span)
            ]
        }
        if call.arguments.count < count.lowerBound {
            return [Diagnostic(.tooFewArguments(command: call.name, usage: descriptor.usage), at: .at(call.span.end))]
        }
        return []
    }

    /// A warning at each user command that can reach itself through calls, with the shortest chain.
    static func recursion(_ defines: [DefineStatement]) -> [Diagnostic] {
        let byName = Dictionary(defines.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        func callees(_ define: DefineStatement) -> [String] {
            var seen: Set<String> = []
            return define.body.flatMap(\.commandCalls).map(\.name).filter {
                byName[$0] != nil && seen.insert($0).inserted
            }
        }
        var diagnostics: [Diagnostic] = []
        for define in defines {
            var paths: [[String]] = [[define.name]]
            var visited: Set<String> = []
            var found: [String]?
            while found == nil, !paths.isEmpty {
                var next: [[String]] = []
                for path in paths {
                    guard let last = byName[path[path.count - 1]] else { continue }
                    for callee in callees(last) {
                        if callee == define.name {
                            found = path + [callee]
                            break
                        }
                        if visited.insert(callee).inserted { next.append(path + [callee]) }
                    }
                    if found != nil { break }
                }
                paths = next
            }
            if let found { diagnostics.append(Diagnostic(.recursiveCommand(chain: found), at: define.nameSpan)) }
        }
        return diagnostics
    }

    /// The `.oceq` files of `paths`: files as given, folders searched recursively in name order.
    package static func files(_ paths: [String]) -> [String] {
        var out: [String] = []
        for path in paths {
            var isDirectory = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory {
                let base = path.hasSuffix("/") ? String(path.dropLast()) : path
                let found = (try? FileManager.default.subpathsOfDirectory(atPath: path)) ?? []
                out += found.filter { $0.hasSuffix(".oceq") }.sorted().map { base + "/" + $0 }
            } else {
                out.append(path)
            }
        }
        return out
    }

    /// `oceq lint [--plugin FILE]... [--] PATH...`: loads the plugins (a broken one counts as an error), checks each file, writes the diagnostics to `output` and a summary to
    /// `errors`; 0 when no error was found, 1 otherwise, 2 for a usage error.
    package static func main(
        _ arguments: [String], registry: CommandRegistry, output: any OutputSink, errors: any OutputSink,
        colors: Bool = false
    ) -> Int32 {
        let usage =
            "usage: oceq lint [--plugin FILE]... FILE|FOLDER...   (checks .oceq files; no channel needed;\n"
            + "       the commands of each --plugin FILE are known to the files checked)"
        var paths: [String] = []
        var plugins: [String] = []
        var help = false
        var scanner = ArgumentScanner(arguments, options: [.value("--plugin"), .flag("--help", "-h")])
        do {
            while let item = try scanner.next() {
                switch item {
                case .operand(let path): paths.append(path)
                case .option("--plugin", let file?): plugins.append(file)
                case .option: help = true
                }
            }
        } catch {
            return ErrorPresenter.reportProgramFailure(error, program: "oceq lint", usage: usage, to: errors)
        }
        if paths.isEmpty || help {
            (help ? output : errors).write(usage + "\n")
            return help ? 0 : ScriptRunner.ExitCode.usage
        }
        var registry = registry
        var errorCount = 0
        for plugin in plugins {
            PluginLoader.load(path: plugin, origin: .flag, into: &registry, errors: output, colors: colors)
            if registry.user.pluginFiles.last?.problem != nil { errorCount += 1 }
        }
        let linter = Linter(registry: registry)
        var warningCount = 0
        let files = files(paths)
        for file in files {
            let renderer = DiagnosticRenderer(fileName: file, colors: colors)
            let text: String
            switch PluginLoader.read(file) {
            case .success(let contents): text = contents
            case .failure(let error):
                output.write(
                    renderer.header(.error, "cannot read: \(error)", at: SourceLocation(line: 1, column: 1)) + "\n")
                errorCount += 1
                continue
            }
            let checked = linter.check(text)
            output.write(renderer.render(checked.diagnostics, in: checked.source))
            errorCount += checked.diagnostics.filter { $0.severity == .error }.count
            warningCount += checked.diagnostics.filter { $0.severity == .warning }.count
        }
        func plural(_ count: Int, _ word: String) -> String { "\(count) \(word)\(count == 1 ? "" : "s")" }
        errors.write(
            "oceq lint: \(plural(files.count, "file")), \(plural(errorCount, "error")), \(plural(warningCount, "warning"))\n"
        )
        return errorCount > 0 ? ScriptRunner.ExitCode.failure : ScriptRunner.ExitCode.success
    }
}
