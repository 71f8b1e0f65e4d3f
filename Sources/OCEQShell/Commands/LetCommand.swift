import DeliveryKit
import OCEQCore
import OCEQLanguage

/// `let`: a variable from a value or a statement's result.
public enum LetCommand: Command {
    public static let descriptor = CommandDescriptor(
        name: "let", abstract: "bind a variable to a value or to the result of a statement",
        usage: "let NAME = VALUE | list ... | count ... | first ... | get ...",
        examples: [
            "let kind = OCEGettingStartedArticle", "let home = first type=OCEGettingStartedHomePage",
            "let n = count type=OCEGettingStartedArticle", "let id = @1",
        ],
        discussion: """
            Use the variable as $NAME in any value position. A variable bound to one item (first,
            get) stands for the item's id; one bound to a list cannot be used as a value.
            """)

    public static func run(_ statement: Statement, in session: Session) async throws(ShellError) -> CommandResult {
        guard case .let(let binding) = statement else { throw .usage("let NAME = VALUE", span: nil) }
        switch binding.binding {
        case .value(let value):
            do {
                session.variables[binding.name] = .text(try session.compiler.resolve(value))
            } catch {
                throw .diagnostics(error)
            }
        case .statement(let inner):
            try bind(binding.name, to: try await Interpreter.execute(inner, in: session), of: inner, in: session)
        }
        return .none
    }

    /// Binds `name` to what `inner` returned: a screen binds the data it shows.
    static func bind(
        _ name: String, to result: CommandResult, of inner: Statement, in session: Session
    ) throws(ShellError) {
        switch result {
        case .screen(_, let data): try bind(name, to: data, of: inner, in: session)
        case .items(let listing):
            if case .select(let select) = inner, select.verb == .first {
                guard let item = listing.items.first else {
                    throw .usage("no item matches, so $\(name) is not set", span: inner.span)
                }
                session.variables[name] = .item(item)
            } else {
                session.variables[name] = .listing(listing)
            }
        case .item(let asset): session.variables[name] = .item(asset)
        case .count(let count): session.variables[name] = .text(String(count))
        case .text(let text): session.variables[name] = .text(text)
        case .document(let value) where value.stringValue != nil || value.intValue != nil:
            session.variables[name] = .text(value.stringValue ?? ItemColumns.text(of: value))
        case .document, .table:
            throw .usage("that statement's result is a table or a document, not a value to bind", span: inner.span)
        case .none, .quit: throw .usage("that statement has no result to bind", span: inner.span)
        }
    }
}
