// From items to jobs: which request fetches what each item should give (native file, rendition,
// thumbnail), under which file name, and whether a copy recorded in the folder's manifest is
// checked with `If-None-Match` instead of fetched again.
//
// Names: the asset's name, sanitised (`SafeFileName`); a rendition is `stem-NAME.FORMAT`, a
// thumbnail `stem-thumbnail` plus the extension of the type the server sends (the SDK's thumbnail
// URL leaves the format to the server). A file the manifest already records for the same download
// keeps its name; other names are made unique against the manifest's and each other's.
//
// A rendition without a format asks for the rendition's first listed format, so that the file's
// extension is known before the transfer.

import DeliveryKit
import DeliveryTransport
import OCEQCore

/// One file to fetch.
struct PlannedDownload {
    /// The item's id (not the item: the batch outlives the listing, whose JSON is freed once
    /// planned).
    var assetId: String
    /// What of it.
    var kind: DownloadKind
    /// The engine's job (request, folder, name, `If-None-Match`).
    var job: DownloadJob
    /// The size the channel lists for it, when it does.
    var expectedSize: Int64?
    /// A thumbnail whose name gets the extension of the type received.
    var addsExtension: Bool
    /// Its name was free when planned (no file of the folder's, no entry of its manifest): the
    /// manifest's journal may describe it before it is named (`DownloadBatch.announcement`).
    var freshName = false

    /// The manifest key.
    var key: String { assetId + "|" + kind.key }
}

/// An item that gives nothing to download, and why.
struct PlanNote {
    /// The item's name and id.
    var name: String
    var id: String
    /// Why, in lower case.
    var reason: String
}

/// Jobs for a batch, and what was left out.
struct DownloadPlan {
    /// The files to fetch (or revalidate).
    var downloads: [PlannedDownload] = []
    /// Items that are not digital assets (no file of that kind): reported, not failures.
    var notFiles: [PlanNote] = []
    /// Items that cannot give what was asked (a rendition they lack): failures.
    var problems: [PlanNote] = []

    /// What is downloaded, into which folder, and whether recorded copies are fetched again.
    let kind: DownloadKind
    let folder: String
    let force: Bool
    /// The names taken in the folder so far.
    private var names = UniqueFileNames()
    /// The parts (`NAME.part`) the folder held when the plan was made: a job whose part is not
    /// among them starts afresh without looking for one (`DownloadJob.partMayExist`).
    private var parts: Set<String> = []

    /// An empty plan into `folder`, whose names `manifest` and the files already there take (`add`
    /// plans each item).
    init(kind: DownloadKind, folder: String, manifest: DownloadManifest, force: Bool) {
        self.kind = kind
        self.folder = folder
        self.force = force
        for entry in manifest.entries.values {
            names.reserve(entry.file)
            if entry.kind == .thumbnail { names.reserve(SafeFileName.split(entry.file).stem) }
        }
        // A file already in the folder that the manifest does not record is someone else's: never
        // replaced, a new file takes the next free name (`photo (2).jpg`). Its stem is kept too, as a
        // thumbnail is named before its extension is known.
        let recorded = Set(manifest.entries.values.map(\.file))
        for name in DownloadFolder.names(in: folder) {
            if name.hasSuffix(".part") {
                parts.insert(name)
            } else if !recorded.contains(name) && name != DownloadManifest.fileName {
                names.reserve(name)
                names.reserve(SafeFileName.split(name).stem)
            }
        }
    }

