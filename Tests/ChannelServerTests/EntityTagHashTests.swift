import ChannelServer
import Testing

@Suite("entity tags of answers")
struct EntityTagHashTests {
    @Test("a one-byte change, a longer or shorter body, each gives another tag")
    func distinct() {
        var seen: Set<UInt64> = []
        var inputs = 0
        for length in 0..<40 {
            let body = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 37) }
            #expect(seen.insert(EntityTag.contentHash(body)).inserted)
            inputs += 1
            for position in 0..<length {
                var changed = body
                changed[position] ^= 1
                #expect(seen.insert(EntityTag.contentHash(changed)).inserted, "length \(length) byte \(position)")
                inputs += 1
            }
        }
        #expect(seen.count == inputs)
        // Zero bytes count: a body of zeros is not the empty body nor a shorter run of zeros.
        #expect(EntityTag.contentHash([0, 0, 0]) != EntityTag.contentHash([0, 0]))
        #expect(EntityTag.of([1, 2, 3]) == "\"\(String(EntityTag.contentHash([1, 2, 3]), radix: 16))\"")
    }
}
