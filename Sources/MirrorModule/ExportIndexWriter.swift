// The files of an export besides the items, written from the item files on disk after a run:
// `ContentTypes/<Type>.json` (inferred, `ContentTypeInference`), `metadata.json` (`group0` the
// type names, `group1` every `Type:ID`), `Summary.json` (comma-joined names and ids),
// `LocalizationPolicies/localizationPolicy.json` (the languages the items use),
// `META-INF/MANIFEST.MF` and `channel.json` (the channel's name; never its token).

import DeliveryKit
import FoundationEssentials
import OCEQCore

/// Writes an export's index files from its item files.
struct ExportIndexWriter {
    var target: MirrorTarget
    var channelName: String

    func write() throws(MirrorError) {
        var inference = ContentTypeInference()
        // `group1` (as JSON text) and Summary's `items` are built as the files are read, one type
        // folder listed at a time: a mirror of 100k items holds each id once here, not as a list of
        // pairs, a JSON tree and its text at once (this step set the peak RSS of such a mirror).
        let variationSets = variationSetCount()
        var group1: [UInt8] = [UInt8(ascii: "[")]
        var count = 0
        var ids = ""
        var languages: [String] = []
        try target.forEachItemFile { folder, id throws(MirrorError) in
            let path = target.itemFile(type: folder, id: id)
            guard let data = target.read(path),
                let object = (try? JSON.parse(data))?.objectValue
            else { return }
            inference.add(object)
            if count > 0 {
                group1.append(UInt8(ascii: ","))
                ids += ","
            }
            JSONWriter.appendQuoted(folder + ":" + id, into: &group1)
            ids += id
            count += 1
            let translatable = object["translatable"]?.boolValue ?? true
            if translatable, let language = object["language"]?.stringValue, !languages.contains(language) {
                languages.append(language)
            }
        }
        group1.append(UInt8(ascii: "]"))
        let content = target.content
        let definitions = inference.definitions()
        let typeNames = definitions.keys.sorted()
        for name in typeNames where SafeName.isValidTypeName(name) {
            try target.write(Self.bytes(definitions[name] ?? .null), to: content + "/ContentTypes/" + name + ".json")
        }
        let templateID = StableID.hex("oceq-mirror\u{0}" + channelName)
        let metadata: JSON = .object([
            "export-version": "1.1", "template-id": .string(templateID),
            "template-name": .string(MirrorTarget.contentFolderName), "template-description": "",
            "count": .int(typeNames.count + count), "varsetcount": .int(variationSets), "groups": 2,
            "isCDTIncluded": true,
            "group0": .array(typeNames.map(JSON.string)),
        ])
        try target.write(Self.bytes(metadata, inserting: ("group1", group1)), to: content + "/metadata.json")
        group1 = []
        let summary: JSON = .object([
            "template-description": "", "template-id": .string(templateID),
            "template-name": .string(MirrorTarget.contentFolderName),
            "types": .string(typeNames.joined(separator: ",")),
            "items": .string(ids),
        ])
        try target.write(Self.bytes(summary), to: content + "/Summary.json")
        let sortedLanguages = languages.sorted()
        let policy: JSON = .object([
            "id": .string(StableID.hex("policy\u{0}" + channelName)), "name": .string(channelName + " languages"),
            "description": "", "defaultValue": sortedLanguages.first.map(JSON.string) ?? .null,
            "requiredValues": .array(sortedLanguages.prefix(1).map(JSON.string)),
            "optionalValues": .array(sortedLanguages.dropFirst().map(JSON.string)), "links": .null,
        ])
        try target.write(Self.bytes(policy), to: content + "/LocalizationPolicies/localizationPolicy.json")
        let manifest =
            "Manifest-Version: 1.1\nname: \(MirrorTarget.contentFolderName)\n\(MirrorTarget.manifestCreator)\n"
        try target.write(Array(manifest.utf8), to: target.root + "/META-INF/MANIFEST.MF")
        try target.write(Self.bytes(.object(["name": .string(channelName)])), to: target.root + "/channel.json")
    }

    private func variationSetCount() -> Int {
        let folder = target.content + "/ContentItems/VariationSets"
        return target.files(in: folder).filter { $0.hasSuffix(".json") }.count
    }

    static func bytes(_ json: JSON) -> [UInt8] {
        var bytes = JSONWriter().compactBytes(json)
        bytes.append(UInt8(ascii: "\n"))
        return bytes
    }

    /// `bytes(object)` with one more member whose value is JSON text already, where the writer's
    /// sorted keys would put it: as if it had been in `object`.
    static func bytes(_ object: JSON, inserting member: (key: String, text: [UInt8])) -> [UInt8] {
        guard case .object(let members) = object else { return bytes(object) }
        var out: [UInt8] = [UInt8(ascii: "{")]
        var first = true
        var inserted = false
        func insertMember() {
            if !first { out.append(UInt8(ascii: ",")) }
            JSONWriter.appendQuoted(member.key, into: &out)
            out.append(UInt8(ascii: ":"))
            out += member.text
            first = false
            inserted = true
        }
        for (key, value) in members.sorted(by: { $0.key < $1.key }) {
            if !inserted && member.key < key { insertMember() }
            if !first { out.append(UInt8(ascii: ",")) }
            JSONWriter.appendQuoted(key, into: &out)
            out.append(UInt8(ascii: ":"))
            out += JSONWriter().compactBytes(value)
            first = false
        }
        if !inserted { insertMember() }
        out += Array("}\n".utf8)
        return out
    }
}
