// `oceq mirror DIR [--query STATEMENT]` on the command line is the REPL's `mirror` statement run
// once, with the usual connection and exit codes: the arguments are turned into its text here.

import FoundationEssentials
import OCEQCore

/// Statements for subcommands that are REPL commands run once.
package enum SubcommandStatement {
    /// The statement text for `mirror DIR [--query STATEMENT]` (`--query=STATEMENT` too).
    /// STATEMENT is a `list` or `first` (a bare condition list means `list CONDITIONS`).
    package static func mirror(_ arguments: [String]) throws(UsageError) -> String {
        var folder: String?
        var query: String?
        var scanner = ArgumentScanner(arguments, options: [.value("--query", "-q")])
        while let item = try scanner.next() {
            switch item {
            case .option(_, let value): query = value
            case .operand(let word) where folder == nil: folder = word
            case .operand:
                throw UsageError("mirror takes one folder; usage: oceq mirror DIR [--query STATEMENT]")
            }
        }
        guard let folder, !folder.isEmpty else { throw UsageError("usage: oceq mirror DIR [--query STATEMENT]") }
        guard !folder.contains("\n"), !(query ?? "").contains("\n") else {
            throw UsageError("mirror takes one line: no line break in DIR or STATEMENT")
        }
        let quote: String
        if !folder.contains("\"") {
            quote = "\""
        } else if !folder.contains("'") {
            quote = "'"
        } else {
            throw UsageError("the folder name holds both kinds of quote; rename it")
        }
        var text = "mirror " + quote + folder + quote
        if var query = query?.trimmedSpaces, !query.isEmpty {
            let verb = query.prefix { !$0.isWhitespace }
            if verb == "count" || verb == "get" {
                throw UsageError("--query takes a list or first statement, or conditions; not \(verb)")
            }
            if verb != "list" && verb != "first" { query = "list " + query }
            text += " (" + query + ")"
        }
        return text
    }
}
