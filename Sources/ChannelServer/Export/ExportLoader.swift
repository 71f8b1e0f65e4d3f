// Reads one or more exports into a `ChannelContent`.
//
// Design: (1) each PATH becomes content folders (`ExportLocator`, zips extracted into the cache);
// (2) each content folder is scanned: type files, variation sets, taxonomies, metadata.json, and
// the list of item files (readdir only); (3) the item files, the bulk of the work, are read and
// parsed on all cores, each into a slot of a preallocated table, so the result does not depend on
// scheduling; (4) a sequential pass merges by id (first wins), infers missing type categories and
// type definitions, fills reference stubs from their targets, reports dangling ones, and fingers
// the whole content.
//
// The generation of an export (2018 "A" … 2023 "D") is never read from `export-version` (always
// "1.1"); each difference is handled where it shows: a missing `typeCategory`, a `DigitalAsset`
// type without a type file, `{id,type}` stubs, `metadata: {}`, top-level `mimeType`, and so on.

import Dispatch
import FoundationEssentials
import Glibc
import OCEQCore

/// Reads channel exports (folders or zips) into one `ChannelContent`.
public struct ExportLoader: Sendable {
    public var options: ExportLoadOptions

    public init(options: ExportLoadOptions = ExportLoadOptions()) {
        self.options = options
    }

    /// Reads every PATH and merges them into one channel. Throws for a path that cannot be read as
    /// an export (and, when `strict`, for any issue); per-item problems become `issues`.
    public func load(paths: [String]) throws(ExportError) -> ChannelContent {
        try load(locate(paths: paths))
    }

    /// The content folders of every PATH (zips extracted into the cache), in order, without
    /// reading them further.
    func locate(paths: [String]) throws(ExportError) -> ExportLocator.Located {
        guard !paths.isEmpty else { throw ExportError.noPaths }
        let locator = ExportLocator(
            extractor: ZipExtractor(cacheDirectory: options.cacheDirectory, limits: options.zipLimits))
        var all = ExportLocator.Located()
        for path in paths {
            let located = try locator.locate(path)
            all.issues += located.issues
            for root in located.roots where !all.roots.contains(root) { all.roots.append(root) }
        }
        return all
    }

    /// Reads located content folders into one channel. `merged` is called once every item file is
    /// read, with the fingerprint and the items in their final order (their contents not yet
    /// final), before the items are finished; the sink it returns, if any, gets the final items in
    /// order, `batchSize` at a time, while later batches are finished (`Assembly.finish`).
    func load(
        _ located: ExportLocator.Located, batchSize: Int = Assembly.batchSize,
        merged: ((_ fingerprint: String, _ items: [ExportItem]) -> ((ArraySlice<ExportItem>) -> Void)?)? = nil
    ) throws(ExportError) -> ChannelContent {
        let roots = located.roots
        let issues = located.issues
        var clock = PhaseClock("load:")
        var scans: [RootScan] = []
        for (index, root) in roots.enumerated() {
            scans.append(try RootScan.scan(root: root, index: index))
        }
        var jobs = scans.flatMap(\.itemJobs)
        let typesByRoot = scans.map(\.types)
        clock.mark("scan")
        var assembly = Assembly()
        for scan in scans { assembly.add(scan) }
        // Whatever is held from here on is held beside every item: the scans go now (the jobs and
        // the assembly have their own copies of their job lists and metadata listings), the jobs
        // once the files are read, the assembly's listing when it finishes (`Assembly.finish`).
        scans = []
        assembly.reserveCapacity(jobs.count)
        Self.parseAll(jobs, typesByRoot: typesByRoot, limit: options.maximumItemFileBytes) { assembly.add(&$0) }
        jobs = []
        clock.mark("items read, parsed and merged")
        let finished = merged?(assembly.fingerprint, assembly.mergedItems)
        var content = assembly.finish(batchSize: batchSize, finished: finished)
        clock.mark("assembled")
        content.roots = roots
        content.issues = issues + content.issues
        if options.strict && !content.issues.isEmpty { throw ExportError.strict(issues: content.issues) }
        return content
    }

