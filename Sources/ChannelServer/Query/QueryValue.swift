// Typed readings of a `q` value: a number or a datetime (delivery-api.md §5.5).
//
// Datetime formats: YYYY-MM-DD, YYYY/MM/DD, DD-MM-YYYY, DD/MM/YYYY, each optionally followed by
// 'T'hh:mm:ss or 'T'hh:mm:ss.SSS (a space is accepted for the T, seconds may be omitted, 1-9
// fraction digits are read to the millisecond); compact YYYYMMDD, YYYYMMDDhhmmss,
// YYYYMMDDhhmmssSSS; any value with a time may end in Z or a ±HH:mm / ±HHmm / ±HH offset.
// Values without an offset, and date-only values, are UTC.

import DeliveryKit
import OCEQCore

/// An instant read from a query value or from an exported `{value, timezone}` date.
struct QueryDateTime: Equatable {
    /// Milliseconds since 1970-01-01T00:00:00Z.
    var epochMilliseconds: Int64
    /// False for date-only values (`2021-04-15`).
    var hasTime: Bool
    /// The calendar date as written, `YYYY-MM-DD` (in the value's own offset).
    var localDate: String

    /// Parses any accepted format, or nil.
    static func parse(_ text: String) -> QueryDateTime? {
        let b = Array(text.utf8)
        var i = 0
        func digits(_ n: Int) -> Int? {
            guard i + n <= b.count else { return nil }
            var v = 0
            for k in i..<(i + n) {
                guard b[k] >= 0x30, b[k] <= 0x39 else { return nil }
                v = v * 10 + Int(b[k] - 0x30)
            }
            i += n
            return v
        }
        func isDigit(_ k: Int) -> Bool { k < b.count && b[k] >= 0x30 && b[k] <= 0x39 }

        var year = 0
        var month = 0
        var day = 0
        var hour = 0
        var minute = 0
        var second = 0
        var millisecond = 0
        var hasTime = false

        if !b.isEmpty, b.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) {
            guard [8, 14, 17].contains(b.count) else { return nil }
            year = digits(4)!
            month = digits(2)!
            day = digits(2)!
            if b.count >= 14 {
                hasTime = true
                hour = digits(2)!
                minute = digits(2)!
                second = digits(2)!
            }
            if b.count == 17 { millisecond = digits(3)! }
        } else {
            if isDigit(0), isDigit(1), isDigit(2), isDigit(3) {
                year = digits(4)!
                guard i < b.count, b[i] == 0x2D || b[i] == 0x2F else { return nil }
                let separator = b[i]
                i += 1
                guard let m = digits(2) else { return nil }
                guard i < b.count, b[i] == separator else { return nil }
                i += 1
                guard let d = digits(2) else { return nil }
                (month, day) = (m, d)
            } else {
                guard let d = digits(2) else { return nil }
                guard i < b.count, b[i] == 0x2D || b[i] == 0x2F else { return nil }
                let separator = b[i]
                i += 1
                guard let m = digits(2) else { return nil }
                guard i < b.count, b[i] == separator else { return nil }
                i += 1
                guard let y = digits(4) else { return nil }
                (year, month, day) = (y, m, d)
            }
            if i < b.count {
                guard b[i] == 0x54 || b[i] == 0x74 || b[i] == 0x20 else { return nil }
                i += 1
                hasTime = true
                guard let h = digits(2), i < b.count, b[i] == 0x3A else { return nil }
                i += 1
                guard let mi = digits(2) else { return nil }
                (hour, minute) = (h, mi)
                if i < b.count, b[i] == 0x3A {
                    i += 1
                    guard let s = digits(2) else { return nil }
                    second = s
                    if i < b.count, b[i] == 0x2E {
                        i += 1
                        var n = 0
                        var scale = 100
                        while isDigit(i) {
                            if n < 3 { millisecond += Int(b[i] - 0x30) * scale }
                            scale /= 10
                            n += 1
                            i += 1
                        }
                        guard n > 0, n <= 9 else { return nil }
                    }
                }
            }
        }

        var offsetMinutes = 0
        if hasTime, i < b.count {
            if b[i] == 0x5A || b[i] == 0x7A {
                i += 1
            } else if b[i] == 0x2B || b[i] == 0x2D {
                let sign = b[i] == 0x2D ? -1 : 1
                i += 1
                guard let oh = digits(2), oh <= 23 else { return nil }
                var om = 0
                if i < b.count, b[i] == 0x3A { i += 1 }
                if i < b.count {
                    guard let m = digits(2), m <= 59 else { return nil }
                    om = m
                }
                offsetMinutes = sign * (oh * 60 + om)
            }
        }
        guard i == b.count else { return nil }
        guard year >= 1, month >= 1, month <= 12, day >= 1, day <= CivilTime.daysInMonth(year: year, month: month),
            hour <= 23,
            minute <= 59, second <= 59
        else { return nil }

        let days = Int64(CivilTime.days(year: year, month: month, day: day))
        var ms = days * 86_400_000 + Int64(hour * 3_600_000 + minute * 60_000 + second * 1000 + millisecond)
        ms -= Int64(offsetMinutes) * 60_000
        let local = CivilTime.pad(year, 4) + "-" + CivilTime.pad(month, 2) + "-" + CivilTime.pad(day, 2)
        return QueryDateTime(epochMilliseconds: ms, hasTime: hasTime, localDate: local)
    }
}

/// A decimal number read from a query value (`"21.12"`, `"-3"`, `"1e3"`), or nil.
enum QueryNumber {
    static func parse(_ text: String) -> Double? {
        let b = Array(text.utf8)
        var i = 0
        if i < b.count, b[i] == 0x2B || b[i] == 0x2D { i += 1 }
        var mantissa = 0
        while i < b.count, b[i] >= 0x30, b[i] <= 0x39 {
            i += 1
            mantissa += 1
        }
        if i < b.count, b[i] == 0x2E {
            i += 1
            while i < b.count, b[i] >= 0x30, b[i] <= 0x39 {
                i += 1
                mantissa += 1
            }
        }
        guard mantissa > 0 else { return nil }
        if i < b.count, b[i] == 0x65 || b[i] == 0x45 {
            i += 1
            if i < b.count, b[i] == 0x2B || b[i] == 0x2D { i += 1 }
            var exponent = 0
            while i < b.count, b[i] >= 0x30, b[i] <= 0x39 {
                i += 1
                exponent += 1
            }
            guard exponent > 0 else { return nil }
        }
        guard i == b.count, let value = Double(text), value.isFinite else { return nil }
        return value
    }
}
