// The one error funnel: any error becomes text on stderr and, when it ends the program, an exit code.
//
// - Errors of a statement: diagnostics and usage errors with a span are drawn like the Swift
//   compiler's (the line and a caret, by DiagnosticRenderer); other errors are one line,
//   `FILE:LINE:COL: error: ...` in a file and `error: ...` in the REPL. The source line shown is
//   redacted as the session's sinks will redact it, so that the caret stays under the right text.
// - Errors of a program (`oceq`, `oceq serve`), outside any statement: one line prefixed with the
//   command as the user typed it, `oceq: ...` or `oceq serve: ...` (the style of `git`, `swift
//   build`: a tool's name, then a lower-case message); the usage follows a usage error. Exit codes
//   (DESIGN §5): 2 for usage errors, 1 for any other failure, 70 for a program that cannot be
//   assembled (two modules claiming one command: a bug, not a user's mistake); 0 and 130 (interrupted)
//   are decided where the run ends.
//
// Every message is cleaned of control characters (server text can end up in it).

import OCEQCore
import OCEQLanguage

/// Turns errors into text.
package struct ErrorPresenter {
    /// The file being run; nil for interactive input.
    package var fileName: String?
    /// The text the statement came from.
    package var source: SourceText

    /// Whether to colour the messages.
    package var colors: Bool
    /// Hides secrets in the source line shown (see `DiagnosticRenderer.redact`).
    package var redact: (@Sendable (String) -> String)?

    /// A presenter for statements of `source` (from `fileName`, if a file), hiding secrets in the
    /// source lines it shows with `redact`.
    package init(
        fileName: String?, source: SourceText, colors: Bool = false, redact: (@Sendable (String) -> String)? = nil
    ) {
        self.fileName = fileName
        self.source = source
        self.colors = colors
        self.redact = redact
    }

    /// The exit code a script ends with when a statement fails with `error` and stops it: 2 when a
    /// nested script stopped for a usage or syntax error, 1 otherwise.
    package static func exitCode(for error: ShellError) -> Int32 {
        if case .alreadyReported(ScriptRunner.ExitCode.usage) = error { return ScriptRunner.ExitCode.usage }
        return ScriptRunner.ExitCode.failure
    }

    /// The message for `error` raised by the statement at `span`.
    package func message(for error: ShellError, statementSpan: SourceSpan) -> String {
        let renderer = DiagnosticRenderer(fileName: fileName, colors: colors, redact: redact)
        switch error {
        case .diagnostics(let diagnostics):
            return renderer.render(diagnostics.diagnostics, in: source)
        case .usage(let message, let span?):
            let location = source.location(of: span.start)
            return renderer.header(.error, TerminalText.clean(message), at: location) + "\n"
                + renderer.excerpt(span, in: source)
        case .alreadyReported:
            return ""
        default:
            let location = source.location(of: statementSpan.start)
            return renderer.header(.error, TerminalText.clean(error.description), at: location) + "\n"
        }
    }
}

extension ErrorPresenter {
    /// The exit code and stderr text for an error that ends a program.
    package struct ProgramFailure: Equatable, Sendable {
        /// The text for stderr (whole lines).
        package var text: String
        /// The exit code.
        package var code: Int32
    }

    /// How `error` ends `program` (`oceq`, `oceq serve`): the one line (plus `usage` after a usage
    /// error, when given) and the exit code.
    package static func programFailure(_ error: any Error, program: String, usage: String? = nil) -> ProgramFailure {
        switch error {
        case let error as UsageError:
            return ProgramFailure(
                text: "\(program): \(TerminalText.clean(error.message))\n" + (usage.map { $0 + "\n" } ?? ""),
                code: ScriptRunner.ExitCode.usage)
        case ShellError.usage(let message, _):
            return ProgramFailure(
                text: "\(program): \(TerminalText.clean(message))\n", code: ScriptRunner.ExitCode.usage)
        case let error as DuplicateCommandError:
            return ProgramFailure(text: "\(program): \(error)\n", code: 70)
        case let error as LibraryUnavailable:
            return ProgramFailure(text: "\(program): \(error)\n", code: LibraryUnavailable.exitCode)
        default:
            return ProgramFailure(
                text: "\(program): \(TerminalText.clean(String(describing: error)))\n",
                code: ScriptRunner.ExitCode.failure)
        }
    }

    /// Writes how `error` ends `program` to `errors` and returns the exit code.
    package static func reportProgramFailure(
        _ error: any Error, program: String, usage: String? = nil, to errors: any OutputSink
    ) -> Int32 {
        let failure = programFailure(error, program: program, usage: usage)
        errors.write(failure.text)
        return failure.code
    }

    /// A warning of `program` that does not stop it: `PROGRAM: warning: MESSAGE`.
    package static func programWarning(_ message: String, program: String) -> String {
        "\(program): warning: \(TerminalText.clean(message))\n"
    }
}
