import Testing

@testable import ChannelServer

@Suite("text values are folded to their first 64 scalars")
struct IndexedValueFoldTests {
    @Test("texts up to the limit are kept whole; longer ones are cut at a scalar and kept in full")
    func limit() {
        let limit = IndexSchema.foldLimit
        for unit in ["a", "É", "😀", "e\u{301}"] {
            for length in [limit - 1, limit, limit + 1, 3 * limit] {
                let text = String(repeating: unit, count: length)
                let lower = text.lowercased()
                let scalars = Array(lower.unicodeScalars)
                let (fold, full) = IndexedValue.folded(text)
                if scalars.count > limit {
                    #expect(Array(fold.unicodeScalars) == Array(scalars[..<limit]), "\(unit) × \(length)")
                    #expect(full == lower, "\(unit) × \(length)")
                } else {
                    #expect(fold == lower, "\(unit) × \(length)")
                    #expect(full == nil, "\(unit) × \(length)")
                }
            }
        }
        #expect(IndexedValue.folded("").fold == "")
    }
}
