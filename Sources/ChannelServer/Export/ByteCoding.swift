// The byte form ItemCodec writes: unsigned LEB128 integers, length-prefixed byte strings, a flag
// byte before optional strings, JSON as compact text.

import OCEQCore

/// Writes values into a byte array.
struct ByteWriter {
    private(set) var bytes: [UInt8] = []

    init(capacity: Int = 256) { bytes.reserveCapacity(capacity) }

    /// An unsigned LEB128 integer.
    mutating func int(_ value: Int) {
        var rest = UInt64(bitPattern: Int64(value))
        while rest >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }

    mutating func byteArray(_ value: some Collection<UInt8>) {
        int(value.count)
        bytes += value
    }

    mutating func string(_ value: String) {
        var copy = value
        copy.withUTF8 { buffer in
            int(buffer.count)
            bytes.append(contentsOf: buffer)
        }
    }

    /// 0 for nil, else 1 and the string.
    mutating func optional(_ value: String?) {
        guard let value else { return bytes.append(0) }
        bytes.append(1)
        string(value)
    }

    mutating func json(_ value: JSON) { byteArray(JSONWriter().compactBytes(value)) }
}

/// Reads what `ByteWriter` wrote; any malformed input throws.
struct ByteReader {
    struct Malformed: Error {}

    private let buffer: UnsafeRawBufferPointer
    private var offset = 0

    init(_ buffer: UnsafeRawBufferPointer) { self.buffer = buffer }

    var atEnd: Bool { offset >= buffer.count }

    mutating func int() throws(Malformed) -> Int {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard offset < buffer.count, shift < 64 else { throw Malformed() }
            let byte = buffer[offset]
            offset += 1
            value |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { break }
            shift += 7
        }
        return Int(Int64(bitPattern: value))
    }

    private mutating func span() throws(Malformed) -> UnsafeRawBufferPointer {
        let count = try int()
        guard count >= 0, count <= buffer.count - offset else { throw Malformed() }
        defer { offset += count }
        return UnsafeRawBufferPointer(rebasing: buffer[offset..<offset + count])
    }

    mutating func byteArray() throws(Malformed) -> [UInt8] { Array(try span()) }

    mutating func string() throws(Malformed) -> String { String(decoding: try span(), as: UTF8.self) }

    mutating func flag() throws(Malformed) -> Bool {
        guard offset < buffer.count else { throw Malformed() }
        defer { offset += 1 }
        return buffer[offset] != 0
    }

    mutating func optional() throws(Malformed) -> String? { try flag() ? try string() : nil }

    mutating func json() throws(Malformed) -> JSON {
        let text = try span()
        do {
            return try JSON.parse(Array(text))
        } catch {
            throw Malformed()
        }
    }
}
