// Dates written without quotes. An unquoted word that starts like a calendar date (four digits,
// then `-` or `/`) is read as an ISO date or date-time and checked; a quoted string never is. The
// compiler sends it in one of the API's accepted forms (delivery-api.md §5.5) written with
// calendar-year patterns (`yyyy-MM-dd`, never the week-year `YYYY` that Oracle's table spells):
//
//   2024-03-26 | 2024/03/26           -> 2024-03-26                      yyyy-MM-dd
//   2024-03-26T18:32[:38]             -> 2024-03-26T18:32:38             yyyy-MM-dd'T'HH:mm:ss
//   2024-03-26T18:32:38.5             -> 2024-03-26T18:32:38.500         yyyy-MM-dd'T'HH:mm:ss.SSS
//   ...Z | ...+05:30                  -> ...+00:00 | ...+05:30           ...xxx

import DeliveryKit
import OCEQCore

/// A calendar date, optionally with a time and a UTC offset, checked to exist.
public struct DateLiteral: Sendable, Hashable {
    /// The text as written.
    public var text: String
    /// Calendar year, month (1–12) and day of month.
    public var year: Int, month: Int, day: Int
    /// The time of day, if one was written.
    public var time: Time?
    /// Minutes east of UTC, if an offset (or `Z`) was written.
    public var offsetMinutes: Int?

    /// A time of day.
    public struct Time: Sendable, Hashable {
        /// 0–23, 0–59, 0–59.
        public var hour: Int, minute: Int, second: Int
        /// 0–999, or nil when no fraction was written.
        public var milliseconds: Int?
    }

    /// True when `text` starts the way a date does: four digits and `-` or `/`.
    static func looksLikeDate(_ bytes: some Collection<UInt8>) -> Bool {
        var count = 0
        for byte in bytes {
            if count < 4 {
                guard byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") else { return false }
            } else {
                return byte == UInt8(ascii: "-") || byte == UInt8(ascii: "/")
            }
            count += 1
        }
        return false
    }

    /// Parses `text`; the error is a lower-case reason.
    public static func parse(_ text: String) -> Result<DateLiteral, DateError> {
        var scanner = DateScanner(bytes: Array(text.utf8))
        return scanner.scan(text: text)
    }

    /// Why a date-shaped word is not a date.
    public enum DateError: Error, Sendable, Hashable, CustomStringConvertible {
        case malformed
        case month(Int)
        case day(Int)
        case time
        case fraction
        case offset

        public var description: String {
            switch self {
            case .malformed: return "expected yyyy-MM-dd, optionally followed by 'T'HH:mm[:ss[.SSS]] and an offset"
            case .month(let month): return "there is no month \(month)"
            case .day(let day): return "there is no day \(day) in that month"
            case .time: return "the time is out of range"
            case .fraction: return "fractions of a second have at most 3 digits"
            case .offset: return "the offset must be Z or +HH:mm"
            }
        }
    }

    /// The calendar-year pattern (Unicode date-format letters) in which the value is sent.
    public var pattern: String {
        var pattern = "yyyy-MM-dd"
        if let time {
            pattern += "'T'HH:mm:ss"
            if time.milliseconds != nil { pattern += ".SSS" }
            if offsetMinutes != nil { pattern += "xxx" }
        }
        return pattern
    }

    /// The value as sent to the API, in `pattern`.
    public var canonicalText: String {
        var out = CivilTime.pad(year, 4) + "-" + CivilTime.pad(month, 2) + "-" + CivilTime.pad(day, 2)
        guard let time else { return out }
        out += "T" + CivilTime.pad(time.hour, 2) + ":" + CivilTime.pad(time.minute, 2) + ":"
        out += CivilTime.pad(time.second, 2)
        if let milliseconds = time.milliseconds { out += "." + CivilTime.pad(milliseconds, 3) }
        if let offsetMinutes {
            let magnitude = abs(offsetMinutes)
            out += (offsetMinutes < 0 ? "-" : "+") + CivilTime.pad(magnitude / 60, 2) + ":"
            out += CivilTime.pad(magnitude % 60, 2)
        }
        return out
    }
}

struct DateScanner {
    let bytes: [UInt8]
    var index = 0

    mutating func number(_ digits: Int) -> Int? {
        guard index + digits <= bytes.count else { return nil }
        var value = 0
        for offset in index..<(index + digits) {
            let byte = bytes[offset]
            guard byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        index += digits
        return value
    }

    mutating func eat(_ char: Unicode.Scalar) -> Bool {
        guard index < bytes.count, bytes[index] == UInt8(ascii: char) else { return false }
        index += 1
        return true
    }

    var atEnd: Bool { index >= bytes.count }

    mutating func scan(text: String) -> Result<DateLiteral, DateLiteral.DateError> {
        guard let year = number(4) else { return .failure(.malformed) }
        let separator: Unicode.Scalar = eat("-") ? "-" : (eat("/") ? "/" : "?")
        guard separator != "?", let month = number(2), eat(separator), let day = number(2) else {
            return .failure(.malformed)
        }
        guard (1...12).contains(month) else { return .failure(.month(month)) }
        guard day >= 1 && day <= CivilTime.daysInMonth(year: year, month: month) else { return .failure(.day(day)) }
        var date = DateLiteral(text: text, year: year, month: month, day: day, time: nil, offsetMinutes: nil)
        if atEnd { return .success(date) }
        guard separator == "-", eat("T") || eat("t") else { return .failure(.malformed) }
        guard let hour = number(2), eat(":"), let minute = number(2) else { return .failure(.malformed) }
        var second = 0
        var milliseconds: Int?
        if eat(":") {
            guard let value = number(2) else { return .failure(.malformed) }
            second = value
            if eat(".") {
                let start = index
                while index < bytes.count && bytes[index] >= UInt8(ascii: "0") && bytes[index] <= UInt8(ascii: "9") {
                    index += 1
                }
                let digits = index - start
                guard digits >= 1 else { return .failure(.malformed) }
                guard digits <= 3 else { return .failure(.fraction) }
                index = start
                guard let fraction = number(digits) else { return .failure(.malformed) }
                milliseconds = fraction * (digits == 1 ? 100 : digits == 2 ? 10 : 1)
            }
        }
        guard hour <= 23, minute <= 59, second <= 59 else { return .failure(.time) }
        date.time = DateLiteral.Time(hour: hour, minute: minute, second: second, milliseconds: milliseconds)
        if atEnd { return .success(date) }
        if eat("Z") || eat("z") {
            date.offsetMinutes = 0
        } else {
            let sign = eat("+") ? 1 : (eat("-") ? -1 : 0)
            guard sign != 0, let hours = number(2), eat(":"), let minutes = number(2), hours <= 23, minutes <= 59
            else { return .failure(.offset) }
            date.offsetMinutes = sign * (hours * 60 + minutes)
        }
        return atEnd ? .success(date) : .failure(.malformed)
    }
}
