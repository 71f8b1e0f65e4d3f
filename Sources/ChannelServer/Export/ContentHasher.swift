/// A stable, unseeded 128-bit content hash (two FNV-1a-style 64-bit lanes with different offset
/// bases and primes, fed eight bytes at a time), printed as 32 lower-case hex digits.
///
/// Not cryptographic: it names cache folders and fingerprints exports, where the same bytes must
/// give the same string in every process (Swift's `Hasher` is seeded per process, so it cannot).
struct ContentHasher: Sendable {
    private var low: UInt64 = 0xcbf2_9ce4_8422_2325
    private var high: UInt64 = 0x6c62_272e_07bb_0142
    private static let lowPrime: UInt64 = 0x0000_0100_0000_01b3
    private static let highPrime: UInt64 = 0x0000_0100_0000_0193  // a different odd multiplier

    init() {}

    /// Mixes raw bytes, eight at a time.
    mutating func combine(bytes: UnsafeRawBufferPointer) {
        var a = low
        var b = high
        var index = 0
        let count = bytes.count
        while index + 8 <= count {
            let word = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self))
            a = (a ^ word) &* Self.lowPrime
            a ^= a >> 32
            b = (b ^ (word &+ 0x9e37_79b9_7f4a_7c15)) &* Self.highPrime
            b ^= b >> 29
            index += 8
        }
        while index < count {
            let byte = UInt64(bytes[index])
            a = (a ^ byte) &* Self.lowPrime
            b = (b ^ byte) &* Self.highPrime
            index += 1
        }
        low = a
        high = b
    }

    /// Mixes a byte array.
    mutating func combine(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { combine(bytes: $0) }
        combine(length: bytes.count)
    }

    /// Mixes a string (its UTF-8 bytes and its length, so concatenations do not collide).
    mutating func combine(_ text: String) {
        var copy = text
        copy.withUTF8 { combine(bytes: UnsafeRawBufferPointer($0)) }
        combine(length: copy.utf8.count)
    }

    /// Mixes an integer as 8 little-endian bytes.
    mutating func combine(_ value: Int) {
        withUnsafeBytes(of: UInt64(bitPattern: Int64(value)).littleEndian) { combine(bytes: $0) }
    }

    /// Mixes another digest.
    mutating func combine(_ digest: ContentDigest) {
        withUnsafeBytes(of: digest.low.littleEndian) { combine(bytes: $0) }
        withUnsafeBytes(of: digest.high.littleEndian) { combine(bytes: $0) }
    }

    private mutating func combine(length: Int) {
        withUnsafeBytes(of: UInt64(length).littleEndian) { combine(bytes: $0) }
    }

    /// The digest so far.
    func finalize() -> ContentDigest {
        // A final avalanche so short inputs spread over all digits.
        ContentDigest(low: Self.mix(low ^ (high >> 1)), high: Self.mix(high ^ (low << 1)))
    }

    private static func mix(_ value: UInt64) -> UInt64 {
        var x = value
        x ^= x >> 33
        x = x &* 0xff51_afd7_ed55_8ccd
        x ^= x >> 33
        x = x &* 0xc4ce_b9fe_1a85_ec53
        x ^= x >> 33
        return x
    }

    /// The hex digest of one byte array.
    static func hex(of bytes: [UInt8]) -> String {
        var hasher = ContentHasher()
        hasher.combine(bytes)
        return hasher.finalize().hex
    }
}

/// A 128-bit digest from `ContentHasher`.
struct ContentDigest: Sendable, Hashable {
    var low: UInt64
    var high: UInt64

    /// 32 lower-case hex digits.
    var hex: String {
        func digits(_ value: UInt64) -> String {
            let text = String(value, radix: 16)
            return String(repeating: "0", count: 16 - text.count) + text
        }
        return digits(high) + digits(low)
    }
}
