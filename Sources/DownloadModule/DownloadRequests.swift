// What `download` sends, for `explain`: the items (one item read whole, a $var's rows read again
// when held without their fields, or a selection read with every field, page after page when it
// has no limit), then one request per file, built as `DownloadPlan.source` builds it. A file the
// folder's manifest records is asked for again with If-None-Match (same URL).

import DeliveryKit
import OCEQCore
import OCEQLanguage
import OCEQShell

/// The planner of `download`.
@MainActor
enum DownloadRequests {
    /// The requests of a `download` statement.
    static func plan(_ statement: Statement, in session: Session) throws(ShellError) -> CommandPlan {
        let command = try ItemLookup.command(statement, usage: DownloadCommand.descriptor.usage)
        let arguments = try DownloadArguments(command, usage: DownloadCommand.descriptor.usage, in: session)
        let target = arguments.target
        var requests: [PlannedRequest] = []
        var id = PlanValue.fromAnswer("item.id")
        var each: String? = "for each selected digital asset"
        switch target.kind {
        case .selection(let select):
            let query = try session.compile(select)
            let (request, paged) = try DownloadTargets.selectionRequest(query, at: target.span)
            requests.append(
                PlannedRequest(
                    "the selected items, with every field", request,
                    repeats: paged ? "once per page of \(DeliveryAPI.maximumLimit) until the list ends" : nil))
            // A search that pins no one type comes back without custom fields (OCM's way): each asset
            // of it is read whole for its renditions and size.
            if query.filter?.pinnedType == nil {
                requests.append(
                    PlannedRequest(
                        "the asset read whole (a search over several types leaves out its fields)",
                        CompiledRead(target: .id(id)).request(),
                        repeats: "for each selected digital asset that came without its fields"))
            }
        case .value(let value):
            if case .variable(let name) = value.kind, case .listing(let listing)? = session.variables[name] {
                if listing.items.contains(where: { $0.fields == nil }) {
                    requests.append(
                        PlannedRequest(
                            "the row read whole", CompiledRead(target: .id(id)).request(),
                            repeats: "for each row of $\(name) held without its fields"))
                }
                each = "for each digital asset of $\(name)"
            } else {
                (requests, id) = try ItemLookup.plan(target, of: command, in: session)
                each = nil
            }
        default:
            (requests, id) = try ItemLookup.plan(target, of: command, in: session)
            each = nil
        }
        let file: PlannedRequest
        switch arguments.kind {
        case .native:
            file = PlannedRequest("the native file", download: DeliveryAPI.downloadNative(id: id), repeats: each)
        case .thumbnail:
            file = PlannedRequest(
                "the thumbnail (an advanced video's is /Thumbnail?format=jpg&type=advancedvideo)",
                download: DeliveryAPI.downloadThumbnail(id: id, fileGroup: "Images"), repeats: each)
        case .rendition(let name, let format):
            let rendition = DeliveryAPI.downloadRendition(
                id: id, renditionName: name, format: format ?? PlanValue.fromAnswer("format"),
                type: PlanValue.fromAnswer("rendition.type"))
            file = PlannedRequest("the rendition \(name)", download: rendition, repeats: each)
        }
        requests.append(file)
        return .requests(
            requests,
            notes: [
                "a file the folder's manifest records is asked for with If-None-Match, and kept when unchanged"
            ])
    }
}
