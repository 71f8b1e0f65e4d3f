// Core's one date model read in the API's forms: what an item date accepts (`iso8601`, behind
// DeliveryDate) against what a `q` value accepts (`queryValue`, behind `oceq serve`).
import DeliveryKit
import FoundationEssentials
import OCEQCore
import Testing

@Suite("the API's date forms")
struct DateFormsTests {
    @Test(
        "item dates and q values accept their own forms",
        arguments: [
            ("2021-04-15", true, true), ("2021-04-15T18:20:47.459Z", true, true),
            ("2021-04-15 18:20:47+02:00", true, true), ("2021-04-15t18:20:47.123456789123-0600", true, false),
            ("2021-04-15T18:20", false, true), ("2021-04-15T18:20:47", false, true), ("15/04/2021", false, true),
            ("15-04-2021T10:00:00.5", false, true), ("2021/04/15", false, true), ("20210415", false, true),
            ("20210415183000", false, true), ("20210415183000123", false, true), ("2021-04-15T10:00+05", false, true),
            ("2021-04-15T23:59:60Z", true, false), ("2021-02-30", false, false), ("2021-13-01", false, false),
            ("0000-01-01", true, false), ("2021-04-15T24:00:00Z", false, false), ("2021-04-15x", false, false),
            ("", false, false), ("2021041", false, false),
        ])
    func forms(text: String, item: Bool, query: Bool) {
        #expect((CivilDateTime.iso8601(text) != nil) == item, "\(text)")
        #expect((DeliveryDate.parseISO8601(text) != nil) == item, "\(text)")
        #expect((CivilDateTime.queryValue(text) != nil) == query, "\(text)")
    }

    @Test("offsets, fractions and date-only values land on the same instant")
    func instants() throws {
        let utc = try #require(CivilDateTime.queryValue("2021-04-15T18:20:47.459Z"))
        let shifted = try #require(CivilDateTime.queryValue("2021-04-15T20:20:47.459+02:00"))
        let compact = try #require(CivilDateTime.queryValue("20210415182047459"))
        #expect(utc.epochMilliseconds == 1_618_510_847_459)
        #expect(
            shifted.epochMilliseconds == utc.epochMilliseconds && compact.epochMilliseconds == utc.epochMilliseconds)
        #expect(shifted.localDate == "2021-04-15" && shifted.hasTime)
        let dayOnly = try #require(CivilDateTime.queryValue("15/04/2021"))
        #expect(!dayOnly.hasTime && dayOnly.epochMilliseconds == 1_618_444_800_000)
        let item = try #require(DeliveryDate.parseISO8601("2021-04-15T18:20:47.5Z"))
        #expect(item.timeIntervalSince1970 == 1_618_510_847.5)
    }

    @Test("an instant written back at an offset")
    func written() {
        let date = Date(timeIntervalSince1970: 1_618_510_847.459)
        #expect(
            CivilDateTime(date, offsetSeconds: 7200).text(.dateTimeMillisecondsOffset)
                == "2021-04-15T20:20:47.459+02:00")
        #expect(CivilDateTime(date, offsetSeconds: -21_600).text(.date) == "2021-04-15")
    }
}
