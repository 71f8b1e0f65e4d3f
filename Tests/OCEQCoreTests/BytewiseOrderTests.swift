import Testing

@testable import OCEQCore

@Suite("Byte order of names, as a folder listing is sorted")
struct BytewiseOrderTests {
    /// Names whose byte order differs from Swift's `<` (Unicode scalars, canonical equivalence) or
    /// that share long prefixes, as exported item file names do.
    static let names = [
        "", "a", "A", "ab", "abc", "a b", "Z", "_", "é", "e\u{301}", "ﬀ", "😀",
        "CORE000000000000000000000000B077001.json",
        "CORE000000000000000000000000B077001.json~", "CORE000000000000000000000000B077001",
        "CORE00000000000000000000000B0770010.json",
        "ContentItems", "contentitems", String(repeating: "x", count: 300), String(repeating: "x", count: 299) + "y",
    ]

    @Test("bytewiseLess is the order of the UTF-8 bytes, for every pair, with a proper prefix first")
    func everyPair() {
        for left in Self.names {
            for right in Self.names {
                let expected = Array(left.utf8).lexicographicallyPrecedes(Array(right.utf8))
                #expect(FileSystem.bytewiseLess(left, right) == expected, "\(left) < \(right)")
            }
        }
    }

    @Test("substrings made into strings and bridged forms compare the same way")
    func otherForms() {
        let long = "prefix-CORE0000B077001.json"
        let cut = String(long.dropFirst(7))
        #expect(FileSystem.bytewiseLess(cut, "CORE0000B077002.json"))
        #expect(!FileSystem.bytewiseLess("CORE0000B077002.json", cut))
        #expect(!FileSystem.bytewiseLess(cut, "CORE0000B077001.json"))
    }
}
