// One mirror run, in five steps: (1) list the selection page by page with `fields=all` and write
// each item file (only when its bytes change; a hit that came without its fields, as OCM sends the
// hits of a query pinning no one type, is read whole first); a selection then also reads the items
// it refers to, and a complete listing of the whole channel removes the items it no longer has;
// (2) fetch the items' language variation sets; (3) fetch the native files not complete on disk yet;
// (4) fetch the taxonomies and their categories; (5) write the export's index files from the item
// files on disk (so a selection mirrored into an existing mirror adds to it). A failure of one item
// or file is counted and reported, never fatal; the run goes on and says what failed at the end.

import DeliveryKit
import DeliveryTransport
import OCEQCore
import OCEQShell

/// Mirrors a selection of a channel into a `MirrorTarget`.
struct MirrorRun {
    var client: DeliveryClient
    var target: MirrorTarget
    /// The list request (its `fields` is set to `all` here).
    var request: ListAssets
    /// What `channel.json` calls the channel.
    var channelName: String
    /// Shows progress (on a terminal only), or nil.
    var progress: ProgressLine?
    /// True for the whole channel: item files no longer on it are removed after a complete listing.
    var isFullChannel = false
    /// The most items the selection takes (its `limit`, 1 for `first`), or nil for every match.
    var maximumItems: Int?

    func run() async -> MirrorSummary {
        let started = ContinuousClock.now
        var state = MirrorState(summary: MirrorSummary(target: target.root))
        state.collectsReferences = !isFullChannel
        let converter = ExportItemConverter(sourceOrigin: Self.stableOrigin(client.configuration.server))

        // 1. The items.
        let listingComplete = await list(into: &state, converter: converter)
        if isFullChannel {
            // Only after a complete listing; an item whose file could not be written keeps its old one.
            if listingComplete {
                var keep = Set(state.written.map { $0.known.type + "/" + $0.id })
                keep.formUnion(state.summary.skippedFiles)
                state.summary.itemsRemoved = target.removeItems(except: keep)
            }
        } else {
            await addReferences(into: &state, converter: converter)
        }

        // 2. The language variation sets, 3. the native files not yet complete on disk (skipped
        // after Ctrl-C in the REPL; what is on disk still gets its index files).
        if !Task.isCancelled {
            progress?.show("variation sets")
            let variations = await VariationSetFetcher(client: client, target: target).run(state.written)
            state.summary.failures += variations.failures
        }
        if !Task.isCancelled {
            await NativeFetcher(client: client, target: target, progress: progress).run(
                state.natives, summary: &state.summary)
        }
        // The taxonomies the items' categories belong to (every published one: they are few).
        if !Task.isCancelled {
            progress?.show("taxonomies")
            let taxonomies = await TaxonomyFetcher(client: client, target: target).run(removingOthers: isFullChannel)
            state.summary.taxonomies = taxonomies.written + taxonomies.unchanged
            state.summary.taxonomiesRemoved = taxonomies.removed
            state.summary.failures += taxonomies.failures
        }
        if Task.isCancelled { state.summary.failures.append("interrupted; run it again to go on") }
        // The index files are written from the files on disk: what the run kept per item goes first.
        state.written = []
        state.natives = []

        // 5. Types, metadata.json, Summary.json, the localization policy, the manifest, channel.json.
        do {
            try ExportIndexWriter(target: target, channelName: channelName).write()
        } catch {
            state.summary.failures.append(error.description)
        }
        progress?.finish()
        state.summary.seconds = (ContinuousClock.now - started).seconds
        return state.summary
    }

    /// The listing `run` pages through: `request` with every field, `pageSize` items a page.
    static func listRequest(_ request: ListAssets, pageSize: Int) -> ListAssets {
        request.fields(.all).limit(pageSize)
    }

