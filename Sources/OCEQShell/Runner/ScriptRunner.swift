// The script runner: a whole text is parsed first (a syntax error anywhere runs nothing, exit 2),
// then its statements run in order. The first failing statement stops the run (exit 1) unless
// `set errexit off` or `--keep-going`; then the run goes on and still ends with 1. `quit` ends it
// with 0. Files, `-c`, stdin and `source` all use it; the REPL uses `runStatements` per input.
// A cancelled task (Ctrl-C) stops the run before its next statement with 130; the statement that
// was running has stopped and reported what it did, and its error is not shown again.

import FoundationEssentials
import OCEQCore
import OCEQLanguage

/// Runs scripts.
@MainActor
package enum ScriptRunner {
    /// Process exit codes.
    package enum ExitCode {
        /// Every statement succeeded.
        package static let success: Int32 = 0
        /// A statement failed.
        package static let failure: Int32 = 1
        /// Usage or syntax error.
        package static let usage: Int32 = 2
        /// Interrupted (Ctrl-C).
        package static let interrupted: Int32 = 130
        /// Internal: `quit` was run (the process exits 0).
        package static let quit: Int32 = -1
    }

    /// Parses `text` whole and runs it; `fileName` is shown in errors (nil for `-c`).
    package static func run(
        text: String, fileName: String?, in session: Session, keepGoing: Bool = false
    ) async -> Int32 {
        let parsed = Parser.parse(text, options: session.parserOptions)
        if parsed.hasErrors {
            session.errors.write(
                DiagnosticRenderer(fileName: fileName, colors: session.settings.color, redact: session.redact).render(
                    parsed.diagnostics, in: parsed.source))
            return ExitCode.usage
        }
        return await runStatements(parsed, fileName: fileName, in: session, keepGoing: keepGoing)
    }

    /// Runs a script's statements for `oceq FILE`, `-c` and stdin: from now on Ctrl-C cancels the
    /// running statement, which stops, keeps what it completed and reports it (a download saves its
    /// manifest and prints its summary); then the script stops with `interrupted` on stderr and
    /// exit code 130. A second Ctrl-C exits at once.
    package static func runInterruptibly(
        _ parsed: ParsedInput, fileName: String?, in session: Session, keepGoing: Bool
    ) async -> Int32 {
        let (code, _) = await Interrupts.cancelling(again: .exit) {
            await runStatements(parsed, fileName: fileName, in: session, keepGoing: keepGoing)
        }
        if code == ExitCode.interrupted { session.errors.write(Interrupts.stopReport) }
        return code
    }

    /// Runs statements already parsed.
    package static func runStatements(
        _ parsed: ParsedInput, fileName: String?, in session: Session, keepGoing: Bool
    ) async -> Int32 {
        let savedSource = session.currentSource
        session.currentSource = (parsed.source, fileName)
        defer { session.currentSource = savedSource }
        // Arguments the script uses but was not given, and names checked against the channel's catalog,
        // before anything runs: a script has no branches, so either would stop it part-way.
        let problems =
            missingArguments(in: parsed.statements, given: session.arguments.count)
            + (await session.catalogProblems(in: parsed.statements))
        if !problems.isEmpty {
            session.errors.write(
                DiagnosticRenderer(fileName: fileName, colors: session.settings.color, redact: session.redact).render(
                    problems, in: parsed.source))
            return ExitCode.usage
        }
        var failed = false
        for statement in parsed.statements {
            if Task.isCancelled { return ExitCode.interrupted }
            do {
                let result = try await Interpreter.perform(statement, in: session)
                if case .quit = result { return failed ? ExitCode.failure : ExitCode.quit }
            } catch {
                if Task.isCancelled { return ExitCode.interrupted }
                // Made here, not once: `connect` may have added a secret to hide since.
                let presenter = ErrorPresenter(
                    fileName: fileName, source: parsed.source, colors: session.settings.color, redact: session.redact)
                session.errors.write(presenter.message(for: error, statementSpan: statement.span))
                failed = true
                if ErrorPresenter.exitCode(for: error) == ExitCode.usage, !keepGoing { return ExitCode.usage }
                if session.settings.errexit && !keepGoing { return ExitCode.failure }
            }
        }
        if Task.isCancelled { return ExitCode.interrupted }
        return failed ? ExitCode.failure : ExitCode.success
    }

    /// A diagnostic for each `$n` the statements use beyond the `given` arguments; not inside `define`
    /// blocks (which cannot use them) or `explain` (which runs nothing, and says what it can).
    static func missingArguments(in statements: [Statement], given: Int) -> [Diagnostic] {
        var problems: [Diagnostic] = []
        for statement in statements {
            switch statement {
            case .define, .explain: continue
            default: break
            }
            for value in statement.values {
                if case .argument(let number) = value.kind, number > given, number <= 9 {
                    problems.append(Diagnostic(.argumentNotGiven(number, given: given), at: value.span))
                }
            }
        }
        return problems
    }

    /// Reads and runs the file at `path` (shown as `displayName`) in `session`, nested for `source`.
    package static func runFile(
        path: String, displayName: String, in session: Session, keepGoing: Bool = false
    )
        async -> Int32
    {
        guard let data = FileManager.default.contents(atPath: path) else {
            session.errors.write("error: cannot read \(displayName)\n")
            return ExitCode.usage
        }
        let text = String(decoding: data, as: UTF8.self)
        let savedDirectory = session.baseDirectory
        session.baseDirectory = PathText.parent(of: path)
        session.sourceDepth += 1
        defer {
            session.baseDirectory = savedDirectory
            session.sourceDepth -= 1
        }
        return await run(text: text, fileName: displayName, in: session, keepGoing: keepGoing)
    }
}
