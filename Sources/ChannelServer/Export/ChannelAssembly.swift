// Merges scanned content folders and parsed items into a `ChannelContent` (sequential).
//
// Order of work in `finish()`: metadata.json's item list is cross-checked (first, so the list is
// not held while the items are rewritten; its issues are reported last); type categories missing
// from type files (gen B) are taken from the items; type folders without a type file (gen A
// `DigitalAsset`) get a definition inferred from their items; then, batch by batch in item order,
// reference stubs are filled from their targets (gen A stubs are `{id, type}`) and dangling ones
// reported, category assignments get their taxonomy's names and nodes, and items without a slug
// get one made from their name (unique among all the slugs the items had, and those made before);
// each batch is final when `finished` gets it, so the index can store it while later ones are
// worked on. References are resolved on all cores (each item reads only its targets), the rest in
// order. The fingerprint hashes every file read, in reading order, by its path relative
// to its content folder, so it does not depend on where the export lies; it is known once every
// item is added (`fingerprint`), before `finish()`.

import CSystem
import Dispatch
import OCEQCore

struct Assembly {
    private var items: [ExportItem] = []
    private var itemIndex: [String: Int] = [:]
    private var types: [String: ContentTypeDefinition] = [:]
    private var variationSets: [ExportVariationSet] = []
    private var variationSetIndex: [String: Int] = [:]
    private var taxonomies: [JSON] = []
    private var taxonomyIds: Set<String> = []
    private var listed: [(root: String, type: String, id: String)] = []
    private var issues: [ExportIssue] = []
    private var hasher = ContentHasher()
    /// The items' user fields after their references and dates are filled in.
    private var fieldKinds = FieldKinds()
    /// The distinct sets of reference field names, each held once (`sharedReferenceSet`).
    private var referenceSets: [Set<String>: Set<String>] = [:]

    init() {
        hasher.combine("oceq-export-fingerprint-1")
    }

    /// Adds a content folder's types, variation sets, taxonomies and metadata.
    mutating func add(_ scan: RootScan) {
        hasher.combine("root")
        hasher.combine(scan.index)
        for (path, digest) in scan.digests {
            hasher.combine(path)
            hasher.combine(digest)
        }
        for name in scan.typeNames where types[name] == nil { types[name] = scan.types[name] }
        for set in scan.variationSets {
            if let index = variationSetIndex[set.id] {
                variationSets[index].merge(set)
            } else {
                variationSetIndex[set.id] = variationSets.count
                variationSets.append(set)
            }
        }
        for taxonomy in scan.taxonomies {
            if let id = taxonomy["id"]?.stringValue {
                guard taxonomyIds.insert(id).inserted else { continue }
            }
            taxonomies.append(taxonomy)
        }
        for entry in scan.listedItems { listed.append((scan.path, entry.type, entry.id)) }
        issues += scan.issues
    }

    /// Makes room for `count` items at once (growing by doubling held the old and the new table
    /// at once, and up to twice the room needed after).
    mutating func reserveCapacity(_ count: Int) {
        items.reserveCapacity(count)
        itemIndex.reserveCapacity(count)
    }

    /// Adds one parsed item file (a later duplicate id is reported and skipped); the item is moved
    /// out of `parsed`.
    mutating func add(_ parsed: inout ParsedItem) {
        hasher.combine(parsed.job.rootIndex)
        hasher.combine(parsed.job.folder)
        hasher.combine(parsed.job.fileName)
        hasher.combine(parsed.digest)
        if let native = parsed.nativeDigest { hasher.combine(native) }
        issues += parsed.issues
        guard let item = parsed.item.take() else { return }
        if let first = itemIndex[item.id] {
            issues.append(
                ExportIssue(
                    file: item.sourceFile,
                    message: "duplicate id \(item.id) (first read from \(items[first].sourceFile)); skipped"))
            return
        }
        itemIndex[item.id] = items.count
        items.append(item)
    }

    /// The items added so far, in order: after the last `add`, the channel's items in their final
    /// order (`finish()` changes their contents, not their order or ids).
    var mergedItems: [ExportItem] { items }

    /// The channel's fingerprint, once every file is added (`finish()` changes nothing it covers).
    var fingerprint: String {
        var final = hasher
        final.combine(items.count)
        return final.finalize().hex
    }

