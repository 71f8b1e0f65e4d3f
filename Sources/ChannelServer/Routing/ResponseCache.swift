import FoundationEssentials
import OCEQCore

/// Finished JSON answers kept in memory, keyed by host and request target.
///
/// An export never changes while it is served, so the same request always gets the same bytes:
/// keeping them spares the search, the shaping and the serialisation. Entries leave in the order
/// they came (FIFO) once the byte budget is spent. Only answers that passed the token (and bearer)
/// gate are stored, and the gate runs before every lookup.
final class ResponseCache: Sendable {
    struct Entry {
        var bytes: [UInt8]
        var tag: String
    }

    let capacity: Int
    private struct State {
        var entries: [String: Entry] = [:]
        var order: [String] = []
        var head = 0
        var used = 0
    }
    private let state = Locked(State())

    /// A cache holding at most `capacity` bytes of bodies.
    init(capacity: Int) {
        self.capacity = capacity
    }

    func get(_ key: String) -> Entry? {
        state.withLock { $0.entries[key] }
    }

    func put(_ key: String, _ entry: Entry) {
        let cost = entry.bytes.count + key.utf8.count
        guard cost <= capacity / 8 else { return }  // one answer may use an eighth of the budget
        let capacity = self.capacity
        state.withLock { state in
            guard state.entries[key] == nil else { return }
            while state.used + cost > capacity, state.head < state.order.count {
                let oldest = state.order[state.head]
                state.head += 1
                if let removed = state.entries.removeValue(forKey: oldest) {
                    state.used -= removed.bytes.count + oldest.utf8.count
                }
            }
            if state.head > 1024 && state.head * 2 > state.order.count {
                state.order.removeFirst(state.head)
                state.head = 0
            }
            state.entries[key] = entry
            state.order.append(key)
            state.used += cost
        }
    }
}
