import FoundationEssentials
import OCEQCore
import OCEQLanguage

/// `source`: run a script file in this session.
package enum SourceCommand: Command {
    package static let descriptor = CommandDescriptor(
        name: "source", abstract: "run the statements of a file in this session (variables and rows carry over)",
        usage: "source FILE", examples: ["source Scripts/blog-tour.oceq", "source \"my script.oceq\""],
        discussion: "A relative path is taken from the folder of the script that sources it. At most 16 deep."
    ).taking(1...1).planning { _, _ in
        .unknown("it runs the statements of a file, which depend on each other; explain them one at a time")
    }

    /// How deep `source` may nest.
    package static let maximumDepth = 16

    package static func run(_ statement: Statement, in session: Session) async throws(ShellError) -> CommandResult {
        guard case .command(let command) = statement, command.arguments.count == 1,
            let argument = command.arguments.first
        else {
            let span: SourceSpan? =
                if case .command(let command) = statement {
                    command.arguments.count > 1 ? command.arguments[1].span : .at(command.nameSpan.end)
                } else { nil }
            throw .usage("source takes one file name", span: span)
        }
        guard let name = try session.text(of: argument) else {
            throw .usage("source takes a file name", span: argument.span)
        }
        guard session.sourceDepth < maximumDepth else {
            throw .usage(
                "source nests deeper than \(maximumDepth) files; is a script sourcing itself?", span: argument.span)
        }
        let path = XDGPaths.resolve(name, in: session.baseDirectory)
        guard FileManager.default.isReadableFile(atPath: path) else {
            throw .usage("cannot read \(name)" + (name == path ? "" : " (\(path))"), span: argument.span)
        }
        let code = await ScriptRunner.runFile(path: path, displayName: name, in: session)
        switch code {
        case ScriptRunner.ExitCode.success: return .none
        case ScriptRunner.ExitCode.quit: return .quit
        default: throw .alreadyReported(code)
        }
    }
}
