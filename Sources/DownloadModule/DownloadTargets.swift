// The items a `download` TARGET names, read whole (with their `fields`, which hold the native
// file's size and the renditions):
//
// - an id, `@n`, `$var` holding an item or an id, `slug:S`: that one item, read by id (a 404 says
//   "no item X in this channel");
// - `$var` holding a listing (`let images = list type=Image`): its rows, each read again when the
//   listing holds only summaries;
// - `(first ...)`: the one item it matches;
// - `(list ...)`: with a `limit`, that many items from its `offset`; without one, every item that
//   matches, fetched 500 at a time (a download is about a whole selection, not the screenful
//   `set limit` gives a listing). Either way the list is asked for `fields=all`. A selection's
//   pages are read by `DownloadItems`, which builds their items one at a time; this file gives
//   their request and sends the first one ahead.

import DeliveryKit
import DeliveryTransport
import OCEQCore
import OCEQLanguage
import OCEQShell

/// Resolving a download's TARGET.
@MainActor
enum DownloadTargets {
    /// The items `argument` names, in order, each once; `single` is true for a one-item form.
    static func items(
        _ argument: CommandArgument, of command: CommandStatement, in session: Session
    ) async throws(ShellError) -> (items: [Asset], single: Bool) {
        switch argument.kind {
        case .value(let value):
            if case .variable(let name) = value.kind, case .listing(let listing)? = session.variables[name] {
                var items: [Asset] = []
                for row in unique(listing.items) {
                    items.append(row.fields == nil ? try await read(id: row.id, at: argument.span, in: session) : row)
                }
                return (items, false)
            }
        default:
            break
        }
        let read = try await ItemLookup.read(argument, of: command, in: session)
        return ([try await ItemLookup.fetch(read, at: argument.span, in: session)], true)
    }

    /// The members a selection's client leaves unread (at any depth) where it builds what it reads: the
    /// rest of a page around its items, and a hit read whole because it came without its fields (the
    /// page's items themselves are read in place, `DownloadItem.reading`, which builds none of these).
    /// A download reads an item's id, name, type, file group and extension, renditions (names, types,
    /// formats) and size (`DownloadPlan.source`). Links and the files' `metadata` (width and height)
    /// were 70% of a page of images; dates, descriptions, slugs, taxonomies, the `native` block and the
    /// media types a third of what was left (callgrind, 74 images).
    static let unreadMembers = [
        "links", "metadata", "createdDate", "updatedDate", "description", "slug", "taxonomies", "translatable",
        "native", "mimeType", "fileType", "language",
    ]

    /// Sends ahead (`CommandAhead`) the first request of a `download (list ...)` or `(first ...)`
    /// statement: its selection (the first page of one without a limit), read as
    /// `DownloadItems.selection` reads it. Nothing for another target, a statement whose arguments are wrong, or a select whose
    /// query the catalog may change (a reference field compared with what may be an item's name).
    static func sendAhead(_ statement: Statement, in session: Session) {
        guard case .command(let command) = statement,
            let arguments = try? DownloadArguments(command, usage: DownloadCommand.descriptor.usage, in: session),
            case .selection(let select) = arguments.target.kind, !select.mayNameItems,
            let read = try? selectionRead(select, at: arguments.target.span, in: session)
        else { return }
        read.client.sendAhead(
            deferring: read.paged ? read.client.pages(read.request).firstPageRequest : read.request,
            element: DownloadItem.reading)
    }

    /// How a selection is read: its query, the client (leaving `unreadMembers` unread), the request
    /// and whether it is paged. `sendAhead` and `DownloadItems.selection` both take it from here, so
    /// the request sent ahead is the one asked for later.
    static func selectionRead(
        _ select: SelectStatement, at span: SourceSpan, in session: Session
    ) throws(ShellError) -> (query: CompiledQuery, client: DeliveryClient, request: ListAssets, paged: Bool) {
        let query = try session.compile(select)
        let client = try session.requireConnection().client.skipping(members: unreadMembers)
        let (request, paged) = try selectionRequest(query, at: span)
        return (query, client, request, paged)
    }

    /// The request a selection is read with (every field, no links), and whether it is paged
    /// through to the end (a list without a limit, 500 items a page). `links=none` is OCM's own
    /// request form (Oracle's Java SDK sends it; a real server's answer empties every `links` array,
    /// rendition formats' included): planning reads no link, and they were 60 % of a page of images.
    static func selectionRequest(
        _ query: CompiledQuery, at span: SourceSpan
    ) throws(ShellError) -> (request: ListAssets, paged: Bool) {
        let request = query.request().fields(.all).links("none")
        switch query.kind {
        case .count: throw .usage("a count selects no items; use list or first", span: span)
        case .first: return (request.limit(1), false)
        case .list where query.limit != nil: return (request, false)
        case .list: return (request.limit(DeliveryAPI.maximumLimit), true)
        }
    }

    /// The item with `id`, read whole.
    static func read(id: String, at span: SourceSpan, in session: Session) async throws(ShellError) -> Asset {
        try await ItemLookup.fetch(CompiledRead(target: .id(id)), at: span, in: session)
    }

    /// `items` without repeated ids, first occurrence kept.
    static func unique(_ items: [Asset]) -> [Asset] {
        var seen: Set<String> = []
        return items.filter { seen.insert($0.id).inserted }
    }
}
