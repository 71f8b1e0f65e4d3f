/// Serialises `JSON` to UTF-8: compact or pretty, object keys sorted, output always valid JSON
/// (non-finite doubles become `null`, control characters are escaped).
public struct JSONWriter: Sendable {
    /// Indent nested values by this many spaces; `nil` writes compact JSON.
    public var indent: Int?

    /// A writer for compact (`indent: nil`) or pretty JSON.
    public init(indent: Int? = nil) {
        self.indent = indent
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
            if members.isEmpty {
                out.append(contentsOf: "{}".utf8)
                return
            }
            out.append(UInt8(ascii: "{"))
            for (i, key) in members.keys.sorted().enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                newline(level + 1, into: &out)
                JSONWriter.appendQuoted(key, into: &out)
                out.append(UInt8(ascii: ":"))
                if indent != nil { out.append(0x20) }
                write(members[key]!, level: level + 1, into: &out)
            }
            newline(level, into: &out)
            out.append(UInt8(ascii: "}"))
        }
    }

    /// Appends `s` as a quoted JSON string.
    public static func appendQuoted(_ s: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for byte in s.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out.append(contentsOf: [0x5C, 0x22])
            case UInt8(ascii: "\\"): out.append(contentsOf: [0x5C, 0x5C])
            case 0x0A: out.append(contentsOf: [0x5C, UInt8(ascii: "n")])
            case 0x0D: out.append(contentsOf: [0x5C, UInt8(ascii: "r")])
            case 0x09: out.append(contentsOf: [0x5C, UInt8(ascii: "t")])
            case 0..<0x20, 0x7F:
                let hex: [UInt8] = Array("0123456789abcdef".utf8)
                out.append(contentsOf: [0x5C, UInt8(ascii: "u"), 0x30, 0x30, hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
