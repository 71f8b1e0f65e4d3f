// Zips made at test time, for the extraction limits: entries of zeros deflated by hand (one fixed
// Huffman block of 258-byte matches, about 160:1) or stored empty, with correct CRCs, so that an
// extractor without limits would expand them whole.
import Foundation

enum ZipBomb {
    /// One entry to write: its name and how many zero bytes it holds.
    struct Entry {
        var name: String
        var zeros: Int
    }

    /// A zip of `entries`, each deflated (or stored when empty); `declaredCount` is the entry count
    /// its end record claims (the true count unless given, for a zip that lies).
    static func make(_ entries: [Entry], declaredCount: Int? = nil) -> [UInt8] {
        var out: [UInt8] = []
        var central: [UInt8] = []
        for entry in entries {
            let data = entry.zeros == 0 ? [] : deflateZeros(entry.zeros)
            let crc = crc32OfZeros(entry.zeros)
            let method: UInt16 = entry.zeros == 0 ? 0 : 8
            let name = Array(entry.name.utf8)
            let offset = out.count
            out += le32(0x0403_4B50) + le16(20) + le16(0) + le16(method) + le16(0) + le16(0x21)
            out += le32(crc) + le32(UInt32(data.count)) + le32(UInt32(entry.zeros))
            out += le16(UInt16(name.count)) + le16(0) + name + data
            central += le32(0x0201_4B50) + le16(20) + le16(20) + le16(0) + le16(method) + le16(0) + le16(0x21)
            central += le32(crc) + le32(UInt32(data.count)) + le32(UInt32(entry.zeros))
            central += le16(UInt16(name.count)) + le16(0) + le16(0) + le16(0) + le16(0) + le32(0o100644 << 16)
            central += le32(UInt32(offset)) + name
        }
        let directoryOffset = out.count
        out += central
        let count = UInt16(declaredCount ?? entries.count)
        out += le32(0x0605_4B50) + le16(0) + le16(0) + le16(count) + le16(count)
        out += le32(UInt32(central.count)) + le32(UInt32(directoryOffset)) + le16(0)
        return out
    }

    private static func le16(_ value: UInt16) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }
    private static func le32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8((value >> (8 * $0)) & 0xFF) } }

    /// A raw deflate stream of `count` zeros: literal 0, then length-258 distance-1 matches.
    static func deflateZeros(_ count: Int) -> [UInt8] {
        var bits = BitWriter()
        bits.put(1, count: 1)  // BFINAL
        bits.put(1, count: 2)  // BTYPE 01: fixed Huffman
        bits.code(0x30, length: 8)  // literal 0
        var left = count - 1
        while left >= 258 {
            bits.code(0xC5, length: 8)  // length code 285: 258
            bits.code(0, length: 5)  // distance code 0: 1
            left -= 258
        }
        for _ in 0..<left { bits.code(0x30, length: 8) }
        bits.code(0, length: 7)  // end of block
        return bits.bytes + (bits.used > 0 ? [bits.current] : [])
    }

    private struct BitWriter {
        var bytes: [UInt8] = []
        var current: UInt8 = 0
        var used = 0

        /// Writes `count` bits of `value`, least significant first (header fields, extra bits).
        mutating func put(_ value: UInt32, count: Int) {
            for index in 0..<count { bit(UInt8((value >> index) & 1)) }
        }

        /// Writes a Huffman code, most significant bit first.
        mutating func code(_ value: UInt32, length: Int) {
            for index in stride(from: length - 1, through: 0, by: -1) { bit(UInt8((value >> index) & 1)) }
        }

        private mutating func bit(_ value: UInt8) {
            current |= value << used
            used += 1
            if used == 8 {
                bytes.append(current)
                current = 0
                used = 0
            }
        }
    }

    /// The CRC-32 of `count` zero bytes.
    static func crc32OfZeros(_ count: Int) -> UInt32 {
        var table = [UInt32](repeating: 0, count: 256)
        for index in 0..<256 {
            var value = UInt32(index)
            for _ in 0..<8 { value = value & 1 != 0 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
            table[index] = value
        }
        var crc: UInt32 = 0xFFFF_FFFF
        table.withUnsafeBufferPointer { table in
            for _ in 0..<count { crc = table[Int(crc & 0xFF)] ^ (crc >> 8) }
        }
        return crc ^ 0xFFFF_FFFF
    }

    /// The CRC-32 of `bytes` (PNG chunks).
    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
        }
        return crc ^ 0xFFFF_FFFF
    }
}
