// `history [N]`: the statements typed in the REPL, numbered, oldest first; N keeps the last N. Read
// from the history file, which the REPL writes at once after every statement (and which holds no
// statement that carried a token: `History.carriesSecret`), so it is current in the REPL and gives the
// same list to a script or one-shot.

import OCEQLanguage

/// `history`: the statements typed before.
package enum HistoryCommand: Command {
    package static let descriptor = CommandDescriptor(
        name: "history", abstract: "the statements typed in the REPL, numbered, oldest first",
        usage: "history [N]", examples: ["history", "history 10"],
        discussion: """
            N shows the last N. The list is the history file ($XDG_STATE_HOME/oceq/history, else
            ~/.local/state/oceq/history), which Up, Down and Ctrl-R search; statements that carried a
            token (connect URL TOKEN, ...) are never in it.
            """
    ).sendingNothing(because: "it prints the history file")

    package static func run(_ statement: Statement, in session: Session) async throws(ShellError) -> CommandResult {
        var last: Int?
        if case .command(let command) = statement, let argument = command.arguments.first {
            if command.arguments.count > 1 {
                throw .usage("history takes at most one number: \(descriptor.usage)", span: command.arguments[1].span)
            }
            guard let text = try ItemLookup.text(argument, in: session), let number = Int(text), number > 0 else {
                throw .usage(
                    "history takes a number of statements (1 or more): \(descriptor.usage)", span: argument.span)
            }
            last = number
        }
        guard let path = session.historyPath else {
            throw .file("no history: neither XDG_STATE_HOME nor HOME names a folder to keep it in")
        }
        // Read only: no folder is made and the file is not tidied (`History.load` does both for the REPL).
        let entries: [String]
        do {
            entries = try History.readFile(path, capacity: History.defaultCapacity).entries
        } catch {
            throw .file("cannot read the history \(path): \(error)")
        }
        return .text(text(entries, last: last))
    }

    /// `entries` numbered from 1 (the last `last` of them, keeping their numbers), a statement of several
    /// lines indented under its first; "(no history)" when there is none.
    static func text(_ entries: [String], last: Int?) -> String {
        guard !entries.isEmpty else { return "(no history)\n" }
        let first = max(0, entries.count - (last ?? entries.count))
        let width = String(entries.count).count
        var out = ""
        for index in first..<entries.count {
            let number = String(index + 1)
            let lines = TerminalText.cleanKeepingLines(entries[index]).split(
                separator: "\n", omittingEmptySubsequences: false)
            out += String(repeating: " ", count: width - number.count) + number + "  " + (lines.first ?? "") + "\n"
            for line in lines.dropFirst() { out += String(repeating: " ", count: width + 2) + line + "\n" }
        }
        return out
    }
}
