// The one date model of the API's date forms (delivery-api.md §5.5 and the `{value, timezone}`
// dates of items): a calendar date, a time of day when one is written, a UTC offset when one is
// written (none means UTC). Everything reads dates with `ASCIIScanner` and the steps below; the
// forms differ only in which steps they allow:
//
//   iso8601     yyyy-MM-dd, or yyyy-MM-dd(T|t|space)HH:mm:ss[.f...](Z|±HH[:]mm)   item dates
//   queryValue  yyyy-MM-dd | yyyy/MM/dd | dd-MM-yyyy | dd/MM/yyyy, each optionally followed by
//               (T|t|space)HH:mm[:ss[.f{1,9}]] and Z | ±HH[:mm] | ±HHmm; or compact yyyyMMdd,
//               yyyyMMddHHmmss, yyyyMMddHHmmssSSS                                  `q` values
//   the language's literals (OCEQLanguage's DateLiteral) read their own subset with the same steps.
//
// Dates are written back with `DatePattern`, calendar-year letters only.

import FoundationEssentials

/// A calendar date with an optional time of day and UTC offset, as written.
package struct CivilDateTime: Sendable, Hashable {
    /// Calendar year, month (1–12) and day of month.
    package var year: Int, month: Int, day: Int
    /// The time of day, if one was written.
    package var time: TimeOfDay?
    /// Seconds east of UTC, if an offset (or `Z`) was written.
    package var offsetSeconds: Int?

    /// A time of day.
    package struct TimeOfDay: Sendable, Hashable {
        /// 0–23, 0–59, 0–60 (a leap second, where a form allows one).
        package var hour: Int, minute: Int, second: Int
        /// The fraction of the second in nanoseconds (from its first nine digits).
        package var nanoseconds: Int = 0
        /// How many fraction digits were written (0: no fraction).
        package var fractionDigits: Int = 0

        /// A time of day.
        package init(hour: Int, minute: Int, second: Int, nanoseconds: Int = 0, fractionDigits: Int = 0) {
            self.hour = hour
            self.minute = minute
            self.second = second
            self.nanoseconds = nanoseconds
            self.fractionDigits = fractionDigits
        }

        /// The fraction cut to milliseconds.
        package var milliseconds: Int { nanoseconds / 1_000_000 }
    }

    /// A date as written.
    package init(year: Int, month: Int, day: Int, time: TimeOfDay? = nil, offsetSeconds: Int? = nil) {
        self.year = year
        self.month = month
        self.day = day
        self.time = time
        self.offsetSeconds = offsetSeconds
    }

    /// The wall time of `instant` at `offsetSeconds` east of UTC, to the millisecond.
    package init(_ instant: Date, offsetSeconds: Int) {
        // Round to the microsecond first: `Date` keeps seconds since 2001 in a Double, so 15.678 may
        // come back as 15.677999…, which would otherwise print as .677.
        let microseconds = (instant.timeIntervalSince1970 * 1_000_000).rounded()
        let totalMilliseconds = Int((microseconds / 1000).rounded(.down)) + offsetSeconds * 1000
        let dayNumber = Int((Double(totalMilliseconds) / 86_400_000).rounded(.down))
        let inDay = totalMilliseconds - dayNumber * 86_400_000
        let (year, month, day) = CivilTime.date(days: dayNumber)
        let time = TimeOfDay(
            hour: inDay / 3_600_000, minute: inDay / 60_000 % 60, second: inDay / 1000 % 60,
            nanoseconds: inDay % 1000 * 1_000_000, fractionDigits: 3)
        self.init(year: year, month: month, day: day, time: time, offsetSeconds: offsetSeconds)
    }

    /// True when the month exists and the day is in it.
    package var dateExists: Bool {
        (1...12).contains(month) && day >= 1 && day <= CivilTime.daysInMonth(year: year, month: month)
    }

    /// Milliseconds since 1970-01-01T00:00:00Z (the fraction cut to milliseconds).
    package var epochMilliseconds: Int64 {
        let days = Int64(CivilTime.days(year: year, month: month, day: day))
        let time = self.time ?? TimeOfDay(hour: 0, minute: 0, second: 0)
        let inDay = time.hour * 3_600_000 + time.minute * 60_000 + time.second * 1000 + time.milliseconds
        return days * 86_400_000 + Int64(inDay) - Int64(offsetSeconds ?? 0) * 1000
    }

    /// The instant, with the whole fraction.
    package var instant: Date {
        let time = self.time ?? TimeOfDay(hour: 0, minute: 0, second: 0)
        let whole = CivilTime.instant(
            year: year, month: month, day: day, hour: time.hour, minute: time.minute, second: time.second,
            offsetSeconds: offsetSeconds ?? 0)
        guard time.fractionDigits > 0 else { return whole }
        return Date(timeIntervalSince1970: whole.timeIntervalSince1970 + Double(time.nanoseconds) / 1_000_000_000)
    }

    /// False for date-only values (`2021-04-15`).
    package var hasTime: Bool { time != nil }

    /// `yyyy-MM-dd`, the calendar date as written (in its own offset).
    package var localDate: String { text(DatePattern.date) }

    /// The date written with `pattern`.
    package func text(_ pattern: DatePattern) -> String {
        let time = self.time ?? TimeOfDay(hour: 0, minute: 0, second: 0)
        let offset = offsetSeconds ?? 0
        var out = ""
        for token in pattern.tokens {
            switch token {
            case .year: out += CivilTime.pad(year, 4)
            case .month: out += CivilTime.pad(month, 2)
            case .day: out += CivilTime.pad(day, 2)
            case .hour: out += CivilTime.pad(time.hour, 2)
            case .minute: out += CivilTime.pad(time.minute, 2)
            case .second: out += CivilTime.pad(time.second, 2)
            case .milliseconds: out += CivilTime.pad(time.milliseconds, 3)
            case .offset:
                let magnitude = abs(offset) / 60
                out += (offset < 0 ? "-" : "+") + CivilTime.pad(magnitude / 60, 2) + ":"
                out += CivilTime.pad(magnitude % 60, 2)
            case .literal(let text): out += text
            }
        }
        return out
    }
}

