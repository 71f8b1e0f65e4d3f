// The language variation sets of the mirrored items, as `ContentItems/VariationSets/<master>.json`
// (export-format.md §2.5): `GET /items/{id}/variations/language` for each item not already a
// member of a set fetched, a few at a time. A set id or member id that is not a plain name is
// left out; an item without a set (404) has none written.

import DeliveryKit
import DeliveryTransport
import OCEQCore

/// Fetches and writes the variation sets of a run's items.
struct VariationSetFetcher {
    var client: DeliveryClient
    var target: MirrorTarget
    /// Requests in flight at once.
    var maxConcurrent = 4

    /// What the run knows of an item: its type and name.
    struct Known: Sendable {
        var type: String
        var name: String
    }

    /// Fetches the sets of `items` (id → type, name, in listing order) and writes them; the
    /// failures, as messages.
    func run(_ items: [(id: String, known: Known)]) async -> (written: Int, failures: [String]) {
        // Each id's first position, and a flag per item for "a fetched set holds it": with 100k items a
        // set of ids and a second table of names were megabytes; a flag is a byte.
        var positions: [String: Int] = [:]
        positions.reserveCapacity(items.count)
        for (position, item) in items.enumerated() where positions[item.id] == nil { positions[item.id] = position }
        var covered = [Bool](repeating: false, count: items.count)
        func cover(_ id: String) { if let position = positions[id] { covered[position] = true } }
        func isCovered(_ id: String) -> Bool { positions[id].map { covered[$0] } ?? false }
        let names: (String) -> Known? = { id in positions[id].map { items[$0].known } }
        var failures: [String] = []
        var written = 0
        var next = 0
        while next < items.count && !Task.isCancelled {
            // A batch of ids not yet covered by a set.
            var batch: [String] = []
            while next < items.count && batch.count < maxConcurrent {
                if !isCovered(items[next].id) { batch.append(items[next].id) }
                next += 1
            }
            let client = self.client
            let results = await withTaskGroup(of: (String, Result<JSON, DeliveryError>).self) { group in
                for id in batch {
                    group.addTask {
                        do throws(DeliveryError) {
                            return (
                                id,
                                .success(
                                    try await client.fetchJSON(DeliveryAPI.listVariations(id: id, type: "language")))
                            )
                        } catch {
                            return (id, .failure(error))
                        }
                    }
                }
                var out: [(String, Result<JSON, DeliveryError>)] = []
                for await result in group { out.append(result) }
                return out.sorted { $0.0 < $1.0 }
            }
            for (id, result) in results where !isCovered(id) {
                switch result {
                case .failure(.http(let error)) where error.status == 404:
                    cover(id)
                case .failure(.cancelled):
                    continue
                case .failure(let error):
                    failures.append("variations of \(id): \(error)")
                case .success(let json):
                    guard let set = Self.exportSet(json, names: names) else {
                        cover(id)
                        continue
                    }
                    for member in set.members { cover(member) }
                    cover(id)
                    do {
                        if try target.write(
                            ExportIndexWriter.bytes(set.json),
                            to: target.content + "/ContentItems/VariationSets/" + set.master + ".json")
                        {
                            written += 1
                        }
                    } catch {
                        failures.append(error.description)
                    }
                }
            }
        }
        return (written, failures)
    }

    /// The export form of a Delivery variation set, or nil when its ids are not plain names.
    static func exportSet(
        _ json: JSON, names: (String) -> Known?
    ) -> (json: JSON, master: String, members: [String])? {
        guard let setId = json["setId"]?.stringValue, SafeName.isValidID(setId),
            let master = json["masterItem"]?.stringValue, SafeName.isValidID(master)
        else { return nil }
        var members: [JSON] = []
        var ids: [String] = []
        for item in json["items"]?.arrayValue ?? [] {
            guard let id = item["id"]?.stringValue, SafeName.isValidID(id) else { continue }
            ids.append(id)
            var member: [String: JSON] = [
                "id": .string(id), "setId": .string(setId), "varType": "language",
                "value": .string(item["value"]?.stringValue ?? ""), "status": "published", "isPublished": true,
                "isMaster": .bool(id == master),
            ]
            if let known = names(id) { member["name"] = .string(known.name) }
            members.append(.object(member))
        }
        guard !ids.isEmpty else { return nil }
        var set: [String: JSON] = [
            "id": .string(setId), "varType": "language", "masterItemId": .string(master), "items": .array(members),
        ]
        if let type = names(master)?.type ?? ids.compactMap({ names($0)?.type }).first {
            set["type"] = .string(type)
        }
        return (.array([.object(set)]), master, ids)
    }
}
