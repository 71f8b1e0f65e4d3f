// What the core commands send, for `explain`: a select statement sends its compiled query, `get`
// its item read, `let` what its statement sends; the others send nothing. Each plan is built by
// the code the command runs with (`SelectRunner.compile`, `compileGet`), so the two agree.

import DeliveryKit
import OCEQCore
import OCEQLanguage

/// The planners of the core commands, and the plan of any statement.
@MainActor
package enum CorePlans {
    /// `list`, `count`, `first`: the compiled query.
    static func select(_ statement: Statement, in session: Session) throws(ShellError) -> CommandPlan {
        guard case .select(let select) = statement else { throw .usage("expected conditions", span: nil) }
        let query = try SelectRunner.compile(select, in: session)
        let purpose: String
        switch query.kind {
        case .list: purpose = "the matching items, one page"
        case .count: purpose = "the number of matching items (totalResults)"
        case .first: purpose = "the matching items, of which the first is shown"
        }
        return .requests([PlannedRequest(purpose, query.request())])
    }

    /// `get`: the item read whole.
    static func get(_ statement: Statement, in session: Session) throws(ShellError) -> CommandPlan {
        guard case .command(let command) = statement else { throw .usage("get takes an item", span: nil) }
        do {
            return .requests([PlannedRequest("the item read whole", try session.compiler.compileGet(command).request())]
            )
        } catch {
            throw .diagnostics(error)
        }
    }

    /// `let`: nothing for a value; what its statement sends otherwise.
    static func bind(_ statement: Statement, in session: Session) throws(ShellError) -> CommandPlan {
        guard case .let(let binding) = statement, case .statement(let inner) = binding.binding else {
            return .noRequest("it binds a value")
        }
        return try plan(inner, in: session)
    }

    /// The plan of any statement: its command's planner, or `unknown` when it has none.
    package static func plan(_ statement: Statement, in session: Session) throws(ShellError) -> CommandPlan {
        if case .command(let command) = statement, session.registry.userCommand(named: command.name) != nil {
            return .unknown("'\(command.name)' is a user command: explain the statements it runs")
        }
        guard let planner = session.registry.descriptor(named: statement.commandName)?.plan else {
            return .unknown("'\(statement.commandName)' does not declare the requests it sends")
        }
        return withCatalog(try planner(statement, session), for: statement, in: session)
    }

    /// `plan` with the read of the channel's catalog first when checking `statement` needs it and the
    /// session has not read it yet (`Session.prepareCatalog` sends it before the statement runs); a
    /// planner that reads the catalog itself (`types`, `fields`) then finds it read.
    static func withCatalog(_ plan: CommandPlan, for statement: Statement, in session: Session) -> CommandPlan {
        guard !statement.selects.filter(\.checksNames).isEmpty, let catalog = session.plannedCatalogRead else {
            return plan
        }
        let note =
            "the catalog is read once a session; without one, a sample of the items is read instead, and a "
            + "name compared with a reference field is looked up among that type's items"
        switch plan {
        case .requests(let requests, let notes):
            return .requests([catalog] + requests.filter { !$0.readsCatalog }, notes: notes + [note])
        case .noRequest: return .requests([catalog], notes: [note])
        case .unknown: return plan
        }
    }
}
