import DeliveryKit
import OCEQCore
import OCEQLanguage

/// `let`: a variable from a value or a statement's result.
package enum LetCommand: Command {
    package static let descriptor = CommandDescriptor(
        name: "let", abstract: "bind a variable to a value or to the result of a statement",
        usage: "let NAME = VALUE | list ... | count ... | first ... | get ...",
        examples: [
            "let kind = OCEGettingStartedArticle", "let home = first type=OCEGettingStartedHomePage",
            "let n = count type=OCEGettingStartedArticle", "let id = @1",
        ],
        discussion: """
            Use the variable as $NAME in any value position. A variable bound to one item (first,
            get) stands for the item's id; one bound to a list cannot be used as a value.
            """
    ).planning(CorePlans.bind)

    package static func run(_ statement: Statement, in session: Session) async throws(ShellError) -> CommandResult {
        guard case .let(let binding) = statement else { throw .usage("let NAME = VALUE", span: nil) }
        switch binding.binding {
        case .value(let value):
            do {
                session.variables[binding.name] = .text(try session.compiler.resolve(value))
            } catch {
                throw .diagnostics(error)
            }
        case .statement(let inner):
            let result = try await Interpreter.execute(inner, in: session)
            switch result {
            case .items(let listing):
                if case .select(let select) = inner, select.verb == .first {
                    guard let item = listing.items.first else {
                        throw .usage("no item matches, so $\(binding.name) is not set", span: inner.span)
                    }
                    session.variables[binding.name] = .item(item)
                } else {
                    session.variables[binding.name] = .listing(listing)
                }
            case .item(let asset): session.variables[binding.name] = .item(asset)
            case .count(let count): session.variables[binding.name] = .text(String(count))
            case .text(let text): session.variables[binding.name] = .text(text)
            // The grammar binds only list, count, first and get; other results cannot arrive here.
            case .none, .quit, .table, .document, .screen:
                throw .usage("that statement has no result to bind", span: inner.span)
            }
        }
        return .none
    }
}
