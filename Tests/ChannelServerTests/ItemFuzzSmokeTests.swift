import ChannelServer
import Foundation
import Testing

/// Not a fuzzer: the item harness's seed corpus, cut and mangled, through its entry point on every
/// test run, so the entry point keeps working and its invariants hold.
@Suite("Item fuzz entry point")
struct ItemFuzzSmokeTests {
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fuzz/Corpus/item")

    func run(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { ChannelServerFuzz.readItem($0) }
    }

    @Test("seed items, whole and cut short, never break an invariant")
    func seeds() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: ItemFuzzSmokeTests.corpus.path)
        #expect(!names.isEmpty)
        for name in names {
            let bytes = try [UInt8](Data(contentsOf: ItemFuzzSmokeTests.corpus.appendingPathComponent(name)))
            run(bytes)
            for cut in stride(from: 0, to: bytes.count, by: max(1, bytes.count / 50)) { run(Array(bytes[..<cut])) }
        }
    }

    @Test("hostile item files never break an invariant")
    func hostile() {
        let files = [
            "", "[]", "{}", #"{"id":""}"#, #"{"id":"../x"}"#, #"{"id":"a\u0000b"}"#,
            #"{"id":"X","typeCategory":"DigitalAssetType","name":"../../etc/passwd","fields":{"native":{}}}"#,
            #"{"id":"X","type":"DigitalAsset","fields":{"metadata":{"width":-1,"height":1e308}}}"#,
            #"{"id":"X","createdDate":{"value":"not a date"},"fields":{"a":[[[[[]]]]]}}"#,
            String(repeating: "[", count: 100_000),
        ]
        for file in files { run(Array(file.utf8)) }
    }
}
