// `swift package oceq-lint [PATH...]`: checks `.oceq` files without a channel by building and
// running `oceq lint` (the checks live in OCEQShell's `Linter`, with every command of the modules the
// executable lists), and reports each `FILE:LINE:COL: error|warning: ...` through the plugin
// diagnostics. With no paths it checks `Scripts`. Fails when any error was found.

import Foundation
import PackagePlugin

@main
struct OCEQLint: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        // Built through the package manager rather than declared as a tool dependency: a dependency
        // would make every `swift build` compile the modules a second time for the host.
        let build = try packageManager.build(
            .product("oceq"), parameters: .init(configuration: .debug, logging: .concise))
        guard build.succeeded,
            let tool = build.builtArtifacts.first(where: {
                $0.kind == .executable && $0.url.lastPathComponent == "oceq"
            })
        else {
            print(build.logText)
            throw LintFailed(status: -1)
        }
        let root = context.package.directoryURL
        let paths = arguments.isEmpty ? ["Scripts"] : arguments
        let process = Process()
        process.executableURL = tool.url
        process.arguments = ["lint", "--"] + paths
        process.currentDirectoryURL = root
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let summary = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        for line in text.split(separator: "\n") {
            guard let diagnostic = LintLine(String(line)) else { continue }
            let file =
                diagnostic.file.hasPrefix("/") ? diagnostic.file : root.appendingPathComponent(diagnostic.file).path
            let message = "\(diagnostic.file):\(diagnostic.line):\(diagnostic.column): \(diagnostic.message)"
            if diagnostic.isError {
                Diagnostics.error(message, file: file, line: diagnostic.line)
            } else {
                Diagnostics.warning(message, file: file, line: diagnostic.line)
            }
        }
        print(text, terminator: "")
        Diagnostics.remark(summary.trimmingCharacters(in: .whitespacesAndNewlines))
        if process.terminationStatus != 0 {
            throw LintFailed(status: process.terminationStatus)
        }
    }
}

/// One `FILE:LINE:COL: error|warning: MESSAGE` line of `oceq lint`.
struct LintLine {
    var file: String
    var line: Int
    var column: Int
    var isError: Bool
    var message: String

    init?(_ text: String) {
        for (marker, isError) in [(": error: ", true), (": warning: ", false)] {
            guard let range = text.range(of: marker) else { continue }
            let position = text[..<range.lowerBound].split(separator: ":", omittingEmptySubsequences: false)
            guard position.count >= 3, let line = Int(position[position.count - 2]),
                let column = Int(position[position.count - 1])
            else { continue }
            self.file = position.dropLast(2).joined(separator: ":")
            self.line = line
            self.column = column
            self.isError = isError
            self.message = String(text[range.upperBound...])
            return
        }
        return nil
    }
}

/// `oceq lint` found errors (or could not run).
struct LintFailed: Error, CustomStringConvertible {
    var status: Int32
    var description: String {
        status < 0 ? "could not build oceq" : "oceq lint failed with exit code \(status)"
    }
}
