// Date patterns for query values: core's `DatePattern` (calendar-year letters only, so Oracle's
// `YYYY`/`DD` week-year trap cannot be asked for) plus the UTC offset at which dates are written.

import FoundationEssentials

/// A calendar-year date pattern plus the UTC offset used to render dates in it.
public struct QueryDateFormat: Sendable, Hashable, CustomStringConvertible {
    /// The pattern as given.
    public let pattern: String
    /// Seconds east of UTC at which dates are rendered (0 renders UTC).
    public let utcOffsetSeconds: Int
    let datePattern: DatePattern

    /// A pattern built from `yyyy MM dd HH mm ss SSS xxx`, quoted literals like `'T'` and the
    /// separators `- / : . space`. Week-year (`YYYY`), day-of-year (`DD`) and 12-hour (`hh`) fields
    /// are refused.
    public init(_ pattern: String, utcOffsetSeconds: Int = 0) throws(QueryError) {
        self.pattern = pattern
        self.utcOffsetSeconds = utcOffsetSeconds
        do {
            self.datePattern = try DatePattern(pattern)
        } catch {
            throw .invalidDatePattern(pattern: pattern, reason: error.reason)
        }
    }

    private init(known pattern: String) {
        self.pattern = pattern
        self.utcOffsetSeconds = 0
        self.datePattern = (try? DatePattern(pattern)) ?? DatePattern.date
    }

    /// The same pattern rendered at another UTC offset.
    public func offset(bySeconds seconds: Int) -> QueryDateFormat {
        (try? QueryDateFormat(pattern, utcOffsetSeconds: seconds)) ?? self
    }

    /// The pattern as given.
    public var description: String { pattern }

    /// `1989-03-26`
    public static let date = QueryDateFormat(known: "yyyy-MM-dd")
    /// `1989/03/26`
    public static let slashDate = QueryDateFormat(known: "yyyy/MM/dd")
    /// `26-03-1989`
    public static let dayFirstDate = QueryDateFormat(known: "dd-MM-yyyy")
    /// `26/03/1989`
    public static let dayFirstSlashDate = QueryDateFormat(known: "dd/MM/yyyy")
    /// `1989-03-26T18:32:38`
    public static let dateTime = QueryDateFormat(known: "yyyy-MM-dd'T'HH:mm:ss")
    /// `1989-03-26T18:32:38.840`
    public static let dateTimeMilliseconds = QueryDateFormat(known: "yyyy-MM-dd'T'HH:mm:ss.SSS")
    /// `19890326`
    public static let compactDate = QueryDateFormat(known: "yyyyMMdd")
    /// `19890326183238`
    public static let compactDateTime = QueryDateFormat(known: "yyyyMMddHHmmss")
    /// `19890326183238840`
    public static let compactDateTimeMilliseconds = QueryDateFormat(known: "yyyyMMddHHmmssSSS")
    /// `1989-03-26T18:32:38+05:30`
    public static let dateTimeOffset = QueryDateFormat(known: "yyyy-MM-dd'T'HH:mm:ssxxx")
    /// `1989-03-26T18:32:38.840+05:30`
    public static let dateTimeMillisecondsOffset = QueryDateFormat(known: "yyyy-MM-dd'T'HH:mm:ss.SSSxxx")

    /// `date` rendered with this pattern at this offset.
    public func string(from date: Date) -> String {
        CivilDateTime(date, offsetSeconds: utcOffsetSeconds).text(datePattern)
    }
}
