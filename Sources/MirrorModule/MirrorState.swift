// What a mirror run has done so far, and the one step that writes an item into it.

import DeliveryKit
import OCEQCore

/// The progress of one run: the summary, the native files to fetch, the items written (for the
/// variation sets and the removal of stale items) and the ids they refer to.
struct MirrorState {
    var summary: MirrorSummary
    var natives: [NativeFetcher.NativeFile] = []
    var written: [(id: String, known: VariationSetFetcher.Known)] = []
    /// Ids the written items refer to, in the order met (only a selection reads them).
    var referenced: [String] = []
    /// False for a mirror of the whole channel, which holds every item it could refer to: its
    /// references are not kept (100k ids are megabytes that nothing reads).
    var collectsReferences = true

    /// Writes `asset`'s item file under `target` and records what follows from it: its native
    /// file, its references. An id or type that is not a plain name skips the item.
    mutating func accept(_ asset: Asset, target: MirrorTarget, converter: ExportItemConverter) {
        let id = asset.id
        guard SafeName.isValidID(id) else {
            summary.skipped.append("an item whose id is not a plain name (\(Self.quoted(id)))")
            return
        }
        guard SafeName.isValidTypeName(asset.type) else {
            summary.skipped.append("\(id): its type \(Self.quoted(asset.type)) is not a plain name")
            return
        }
        let exported = converter.convert(asset.raw)
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
            return
        }
        written.append((id, VariationSetFetcher.Known(type: asset.type, name: asset.name)))
        if collectsReferences { referenced += ExportItemConverter.referencedIDs(in: exported) }
        guard exported["typeCategory"]?.stringValue == ExportItemConverter.typeCategoryAsset else { return }
        let name = SafeName.fileName(asset.name, id: id, fileExtension: exported["fileExtension"]?.stringValue)
        natives.append(
            NativeFetcher.NativeFile(
                id: id, folder: target.filesFolder(type: asset.type, id: id), name: name,
                size: asset.fields?["size"]?.intValue))
    }

    /// Server text for a message: control characters shown as `?`, at most 60 characters.
    static func quoted(_ text: String) -> String {
        let cleaned = String(text.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? "?" : Character($0) })
        return "'" + (cleaned.count > 60 ? String(cleaned.prefix(60)) + "…" : cleaned) + "'"
    }
}
