// The member names a parse leaves out (`JSON.parse(_:skipping:)`), kept as bytes, which a member
// name is compared with before any `String` is made for it. Most names are not skipped, and most
// are told apart by their length alone: a mask of the skipped names' lengths answers those with one
// test. A download's listing compared every member name with twelve skipped names one by one, the
// largest cost of building its items (perf, 74 images: a tenth of each item's parse).

/// Member names to skip, compared as bytes.
struct JSONMemberNames: Sendable {
    /// The names, as UTF-8.
    private let names: [[UInt8]]
    /// Bit `n` set when a name is `n` bytes long (bit 63 for every name of 63 bytes or more).
    private let lengths: UInt64

    /// No names.
    init() {
        self.init([])
    }

    /// `names`, compared as their UTF-8 bytes.
    init(_ names: [String]) {
        self.names = names.map { Array($0.utf8) }
        lengths = self.names.reduce(0) { $0 | JSONMemberNames.bit($1.count) }
    }

    /// True when there is no name.
    var isEmpty: Bool { names.isEmpty }

    /// Whether `name` (UTF-8 bytes) is one of the names.
    func contains(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
        guard lengths & Self.bit(name.count) != 0 else { return false }
        for skipped in names where skipped.count == name.count {
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

    private static func bit(_ length: Int) -> UInt64 { 1 << UInt64(min(length, 63)) }
}
