import OCEQLanguage
import OCEQTestSupport
import Testing

/// Not a fuzzer: a few thousand seeded inputs through the fuzz entry point, so that its invariants
/// (spans inside the source, printed statements parse and compile the same) hold on every test run.
@Suite("Fuzz entry point")
struct FuzzSmokeTests {
    static let fragments = [
        "list", "count", "first", "let", "explain", "get", "echo", " ", " ", " ", "\n", ";", "(", ")", ",", "=", "!=",
        "~", "^=", ">", ">=", "<", "<=", "=~", "~~", "==", "!", "&", "|", "and", "or", "not", "in", "order", "by",
        "asc", "desc", "limit", "offset", "fields", "expand", "search", "all", "type", "name", "a.b", "'", "\"", "$",
        "$x", "$1", "$12", "@", "@3", "@0", "12", "-3", "1.5", "2024-01-02", "2024-13-40", "#", "é", "\u{0}",
        "\u{1B}", "\t", "x", "fields.y", "CORE1",
    ]

    func run(_ text: String) {
        var bytes = Array(text.utf8)
        bytes.withUnsafeMutableBytes { buffer in fuzzParse(UnsafeRawBufferPointer(buffer)) }
    }

    @Test("token soup never breaks an invariant", arguments: 0..<20)
    func tokenSoup(batch: Int) {
        var random = SeededGenerator(seed: UInt64(1000 + batch))
        for _ in 0..<200 {
            var text = ""
            for _ in 0..<Int.random(in: 1...40, using: &random) {
                text += FuzzSmokeTests.fragments[Int.random(in: 0..<FuzzSmokeTests.fragments.count, using: &random)]
            }
            run(text)
        }
    }

    @Test("random bytes never break an invariant")
    func randomBytes() {
        var random = SeededGenerator(seed: 7)
        for _ in 0..<2000 {
            let count = Int.random(in: 0...64, using: &random)
            var bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &random) }
            bytes.withUnsafeMutableBytes { buffer in fuzzParse(UnsafeRawBufferPointer(buffer)) }
        }
    }

    @Test("valid statements pass through the round-trip oracle")
    func validStatements() {
        for text in [
            "list type=A topic in (a, 'b c') order by name desc limit 5",
            "count not (a=1 or b ~ x) search hi",
            "first a=2024-01-02T03:04 expand all",
            "let x = list a=@1",
            "explain list a=$1",
            "download (list type=Image) rendition Thumbnail to ./out",
        ] {
            run(text)
        }
    }
}
