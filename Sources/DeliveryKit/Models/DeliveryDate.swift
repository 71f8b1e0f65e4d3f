// Dates as the delivery API sends them: `{"value": "2020-06-17T00:00:00.000-06:00",
// "timezone": "America/Denver"}`. Unlike Oracle's SDK, a value without fractional seconds is still
// a date, and a date that cannot be parsed never breaks the decoding of the item around it.

import FoundationEssentials
import OCEQCore

/// A `{value, timezone}` date of the delivery API.
public struct DeliveryDate: Sendable, Hashable, CustomStringConvertible {
    /// The ISO-8601 text as sent.
    public var value: String
    /// The IANA time-zone name as sent (`UTC`, `America/Denver`).
    public var timezone: String?
    /// The instant, or nil when `value` is not ISO-8601.
    public var date: Date?

    public init(value: String, timezone: String? = nil) {
        self.value = value
        self.timezone = timezone
        self.date = DeliveryDate.parseISO8601(value)
    }

    /// A date from a `{value, timezone}` object or a bare ISO-8601 string; nil for anything else.
    public init?(json: JSON) {
        switch json {
        case .string(let s):
            guard DeliveryDate.parseISO8601(s) != nil else { return nil }
            self.init(value: s)
        case .object(let members):
            guard let value = members["value"]?.stringValue else { return nil }
            self.init(value: value, timezone: members["timezone"]?.stringValue)
        default: return nil
        }
    }

    /// The `{value, timezone}` object.
    public var json: JSON {
        var object: [String: JSON] = ["value": .string(value)]
        if let timezone { object["timezone"] = .string(timezone) }
        return .object(object)
    }

    public var description: String { value }

    /// Parses `yyyy-MM-dd'T'HH:mm:ss[.fraction](Z|±HH:mm|±HHmm)`, or a bare `yyyy-MM-dd` (as UTC).
    public static func parseISO8601(_ text: String) -> Date? {
        var scanner = ASCIIScanner(text)
        guard let year = scanner.digits(4), scanner.skip(UInt8(ascii: "-")), let month = scanner.digits(2),
            scanner.skip(UInt8(ascii: "-")), let day = scanner.digits(2), (1...12).contains(month),
            (1...CivilTime.daysInMonth(year: year, month: month)).contains(day)
        else { return nil }
        if scanner.isAtEnd {
            return CivilTime.instant(year: year, month: month, day: day, hour: 0, minute: 0, second: 0)
        }
        guard scanner.skip(UInt8(ascii: "T")) || scanner.skip(UInt8(ascii: "t")) || scanner.skip(0x20),
            let hour = scanner.digits(2), scanner.skip(UInt8(ascii: ":")), let minute = scanner.digits(2),
            scanner.skip(UInt8(ascii: ":")), let second = scanner.digits(2), hour < 24, minute < 60, second < 61
        else { return nil }
        var fraction = 0.0
        if scanner.skip(UInt8(ascii: ".")) {
            guard let (digits, count) = scanner.someDigits(limit: 9) else { return nil }
            fraction = Double(digits) / pow10(count)
            while scanner.someDigits(limit: 1) != nil {}
        }
        var offset = 0
        if scanner.skip(UInt8(ascii: "Z")) || scanner.skip(UInt8(ascii: "z")) {
            offset = 0
        } else if let sign = scanner.peek, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
            scanner.index += 1
            guard let hours = scanner.digits(2) else { return nil }
            _ = scanner.skip(UInt8(ascii: ":"))
            guard let minutes = scanner.digits(2), hours < 24, minutes < 60 else { return nil }
            offset = (hours * 3600 + minutes * 60) * (sign == UInt8(ascii: "-") ? -1 : 1)
        } else {
            return nil
        }
        guard scanner.isAtEnd else { return nil }
        let whole = CivilTime.instant(
            year: year, month: month, day: day, hour: hour, minute: minute, second: second, offsetSeconds: offset)
        return Date(timeIntervalSince1970: whole.timeIntervalSince1970 + fraction)
    }

    private static func pow10(_ n: Int) -> Double {
        var value = 1.0
        for _ in 0..<n { value *= 10 }
        return value
    }
}
