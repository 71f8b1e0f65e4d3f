// JSON and NDJSON. A listing is an array of the items as the server sent them (keys sorted) in
// json, and in ndjson one object per row with the columns the table and csv show (`ListingColumn`);
// one item is its object, a count is a number, a table is the array of its records, a document is its
// value, a screen is the data it shows. Pretty with two spaces on a terminal, compact otherwise;
// NDJSON is one compact value per line: each item of a listing, each record of a table, each
// element of a document that is an array. JSON escapes C0 and DEL itself; C1 characters, which
// some terminals obey, are escaped here. On a terminal the bidirectional controls (U+202E and the
// others, `BidiControls`) are escaped too (`\u202e`), so that no value shows reversed; piped, JSON
// keeps them as they are (the escaped and the raw form are the same JSON string).

import DeliveryKit
import OCEQCore

/// JSON (`lines: false`) or NDJSON (`lines: true`).
package struct JSONRenderer: Renderer {
    /// One value per line instead of one document.
    package var lines: Bool

    /// A JSON or NDJSON renderer.
    package init(lines: Bool) {
        self.lines = lines
    }

    package func render(_ result: CommandResult, to sink: any OutputSink) {
        let writer = JSONWriter(indent: sink.isTerminal && !lines ? 2 : nil)
        let terminal = sink.isTerminal
        func write(_ value: JSON) {
            // The line break goes in with the bytes, and bytes without a character to escape are written as
            // they are: no string of the whole text to make (and check as UTF-8), and no second copy of it.
            var bytes = writer.bytes(value)
            bytes.append(0x0A)
            if JSONRenderer.mayNeedEscapes(bytes, bidi: terminal) {
                sink.write(JSONRenderer.safe(String(decoding: bytes, as: UTF8.self), bidi: terminal))
            } else {
                sink.write(utf8: bytes)
            }
        }
        func write(all values: [JSON]) {
            if lines { values.forEach(write) } else { write(.array(values)) }
        }
        switch result {
        case .none, .quit: return
        case .text(let text): PlainText.write(text, to: sink)
        case .count(let count): sink.write("\(count)\n")
        case .item(let asset): write(asset.json)
        case .items(let listing) where lines: write(all: listing.records)
        case .items(let listing): write(all: listing.items.map(\.json))
        case .table(let table): write(all: table.records)
        case .document(.array(let elements)): write(all: elements)
        case .document(let value): write(value)
        case .screen(_, let data): render(data, to: sink)
        }
    }

    /// Whether UTF-8 `bytes` may hold a character `safe` escapes. In UTF-8 every C1 character starts with the
    /// byte C2, and every bidirectional control with D8 (U+061C) or E2: text without those bytes (most of it)
    /// is passed after one pass over its bytes, not its scalars.
    static func mayNeedEscapes(_ bytes: some Collection<UInt8>, bidi: Bool) -> Bool {
        bytes.contains { $0 == 0xC2 || (bidi && ($0 == 0xE2 || $0 == 0xD8)) }
    }

    /// C1 control characters (only ever inside strings) written as `\u00XX` escapes, and with
    /// `bidi` the bidirectional controls as `\uXXXX`.
    static func safe(_ text: String, bidi: Bool = false) -> String {
        func escaped(_ scalar: Unicode.Scalar) -> Bool {
            (scalar.value >= 0x80 && scalar.value < 0xA0) || (bidi && BidiControls.contains(scalar))
        }
        var utf8 = text
        let candidate = utf8.withUTF8 { mayNeedEscapes($0, bidi: bidi) }
        guard candidate, text.unicodeScalars.contains(where: escaped) else { return text }
        var out = ""
        for scalar in text.unicodeScalars {
            if escaped(scalar) {
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}

extension String {
    /// Every `target` replaced by `replacement`.
    func replacingOccurrences(_ target: String, _ replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
