import DeliveryKit
import Foundation
import OCEQCore
import Testing

@testable import BlogModule

@Suite("Article text and dates")
struct TextTests {
    @Test(
        "posted dates are MMM dd, yyyy in the article's own time zone",
        arguments: [
            ("2021-10-07T08:55:00.000+05:45", "Asia/Kathmandu", "Oct 07, 2021"),
            ("2024-05-10T08:00:00.000+09:00", "Asia/Tokyo", "May 10, 2024"),
            ("2022-02-16T07:35:00.000-05:00", "", "Feb 16, 2022"),
        ])
    func dates(value: String, zone: String, expected: String) {
        let date = DeliveryDate(value: value, timezone: zone.isEmpty ? nil : zone)
        #expect(PostedDate.text(date) == expected)
    }

    @Test("a UTC value is shown on the day of its time zone when the system knows the zone")
    func zoneConversion() throws {
        try #require(TimeZone(identifier: "America/Denver") != nil)
        let date = DeliveryDate(value: "2020-06-17T03:00:00.000Z", timezone: "America/Denver")
        #expect(PostedDate.text(date) == "Jun 16, 2020")
        // Across a year boundary, and east of UTC.
        #expect(
            PostedDate.text(DeliveryDate(value: "2020-12-31T20:00:00.000Z", timezone: "Asia/Tokyo")) == "Jan 01, 2021")
    }

    @Test(
        "a zone ICU does not know falls back to the date as written",
        arguments: ["Mars/Olympus_Mons", "America/Dénver", "UTC+5", String(repeating: "A", count: 300)])
    func unknownZone(zone: String) {
        let date = DeliveryDate(value: "2020-06-17T03:00:00.000Z", timezone: zone)
        #expect(PostedDate.text(date) == "Jun 17, 2020")
    }
}