// MARK: the forms

extension CivilDateTime {
    /// An item date: `yyyy-MM-dd'T'HH:mm:ss[.fraction](Z|±HH:mm|±HHmm)` (a space or `t` for the
    /// `T`), or a bare `yyyy-MM-dd` (UTC); nil for anything else.
    package static func iso8601(_ text: String) -> CivilDateTime? {
        var scanner = ASCIIScanner(text)
        guard let (year, month, day, separator) = scanner.yearFirstDate(), separator == UInt8(ascii: "-") else {
            return nil
        }
        var date = CivilDateTime(year: year, month: month, day: day)
        guard date.dateExists else { return nil }
        if scanner.isAtEnd { return date }
        guard scanner.timeSeparator(allowingSpace: true), let (time, secondsWritten) = scanner.timeOfDay(),
            secondsWritten, time.hour < 24, time.minute < 60, time.second < 61
        else { return nil }
        date.time = time
        guard let offset = scanner.utcOffset(colonRequired: false, minutesOptional: false), scanner.isAtEnd else {
            return nil
        }
        date.offsetSeconds = offset
        return date
    }

    /// A `q` value read as a datetime, in any of the forms the API accepts; nil for anything else.
    /// Values without an offset, and date-only values, are UTC.
    package static func queryValue(_ text: String) -> CivilDateTime? {
        var scanner = ASCIIScanner(text)
        var date: CivilDateTime
        if let compact = scanner.compactDateTime() {
            date = compact
        } else {
            scanner.index = 0
            if let (year, month, day, _) = scanner.yearFirstDate() {
                date = CivilDateTime(year: year, month: month, day: day)
            } else {
                scanner.index = 0
                guard let (year, month, day) = scanner.dayFirstDate() else { return nil }
                date = CivilDateTime(year: year, month: month, day: day)
            }
            if !scanner.isAtEnd {
                guard scanner.timeSeparator(allowingSpace: true), let (time, _) = scanner.timeOfDay(),
                    time.fractionDigits <= 9
                else { return nil }
                date.time = time
                if !scanner.isAtEnd {
                    guard let offset = scanner.utcOffset(colonRequired: false, minutesOptional: true) else {
                        return nil
                    }
                    date.offsetSeconds = offset
                }
            }
        }
        guard scanner.isAtEnd, date.year >= 1, date.dateExists else { return nil }
        if let time = date.time, time.hour > 23 || time.minute > 59 || time.second > 59 { return nil }
        return date
    }
}

// MARK: the steps

