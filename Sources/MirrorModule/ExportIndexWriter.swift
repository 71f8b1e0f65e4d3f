// The files of an export besides the items, written from the item files on disk after a run:
// `ContentTypes/<Type>.json` (inferred, `ContentTypeInference`), `metadata.json` (`group0` the
// type names, `group1` every `Type:ID`), `Summary.json` (comma-joined names and ids),
// `LocalizationPolicies/localizationPolicy.json` (the languages the items use),
// `META-INF/MANIFEST.MF` and `channel.json` (the channel's name; never its token).

import DeliveryKit
import Foundation
import OCEQCore

/// Writes an export's index files from its item files.
struct ExportIndexWriter {
    var target: MirrorTarget
    var channelName: String

    func write() throws(MirrorError) {
        var inference = ContentTypeInference()
        var entries: [(type: String, id: String)] = []
        var languages: [String] = []
        for (folder, id) in target.itemFiles() {
            let path = target.itemFile(type: folder, id: id)
            guard let data = target.read(path),
                let object = (try? JSON.parse(data))?.objectValue
            else { continue }
            inference.add(object)
            entries.append((folder, id))
            let translatable = object["translatable"]?.boolValue ?? true
            if translatable, let language = object["language"]?.stringValue, !languages.contains(language) {
                languages.append(language)
            }
        }
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
            "count": .int(typeNames.count + entries.count), "varsetcount": .int(variationSetCount()), "groups": 2,
            "isCDTIncluded": true,
            "group0": .array(typeNames.map(JSON.string)),
            "group1": .array(entries.map { .string($0.type + ":" + $0.id) }),
        ])
        try target.write(Self.bytes(metadata), to: content + "/metadata.json")
        let summary: JSON = .object([
            "template-description": "", "template-id": .string(templateID),
            "template-name": .string(MirrorTarget.contentFolderName),
            "types": .string(typeNames.joined(separator: ",")),
            "items": .string(entries.map(\.id).joined(separator: ",")),
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
}
