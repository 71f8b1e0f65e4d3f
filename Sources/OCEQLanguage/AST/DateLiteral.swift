// Dates written without quotes. An unquoted word that starts like a calendar date (four digits,
// then `-` or `/`) is read as an ISO date or date-time and checked; a quoted string never is. The
// compiler sends it in one of the API's accepted forms (delivery-api.md §5.5) written with
// calendar-year patterns (`yyyy-MM-dd`, never the week-year `YYYY` that Oracle's table spells):
//
//   2024-03-26 | 2024/03/26           -> 2024-03-26                      yyyy-MM-dd
//   2024-03-26T18:32[:38]             -> 2024-03-26T18:32:38             yyyy-MM-dd'T'HH:mm:ss
//   2024-03-26T18:32:38.5             -> 2024-03-26T18:32:38.500         yyyy-MM-dd'T'HH:mm:ss.SSS
//   ...Z | ...+05:30                  -> ...+00:00 | ...+05:30           ...xxx
//
// The date is core's `CivilDateTime`, read with core's `ASCIIScanner` steps and written with its
// `DatePattern`s; only the subset accepted and the reasons given are the language's.

import OCEQCore

/// A calendar date, optionally with a time and a UTC offset, checked to exist.
package struct DateLiteral: Sendable, Hashable {
    /// The text as written.
    package var text: String
    /// The date read.
    package var value: CivilDateTime

    /// Calendar year.
    package var year: Int { value.year }
    /// Month, 1–12.
    package var month: Int { value.month }
    /// Day of month.
    package var day: Int { value.day }

    /// The time of day, if one was written.
    package var time: Time? {
        value.time.map { time in
            Time(
                hour: time.hour, minute: time.minute, second: time.second,
                milliseconds: time.fractionDigits > 0 ? time.milliseconds : nil)
        }
    }

    /// Minutes east of UTC, if an offset (or `Z`) was written.
    package var offsetMinutes: Int? { value.offsetSeconds.map { $0 / 60 } }

    /// A time of day.
    package struct Time: Sendable, Hashable {
        /// 0–23, 0–59, 0–59.
        package var hour: Int, minute: Int, second: Int
        /// 0–999, or nil when no fraction was written.
        package var milliseconds: Int?
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
    package static func parse(_ text: String) -> Result<DateLiteral, DateError> {
        var scanner = ASCIIScanner(text)
        guard let (year, month, day, separator) = scanner.yearFirstDate() else { return .failure(.malformed) }
        guard (1...12).contains(month) else { return .failure(.month(month)) }
        guard day >= 1 && day <= CivilTime.daysInMonth(year: year, month: month) else { return .failure(.day(day)) }
        var value = CivilDateTime(year: year, month: month, day: day)
        if scanner.isAtEnd { return .success(DateLiteral(text: text, value: value)) }
        guard separator == UInt8(ascii: "-"), scanner.timeSeparator(allowingSpace: false),
            let (time, _) = scanner.timeOfDay()
        else { return .failure(.malformed) }
        guard time.fractionDigits <= 3 else { return .failure(.fraction) }
        guard time.hour <= 23, time.minute <= 59, time.second <= 59 else { return .failure(.time) }
        value.time = time
        if scanner.isAtEnd { return .success(DateLiteral(text: text, value: value)) }
        guard let offset = scanner.utcOffset(colonRequired: true, minutesOptional: false) else {
            return .failure(.offset)
        }
        value.offsetSeconds = offset
        return scanner.isAtEnd ? .success(DateLiteral(text: text, value: value)) : .failure(.malformed)
    }

    /// Why a date-shaped word is not a date.
    package enum DateError: Error, Sendable, Hashable, CustomStringConvertible {
        case malformed
        case month(Int)
        case day(Int)
        case time
        case fraction
        case offset

        package var description: String {
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

    /// The calendar-year pattern in which the value is sent.
    var datePattern: DatePattern {
        guard let time = value.time else { return .date }
        switch (time.fractionDigits > 0, value.offsetSeconds != nil) {
        case (false, false): return .dateTime
        case (true, false): return .dateTimeMilliseconds
        case (false, true): return .dateTimeOffset
        case (true, true): return .dateTimeMillisecondsOffset
        }
    }

    /// The calendar-year pattern (Unicode date-format letters) in which the value is sent.
    package var pattern: String { datePattern.pattern }

    /// The value as sent to the API, in `pattern`.
    package var canonicalText: String { value.text(datePattern) }
}