    /// Chunks of item files parsed ahead of the merge at most: their results wait in a table of
    /// this many chunks' slots, reused in turn (a slot per file took 512 MB at 1M items).
    static let parseWindow = 64

    /// Parses the item files on all cores and gives each result to `merge` on the calling thread,
    /// in the order of `jobs`, while later files are still parsed (merging is sequential: it would
    /// otherwise leave a core idle after the parse, 2-3 s at 1M items).
    static func parseAll(
        _ jobs: [ItemJob], typesByRoot: [[String: ContentTypeDefinition]], limit: Int, chunk: Int = 128,
        window: Int = parseWindow, merge: (inout ParsedItem) -> Void
    ) {
        guard !jobs.isEmpty else { return }
        let ring = Ring(jobs: jobs.count, chunk: chunk, window: window)
        let slots = SlotTable<ParsedItem>(count: min(jobs.count, window * chunk))
        let readAhead = jobs.count >= ItemReadAhead.minimumJobs ? ItemReadAhead(jobs: jobs) : nil
        defer { readAhead?.finish() }
        // A thread of its own (not a dispatch worker, which might wait for a free one) drives the
        // parsers; it is one of them, so it needs the stack the parser's recursion may take.
        DetachedThread.start(name: "oceq-parse", stackSize: 8 << 20) {
            parseChunks(jobs, ring: ring, into: slots, typesByRoot: typesByRoot, limit: limit, readAhead: readAhead)
        }
        for chunkIndex in ring.chunks {
            ring.parsed[chunkIndex].wait()
            for index in ring.range(of: chunkIndex) {
                var parsed = slots.take(ring.slot(of: index))
                merge(&parsed)
            }
            ring.merged[chunkIndex].signal()
        }
    }

    /// How the parsers and the merge share the slot table: chunk `n` waits for chunk
    /// `n - window` to be merged before it is parsed into the same slots. A chunk waits only for
    /// an earlier one, which was handed to a parser first, so the parse cannot deadlock.
    struct Ring: Sendable {
        let jobs: Int
        let chunk: Int
        let window: Int
        /// Signalled when a chunk's slots are filled.
        let parsed: [DispatchSemaphore]
        /// Signalled when a chunk's slots are taken.
        let merged: [DispatchSemaphore]

        init(jobs: Int, chunk: Int, window: Int) {
            self.jobs = jobs
            self.chunk = chunk
            self.window = window
            let chunks = (jobs + chunk - 1) / chunk
            parsed = (0..<chunks).map { _ in DispatchSemaphore(value: 0) }
            merged = (0..<chunks).map { _ in DispatchSemaphore(value: 0) }
        }

        /// The chunks' numbers.
        var chunks: Range<Int> { parsed.indices }
        /// The jobs of chunk `index`.
        func range(of index: Int) -> Range<Int> { index * chunk..<min(jobs, (index + 1) * chunk) }
        /// The slot of job `index`.
        func slot(of index: Int) -> Int { index % (window * chunk) }
    }

    /// Parses the item files on all cores into `slots` (`ring` says when a chunk may start and
    /// is told when it is filled).
    private static func parseChunks(
        _ jobs: [ItemJob], ring: Ring, into slots: SlotTable<ParsedItem>,
        typesByRoot: [[String: ContentTypeDefinition]], limit: Int, readAhead: ItemReadAhead?
    ) {
        DispatchQueue.concurrentPerform(iterations: ring.chunks.count) { chunkIndex in
            if chunkIndex >= ring.window { ring.merged[chunkIndex - ring.window].wait() }
            let range = ring.range(of: chunkIndex)
            // Files are opened relative to their folder, opened (and checked inside the export)
            // once per run of jobs in it: one path walk and no `/proc/self/fd` look-up per file.
            var folder: (path: String, fd: Int32?)?
            defer { if let fd = folder?.fd { close(fd) } }
            var parsed: [ParsedItem] = []
            parsed.reserveCapacity(range.count)
            for index in range {
                let job = jobs[index]
                let folderPath = job.folderPath
                if folder?.path != folderPath {
                    if let fd = folder?.fd { close(fd) }
                    folder = (folderPath, try? FileSystem.openInside(folderPath, root: job.resolvedRoot))
                }
                parsed.append(ItemReader.read(job, folder: folder?.fd, types: typesByRoot[job.rootIndex], limit: limit))
            }
            ItemReader.packFields(&parsed)
            for (index, entry) in zip(range, parsed) { slots.set(ring.slot(of: index), entry) }
            readAhead?.parsed(range.count)
            ring.parsed[chunkIndex].signal()
        }
    }
}