    /// Items are finished (references, taxonomy nodes, slugs) and handed on in batches of this many.
    static let batchSize = 1 << 16

    /// The merged channel (roots are set by the caller). `finished` gets the final items in order,
    /// `batchSize` at a time, as soon as each batch is done; the channel does not depend on it.
    mutating func finish(
        batchSize: Int = Assembly.batchSize, finished: ((ArraySlice<ExportItem>) -> Void)? = nil
    ) -> ChannelContent {
        let fingerprint = fingerprint
        // Checked now, while only the items are held: the listing goes before the items grow.
        let unlisted = crossCheck()
        listed = []
        inferTypes()
        let fieldMaps = referenceFieldMaps()
        let trees = Dictionary(
            taxonomies.compactMap(ChannelTaxonomy.init).map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        // Made only if some item lacks a slug (a set of a million slugs took 40 MB beside the items).
        var takenSlugs: Set<String>? = items.contains { $0.slug == nil } ? Set(items.compactMap(\.slug)) : nil
        for start in stride(from: 0, to: items.count, by: batchSize) {
            let range = start..<min(items.count, start + batchSize)
            resolveReferences(range, fieldMaps: fieldMaps)
            // The batch's old fields, freed a chunk's buffer at a time (`ItemReader.packFields`),
            // go back to the system: the new ones are made on other threads, whose heaps would
            // not reuse them (a 1M build peaked 280 MB higher).
            oceq_release_free_memory()
            fillTaxonomyNodes(range, trees: trees)
            if takenSlugs != nil { fillSlugs(range, taken: &takenSlugs!) }
            finished?(items[range])
        }
        issues += unlisted
        var content = ChannelContent(
            items: items, contentTypes: types, taxonomies: taxonomies, variationSets: variationSets, issues: issues,
            fingerprint: fingerprint, roots: [])
        content.fieldKinds = fieldKinds
        content.ordinals = itemIndex
        return content
    }

    /// Rewrites the category assignments of the items in `range` with names and `nodes` (root …
    /// category) from the channel's taxonomy trees, so the index and the shaper agree whatever the
    /// export wrote; assignments to taxonomies the export lacks keep what the item says.
    private mutating func fillTaxonomyNodes(_ range: Range<Int>, trees: [String: ChannelTaxonomy]) {
        for index in range {
            var assignments = TaxonomyAssignment.read(items[index].raw["taxonomies"])
            guard !assignments.isEmpty else { continue }
            for a in assignments.indices {
                guard let tree = trees[assignments[a].taxonomyId] else { continue }
                assignments[a].name = tree.name
                assignments[a].shortName = tree.shortName
                for c in assignments[a].categories.indices {
                    let nodes = tree.nodes(of: assignments[a].categories[c].node.id).map(TaxonomyAssignment.Node.init)
                    guard let last = nodes.last else { continue }
                    assignments[a].categories[c].node = last
                    assignments[a].categories[c].nodes = nodes
                }
            }
            items[index].raw["taxonomies"] = TaxonomyAssignment.json(assignments)
        }
    }

    private mutating func inferTypes() {
        var itemsByType: [String: [Int]] = [:]
        for (index, item) in items.enumerated() { itemsByType[item.type, default: []].append(index) }

        for (name, definition) in types where definition.typeCategory.isEmpty {
            let members = itemsByType[name] ?? []
            var category = ContentTypeDefinition.contentType
            if name == "DigitalAsset" || members.contains(where: { items[$0].isDigitalAsset }) {
                category = ContentTypeDefinition.digitalAssetType
            } else if members.isEmpty, definition.fields.contains(where: { $0.name == "native" }) {
                category = ContentTypeDefinition.digitalAssetType
            }
            types[name]?.typeCategory = category
        }
        for (name, members) in itemsByType.sorted(by: { $0.key < $1.key }) where types[name] == nil {
            let category = items[members[0]].typeCategory
            types[name] = ContentTypeDefinition.infer(
                name: name, typeCategory: category, items: members.map { items[$0] })
        }
    }

    /// The field definitions of each type read from a type file, by field name.
    private func referenceFieldMaps() -> [String: [String: FieldDefinition]] {
        var fieldMaps: [String: [String: FieldDefinition]] = [:]
        for (name, definition) in types where !definition.isInferred {
            var map: [String: FieldDefinition] = [:]
            for field in definition.fields { map[field.name] = field }
            fieldMaps[name] = map
        }
        return fieldMaps
    }

    /// Resolves the references of the items in `range` (one batch: only its new fields are held
    /// beside the items at a time).
    private mutating func resolveReferences(_ range: Range<Int>, fieldMaps: [String: [String: FieldDefinition]]) {
        let (resolved, kinds) = Self.resolveReferences(items, range, itemIndex: itemIndex, fieldMaps: fieldMaps)
        fieldKinds.append(contentsOf: kinds)
        for (offset, result) in resolved.enumerated() {
            let index = range.lowerBound + offset
            if let fields = result.fields { items[index].storedFields = ArraySlice(fields) }
            items[index].referenceFields = sharedReferenceSet(result.references)
            issues += result.issues
        }
    }

    /// The one copy of `references` all items with the same reference fields hold (items of a
    /// type usually have the same ones): a set of its own per item took about 100 bytes.
    private mutating func sharedReferenceSet(_ references: Set<String>) -> Set<String> {
        guard !references.isEmpty else { return references }
        if let shared = referenceSets[references] { return shared }
        referenceSets[references] = references
        return references
    }

    /// What resolving one item's references gave: its new fields as compact JSON (nil: unchanged),
    /// the names of its reference fields and the dangling references found.
    struct Resolved: Sendable {
        var fields: [UInt8]?
        var references: Set<String> = []
        var issues: [ExportIssue] = []
    }

    /// Resolves the references of the items in `range` on all cores (reading the targets only);
    /// the result keeps their order. Also gives the user fields of the resolved items (read while
    /// their fields are parsed here, so the index builder need not parse them for it).
    static func resolveReferences(
        _ items: [ExportItem], _ range: Range<Int>, itemIndex: [String: Int],
        fieldMaps: [String: [String: FieldDefinition]]
    ) -> (resolved: [Resolved], fieldKinds: FieldKinds) {
        let chunk = 1024
        let chunks = (range.count + chunk - 1) / chunk
        let slots = SlotTable<([Resolved], FieldKinds)>(count: chunks)
        DispatchQueue.concurrentPerform(iterations: chunks) { chunkIndex in
            var results: [Resolved] = []
            var kinds = FieldKinds()
            let first = range.lowerBound + chunkIndex * chunk
            for index in first..<min(range.upperBound, first + chunk) {
                results.append(
                    resolve(items[index], items: items, itemIndex: itemIndex, fieldMaps: fieldMaps, kinds: &kinds))
            }
            slots.set(chunkIndex, (results, kinds))
        }
        var resolved: [Resolved] = []
        resolved.reserveCapacity(range.count)
        var kinds = FieldKinds()
        for (results, chunkKinds) in slots.takeValues() {
            resolved += results
            kinds.append(contentsOf: chunkKinds)
        }
        return (resolved, kinds)
    }

    private static func resolve(
        _ item: ExportItem, items: [ExportItem], itemIndex: [String: Int],
        fieldMaps: [String: [String: FieldDefinition]], kinds: inout FieldKinds
    ) -> Resolved {
        let definitions = fieldMaps[item.type]
        var result = Resolved()
        var updates: [(String, JSON)] = []
        let fields = item.fields
        for (key, value) in fields {
            let definition = definitions?[key]
            let isReference = definition.map(\.isReference) ?? ReferenceStub.holdsStubs(value)
            var changed = false
            let updated: JSON
            if isReference {
                result.references.insert(key)
                updated = fillStubs(
                    value, field: key, file: item.sourceFile, items: items, itemIndex: itemIndex,
                    issues: &result.issues, changed: &changed)
            } else if definition == nil || definition?.datatype == "datetime" {
                updated = normalizeDates(value, changed: &changed)
            } else {
                continue
            }
            if changed { updates.append((key, updated)) }
        }
        if updates.isEmpty {
            kinds.add(fields)
        } else {
            var newFields = fields
            for (key, value) in updates { newFields[key] = value }
            result.fields = JSONWriter().compactBytes(.object(newFields))
            kinds.add(newFields)
        }
        return result
    }

    /// Fills a stub's missing `type`, `name` and `typeCategory` from its target, or reports it.
    private static func fillStubs(
        _ value: JSON, field: String, file: String, items: [ExportItem], itemIndex: [String: Int],
        issues: inout [ExportIssue], changed: inout Bool
    ) -> JSON {
        switch value {
        case .array(let elements):
            var elementChanged = false
            let filled = elements.map {
                fillStubs(
                    $0, field: field, file: file, items: items, itemIndex: itemIndex, issues: &issues,
                    changed: &elementChanged)
            }
            guard elementChanged else { return value }
            changed = true
            return .array(filled)
        case .object(var stub):
            guard let id = stub["id"]?.stringValue else { return value }
            let hasType = stub["type"]?.stringValue != nil
            let hasName = stub["name"]?.stringValue != nil
            let hasCategory = !(stub["typeCategory"]?.stringValue?.isEmpty ?? true)
            if let target = itemIndex[id] {
                if hasType && hasName && hasCategory { return value }
                if !hasType { stub["type"] = .string(items[target].type) }
                if !hasName { stub["name"] = .string(items[target].name) }
                if !hasCategory { stub["typeCategory"] = .string(items[target].typeCategory) }
            } else {
                let type = stub["type"]?.stringValue ?? ""
                issues.append(
                    ExportIssue(
                        file: file,
                        message: "field '\(field)' refers to \(id)\(type.isEmpty ? "" : " (\(type))"), "
                            + "which is not in the export; kept as a stub"))
                if hasName && hasCategory { return value }
                if !hasName { stub["name"] = "" }
                if !hasCategory { stub["typeCategory"] = .string(ReferenceStub.guessCategory(id: id, type: type)) }
            }
            changed = true
            return .object(stub)
        default:
            return value
        }
    }

    private static func normalizeDates(_ value: JSON, changed: inout Bool) -> JSON {
        switch value {
        case .object:
            let normalized = ExportDateText.normalize(value)
            if case .object(let before) = value, case .object(let after) = normalized,
                before["value"] == after["value"], before["timezone"] == after["timezone"]
            {
                return value
            }
            changed = true
            return normalized
        case .array(let elements) where elements.contains(where: ExportDateText.looksLikeDate):
            var elementChanged = false
            let normalized = elements.map { normalizeDates($0, changed: &elementChanged) }
            guard elementChanged else { return value }
            changed = true
            return .array(normalized)
        default:
            return value
        }
    }

    /// Gives each item in `range` without a slug one not in `taken` (which it joins).
    private mutating func fillSlugs(_ range: Range<Int>, taken: inout Set<String>) {
        for index in range where items[index].slug == nil {
            let item = items[index]
            var base = Self.slugify(item.isDigitalAsset ? Self.dropExtension(item.name) : item.name)
            if base.isEmpty { base = item.id.lowercased() }
            var slug = base
            if taken.contains(slug) { slug = base + "-" + item.id.lowercased() }
            taken.insert(slug)
            items[index].slug = slug
        }
    }

    private static func dropExtension(_ name: String) -> String {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return name }
        return String(name[..<dot])
    }

    /// Lower-case ASCII letters and digits, `_`, `(` and `)` kept; runs of anything else become one `-`.
    static func slugify(_ text: String) -> String {
        var out: [UInt8] = []
        var pendingDash = false
        for byte in text.lowercased().utf8 {
            let keep =
                (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39) || byte == UInt8(ascii: "_")
                || byte == UInt8(ascii: "(") || byte == UInt8(ascii: ")")
            if keep {
                if pendingDash && !out.isEmpty { out.append(UInt8(ascii: "-")) }
                pendingDash = false
                out.append(byte)
            } else {
                pendingDash = true
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The items metadata.json lists that are missing, as issues.
    private func crossCheck() -> [ExportIssue] {
        var missing: [ExportIssue] = []
        for entry in listed where itemIndex[entry.id] == nil {
            let relative = "ContentItems/\(entry.type)/\(entry.id).json"
            // A file that exists was read and, having been skipped, is reported already.
            if FileSystem.kind(entry.root + "/" + relative) != .missing { continue }
            missing.append(
                ExportIssue(
                    file: entry.root + "/metadata.json",
                    message: "lists \(entry.type):\(entry.id) but \(relative) is missing"))
        }
        return missing
    }
}
