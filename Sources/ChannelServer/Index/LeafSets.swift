import OCEQCore

/// The match sets of single conditions (`type eq "X"`, one word of `name co`, one word of
/// `default`), kept within a byte budget and dropped least recently used first.
///
/// A site asks the same conditions again and again in different combinations, orders and
/// pages; reading a condition's matches out of SQLite costs about a microsecond per match, the
/// set algebra over kept sets a few. The budget bounds memory at any export size; an export
/// never changes while it is served, so a kept set never goes stale.
final class LeafSets: Sendable {
    /// Bytes of sets kept at most.
    let capacity: Int

    private struct Entry {
        var set: OrdinalSet
        var used: UInt64
    }
    private struct State {
        var entries: [String: Entry] = [:]
        var bytes = 0
        var clock: UInt64 = 0
    }
    private let state = Locked(State())

    /// A store keeping at most `capacity` bytes of sets.
    init(capacity: Int) {
        self.capacity = capacity
    }

    /// The kept set for `key`, or the one `make` reads (kept when it fits the budget).
    func set(_ key: String, make: () throws -> OrdinalSet) rethrows -> OrdinalSet {
        if let kept = kept(key) { return kept }
        let made = try make()
        keep(key, made)
        return made
    }

    /// The kept set for `key`, if any (marked as used).
    func kept(_ key: String) -> OrdinalSet? {
        state.withLock { state in
            guard var entry = state.entries[key] else { return nil }
            state.clock += 1
            entry.used = state.clock
            state.entries[key] = entry
            return entry.set
        }
    }

    /// Keeps `set` for `key` when it fits the budget, dropping the least recently used sets.
    func keep(_ key: String, _ set: OrdinalSet) {
        let cost = set.byteCount + key.utf8.count
        guard cost <= capacity / 4 else { return }
        let capacity = self.capacity
        state.withLock { state in
            guard state.entries[key] == nil else { return }
            if state.bytes + cost > capacity {
                // Drop the older half at once, so a full store evicts rarely rather than on every miss.
                let byAge = state.entries.sorted { $0.value.used < $1.value.used }
                for (name, entry) in byAge.prefix(max(1, byAge.count / 2)) {
                    state.entries[name] = nil
                    state.bytes -= entry.set.byteCount + name.utf8.count
                }
            }
            state.clock += 1
            state.entries[key] = Entry(set: set, used: state.clock)
            state.bytes += cost
        }
    }

    /// Bytes of sets kept now.
    var bytes: Int { state.withLock { $0.bytes } }
}
