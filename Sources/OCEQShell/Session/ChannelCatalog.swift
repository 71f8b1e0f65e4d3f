// What a channel holds, asked of it through DeliveryKit: its types (one pass over the listing), its schema
// (ChannelCatalog+Schema.swift) and the names of a type's items. The session keeps the answers in
// `CompletionCache` (Session+Catalog.swift), which completion, the compiler's checks, `types` and `fields`
// read.

import DeliveryKit
import DeliveryTransport
import OCEQCore
import OCEQLanguage

/// Lookups of a channel's types, fields and item names.
package enum ChannelCatalog {
    /// The request `typeKinds` pages through.
    package static var typeKindsRequest: ListAssets { DeliveryAPI.listAssets().limit(DeliveryAPI.maximumLimit) }

    /// Every type in the channel, each with whether it is a digital asset type: one pass over the listing,
    /// 500 summaries a page.
    package static func typeKinds(_ client: DeliveryClient) async throws(DeliveryError) -> [String: Bool] {
        var kinds: [String: Bool] = [:]
        for try await page in client.pages(typeKindsRequest) {
            for item in page.items where kinds[item.type] == nil {
                kinds[item.type] = item.isDigitalAsset || item.id.hasPrefix("CONT")
            }
        }
        return kinds
    }

    /// The names and ids of the items of `type` (the first 500).
    package static func itemNames(_ client: DeliveryClient, type: String) async throws -> [ItemName] {
        let request = DeliveryAPI.listAssets().query(try QueryNode.equal(field: "type", value: type))
            .limit(DeliveryAPI.maximumLimit)
        return try await client.fetch(request).items.map { ItemName(name: $0.name, id: $0.id) }
    }

    /// The type a reference field points to, read from a sample value: `{id, type, name}` or a list of them.
    package static func referencedType(_ value: JSON) -> String? {
        if let first = value.arrayValue?.first { return referencedType(first) }
        guard let object = value.objectValue, object["id"]?.stringValue != nil else { return nil }
        return object["type"]?.stringValue
    }
}
