// "MMM dd, yyyy" as the sample shows `published_date`, in the article's own time zone: the `timezone` the
// server sent when ICU knows it (opened at first use, `CICU`), else the offset written in the value (OCM writes
// a datetime in its zone's offset, so its first ten characters are then the local date).

import CICU
import DeliveryKit
import FoundationEssentials
import OCEQCore

/// The posted date of an article.
enum PostedDate {
    static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// `date` as `MMM dd, yyyy`; nil when it is not a date.
    static func text(_ date: DeliveryDate) -> String? {
        if let instant = date.date, let zone = date.timezone {
            var (year, month, day): (Int32, Int32, Int32) = (0, 0, 0)
            let milliseconds = (instant.timeIntervalSince1970 * 1000).rounded(.down)
            if oceq_icu_local_date(zone, milliseconds, &year, &month, &day) == 0 {
                return format(year: Int(year), month: Int(month), day: Int(day))
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