extension ASCIIScanner {
    /// `yyyy-MM-dd` or `yyyy/MM/dd` (the same separator twice), not checked for range.
    package mutating func yearFirstDate() -> (year: Int, month: Int, day: Int, separator: UInt8)? {
        guard let year = digits(4), let separator = peek,
            separator == UInt8(ascii: "-") || separator == UInt8(ascii: "/")
        else { return nil }
        index += 1
        guard let month = digits(2), skip(separator), let day = digits(2) else { return nil }
        return (year, month, day, separator)
    }

    /// `dd-MM-yyyy` or `dd/MM/yyyy` (the same separator twice), not checked for range.
    package mutating func dayFirstDate() -> (year: Int, month: Int, day: Int)? {
        guard let day = digits(2), let separator = peek,
            separator == UInt8(ascii: "-") || separator == UInt8(ascii: "/")
        else { return nil }
        index += 1
        guard let month = digits(2), skip(separator), let year = digits(4) else { return nil }
        return (year, month, day)
    }

    /// The whole text as `yyyyMMdd`, `yyyyMMddHHmmss` or `yyyyMMddHHmmssSSS`, not checked for range.
    package mutating func compactDateTime() -> CivilDateTime? {
        let count = bytes.count - index
        guard [8, 14, 17].contains(count), let year = digits(4), let month = digits(2), let day = digits(2) else {
            return nil
        }
        var date = CivilDateTime(year: year, month: month, day: day)
        guard count > 8 else { return date }
        guard let hour = digits(2), let minute = digits(2), let second = digits(2) else { return nil }
        var time = CivilDateTime.TimeOfDay(hour: hour, minute: minute, second: second)
        if count == 17 {
            guard let milliseconds = digits(3) else { return nil }
            (time.nanoseconds, time.fractionDigits) = (milliseconds * 1_000_000, 3)
        }
        date.time = time
        return date
    }

    /// Consumes `T` or `t` (or a space, when allowed) between a date and its time.
    package mutating func timeSeparator(allowingSpace: Bool) -> Bool {
        skip(UInt8(ascii: "T")) || skip(UInt8(ascii: "t")) || (allowingSpace && skip(0x20))
    }

    /// `HH:mm`, then `:ss` and `.fraction` when they follow, and whether the seconds were written;
    /// not checked for range. A `.` without digits is no time.
    package mutating func timeOfDay() -> (time: CivilDateTime.TimeOfDay, secondsWritten: Bool)? {
        guard let hour = digits(2), skip(UInt8(ascii: ":")), let minute = digits(2) else { return nil }
        var time = CivilDateTime.TimeOfDay(hour: hour, minute: minute, second: 0)
        guard skip(UInt8(ascii: ":")) else { return (time, false) }
        guard let second = digits(2) else { return nil }
        time.second = second
        if skip(UInt8(ascii: ".")) {
            guard let (nanoseconds, count) = fraction() else { return nil }
            (time.nanoseconds, time.fractionDigits) = (nanoseconds, count)
        }
        return (time, true)
    }

    /// The digits of a fraction (after its `.`): nanoseconds from the first nine, and how many
    /// were written; nil when there is none.
    package mutating func fraction() -> (nanoseconds: Int, count: Int)? {
        var nanoseconds = 0
        var count = 0
        while let byte = peek, byte >= 0x30, byte <= 0x39 {
            if count < 9 { nanoseconds = nanoseconds * 10 + Int(byte - 0x30) }
            count += 1
            index += 1
        }
        guard count > 0 else { return nil }
        for _ in min(count, 9)..<9 { nanoseconds *= 10 }
        return (nanoseconds, count)
    }

    /// `Z`, `z` or `±HH:mm` (the colon optional unless `colonRequired`; the minutes optional at the
    /// end when `minutesOptional`), in seconds east of UTC; nil when it is not one.
    package mutating func utcOffset(colonRequired: Bool, minutesOptional: Bool) -> Int? {
        if skip(UInt8(ascii: "Z")) || skip(UInt8(ascii: "z")) { return 0 }
        guard let sign = peek, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") else { return nil }
        index += 1
        guard let hours = digits(2), hours < 24 else { return nil }
        let colon = skip(UInt8(ascii: ":"))
        if colonRequired && !colon { return nil }
        var minutes = 0
        if !(minutesOptional && isAtEnd) {
            guard let written = digits(2), written < 60 else { return nil }
            minutes = written
        }
        return (hours * 3600 + minutes * 60) * (sign == UInt8(ascii: "-") ? -1 : 1)
    }
}