/// A fixed-size table that concurrent workers fill, each writing only its own slots.
final class SlotTable<Value: Sendable>: @unchecked Sendable {
    private let storage: UnsafeMutableBufferPointer<Value?>
    private var taken = false

    init(count: Int) {
        storage = .allocate(capacity: count)
        storage.initialize(repeating: nil)
    }

    deinit {
        if !taken { storage.deinitialize() }
        storage.deallocate()
    }

    /// Stores slot `index`; each index must be written by one worker only.
    func set(_ index: Int, _ value: Value) { storage[index] = value }

    /// Moves slot `index` out, once its worker is done with it (once per slot).
    func take(_ index: Int) -> Value {
        let value = storage[index]!
        storage[index] = nil
        return value
    }

    /// Moves all slots out, after the workers are done (once).
    func takeValues() -> [Value] {
        precondition(!taken, "values already taken")
        taken = true
        return storage.indices.map { storage.moveElement(from: $0)! }
    }
}

/// What reading one item file gave.
struct ParsedItem: Sendable {
    var job: ItemJob
    var item: ExportItem?
    var issues: [ExportIssue] = []
    var digest: ContentDigest
    var nativeDigest: ContentDigest?
}

/// The non-item content of one content folder and its item file list.
struct RootScan {
    var index: Int
    var path: String
    /// The canonical path of `path`: links are followed only when they resolve inside it.
    var resolvedRoot: String
    var types: [String: ContentTypeDefinition] = [:]
    var typeNames: [String] = []
    var itemJobs: [ItemJob] = []
    /// Type folders under `ContentItems/` (besides `VariationSets`).
    var typeFolders: [String] = []
    var variationSets: [ExportVariationSet] = []
    var taxonomies: [JSON] = []
    /// `Type:ID` entries of metadata.json's groups 1…n, for a cross-check.
    var listedItems: [(type: String, id: String)] = []
    /// Digests of the non-item files read, by relative path, in reading order.
    var digests: [(path: String, digest: ContentDigest)] = []
    var issues: [ExportIssue] = []

    /// Scans one content folder. metadata.json (52 MB at 1M items) is read and the item folders
    /// are listed at once, on all cores; what they give is taken in the order of a sequential scan
    /// (metadata, types, taxonomies, then the folders in name order), so the digests, issues and
    /// item order do not depend on it.
    static func scan(root: String, index: Int) throws(ExportError) -> RootScan {
        let resolved = FileSystem.realPath(root) ?? root
        var scan = RootScan(index: index, path: root, resolvedRoot: resolved)
        let itemsFolder = root + "/ContentItems"
        var folders: [DirectoryEntry] = []
        if FileSystem.kind(itemsFolder) == .directory {
            do {
                folders = try FileSystem.list(itemsFolder, inside: resolved).filter { $0.kind == .directory }
            } catch {
                throw ExportError.unreadable(path: itemsFolder, reason: error.reason)
            }
        }
        let typeFolders = folders.map(\.name).filter { $0 != "VariationSets" }
        // Slot 0: metadata.json; slot 1 + n: the item files of type folder n (nil: not listable).
        let metadata = SlotTable<RootScan>(count: 1)
        let listed = SlotTable<[ItemJob]?>(count: typeFolders.count)
        DispatchQueue.concurrentPerform(iterations: 1 + typeFolders.count) { slot in
            guard slot > 0 else {
                var part = RootScan(index: index, path: root, resolvedRoot: resolved)
                part.readMetadata()
                metadata.set(0, part)
                return
            }
            let folder = ItemJob.Folder(
                rootIndex: index, root: root, resolvedRoot: resolved, name: typeFolders[slot - 1])
            let files = try? FileSystem.list(folder.path, inside: resolved)
            listed.set(
                slot - 1,
                files.map { files in
                    files.filter { $0.kind == .regular && $0.name.hasSuffix(".json") }.map {
                        ItemJob(in: folder, fileName: $0.name)
                    }
                })
        }
        let read = metadata.takeValues()[0]
        scan.digests = read.digests
        scan.issues = read.issues
        scan.listedItems = read.listedItems
        scan.readTypes()
        scan.readTaxonomies()
        var jobs = listed.takeValues().makeIterator()
        for folder in folders {
            if folder.name == "VariationSets" {
                scan.readVariationSets()
                continue
            }
            scan.typeFolders.append(folder.name)
            guard let folderJobs = jobs.next()! else {
                scan.issues.append(
                    ExportIssue(file: itemsFolder + "/" + folder.name, message: "cannot list the folder; skipped"))
                continue
            }
            scan.itemJobs += folderJobs
        }
        return scan
    }

