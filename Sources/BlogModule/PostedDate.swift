// "MMM dd, yyyy" as the sample shows `published_date`, in the article's own time zone: the
// `timezone` the server sent when this system knows it, else the offset written in the value.

import DeliveryKit
import Foundation
import OCEQCore

/// The posted date of an article.
enum PostedDate {
    static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// `date` as `MMM dd, yyyy`; nil when it is not a date.
    static func text(_ date: DeliveryDate) -> String? {
        if let instant = date.date, let name = date.timezone, let zone = TimeZone(identifier: name) {
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = zone
            let parts = calendar.dateComponents([.year, .month, .day], from: instant)
            if let year = parts.year, let month = parts.month, let day = parts.day {
                return format(year: year, month: month, day: day)
            }
        }
        // The value is written in its own offset: its first ten characters are the local date.
        let digits = Array(date.value.utf8.prefix(10))
        guard digits.count == 10, let year = Int(String(decoding: digits[0..<4], as: UTF8.self)),
            let month = Int(String(decoding: digits[5..<7], as: UTF8.self)),
            let day = Int(String(decoding: digits[8..<10], as: UTF8.self)), (1...12).contains(month)
        else { return nil }
        return format(year: year, month: month, day: day)
    }

    /// The `published_date` of `article`, formatted; nil when it has none.
    static func of(_ article: Asset) -> String? {
        guard let value = article.fields?["published_date"], let date = DeliveryDate(json: value) else { return nil }
        return text(date)
    }

    static func format(year: Int, month: Int, day: Int) -> String {
        months[month - 1] + " " + (day < 10 ? "0" : "") + String(day) + ", " + String(year)
    }
}