    /// Plans `item`, the next item: a download, a note that it gives no file, or a problem.
    /// `manifest` loses its entry when its file is gone or changed. True when a download was added.
    @discardableResult
    mutating func add(_ item: DownloadItem, manifest: inout DownloadManifest) -> Bool {
        switch DownloadPlan.source(of: item, kind: kind) {
        case .failure(.notAFile(let reason)):
            notFiles.append(PlanNote(name: item.name, id: item.id, reason: reason))
            return false
        case .failure(.noRendition(let reason)), .failure(.noFormat(let reason)):
            problems.append(PlanNote(name: item.name, id: item.id, reason: reason))
            return false
        case .success(let source):
            var job = DownloadJob(source.request, folder: folder, name: "")
            var addsExtension = false
            var freshName = false
            if let entry = manifest.entry(assetId: item.id, kind: source.kind) {
                job.name = entry.file
                if !force, entry.etag != nil, DownloadFolder.size(of: job.path) == entry.size {
                    job.ifNoneMatch = entry.etag
                } else {
                    manifest.remove(key: entry.key)
                }
            } else {
                job.name = names.claim(source.name)
                addsExtension = source.kind == .thumbnail
                freshName = true
            }
            job.partMayExist = parts.contains(job.name + ".part")
            downloads.append(
                PlannedDownload(
                    assetId: item.id, kind: source.kind, job: job, expectedSize: source.size,
                    addsExtension: addsExtension, freshName: freshName))
            return true
        }
    }

    /// What to request for one item, its file name (sanitised, not yet unique) and listed size.
    struct Source {
        var request: any DownloadRequest
        var kind: DownloadKind
        var name: String
        var size: Int64?
    }

    /// Why an item gives nothing.
    enum Refusal: Error {
        /// Not a digital asset.
        case notAFile(String)
        /// A digital asset without the rendition asked for.
        case noRendition(String)
        /// A digital asset whose rendition lacks the format asked for.
        case noFormat(String)
    }

    /// The request, name and size for `item`'s `kind`.
    static func source(of item: DownloadItem, kind: DownloadKind) -> Result<Source, Refusal> {
        guard item.isDigitalAsset, item.hasFields else {
            let what = item.type.isEmpty ? "a content item" : "a content item (\(item.type))"
            let has: String
            switch kind {
            case .native: has = "no native file"
            case .rendition: has = "no renditions"
            case .thumbnail: has = "no thumbnail"
            }
            return .failure(.notAFile("\(what), not a digital asset: it has \(has)"))
        }
        let name = SafeFileName.sanitize(item.name, fallback: item.id)
        let stem = SafeFileName.split(name).stem
        switch kind {
        case .native:
            return .success(
                Source(
                    request: DeliveryAPI.downloadNative(id: item.id), kind: .native, name: name,
                    size: item.size.map(Int64.init)))
        case .thumbnail:
            return .success(
                Source(
                    request: DeliveryAPI.downloadThumbnail(
                        id: item.id, fileGroup: item.fileGroup, advancedVideo: item.advancedVideo),
                    kind: .thumbnail,
                    name: SafeFileName.sanitize(stem + "-thumbnail", fallback: item.id), size: nil))
        case .rendition(let renditionName, let format):
            guard let rendition = item.renditions.first(named: renditionName) else {
                let has = item.renditions.map(\.name)
                let suggestion = Suggestions.closest(to: renditionName, among: has).map { "did you mean '\($0)'? " }
                return .failure(
                    .noRendition(
                        "has no rendition '\(renditionName)'; " + (suggestion ?? "")
                            + (has.isEmpty ? "it has none" : "it has \(has.joined(separator: ", "))")))
            }
            let renditionName = rendition.name
            var chosen = format.flatMap { rendition.format($0) }
            if let format, chosen == nil {
                let has = rendition.formats.map(\.format)
                return .failure(
                    .noFormat(
                        "has no format '\(format)' of rendition '\(renditionName)'; "
                            + (has.isEmpty ? "it lists none" : "it has \(has.joined(separator: ", "))")))
            }
            if format == nil { chosen = rendition.formats.first }
            let ext = chosen?.format ?? item.fileExtension ?? ""
            let fileName = stem + "-" + renditionName + (ext.isEmpty ? "" : "." + ext)
            let size = chosen?.size.flatMap { $0 > 0 ? Int64($0) : nil }
            return .success(
                Source(
                    request: DeliveryAPI.downloadRendition(
                        id: item.id, renditionName: renditionName, format: chosen?.format ?? format,
                        type: rendition.type),
                    kind: .rendition(name: renditionName, format: chosen?.format ?? format),
                    name: SafeFileName.sanitize(fileName, fallback: item.id), size: size))
        }
    }
}
