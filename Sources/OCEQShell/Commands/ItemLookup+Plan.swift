// The requests `ItemLookup` sends to read the item an argument names, for the commands' plans:
// a parenthesised select is sent first (two items asked, to see that it names one), then the item
// is read whole; any other argument is read as `get` reads it.

import DeliveryKit
import OCEQCore
import OCEQLanguage

extension ItemLookup {
    /// The requests that read the item `argument` names (as `read` then `fetch` send them), and the
    /// id it is read by (a placeholder when only the selection's answer gives it).
    package static func plan(
        _ argument: CommandArgument, of command: CommandStatement, in session: Session
    ) throws(ShellError) -> (requests: [PlannedRequest], id: String) {
        if case .selection(let select) = argument.kind {
            let query = try session.compile(select)
            guard query.kind != .count else {
                throw .usage("a count selects no item; use first or list", span: argument.span)
            }
            let id = PlanValue.fromAnswer("item.id")
            return (
                [
                    PlannedRequest("the selection, to find its one item", selectionRequest(query)),
                    PlannedRequest("the item read whole", CompiledRead(target: .id(id)).request()),
                ], id
            )
        }
        let single = CommandStatement(
            name: command.name, arguments: [argument], span: command.span, nameSpan: command.nameSpan)
        let read: CompiledRead
        do {
            read = try session.compiler.compileGet(single)
        } catch {
            throw .diagnostics(error)
        }
        let id: String
        switch read.target {
        case .id(let text): id = text
        case .slug: id = PlanValue.fromAnswer("item.id")
        }
        return ([PlannedRequest("the item read whole", read.request())], id)
    }

    /// The request `selected` sends for `query`: two items, to tell one from several.
    static func selectionRequest(_ query: CompiledQuery) -> ListAssets { query.request().limit(2) }
}
