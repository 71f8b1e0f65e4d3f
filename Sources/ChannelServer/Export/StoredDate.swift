import OCEQCore

/// A date object as an `ExportItem` holds it. The usual shape, `{"value":
/// "YYYY-MM-DDTHH:MM:SS.mmmZ", "timezone": ZONE}`, is packed into an integer and the zone (no
/// allocation for a zone of up to 15 bytes): kept as JSON text, an item's two dates took 190 bytes
/// of heap, 190 MB of a 1M-item build. Any other shape is kept as compact JSON.
enum StoredDate: Sendable, Equatable {
    /// The value's 17 digits read as one decimal number (`20150101000000000`), and the zone.
    case packed(digits: Int64, timezone: String)
    /// Compact JSON text.
    case text([UInt8])

    /// Positions of the digits in a canonical value, `YYYY-MM-DDTHH:MM:SS.mmmZ`.
    private static let digitOffsets = [0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18, 20, 21, 22]
    /// The other characters of a canonical value, by offset.
    private static let separators: [(Int, UInt8)] = [
        (4, UInt8(ascii: "-")), (7, UInt8(ascii: "-")), (10, UInt8(ascii: "T")), (13, UInt8(ascii: ":")),
        (16, UInt8(ascii: ":")), (19, UInt8(ascii: ".")), (23, UInt8(ascii: "Z")),
    ]

    init(_ json: JSON) {
        if case .object(let members) = json, members.count == 2,
            case .string(let value)? = members["value"], case .string(let zone)? = members["timezone"],
            let digits = Self.digits(of: value)
        {
            self = .packed(digits: digits, timezone: zone)
        } else {
            self = .text(JSONWriter().compactBytes(json))
        }
    }

    /// The date object.
    var json: JSON {
        switch self {
        case .packed(let digits, let zone):
            .object(["value": .string(Self.value(of: digits)), "timezone": .string(zone)])
        case .text(let bytes): (try? JSON.parse(bytes)) ?? .null
        }
    }

    /// The date object as compact JSON.
    var compactJSON: [UInt8] {
        switch self {
        case .packed: JSONWriter().compactBytes(json)
        case .text(let bytes): bytes
        }
    }

    /// The digits of a canonical UTC value, nil for any other text.
    private static func digits(of value: String) -> Int64? {
        var copy = value
        return copy.withUTF8 { bytes -> Int64? in
            guard bytes.count == 24 else { return nil }
            for (offset, byte) in separators where bytes[offset] != byte { return nil }
            var number: Int64 = 0
            for offset in digitOffsets {
                let digit = bytes[offset] &- UInt8(ascii: "0")
                guard digit <= 9 else { return nil }
                number = number * 10 + Int64(digit)
            }
            return number
        }
    }

    /// The canonical value whose digits are `digits`.
    private static func value(of digits: Int64) -> String {
        String(unsafeUninitializedCapacity: 24) { buffer in
            var rest = digits
            for offset in digitOffsets.reversed() {
                buffer[offset] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            }
            for (offset, byte) in separators { buffer[offset] = byte }
            return 24
        }
    }
}
