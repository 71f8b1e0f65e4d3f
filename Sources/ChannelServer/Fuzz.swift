// The export item reader's fuzz entry point, for the libFuzzer harness under `Fuzz/` (built by
// `Scripts/fuzz`, never by the default build). It runs untrusted bytes the way `oceq serve` does
// with an item file: JSON parse, item reading, then the delivery shape of the item, full and as a
// list entry. The asset branch looks its native file up under a root that does not exist.

import OCEQCore

/// Entry points that drive the server's readers with arbitrary bytes.
package enum ChannelServerFuzz {
    /// Reads `bytes` as an item file and shapes the item it gives; traps if an invariant breaks.
    package static func readItem(_ bytes: UnsafeRawBufferPointer) {
        let job = ItemJob(
            rootIndex: 0, root: "/nonexistent-oceq-fuzz", resolvedRoot: "/nonexistent-oceq-fuzz", folder: "Fuzz",
            fileName: "item.json")
        let parsed = ItemReader.parse(Array(bytes), job: job, types: [:])
        guard let item = parsed.item else {
            precondition(!parsed.issues.isEmpty, "an item file was skipped without an issue")
            return
        }
        precondition(!item.id.isEmpty && !item.id.contains("/"), "an item with an unusable id was read")
        let shaper = DeliveryShaper(content: ChannelContent(items: [item]))
        let context = LinkContext(baseURL: "http://localhost:8080", channelToken: "fuzz")
        do {
            let full = try shaper.full(item, context: context, expand: .all)
            let entry = try shaper.listEntry(item, context: context, expand: .all)
            _ = JSONWriter().compactBytes(full)
            _ = JSONWriter().compactBytes(entry)
        } catch {
            preconditionFailure("a channel held in memory failed to read an item: \(error)")
        }
    }
}
