/// Serialises `JSON` to UTF-8: compact or pretty, object keys sorted, output always valid JSON
/// (non-finite doubles become `null`, control characters are escaped).
public struct JSONWriter: Sendable {
    /// Indent nested values by this many spaces; `nil` writes compact JSON.
    public var indent: Int?
    /// An array that is the value of a member with this name, at any depth, is written empty (`[]`):
    /// how `oceq serve` answers `links=none` without rebuilding the answer first (which took a fifth
    /// of a 500-item search; perf).
    public var emptying: String?

    /// A writer for compact (`indent: nil`) or pretty JSON; arrays named `emptying` are written as `[]`.
    public init(indent: Int? = nil, emptying: String? = nil) {
        self.indent = indent
        self.emptying = emptying
    }

    /// The UTF-8 bytes of `value`.
    public func bytes(_ value: JSON) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(256)
        write(value, into: &out)
        return out
    }

    /// The UTF-8 bytes of `value` in an array of exactly that size (for values kept in memory
    /// for long: `bytes` leaves growth room that would otherwise stay allocated).
    public func compactBytes(_ value: JSON) -> [UInt8] {
        let written = bytes(value)
        return [UInt8](unsafeUninitializedCapacity: written.count) { buffer, count in
            _ = buffer.initialize(from: written)
            count = written.count
        }
    }

    /// The text of `value`.
    public func string(_ value: JSON) -> String {
        String(decoding: bytes(value), as: UTF8.self)
    }

    /// Appends the UTF-8 bytes of `value` to `out`.
    public func write(_ value: JSON, into out: inout [UInt8]) {
        write(value, level: 0, into: &out)
    }

    /// Appends an object of `members` and of `written` members, whose values are JSON text
    /// already (appended as they are: text written with this writer's settings, so the answer
    /// reads as if every value had been written here), keys sorted as `write` sorts them. A name
    /// in both is written once, from `written`.
    public func write(object members: [String: JSON], written: [String: [UInt8]], into out: inout [UInt8]) {
        write(object: members, written: written, level: 0, into: &out)
    }

    private func write(object members: [String: JSON], written: [String: [UInt8]], level: Int, into out: inout [UInt8])
    {
        if members.isEmpty && written.isEmpty {
            out.append(contentsOf: "{}".utf8)
            return
        }
        // Sorted as pairs, never looked up by name again (hashing each name was a tenth of
        // writing a page of whole items; perf).
        var entries: [(name: String, value: JSON?, text: [UInt8]?)] = []
        entries.reserveCapacity(members.count + written.count)
        // `written` holds a member or two: compared in turn, not hashed (a page asks this per entry).
        for (name, value) in members where !written.contains(where: { $0.key == name }) {
            entries.append((name, value, nil))
        }
        for (name, text) in written { entries.append((name, nil, text)) }
        entries.sort { $0.name < $1.name }
        out.append(UInt8(ascii: "{"))
        for (i, entry) in entries.enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            newline(level + 1, into: &out)
            JSONWriter.appendQuoted(entry.name, into: &out)
            out.append(UInt8(ascii: ":"))
            if indent != nil { out.append(0x20) }
            if let text = entry.text {
                out.append(contentsOf: text)
            } else if let value = entry.value {
                if let emptying, case .array = value, entry.name == emptying {
                    out.append(contentsOf: "[]".utf8)
                } else {
                    write(value, level: level + 1, into: &out)
                }
            }
        }
        newline(level, into: &out)
        out.append(UInt8(ascii: "}"))
    }

    private func newline(_ level: Int, into out: inout [UInt8]) {
        guard let indent else { return }
        out.append(0x0A)
        out.append(contentsOf: repeatElement(0x20, count: indent * level))
    }

    private func write(_ value: JSON, level: Int, into out: inout [UInt8]) {
        switch value {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
        case .int(let i): out.append(contentsOf: String(i).utf8)
        case .double(let d):
            if d.isFinite {
                if d.rounded() == d && abs(d) < 1e15 {
                    out.append(contentsOf: String(Int(d)).utf8)
                    out.append(contentsOf: ".0".utf8)
                } else {
                    out.append(contentsOf: String(d).utf8)
                }
            } else {
                out.append(contentsOf: "null".utf8)
            }
        case .string(let s): JSONWriter.appendQuoted(s, into: &out)
        case .array(let elements):
            if elements.isEmpty {
                out.append(contentsOf: "[]".utf8)
                return
            }
            out.append(UInt8(ascii: "["))
            for (i, element) in elements.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                newline(level + 1, into: &out)
                write(element, level: level + 1, into: &out)
            }
            newline(level, into: &out)
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            write(object: members, written: [:], level: level, into: &out)
        }
    }

    /// Appends `s` as a quoted JSON string.
    ///
    /// Runs of bytes that need no escape are copied in one call; this is the writer's hot path.
    public static func appendQuoted(_ s: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var text = s
        text.withUTF8 { bytes in
            var runStart = 0
            for i in 0..<bytes.count {
                let byte = bytes[i]
                guard byte < 0x20 || byte == 0x22 || byte == 0x5C || byte == 0x7F else { continue }
                if runStart < i { out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<i])) }
                runStart = i + 1
                switch byte {
                case 0x22: out.append(contentsOf: [0x5C, 0x22])
                case 0x5C: out.append(contentsOf: [0x5C, 0x5C])
                case 0x0A: out.append(contentsOf: [0x5C, UInt8(ascii: "n")])
                case 0x0D: out.append(contentsOf: [0x5C, UInt8(ascii: "r")])
                case 0x09: out.append(contentsOf: [0x5C, UInt8(ascii: "t")])
                default:
                    out.append(contentsOf: [
                        0x5C, UInt8(ascii: "u"), 0x30, 0x30, hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0xF)],
                    ])
                }
            }
            if runStart < bytes.count { out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart...])) }
        }
        out.append(UInt8(ascii: "\""))
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)
}
