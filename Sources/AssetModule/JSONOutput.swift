// Under `set format json` / `ndjson` the asset commands answer with JSON instead of their tables:
// pretty on a terminal and compact otherwise (as the shell's JSON renderer does), an array as one
// value per line for ndjson. Control characters inside strings are escaped by the writer; the C1
// range, which JSON leaves alone, is dropped.

import DeliveryKit
import OCEQCore
import OCEQShell

/// JSON answers for the json and ndjson formats.
@MainActor
enum JSONOutput {
    /// Whether the session prints JSON.
    static func wanted(in session: Session) -> Bool {
        session.settings.format == .json || session.settings.format == .ndjson
    }

    /// `value` as the session's format prints it.
    static func result(_ value: JSON, in session: Session) -> CommandResult {
        let lines = session.settings.format == .ndjson
        let writer = JSONWriter(indent: session.output.isTerminal && !lines ? 2 : nil)
        if lines, case .array(let elements) = value {
            return .text(elements.map { TerminalText.clean(writer.string($0)) + "\n" }.joined())
        }
        return .text(TerminalText.cleanKeepingLines(writer.string(value)) + "\n")
    }
}
