// The interactive loop, after lua.c's doREPL: read a line; while the parser says the input is
// unfinished (open parenthesis or string, a define without end) read more under a continuation
// prompt that says what is open, as psql's does (`"> `, `(> `, `define> `); then parse, run
// and render each statement, present any error, and go on. Ctrl-C drops the input being typed or
// cancels the running statement, never ending oceq; Ctrl-D (end of input) leaves; so does `quit`.
// Lines are read on a thread of their own (`LineInput`) and awaited; the session, like the loop,
// is isolated to the main actor. Comment lines typed right above a `define` become its help, as the
// comment lines above it in a file do.

import OCEQLanguage

/// The read-eval-print loop.
@MainActor
package struct REPL {
    /// Where lines come from: the reader, on a thread of its own.
    package let input: LineInput
    /// The session statements run in.
    package var session: Session

    /// A loop reading from `reader` (handed to a thread of its own) into `session`.
    package init(reader: sending any LineReader, session: Session) {
        self.input = LineInput(reader: reader)
        self.session = session
    }

    /// The prompt: the channel's name (cleaned: it may come from an export's channel.json).
    package var prompt: String { TerminalText.clean(session.connection?.channelName ?? "oceq") + "> " }

    /// The continuation prompt for `pending`, as wide as the prompt where it can be: what is open, right
    /// aligned (`"> ` or `'> ` in a string, `(> ` in parentheses, `define> ` in a define block).
    package func continuationPrompt(for pending: String) -> String {
        let open: String
        switch Parser.inputState(of: pending) {
        case .insideString:
            let string = Lexer.tokenize(SourceText(pending)).tokens.last { $0.kind == .string }
            open = string.flatMap { SourceText(pending).text(of: $0.span).first }.map(String.init) ?? "\""
        case .insideParentheses: open = "("
        case .insideDefine: open = "define"
        case .complete: open = ""
        }
        let marker = open + "> "
        let width = TerminalText.width(of: prompt)
        return String(repeating: " ", count: max(0, width - marker.count)) + marker
    }

    /// The one-line banner.
    package static func banner(channel: String, items: Int?, version: String) -> String {
        let count = items.map { ", \($0) items" } ?? ""
        return "oceq \(version) on \(TerminalText.clean(channel))\(count). Type 'help' for commands, Ctrl-D to leave.\n"
    }

    /// Runs until end of input or `quit`; returns the exit code (0).
    package func run() async -> Int32 {
        // In the REPL Ctrl-C never ends oceq: what reads or runs takes it over, and between those it is ignored.
        let ignoring = Interrupts.subscribe {}
        defer { ignoring.cancel() }
        var pending = ""
        // Comment lines just typed, which become the help of a define typed next.
        var comments: [String] = []
        while true {
            let result = await self.input.readLine(
                prompt: pending.isEmpty ? prompt : continuationPrompt(for: pending),
                completer: Completer(source: SessionCompletionSource(session: session)))
            switch result {
            case .end:
                if session.output.isTerminal { session.output.write("\n") }
                return 0
            case .interrupted:
                pending = ""
                continue
            case .line(let line):
                pending = pending.isEmpty ? line : pending + "\n" + line
            }
            if Parser.inputState(of: pending) != .complete { continue }
            let input = pending
            pending = ""
            guard input.contains(where: { !$0.isWhitespace }) else {
                comments = []
                continue
            }
            if REPL.mayRemember(input, session: session) { await self.input.addHistory(input) }
            if let lines = REPL.commentLines(input) {
                comments += lines
                continue
            }
            let help = comments
            comments = []
            if await evaluate(input, help: help) { return 0 }
        }
    }

    /// The text of the comment lines `input` consists of (without `#` and one blank after it), or nil when it
    /// holds anything else.
    static func commentLines(_ input: String) -> [String]? {
        var lines: [String] = []
        for line in input.split(separator: "\n", omittingEmptySubsequences: false) {
            var text = line.drop { $0 == " " || $0 == "\t" }
            guard text.first == "#" else { return nil }
            text.removeFirst()
            if text.first == " " { text.removeFirst() }
            lines.append(String(text))
        }
        return lines
    }

    /// False for input that carries a secret (`History.carriesSecret`, with the tokens the session
    /// knows); such input never goes to history, not even this session's.
    static func mayRemember(_ input: String, session: Session) -> Bool {
        !History.carriesSecret(input, secrets: session.secrets)
    }

    /// Parses and runs one input; true when it asked to quit. `help` (comment lines typed just before) is the
    /// help of a `define` the input starts with, unless comments inside the input give it one.
    func evaluate(_ input: String, help: [String] = []) async -> Bool {
        var parsed = Parser.parse(input, options: session.parserOptions)
        if !help.isEmpty, case .define(var define)? = parsed.statements.first, define.help.isEmpty {
            define.help = help
            parsed.statements[0] = .define(define)
        }
        if parsed.hasErrors {
            session.errors.write(
                DiagnosticRenderer(colors: session.settings.color, redact: session.redact).render(
                    parsed.diagnostics, in: parsed.source))
            return false
        }
        session.currentSource = (parsed.source, nil)
        for statement in parsed.statements {
            let (result, interrupted) = await performInterruptibly(statement)
            // SIGTERM or SIGHUP: the statement has stopped as Ctrl-C stops it; the REPL ends.
            if Interrupts.terminationSignal != nil {
                session.errors.write(Interrupts.stopReport)
                return true
            }
            switch result {
            case .success(.quit): return true
            case .success: continue
            case .failure(let error):
                if interrupted {
                    session.errors.write(Interrupts.stopReport)
                } else {
                    let presenter = ErrorPresenter(
                        fileName: nil, source: parsed.source, colors: session.settings.color, redact: session.redact)
                    session.errors.write(presenter.message(for: error, statementSpan: statement.span))
                }
                return false
            }
        }
        return false
    }

    /// Runs `statement` in a task that Ctrl-C cancels (a request in flight stops at once), with
    /// a spinner on a terminal when it takes longer than about 300 ms; then renders the result.
    /// Also says whether Ctrl-C cancelled it.
    func performInterruptibly(_ statement: Statement) async -> (Result<CommandResult, ShellError>, interrupted: Bool) {
        // The session is isolated to the main actor: the statement's task runs its commands there,
        // waiting for the channel off it, while this loop waits for the task.
        let session = self.session
        _ = session.connection?.takeLog()
        let (result, interrupted) = await Interrupts.cancelling(status: session.statusLine) {
            () async -> Result<CommandResult, ShellError> in
            do throws(ShellError) {
                return .success(try await Interpreter.execute(statement, in: session))
            } catch {
                return .failure(error)
            }
        }
        switch result {
        case .success(let value): Interpreter.present(value, in: session)
        case .failure: Interpreter.reportTiming(session)
        }
        return (result, interrupted)
    }
}
