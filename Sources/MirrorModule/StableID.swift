/// Ids for the things a mirror has to name that the delivery API does not serve (type and field
/// ids, the export's template id): 32 upper-case hex digits derived from a name, so a rerun writes
/// the same files.
enum StableID {
    /// Two 64-bit FNV-1a hashes of `text` (different offset bases), as 32 hex digits.
    static func hex(_ text: String) -> String {
        var first: UInt64 = 0xcbf2_9ce4_8422_2325
        var second: UInt64 = 0x84222325_cbf29ce4
        for byte in text.utf8 {
            first = (first ^ UInt64(byte)) &* 0x100_0000_01b3
            second = (second ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        return (pad(first) + pad(second)).uppercased()
    }

    private static func pad(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
