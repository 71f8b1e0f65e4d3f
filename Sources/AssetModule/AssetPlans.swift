// What the asset commands send, for `explain`: the item read as `ItemLookup` reads it, then what
// the command reads or downloads after it, built by the same builders the commands run with.

import DeliveryKit
import OCEQCore
import OCEQLanguage
import OCEQShell

/// The planners of the asset commands.
@MainActor
enum AssetPlans {
    /// `show`, `fields`, `renditions`: the item read whole.
    static func item(_ statement: Statement, in session: Session) throws(ShellError) -> CommandPlan {
        let command = try ItemLookup.command(statement, usage: "COMMAND ITEM")
        let options = try ItemLookup.options(command.arguments, allowed: ["--raw"])
        let argument = try ItemLookup.itemArgument(options.rest, of: command, usage: command.name + " ITEM", limit: 2)
        return .requests(try ItemLookup.plan(argument, of: command, in: session).requests)
    }

    /// `fields ITEM`: the item read whole, then the channel's catalog for the declared data types
    /// (once a session).
    static func fields(_ statement: Statement, in session: Session) throws(ShellError) -> CommandPlan {
        let item = try item(statement, in: session).requests
        return .requests(item + (session.plannedCatalogRead.map { [$0] } ?? []))
    }

    /// `field ITEM PATH`: the item, then each item a reference on the path leads to.
    static func field(_ statement: Statement, in session: Session) throws(ShellError) -> CommandPlan {
        let command = try ItemLookup.command(statement, usage: FieldCommand.descriptor.usage)
        let options = try ItemLookup.options(command.arguments, allowed: ["--raw"])
        let argument = try ItemLookup.itemArgument(
            options.rest, of: command, usage: FieldCommand.descriptor.usage, limit: 2)
        var requests = try ItemLookup.plan(argument, of: command, in: session).requests
        let path = options.rest.count > 1 ? try ItemLookup.text(options.rest[1], in: session) ?? "" : ""
        if path.contains(".") {
            requests.append(
                PlannedRequest(
                    "the item a reference on the path refers to, read whole",
                    CompiledRead(target: .id(PlanValue.fromAnswer("reference.id"))).request(),
                    repeats: "for each reference the path follows"))
        }
        return .requests(requests)
    }

    /// `preview ITEM [rendition NAME]`: the item, then its native file or rendition where it is drawn.
    static func preview(_ statement: Statement, in session: Session) throws(ShellError) -> CommandPlan {
        let command = try ItemLookup.command(statement, usage: PreviewCommand.descriptor.usage)
        let argument = try ItemLookup.itemArgument(
            command.arguments, of: command, usage: PreviewCommand.descriptor.usage, limit: 3)
        let (requests, id) = try ItemLookup.plan(argument, of: command, in: session)
        guard session.imageStyle != nil else {
            return .requests(requests, notes: ["images are not drawn here, so the image is not fetched"])
        }
        if command.arguments.count == 3, let name = try ItemLookup.text(command.arguments[2], in: session) {
            let rendition = DeliveryAPI.downloadRendition(
                id: id, renditionName: name, format: PlanValue.fromAnswer("format"))
            return .requests(requests + [PlannedRequest("the rendition, drawn", download: rendition)])
        }
        return .requests(
            requests + [PlannedRequest("the native file, drawn", download: DeliveryAPI.downloadNative(id: id))])
    }

    /// `types`: the channel's catalog (once a session), then a count of each type.
    static func types(_ statement: Statement, in session: Session) throws(ShellError) -> CommandPlan {
        let command = try ItemLookup.command(statement, usage: "types")
        if let extra = command.arguments.first { throw .usage("types takes no arguments", span: extra.span) }
        let count = PlannedRequest(
            "the number of items of the type", try TypesCommand.countRequest(PlanValue.fromAnswer("type")),
            repeats: "for each type")
        return .requests((session.plannedCatalogRead.map { [$0] } ?? []) + [count])
    }

    /// `taxonomies`: every taxonomy.
    static func taxonomies(_ statement: Statement, in session: Session) throws(ShellError) -> CommandPlan {
        let command = try ItemLookup.command(statement, usage: "taxonomies")
        if let extra = command.arguments.first { throw .usage("taxonomies takes no arguments", span: extra.span) }
        return .requests([allTaxonomies])
    }

    /// `categories TAXONOMY`: every taxonomy (to find it), then its categories.
    static func categories(_ statement: Statement, in session: Session) throws(ShellError) -> CommandPlan {
        let command = try ItemLookup.command(statement, usage: CategoriesCommand.descriptor.usage)
        guard command.arguments.count == 1 else {
            throw .usage("categories takes a taxonomy: \(CategoriesCommand.descriptor.usage)", span: nil)
        }
        let categories = CategoriesCommand.request(taxonomyId: PlanValue.fromAnswer("taxonomy.id"))
        return .requests([
            allTaxonomies,
            PlannedRequest(
                "the taxonomy's categories", categories,
                repeats: "once per page of \(DeliveryAPI.defaultLimit) until the list ends"),
        ])
    }

    /// The request of `TaxonomiesCommand.all`, a page at a time.
    static var allTaxonomies: PlannedRequest {
        PlannedRequest(
            "every taxonomy", DeliveryAPI.listTaxonomies(),
            repeats: "once per page of \(DeliveryAPI.defaultLimit) until the list ends")
    }
}
