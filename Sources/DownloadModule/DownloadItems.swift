// The items a `download` goes through, handed out one at a time, each id once. A selection's
// pages are read with their items unbuilt (`DeliveryClient.fetchDeferred`): each item is read in
// place when the download pool asks for one more file (`DownloadItem.reading`: what the plan needs,
// nothing else built), so the first files transfer while the rest of the page is still to be read.
// Only the first page is read before the folder is touched (a selection that matched nothing makes
// no folder; a refused query fails before anything is written); each next page is asked for as
// soon as the one before it arrives (`DeferredPages`).
//
// A listing that fails part-way (a later page refused or cut short, an item malformed or of the
// wrong shape) ends the items there: the files already under way finish and are recorded as
// usual, and the command then fails with the listing's error (`failure`).
//
// A hit that came without its `fields` (OCM leaves them out of the hits of a query pinning no one
// type) is read whole before it is handed out when it is a digital asset; the reads of the next few
// such hits of the page go out with it (`readsAhead` at once), so a slow server's round trips overlap.

import DeliveryKit
import DeliveryTransport
import OCEQCore
import OCEQLanguage
import OCEQShell

/// The items of a download's TARGET, one at a time. Used by one task at a time: the command, then
/// the download pool's loop (off the main actor) while it runs, then the command again.
final class DownloadItems: @unchecked Sendable {
    /// Items read already (one item, a `$var`'s rows), handed out first.
    private let held: [DownloadItem]
    private var heldPosition = 0
    /// The selection's page being handed out, and the pages after it (nil when there are none).
    private var page: DeferredPage<DownloadItem>?
    private var position = 0
    private var pages: DeferredPages<ListAssets, DownloadItem>?
    private var seen: Set<String> = []
    /// Reads an asset whole when its hit came without `fields` (OCM leaves them out of the hits of a
    /// query that does not pin one type); nil for held items, which are whole already.
    private var client: DeliveryClient?
    /// The hits of the current page built ahead of their turn, and the reads under way for those that
    /// need one, by position in the page.
    private var builtAhead: [Int: DownloadItem] = [:]
    private var reads: [Int: Task<Result<DownloadItem, DeliveryError>, Never>] = [:]
    /// How many hits ahead of the one handed out are read at once.
    static let readsAhead = 8
    /// Items handed out so far.
    private(set) var count = 0
    /// Items the pages read so far hold, besides the held ones (repeated ids included).
    private(set) var listed = 0
    /// Why the selection's listing ended early, if it did.
    private(set) var failure: DeliveryError?

    /// `items`, handed out in order.
    init(_ items: [Asset]) {
        held = items.map(DownloadItem.init)
    }

    private init(
        first: DeferredPage<DownloadItem>, pages: DeferredPages<ListAssets, DownloadItem>?, client: DeliveryClient
    ) {
        held = []
        page = first
        self.pages = pages
        self.client = client
        listed = first.count
    }

    /// The items of a parenthesised select, its first page read: read with every field but those a
    /// download never reads (`DownloadTargets.unreadMembers`), page after page for a list without a
    /// limit. A refused or failed first page throws, as the select would.
    @MainActor
    static func selection(
        _ select: SelectStatement, at span: SourceSpan, in session: Session
    ) async throws(ShellError) -> DownloadItems {
        let (query, client, request, paged) = try DownloadTargets.selectionRead(select, at: span, in: session)
        do {
            if paged {
                var pages = client.deferredPages(request, element: DownloadItem.reading)
                guard let first = try await pages.next() else { return DownloadItems([]) }
                return DownloadItems(first: first, pages: pages, client: client)
            }
            return DownloadItems(
                first: try await client.fetchDeferred(request, element: DownloadItem.reading), pages: nil,
                client: client)
        } catch {
            throw QueryRefusal.error(error, select: select, query: query, in: session)
        }
    }

    /// Items listed or held and not handed out yet (repeated ids included; later pages not counted).
    var remaining: Int { held.count - heldPosition + (page?.count ?? 0) - position }

    /// True when there is no item at all (before any is handed out).
    var isEmpty: Bool { held.isEmpty && (page?.count ?? 0) == 0 }

    /// The next item not handed out before, or nil at the end (or when the listing failed: `failure`).
    func next() async -> DownloadItem? {
        while true {
            let item: DownloadItem
            if heldPosition < held.count {
                item = held[heldPosition]
                heldPosition += 1
            } else if let page, position < page.count {
                do {
                    item = try await whole(at: position, of: page)
                } catch {
                    stop(error)
                    return nil
                }
                position += 1
            } else if var rest = pages {
                do {
                    guard let following = try await rest.next() else {
                        pages = nil
                        continue
                    }
                    pages = rest
                    page = following
                    position = 0
                    builtAhead = [:]
                    reads = [:]
                    listed += following.count
                } catch {
                    stop(error)
                    return nil
                }
                continue
            } else {
                return nil
            }
            guard seen.insert(item.id).inserted else { continue }
            count += 1
            return item
        }
    }

    /// The hit at `position` of `page`, or the item read whole when it is a digital asset whose hit has
    /// no `fields` (a content item gives no file either way, so it is not read); starts the reads of the
    /// next `readsAhead` hits that need one.
    private func whole(
        at position: Int, of page: DeferredPage<DownloadItem>
    ) async throws(DeliveryError) -> DownloadItem {
        let hit: DownloadItem
        if let built = builtAhead.removeValue(forKey: position) { hit = built } else { hit = try page.item(position) }
        guard Self.needsRead(hit), let client else { return hit }
        let end = min(page.count, position + Self.readsAhead + 1)
        for ahead in position..<end where reads[ahead] == nil {
            let item: DownloadItem
            if ahead == position {
                item = hit
            } else if let built = builtAhead[ahead] {
                item = built
            } else {
                // A hit that cannot be built stops the reading ahead; its own turn reports it.
                guard let built = try? page.item(ahead) else { break }
                item = built
                builtAhead[ahead] = item
            }
            guard Self.needsRead(item) else { continue }
            let id = item.id
            reads[ahead] = Task {
                do throws(DeliveryError) {
                    return .success(DownloadItem(try await client.fetch(DeliveryAPI.readAsset(id: id))))
                } catch {
                    return .failure(error)
                }
            }
        }
        guard let read = reads.removeValue(forKey: position) else { return hit }
        return try await read.value.get()
    }

    /// A digital asset whose hit came without its fields.
    static func needsRead(_ hit: DownloadItem) -> Bool {
        !hit.hasFields && (hit.isDigitalAsset || hit.id.hasPrefix("CONT"))
    }

    /// Ends the listing at `error`.
    private func stop(_ error: DeliveryError) {
        failure = error
        page = nil
        position = 0
        pages = nil
        for read in reads.values { read.cancel() }
        reads = [:]
        builtAhead = [:]
    }
}