    /// Lists every page and writes its items; false when the listing stopped early.
    private func list(into state: inout MirrorState, converter: ExportItemConverter) async -> Bool {
        var remaining = maximumItems ?? Int.max
        guard remaining > 0 else { return true }
        let pageSize = min(DeliveryAPI.defaultLimit, remaining)
        var pages = client.pages(MirrorRun.listRequest(request, pageSize: pageSize)).makeAsyncIterator()
        while remaining > 0 {
            let page: Page<Asset>
            do {
                guard let next = try await pages.next() else { return true }
                page = next
            } catch .cancelled {
                return false
            } catch {
                state.summary.failures.append("listing stopped after \(state.summary.itemsSeen) items: \(error)")
                return false
            }
            if Task.isCancelled { return false }
            let hits = Array(page.items.prefix(remaining))
            let wholes = await Self.readWhole(hits.filter { $0.raw["fields"] == nil }, client: client)
            for hit in hits {
                remaining -= 1
                state.summary.itemsSeen += 1
                // OCM leaves `fields` out of the hits of a query that pins no one type: such an item is
                // written as read whole.
                switch hit.raw["fields"] == nil ? wholes[hit.id] : .success(hit) {
                case .success(let item)?:
                    state.accept(item, target: target, converter: converter)
                case .failure(let error)?:
                    state.summary.failures.append("\(hit.id): \(error)")
                    state.summary.skippedFiles.insert(hit.type + "/" + hit.id)
                case nil:
                    continue
                }
            }
            progress?.show("items \(state.summary.itemsSeen)\(page.totalResults.map { "/\($0)" } ?? "")")
        }
        return true
    }

    /// `hits` read whole (`expand=all` brings their taxonomies, as the listing's `fields=all` does), by
    /// id, `maxConcurrent` reads at a time.
    static func readWhole(
        _ hits: [Asset], client: DeliveryClient, maxConcurrent: Int = 8
    ) async -> [String: Result<Asset, DeliveryError>] {
        var out: [String: Result<Asset, DeliveryError>] = [:]
        var pending = hits.map(\.id)[...]
        await withTaskGroup(of: (String, Result<Asset, DeliveryError>).self) { group in
            func start() {
                guard let id = pending.popFirst() else { return }
                group.addTask {
                    do throws(DeliveryError) {
                        return (id, .success(try await client.fetch(DeliveryAPI.readAsset(id: id).expand(.all))))
                    } catch {
                        return (id, .failure(error))
                    }
                }
            }
            for _ in 0..<maxConcurrent { start() }
            for await (id, result) in group {
                out[id] = result
                start()
            }
        }
        return out
    }

    /// Reads and writes the items the written ones refer to, and theirs, so a selection's mirror
    /// has no dangling reference that the channel could resolve.
    private func addReferences(into state: inout MirrorState, converter: ExportItemConverter) async {
        var seen = Set(state.written.map(\.id))
        var pending = state.referenced
        while let id = pending.popLast(), !Task.isCancelled {
            guard seen.insert(id).inserted, SafeName.isValidID(id) else { continue }
            do {
                let asset = try await client.fetch(DeliveryAPI.readAsset(id: id))
                state.summary.referencesAdded += 1
                state.referenced = []
                state.accept(asset, target: target, converter: converter)
                pending += state.referenced.filter { !seen.contains($0) }
            } catch .http(let error) where error.status == 404 {
                continue  // not on the channel: the source has the same dangling reference
            } catch {
                state.summary.failures.append("\(id), referred to by the selection: \(error)")
            }
        }
    }

    /// The server's origin for the native links written; a loopback server (an export served
    /// in-process on a new port each run) is `http://localhost`, so a rerun leaves the files alone.
    static func stableOrigin(_ server: ServerAddress) -> String {
        ["127.0.0.1", "localhost", "::1", "[::1]"].contains(server.host) ? "http://localhost" : server.origin
    }
}

extension Duration {
    /// The duration in seconds.
    var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