    /// Reads and parses a JSON file, recording its digest; nil (with an issue) on failure.
    private mutating func readJSON(_ relative: String, what: String) -> JSON? {
        let path = self.path + "/" + relative
        let bytes: [UInt8]
        do {
            bytes = try FileSystem.read(path, inside: resolvedRoot)
        } catch {
            issues.append(ExportIssue(file: path, message: "cannot read: \(error.reason); \(what) skipped"))
            return nil
        }
        digests.append((relative, ContentHasher.digest(of: bytes)))
        do {
            return try JSON.parse(bytes)
        } catch {
            issues.append(ExportIssue(file: path, message: "not valid JSON (\(error)); \(what) skipped"))
            return nil
        }
    }

    private func jsonFiles(in relative: String) -> [String] {
        guard let entries = try? FileSystem.list(path + "/" + relative, inside: resolvedRoot) else { return [] }
        return entries.filter { $0.kind == .regular && $0.name.lowercased().hasSuffix(".json") }.map {
            relative + "/" + $0.name
        }
    }

    private mutating func readMetadata() {
        guard FileSystem.kind(path + "/metadata.json") == .regular,
            let json = readJSON("metadata.json", what: "cross-check")
        else { return }
        let groups = json["groups"]?.intValue ?? 0
        for group in 1..<max(groups, 1) {
            for entry in json["group\(group)"]?.arrayValue ?? [] {
                guard let text = entry.stringValue, let colon = text.lastIndex(of: ":") else { continue }
                listedItems.append((String(text[..<colon]), String(text[text.index(after: colon)...])))
            }
        }
    }

    private mutating func readTypes() {
        for relative in jsonFiles(in: "ContentTypes") {
            guard let json = readJSON(relative, what: "type") else { continue }
            let fileName = String(relative.dropFirst("ContentTypes/".count).dropLast(".json".count))
            guard let definition = ContentTypeDefinition.parse(json, fallbackName: fileName) else {
                issues.append(ExportIssue(file: path + "/" + relative, message: "not a type definition; skipped"))
                continue
            }
            if types[definition.name] == nil {
                types[definition.name] = definition
                typeNames.append(definition.name)
            }
        }
    }

    private mutating func readTaxonomies() {
        for relative in jsonFiles(in: "Taxonomies") {
            guard let json = readJSON(relative, what: "taxonomy") else { continue }
            switch json {
            case .array(let elements): taxonomies += elements.filter { $0.objectValue != nil }
            case .object: taxonomies.append(json)
            default: issues.append(ExportIssue(file: path + "/" + relative, message: "not a taxonomy; skipped"))
            }
        }
    }

    private mutating func readVariationSets() {
        for relative in jsonFiles(in: "ContentItems/VariationSets") {
            guard let json = readJSON(relative, what: "variation set") else { continue }
            guard let sets = ExportVariationSet.parseFile(json) else {
                issues.append(ExportIssue(file: path + "/" + relative, message: "not a variation set; skipped"))
                continue
            }
            variationSets += sets
        }
    }
}

extension ContentHasher {
    /// The digest of a byte array.
    static func digest(of bytes: [UInt8]) -> ContentDigest {
        var hasher = ContentHasher()
        hasher.combine(bytes)
        return hasher.finalize()
    }
}
