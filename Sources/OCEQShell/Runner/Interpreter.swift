// One statement at a time: find the command by its word, run it, render its result. The REPL, the
// script runner, `-c`, stdin and `source` all come through here.

import OCEQLanguage

/// Runs statements in a session.
@MainActor
package enum Interpreter {
    /// Runs `statement` and returns its result without rendering it.
    package static func execute(_ statement: Statement, in session: Session) async throws(ShellError) -> CommandResult {
        // What the compiler checks names against (the channel's catalog), read before the command runs.
        await session.prepareCatalog(for: statement)
        if let user = session.registry.user.commands[statement.commandName] {
            return try await user.run(statement, in: session)
        }
        guard let command = session.registry.command(named: statement.commandName) else {
            throw .usage("unknown command '\(statement.commandName)'", span: nil)
        }
        return try await command.run(statement, in: session)
    }

    /// Runs `statement`, renders its result to the session's output, and reports timing.
    package static func perform(_ statement: Statement, in session: Session) async throws(ShellError) -> CommandResult {
        _ = session.connection?.takeLog()
        let result: CommandResult
        do {
            result = try await execute(statement, in: session)
        } catch {
            reportTiming(session)
            throw error
        }
        present(result, in: session)
        return result
    }

    /// Renders `result` (through the pager when it is on) and reports timing.
    static func present(_ result: CommandResult, in session: Session) {
        Pager.render(result, in: session)
        reportTiming(session)
    }

    static func reportTiming(_ session: Session) {
        guard let totals = session.connection?.takeTotals(), session.settings.timing, totals.count > 0 else { return }
        let count = totals.count
        session.errors.write(
            "timing: \(count) request\(count == 1 ? "" : "s"), \(totals.bytes) bytes, "
                + "\(Int(totals.milliseconds.rounded())) ms\n")
    }
}
