// What `mirror` sends, for `explain`: the listing (every item, or the selection's) a page at a
// time, the items a selection refers to, the language variation sets, and the native files not
// complete on disk; built by the builders `MirrorRun` runs with.

import DeliveryKit
import OCEQCore
import OCEQLanguage
import OCEQShell

/// The planner of `mirror`.
@MainActor
enum MirrorPlan {
    /// The requests of `mirror DIR [(list ...)|(first ...)]`.
    static func plan(_ statement: Statement, in session: Session) throws(ShellError) -> CommandPlan {
        let (_, request, selected, maximumItems, first) = try MirrorCommand.arguments(statement, in: session)
        let pageSize = min(DeliveryAPI.defaultLimit, maximumItems ?? Int.max)
        var requests: [PlannedRequest] = []
        if first != nil {
            requests.append(
                PlannedRequest("whether the first matches an item (none: an error, nothing written)", request.limit(1)))
        }
        requests += [
            PlannedRequest(
                selected ? "the selected items, with every field" : "every item of the channel, with every field",
                MirrorRun.listRequest(request, pageSize: max(pageSize, 1)),
                repeats: "once per page until the list ends")
        ]
        if selected {
            requests.append(
                PlannedRequest(
                    "an item the mirrored ones refer to, read whole",
                    DeliveryAPI.readAsset(id: PlanValue.fromAnswer("reference.id")),
                    repeats: "for each referenced item not selected"))
        }
        requests.append(
            PlannedRequest(
                "the item's language variation set",
                DeliveryAPI.listVariations(id: PlanValue.fromAnswer("item.id"), type: "language"),
                repeats: "for each item no set read already covers"))
        requests.append(
            PlannedRequest(
                "the asset's native file", download: DeliveryAPI.downloadNative(id: PlanValue.fromAnswer("asset.id")),
                repeats: "for each digital asset whose file is not complete in the folder"))
        return .requests(requests)
    }
}
