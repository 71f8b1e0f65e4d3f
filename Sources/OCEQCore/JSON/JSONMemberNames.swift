// The member names a parse leaves out (`JSON.parse(_:skipping:)`), kept as bytes, which a member
// name is compared with before any `String` is made for it: a mask of the skipped names' lengths
// answers most names with one test, and the rest are compared only with the names of their length.
// A download's listing compared every member name with twelve skipped names one by one, the
// largest cost of building its items (perf, 74 images: a tenth of each item's parse; callgrind:
// 14.2 M instructions for 1 480 items, 9.4 M now).

/// Member names to skip, compared as bytes.
struct JSONMemberNames: Sendable {
    /// The names, as UTF-8, by length (`byLength[n]`: the names `n` bytes long; the last bucket
    /// holds every name of `longest` bytes or more).
    private let byLength: [[[UInt8]]]
    /// Bit `n` set when a name is `n` bytes long (bit 63 for every name of 63 bytes or more).
    private let lengths: UInt64
    private static let longest = 63

    /// No names.
    init() {
        self.init([])
    }

    /// `names`, compared as their UTF-8 bytes.
    init(_ names: [String]) {
        // Every parser starts with no names: that costs no allocation.
        guard !names.isEmpty else {
            byLength = []
            lengths = 0
            return
        }
        var byLength = [[[UInt8]]](repeating: [], count: Self.longest + 1)
        var lengths: UInt64 = 0
        for name in names {
            let bytes = Array(name.utf8)
            byLength[min(bytes.count, Self.longest)].append(bytes)
            lengths |= Self.bit(bytes.count)
        }
        self.byLength = byLength
        self.lengths = lengths
    }

    /// True when there is no name.
    var isEmpty: Bool { lengths == 0 }

    /// Whether `name` (UTF-8 bytes) is one of the names.
    func contains(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
        guard lengths & Self.bit(name.count) != 0 else { return false }
        for skipped in byLength[min(name.count, Self.longest)] where skipped.count == name.count {
            // Indexed, not `elementsEqual`: its iterators were most of this check's cost (perf).
            var equal = true
            for index in 0..<name.count where skipped[index] != name[index] {
                equal = false
                break
            }
            if equal { return true }
        }
        return false
    }

    private static func bit(_ length: Int) -> UInt64 { 1 << UInt64(min(length, longest)) }
}
