// A command written in oceq. A call binds its arguments (by position or NAME=VALUE) to the
// parameters, resolves them in the caller's variables, and runs the body in a call frame: the body
// sees its parameters and its own `let`s, never the caller's variables, and the caller's come back
// when it ends. Values are bound, never pasted into text, so an argument cannot add syntax. Rows
// (`@n`) are shared, so `read @1` works after a command that lists. Errors inside the body are
// shown at their line in the file that defined the command; calls nest at most `maximumDepth` deep.

import FoundationEssentials
import OCEQLanguage

/// A command defined by a `define` block.
package struct UserCommand: Sendable {
    /// How deep calls may nest (like `source`).
    package static let maximumDepth = 16

    /// The block.
    package var definition: DefineStatement
    /// The text the block was parsed from (its spans index into it).
    package var source: SourceText
    /// The file it came from as shown in messages; nil for the REPL or `-c`.
    package var fileName: String?

    /// A command from `definition`, parsed from `source` of `fileName`.
    package init(definition: DefineStatement, source: SourceText, fileName: String?) {
        self.definition = definition
        self.source = source
        self.fileName = fileName
    }

    /// The command word.
    package var name: String { definition.name }

    /// `FILE:LINE:COL` of the name in the `define` line (`<input>` for the REPL).
    package var place: String {
        let location = source.location(of: definition.nameSpan.start)
        return "\(fileName ?? "<input>"):\(location.line):\(location.column)"
    }

    /// What `help` shows: the comment above the block, the usage from the parameters.
    package var descriptor: CommandDescriptor {
        let abstract =
            definition.help.first { !$0.isEmpty } ?? "(no description: write one as a comment above 'define')"
        var discussion = definition.help.drop { $0 != abstract }.dropFirst().joined(separator: "\n")
        discussion = discussion.trimmedWhitespace
        if !discussion.isEmpty { discussion += "\n\n" }
        discussion += """
            Defined at \(place).
            Give the values in order, or by name (NAME=VALUE) after those; a parameter
            in [brackets] may be left out and takes the default shown.
            """
        return CommandDescriptor(
            name: name, abstract: abstract, usage: definition.usage, examples: [], discussion: discussion)
    }

    /// What `explain` says of a call: where the command is defined and the statements it runs (each
    /// can be explained on its own once its parameters are set with `let`).
    var explanation: String {
        var out = "'\(name)' is a user command (\(place)); a call sets its parameters and runs:\n"
        for statement in definition.body { out += "  " + Printer.text(of: statement) + "\n" }
        return TerminalText.cleanKeepingLines(out)
    }

    /// Runs a call of this command.
    @MainActor
    func run(_ statement: Statement, in session: Session) async throws(ShellError) -> CommandResult {
        guard case .command(let call) = statement else { throw .usage("usage: \(definition.usage)", span: nil) }
        let bound: [(name: String, value: Value)]
        switch definition.bind(call) {
        case .success(let values): bound = values
        case .failure(let error): throw .diagnostics(error)
        }
        var frame: [String: Variable] = [:]
        let compiler = session.compiler
        for (name, value) in bound {
            if case .variable(let variable) = value.kind, let held = session.variables[variable],
                case .item = held
            {
                frame[name] = held
                continue
            }
            do {
                frame[name] = .text(try compiler.resolve(value))
            } catch {
                throw .diagnostics(error)
            }
        }
        guard session.callDepth < UserCommand.maximumDepth else {
            throw .usage(
                "'\(name)' is called more than \(UserCommand.maximumDepth) deep; does it call itself?",
                span: call.nameSpan)
        }
        let saved = (session.variables, session.currentSource)
        session.variables = frame
        session.currentSource = (source, fileName)
        session.callDepth += 1
        defer {
            session.callDepth -= 1
            (session.variables, session.currentSource) = saved
        }
        let presenter = ErrorPresenter(
            fileName: fileName, source: source, colors: session.settings.color, redact: session.redact)
        for inner in definition.body {
            // Ctrl-C in the REPL cancels the task: stop before the next statement.
            if Task.isCancelled { throw .alreadyReported(ScriptRunner.ExitCode.interrupted) }
            do {
                if case .quit = try await Interpreter.perform(inner, in: session) { return .quit }
            } catch {
                if case .alreadyReported(let code) = error {
                    if code != ScriptRunner.ExitCode.interrupted { noteCall(call, from: saved.1, in: session) }
                    throw error
                }
                session.errors.write(presenter.message(for: error, statementSpan: inner.span))
                session.callNotes = []
                noteCall(call, from: saved.1, in: session)
                throw .alreadyReported(ScriptRunner.ExitCode.failure)
            }
        }
        return .none
    }

    /// How many calls, innermost first, an error's notes name before they skip to the outermost one.
    static let callsNotedInFull = 3

    /// One call an error passed on its way out: where it was written (nil for a call typed at the
    /// REPL's prompt, which is the line just typed), and how many calls in a row were made there.
    struct CallNote {
        var site: String
        var header: String?
        var excerpt: String
        var times: Int
    }

    /// After an error in the body: `FILE:LINE:COL: note: in the call of 'NAME' here` and the call's line, so
    /// that an error shown at a line of the `define` block says which call it came from. The notes are
    /// gathered on the way out and written at the outermost call: calls in a row at one place (a command
    /// calling itself) are one note ("16 calls deep"); then the innermost `callsNotedInFull` places, how
    /// many calls are left out, and the outermost.
    @MainActor
    private func noteCall(
        _ call: CommandStatement, from caller: (text: SourceText, fileName: String?)?, in session: Session
    ) {
        let outermost = session.callDepth == 1
        let site = "\(caller?.fileName ?? "<input>"):\(call.span.start)"
        if let last = session.callNotes.indices.last, session.callNotes[last].site == site {
            session.callNotes[last].times += 1
        } else {
            var note = CallNote(site: site, header: nil, excerpt: "", times: 1)
            if let caller, caller.fileName != nil || !outermost {
                let renderer = DiagnosticRenderer(
                    fileName: caller.fileName ?? "<input>", colors: session.settings.color, redact: session.redact)
                note.header = renderer.header(
                    .note, "in the call of '\(name)' here", at: caller.text.location(of: call.span.start))
                note.excerpt = renderer.excerpt(call.span, in: caller.text)
            }
            session.callNotes.append(note)
        }
        guard outermost else { return }
        let notes = session.callNotes
        session.callNotes = []
        let shown =
            notes.count <= UserCommand.callsNotedInFull + 1
            ? notes : Array(notes.prefix(UserCommand.callsNotedInFull)) + [notes[notes.count - 1]]
        let skipped = notes.dropFirst(UserCommand.callsNotedInFull).dropLast().reduce(0) { $0 + $1.times }
        for (index, note) in shown.enumerated() {
            if skipped > 0 && index == shown.count - 1 {
                session.errors.write("note: \(skipped) more call\(skipped == 1 ? "" : "s") in between\n")
            }
            guard let header = note.header else { continue }
            let deep = note.times > 1 ? " (\(note.times) calls deep)" : ""
            session.errors.write(header + deep + "\n" + note.excerpt)
        }
    }
}
