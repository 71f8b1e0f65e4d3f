// One mirror run: list the selection page by page with `fields=all`, write each item file (only
// when its bytes change), fetch the items' language variation sets, collect the native files that are not complete on disk yet, fetch them
// with DeliveryKit's resumable download engine (`.part` files, `Range` + `If-Range`), then write
// the export's index files from the item files on disk (so a selection mirrored into an existing
// mirror adds to it). A failure of one item or file is counted and reported, never fatal; the
// run goes on and says what failed at the end.

import DeliveryKit
import Foundation

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
    /// Native files fetched at once.
    var maxConcurrent = 4

    /// A native file to fetch, or found complete.
    struct NativeFile {
        var id: String
        var folder: String
        var name: String
        var size: Int?
    }

    func run() async -> MirrorSummary {
        let started = ContinuousClock.now
        var summary = MirrorSummary(target: target.root)
        let converter = ExportItemConverter(
            sourceOrigin: Self.stableOrigin(client.configuration.server),
            secrets: client.configuration.redactor.secrets.filter { !$0.isEmpty })
        var natives: [NativeFile] = []
        var known: [(id: String, known: VariationSetFetcher.Known)] = []
        var listingComplete = true
        // Ids the written items refer to.
        var referenced: [String] = []
        func accept(_ asset: Asset) {
            let before = summary.itemsWritten + summary.itemsUnchanged
            if let native = write(asset, converter: converter, summary: &summary, references: &referenced) {
                natives.append(native)
            }
            if summary.itemsWritten + summary.itemsUnchanged > before {
                known.append((asset.id, VariationSetFetcher.Known(type: asset.type, name: asset.name)))
            }
        }

        // 1. The items.
        var pages = client.pages(request.fields(.all).limit(DeliveryAPI.defaultLimit)).makeAsyncIterator()
        while true {
            let page: Page<Asset>
            do {
                guard let next = try await pages.next() else { break }
                page = next
            } catch {
                summary.failures.append("listing stopped after \(summary.itemsSeen) items: \(error)")
                listingComplete = false
                break
            }
            for asset in page.items {
                summary.itemsSeen += 1
                accept(asset)
            }
            progress?.show("items \(summary.itemsSeen)\(page.totalResults.map { "/\($0)" } ?? "")")
        }

        // A selection brings the items it refers to (and theirs), so the mirror is whole.
        if !isFullChannel {
            var seen = Set(known.map(\.id))
            var pending = referenced.filter { !seen.contains($0) }
            while let id = pending.popLast() {
                guard seen.insert(id).inserted, SafeName.isValidID(id) else { continue }
                do {
                    let asset = try await client.fetch(DeliveryAPI.readAsset(id: id))
                    summary.referencesAdded += 1
                    referenced = []
                    accept(asset)
                    pending += referenced.filter { !seen.contains($0) }
                } catch .http(let error) where error.status == 404 {
                    continue  // not on the channel: the source has the same dangling reference
                } catch {
                    summary.failures.append("\(id), referred to by the selection: \(error)")
                }
            }
        }

        // The whole channel was listed: items no longer on it go (a skipped item keeps its old file).
        if isFullChannel && listingComplete {
            var keep = Set(known.map { $0.known.type + "/" + $0.id })
            keep.formUnion(summary.skippedFiles)
            summary.itemsRemoved = target.removeItems(except: keep)
        }

        // 2. The language variation sets.
        progress?.show("variation sets")
        let variations = await VariationSetFetcher(client: client, target: target).run(known)
        summary.failures += variations.failures

        // 3. The native files not yet complete on disk.
        var jobs: [DownloadJob] = []
        for native in natives {
            let path = native.folder + "/" + native.name
            if let existing = Self.fileSize(path), native.size == nil || native.size == existing {
                summary.filesComplete += 1
                continue
            }
            jobs.append(
                DownloadJob(DeliveryAPI.downloadNative(id: native.id), folder: native.folder, name: native.name))
        }
        if !jobs.isEmpty {
            let line = progress
            let results = await client.download(
                jobs, maxConcurrent: maxConcurrent,
                totals: { totals in
                    line?.show(
                        "files \(totals.completed + totals.failed)/\(totals.files), "
                            + MirrorSummary.bytes(totals.bytesReceived))
                })
            for (job, result) in zip(jobs, results) {
                switch result {
                case .success(let done):
                    summary.filesDownloaded += 1
                    summary.bytes += done.bytes - done.resumedFrom
                    Self.removeOthers(in: job.folder, keeping: job.name)
                case .failure(let error):
                    summary.failures.append("\(job.path): \(error)")
                }
            }
        }

        // 4. Types, metadata.json, Summary.json, the localization policy, the manifest, channel.json.
        do {
            try ExportIndexWriter(target: target, channelName: channelName).write()
        } catch {
            summary.failures.append(error.description)
        }
        progress?.finish()
        summary.seconds = (ContinuousClock.now - started).seconds
        return summary
    }

    /// Writes one item's file; the asset's native file to fetch, if any.
    private func write(
        _ asset: Asset, converter: ExportItemConverter, summary: inout MirrorSummary, references: inout [String]
    ) -> NativeFile? {
        let id = asset.id
        guard SafeName.isValidID(id) else {
            summary.skipped.append("an item whose id is not a plain name (\(Self.quoted(id)))")
            return nil
        }
        guard SafeName.isValidTypeName(asset.type) else {
            summary.skipped.append("\(id): its type \(Self.quoted(asset.type)) is not a plain name")
            return nil
        }
        let exported = converter.convert(asset.raw)
        references += ExportItemConverter.referencedIDs(in: exported)
        var bytes = JSONWriter().compactBytes(.object(exported))
        bytes.append(UInt8(ascii: "\n"))
        do {
            if try target.write(bytes, to: target.itemFile(type: asset.type, id: id)) {
                summary.itemsWritten += 1
            } else {
                summary.itemsUnchanged += 1
            }
        } catch {
            summary.failures.append(error.description)
            summary.skippedFiles.insert(asset.type + "/" + id)
            return nil
        }
        guard exported["typeCategory"]?.stringValue == ExportItemConverter.typeCategoryAsset else { return nil }
        let name = SafeName.fileName(asset.name, id: id, fileExtension: exported["fileExtension"]?.stringValue)
        return NativeFile(
            id: id, folder: target.filesFolder(type: asset.type, id: id), name: name,
            size: asset.fields?["size"]?.intValue)
    }

    /// Removes the files of an asset's folder other than `name` (an earlier name of a renamed
    /// asset), so the folder holds its one native file as in an export.
    static func removeOthers(in folder: String, keeping name: String) {
        let manager = FileManager.default
        for file in (try? manager.contentsOfDirectory(atPath: folder)) ?? [] where file != name {
            let path = folder + "/" + file
            var isDirectory: ObjCBool = false
            if manager.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue {
                try? manager.removeItem(atPath: path)
            }
        }
    }

    /// The server's origin for the native links written; a loopback server (an export served
    /// in-process on a new port each run) is `http://localhost`, so a rerun leaves the files alone.
    static func stableOrigin(_ server: ServerAddress) -> String {
        ["127.0.0.1", "localhost", "::1", "[::1]"].contains(server.host) ? "http://localhost" : server.origin
    }

    static func fileSize(_ path: String) -> Int? {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return Int(info.st_size)
    }

    /// Server text for a message: control characters shown as `?`, at most 60 characters.
    static func quoted(_ text: String) -> String {
        let cleaned = String(text.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? "?" : Character($0) })
        return "'" + (cleaned.count > 60 ? String(cleaned.prefix(60)) + "…" : cleaned) + "'"
    }
}

extension Duration {
    /// The duration in seconds.
    var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
