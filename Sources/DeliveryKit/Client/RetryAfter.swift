// `Retry-After` (RFC 9110 §10.2.3): delay-seconds or an HTTP-date. All three date forms HTTP
// recipients must accept are parsed: IMF-fixdate, RFC 850 and asctime.

import FoundationEssentials
import OCEQCore

/// Parsing of `Retry-After` and HTTP dates.
public enum RetryAfter {
    /// Seconds to wait from `value` at wall-clock time `now` (0 for a date in the past), or nil
    /// for text that is neither form.
    public static func seconds(_ value: String, now: Date) -> Double? {
        let text = value.trimmedWhitespace
        if !text.isEmpty, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) {
            return Double(text)
        }
        guard let date = httpDate(text) else { return nil }
        return max(0, date.timeIntervalSince(now))
    }

    static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    /// Parses `Sun, 06 Nov 1994 08:49:37 GMT`, `Sunday, 06-Nov-94 08:49:37 GMT` or
    /// `Sun Nov  6 08:49:37 1994`.
    public static func httpDate(_ text: String) -> Date? {
        var scanner = ASCIIScanner(text)
        _ = scanner.word()
        let isAsctime = !scanner.skip(UInt8(ascii: ","))
        scanner.skipSpaces()
        var day = 0
        var month = 0
        var year = 0
        if isAsctime {
            guard let m = months.firstIndex(of: scanner.word().lowercased()) else { return nil }
            month = m + 1
            scanner.skipSpaces()
            guard let d = scanner.someDigits(limit: 2) else { return nil }
            day = d.value
            scanner.skipSpaces()
        } else {
            guard let d = scanner.digits(2) else { return nil }
            day = d
            let dashed = scanner.skip(UInt8(ascii: "-"))
            if !dashed { scanner.skipSpaces() }
            guard let m = months.firstIndex(of: scanner.word().lowercased()) else { return nil }
            month = m + 1
            if dashed {
                guard scanner.skip(UInt8(ascii: "-")), let y = scanner.digits(2) else { return nil }
                year = y < 70 ? 2000 + y : 1900 + y
            } else {
                scanner.skipSpaces()
                guard let y = scanner.digits(4) else { return nil }
                year = y
            }
            scanner.skipSpaces()
        }
        guard let hour = scanner.digits(2), scanner.skip(UInt8(ascii: ":")), let minute = scanner.digits(2),
            scanner.skip(UInt8(ascii: ":")), let second = scanner.digits(2)
        else { return nil }
        scanner.skipSpaces()
        if isAsctime {
            guard let y = scanner.digits(4) else { return nil }
            year = y
        } else {
            guard scanner.word().uppercased() == "GMT" else { return nil }
        }
        scanner.skipSpaces()
        guard scanner.isAtEnd, (1...CivilTime.daysInMonth(year: year, month: month)).contains(day), hour < 24,
            minute < 60, second < 61
        else { return nil }
        return CivilTime.instant(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
    }
}
