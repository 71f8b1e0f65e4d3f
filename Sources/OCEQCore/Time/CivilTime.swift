// Proleptic Gregorian calendar arithmetic on day numbers (days since 1970-01-01), after Howard
// Hinnant's `days_from_civil` / `civil_from_days`. Used for query dates, ISO-8601 and HTTP dates
// without DateFormatter (which FoundationEssentials does not have). Public so that the language's
// date literals and `oceq serve`'s query dates count days the same way.

import FoundationEssentials

/// Calendar-year/month/day arithmetic in UTC.
public enum CivilTime {
    /// Days since 1970-01-01 of the given calendar date.
    public static func days(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let monthFromMarch = (month + 9) % 12
        let dayOfYear = (153 * monthFromMarch + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The calendar date of a day number.
    package static func date(days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthFromMarch = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthFromMarch + 2) / 5 + 1
        let month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// The number of days in a month of a calendar year.
    public static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// The instant of a UTC calendar date and time.
    package static func instant(
        year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, milliseconds: Int = 0,
        offsetSeconds: Int = 0
    ) -> Date {
        let dayNumber = days(year: year, month: month, day: day)
        let seconds = dayNumber * 86_400 + hour * 3600 + minute * 60 + second - offsetSeconds
        return Date(timeIntervalSince1970: Double(seconds) + Double(milliseconds) / 1000)
    }

    /// `value` zero-padded to `width` digits (a minus sign first for negatives).
    public static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(value.magnitude)
        let padding = String(repeating: "0", count: max(0, width - digits.count))
        return (value < 0 ? "-" : "") + padding + digits
    }
}
