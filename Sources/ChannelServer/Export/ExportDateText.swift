import OCEQCore

/// Dates as Delivery prints them: `{"value": "<ISO-8601 with milliseconds>", "timezone": "<IANA>"}`.
///
/// Oracle's Swift SDK fails to decode a whole item when a top-level date lacks fractional seconds,
/// so every date leaving the shaper carries exactly three digits of milliseconds.
enum ExportDateText {
    /// True for an object with a string `value` and at most `timezone`/`description` besides.
    static func looksLikeDate(_ json: JSON) -> Bool {
        guard case .object(let members) = json, let value = members["value"]?.stringValue else { return false }
        guard members.count <= 3, members.keys.allSatisfy({ $0 == "value" || $0 == "timezone" || $0 == "description" })
        else { return false }
        return isTimestamp(value)
    }

    /// A rough check that `text` starts like `YYYY-MM-DDTHH:MM`.
    static func isTimestamp(_ text: String) -> Bool {
        var copy = text
        return copy.withUTF8 { isTimestamp($0) }
    }

    private static func isTimestamp(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard bytes.count >= 16 else { return false }
        return bytes[4] == UInt8(ascii: "-") && bytes[7] == UInt8(ascii: "-")
            && (bytes[10] == UInt8(ascii: "T") || bytes[10] == UInt8(ascii: " ")) && bytes[13] == UInt8(ascii: ":")
    }

    /// True when `text` already reads `YYYY-MM-DDTHH:MM:SS.mmm` followed by a zone (no digit).
    static func isCanonical(_ text: String) -> Bool {
        var copy = text
        return copy.withUTF8 { bytes in
            guard bytes.count >= 24, isTimestamp(bytes), bytes[10] == UInt8(ascii: "T"), bytes[16] == UInt8(ascii: ":"),
                bytes[19] == UInt8(ascii: ".")
            else { return false }
            for index in 20...22 where !(0x30...0x39).contains(bytes[index]) { return false }
            return !(0x30...0x39).contains(bytes[23])
        }
    }

    /// The date object with milliseconds and a time zone; other values are returned unchanged.
    /// A bare timestamp string becomes `{value, timezone: "UTC"}` when `wrapStrings` is set.
    static func normalize(_ json: JSON, wrapStrings: Bool = false) -> JSON {
        switch json {
        case .object(var members):
            guard let value = members["value"]?.stringValue else { return json }
            if members.count == 2, members["timezone"]?.stringValue != nil, isCanonical(value) { return json }
            guard looksLikeDate(json) else { return json }
            let fixed = withMilliseconds(value)
            if fixed == value && members["timezone"]?.stringValue != nil { return json }
            members["value"] = .string(fixed)
            if members["timezone"]?.stringValue == nil { members["timezone"] = .string("UTC") }
            return .object(members)
        case .string(let value) where wrapStrings && isTimestamp(value):
            return .object(["value": .string(withMilliseconds(value)), "timezone": "UTC"])
        default:
            return json
        }
    }

    /// `2020-06-17T00:00:00Z` → `2020-06-17T00:00:00.000Z`; `…:00.5-06:00` → `…:00.500-06:00`;
    /// more than three fraction digits are cut to three. A value without seconds gains `:00`.
    static func withMilliseconds(_ value: String) -> String {
        let bytes = Array(value.utf8)
        guard bytes.count >= 16, isTimestamp(value) else { return value }
        var index = 16
        var head = Array(bytes[0..<16])
        head[10] = UInt8(ascii: "T")
        // Seconds.
        if index < bytes.count, bytes[index] == UInt8(ascii: ":") {
            let end = min(index + 3, bytes.count)
            head.append(contentsOf: bytes[index..<end])
            index = end
        } else {
            head.append(contentsOf: Array(":00".utf8))
        }
        // Fraction.
        var fraction: [UInt8] = []
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") || bytes[index] == UInt8(ascii: ",") {
            index += 1
            while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 {
                fraction.append(bytes[index])
                index += 1
            }
        }
        while fraction.count < 3 { fraction.append(UInt8(ascii: "0")) }
        head.append(UInt8(ascii: "."))
        head.append(contentsOf: fraction.prefix(3))
        // Zone: whatever follows (`Z`, `+01:00`, ...), `Z` when nothing does.
        if index < bytes.count {
            head.append(contentsOf: bytes[index...])
        } else {
            head.append(UInt8(ascii: "Z"))
        }
        return String(decoding: head, as: UTF8.self)
    }
}
