import Foundation

/// Finished JSON answers kept in memory, keyed by host and request target.
///
/// An export never changes while it is served, so the same request always gets the same bytes:
/// keeping them spares the search, the shaping and the serialisation. Entries leave in the order
/// they came (FIFO) once the byte budget is spent. Only answers that passed the token (and bearer)
/// gate are stored, and the gate runs before every lookup.
final class ResponseCache: @unchecked Sendable {
    struct Entry {
        var bytes: [UInt8]
        var tag: String
    }

    let capacity: Int
    private let lock = NSLock()
    private var entries: [String: Entry] = [:]
    private var order: [String] = []
    private var head = 0
    private var used = 0

    /// A cache holding at most `capacity` bytes of bodies.
    init(capacity: Int) {
        self.capacity = capacity
    }

    func get(_ key: String) -> Entry? {
        lock.lock()
        defer { lock.unlock() }
        return entries[key]
    }

    func put(_ key: String, _ entry: Entry) {
        let cost = entry.bytes.count + key.utf8.count
        guard cost <= capacity / 8 else { return }  // one answer may use an eighth of the budget
        lock.lock()
        defer { lock.unlock() }
        guard entries[key] == nil else { return }
        while used + cost > capacity, head < order.count {
            let oldest = order[head]
            head += 1
            if let removed = entries.removeValue(forKey: oldest) { used -= removed.bytes.count + oldest.utf8.count }
        }
        if head > 1024 && head * 2 > order.count {
            order.removeFirst(head)
            head = 0
        }
        entries[key] = entry
        order.append(key)
        used += cost
    }
}
