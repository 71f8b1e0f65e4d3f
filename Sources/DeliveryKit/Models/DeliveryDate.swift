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

    /// Parses `yyyy-MM-dd'T'HH:mm:ss[.fraction](Z|±HH:mm|±HHmm)`, or a bare `yyyy-MM-dd` (as UTC):
    /// core's one date model, in its item-date form.
    public static func parseISO8601(_ text: String) -> Date? {
        CivilDateTime.iso8601(text)?.instant
    }
}
