// The words of a text as the old Swift copy of FTS5's folding made them, beside SQLite's own
// `unicode61 remove_diacritics 2` tokenizer called through `fts5_api` (what ChannelServer's
// FTS5WordTokenizer does): time per call, and the words on which the two disagree. Compiled and
// run by Scripts/bench-text-folding against the system's libsqlite3.

import Foundation

// MARK: the Swift copy that TextFolding.swift held before (issue 15)

func isWordScalar(_ s: Unicode.Scalar) -> Bool {
    if s.isASCII {
        switch s {
        case "a"..."z", "A"..."Z", "0"..."9": return true
        default: return false
        }
    }
    switch s.properties.generalCategory {
    case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter, .decimalNumber,
        .letterNumber, .otherNumber, .privateUse, .nonspacingMark:
        return true
    default:
        return false
    }
}

func fold(_ text: String) -> String {
    if text.utf8.allSatisfy({ $0 < 0x80 }) { return text.lowercased() }
    let decomposed = text.decomposedStringWithCanonicalMapping.unicodeScalars
    var kept = String.UnicodeScalarView()
    for s in decomposed where s.properties.generalCategory != .nonspacingMark { kept.append(s) }
    return String(kept).lowercased()
}

func swiftWords(_ text: String) -> [String] {
    var result: [String] = []
    var word = String.UnicodeScalarView()
    for s in text.unicodeScalars {
        if isWordScalar(s) {
            word.append(s)
        } else if !word.isEmpty {
            result.append(fold(String(word)))
            word = String.UnicodeScalarView()
        }
    }
    if !word.isEmpty { result.append(fold(String(word))) }
    return result
}

// MARK: SQLite's tokenizer, as FTS5WordTokenizer calls it

final class Tokenizer {
    var functions = fts5_tokenizer()
    var tokenizer: OpaquePointer?
    var mutex = pthread_mutex_t()

    init() {
        var db: OpaquePointer?
        sqlite3_open_v2(":memory:", &db, SQLITE_OPEN_READWRITE, nil)
        var statement: OpaquePointer?
        sqlite3_prepare_v3(db, "SELECT fts5(?1)", -1, 0, &statement, nil)
        let slot = UnsafeMutablePointer<UnsafeMutablePointer<fts5_api>?>.allocate(capacity: 1)
        slot.initialize(to: nil)
        let type = strdup("fts5_api_ptr")
        sqlite3_bind_pointer(statement, 1, slot, type, nil)
        sqlite3_step(statement)
        sqlite3_finalize(statement)
        let api = slot.pointee!
        var context: UnsafeMutableRawPointer?
        _ = api.pointee.xFindTokenizer(api, "unicode61", &context, &functions)
        let names: [String] = ["remove_diacritics", "2"]
        var arguments = names.map { UnsafePointer(strdup($0)) }
        _ = functions.xCreate(context, &arguments, 2, &tokenizer)
        pthread_mutex_init(&mutex, nil)
    }

    func tokens(_ text: String) -> [String] {
        guard !text.isEmpty else { return [] }
        var text = text
        return text.withUTF8 { bytes in
            pthread_mutex_lock(&mutex)
            defer { pthread_mutex_unlock(&mutex) }
            var words: [String] = []
            withUnsafeMutablePointer(to: &words) { words in
                let characters = UnsafeRawPointer(bytes.baseAddress!).assumingMemoryBound(to: CChar.self)
                _ = functions.xTokenize(tokenizer, words, FTS5_TOKENIZE_DOCUMENT, characters, Int32(bytes.count)) {
                    context, _, token, length, _, _ in
                    context!.assumingMemoryBound(to: [String].self).pointee.append(
                        String(decoding: UnsafeRawBufferPointer(start: token, count: Int(length)), as: UTF8.self))
                    return SQLITE_OK
                }
            }
            return words
        }
    }
}

// MARK: the texts: every string value of the sample export's items, and a few that show the gaps

func strings(_ value: Any, into out: inout [String]) {
    switch value {
    case let s as String: out.append(s)
    case let a as [Any]: for e in a { strings(e, into: &out) }
    case let d as [String: Any]: for e in d.values { strings(e, into: &out) }
    default: break
    }
}

var texts: [String] = [
    "Café crème brûlée", "İstanbul DİYARBAKIR", "Straße STRASSE", "Ελληνικά ΆΈΉ", "ﬁne ligature", "Ǆemal",
    "x²³ ½", "e\u{301}cole", "naïve Zoë Øresund Łódź", "日本語のテキスト", "Ⅻ roman", "ᾼ ᾳ",
]
let root = CommandLine.arguments.count > 1 ? CommandLine.arguments[1] : "Samples"
if let walker = FileManager.default.enumerator(atPath: root) {
    for case let path as String in walker where path.hasSuffix(".json") {
        if let data = FileManager.default.contents(atPath: root + "/" + path),
            let value = try? JSONSerialization.jsonObject(with: data)
        {
            strings(value, into: &texts)
        }
    }
}

let tokenizer = Tokenizer()
var differing: [(String, [String], [String])] = []
for text in texts {
    let old = swiftWords(text)
    let new = tokenizer.tokens(text)
    if old != new { differing.append((text, old, new)) }
}

func time(_ body: () -> Int) -> Double {
    var best = Double.infinity
    for _ in 0..<5 {
        let start = DispatchTime.now().uptimeNanoseconds
        var sink = 0
        for _ in 0..<20 { sink &+= body() }
        precondition(sink >= 0)
        best = min(best, Double(DispatchTime.now().uptimeNanoseconds - start) / 20 / 1000)
    }
    return best
}

let bytes = texts.reduce(0) { $0 + $1.utf8.count }
let swiftTime = time { texts.reduce(0) { $0 + swiftWords($1).count } }
let sqliteTime = time { texts.reduce(0) { $0 + tokenizer.tokens($1).count } }
print("\(texts.count) texts, \(bytes) bytes (the sample export's string values and \(12) probes)")
print(String(format: "Swift copy:        %8.1f µs for all (%.2f µs per text)", swiftTime, swiftTime / Double(texts.count)))
print(
    String(
        format: "SQLite unicode61:  %8.1f µs for all (%.2f µs per text), %.2fx the Swift copy", sqliteTime,
        sqliteTime / Double(texts.count), sqliteTime / swiftTime))
print("texts whose words differ: \(differing.count)")
for (text, old, new) in differing.prefix(20) {
    print("  \(text.prefix(40).debugDescription): swift \(old.prefix(6)) sqlite \(new.prefix(6))")
}
