import DeliveryKit
import FoundationEssentials
import OCEQCore
import Testing

@Suite("q text as Oracle's SDK renders it")
struct QueryTests {
    static let epoch = Date(timeIntervalSince1970: 0)

    @Test(
        "single conditions",
        arguments: [
            (try! QueryNode.equal(field: "A", value: "1"), #"A eq "1""#),
            (try! QueryNode.equal(field: "A", intValue: 1), #"A eq "1""#),
            (try! QueryNode.equal(field: "A", doubleValue: 1.234), #"A eq "1.234""#),
            (try! QueryNode.equal(field: "A", dateValue: epoch, format: .slashDate), #"A eq "1970/01/01""#),
            (try! QueryNode.contains(field: "A", value: "1"), #"A co "1""#),
            (try! QueryNode.contains(field: "A", intValue: 1), #"A co "1""#),
            (try! QueryNode.contains(field: "A", doubleValue: 1.234), #"A co "1.234""#),
            (try! QueryNode.contains(field: "A", dateValue: epoch, format: .slashDate), #"A co "1970/01/01""#),
            (try! QueryNode.startsWith(field: "A", value: "1"), #"A sw "1""#),
            (try! QueryNode.greaterThanOrEqual(field: "A", intValue: 1), #"A ge "1""#),
            (try! QueryNode.greaterThanOrEqual(field: "A", doubleValue: 1.234), #"A ge "1.234""#),
            (
                try! QueryNode.greaterThanOrEqual(field: "A", dateValue: epoch, format: .slashDate),
                #"A ge "1970/01/01""#
            ),
            (try! QueryNode.lessThanOrEqual(field: "A", intValue: 1), #"A le "1""#),
            (try! QueryNode.lessThanOrEqual(field: "A", doubleValue: 1.234), #"A le "1.234""#),
            (try! QueryNode.greaterThan(field: "A", intValue: 1), #"A gt "1""#),
            (try! QueryNode.greaterThan(field: "A", dateValue: epoch, format: .slashDate), #"A gt "1970/01/01""#),
            (try! QueryNode.lessThan(field: "A", doubleValue: 1.234), #"A lt "1.234""#),
            (try! QueryNode.lessThan(field: "A", dateValue: epoch, format: .slashDate), #"A lt "1970/01/01""#),
            (try! QueryNode.match(field: "A", value: "1"), #"A mt "1""#),
            (try! QueryNode.similar(field: "A", value: "1"), #"A sm "1""#),
            (try! QueryNode.notEqual(field: "A", value: "1"), #"A ne "1""#),
            (QueryNode.queryText(value: #"(A eq "1" and B eq "2")"#), #"(A eq "1" and B eq "2")"#),
        ])
    func node(node: QueryNode, expected: String) {
        #expect(QueryBuilder(node: node).buildQueryString() == expected)
    }

    @Test("a match list is ORed and parenthesised")
    func matchList() throws {
        let nodes = try QueryNode.matchList(field: "A", values: ["1", "2", "3"])
        #expect(try QueryBuilder(matchList: nodes).buildQueryString() == #"(A eq "1" or A eq "2" or A eq "3")"#)
        #expect(
            try QueryBuilder(matchList: QueryNode.matchList(field: "A", intValues: [1, 2])).buildQueryString()
                == #"(A eq "1" or A eq "2")"#)
        #expect(try QueryBuilder(matchList: [nodes[0]]).buildQueryString() == #"A eq "1""#)
    }

    @Test("empty match lists are refused")
    func emptyMatchList() {
        #expect(throws: QueryError.emptyMatchList(field: "A")) { try QueryNode.matchList(field: "A", values: []) }
        #expect(throws: QueryError.self) { try QueryBuilder(matchList: []) }
    }

    @Test("the SDK's compound texts")
    func compounds() throws {
        let a = try QueryNode.matchList(field: "A", values: ["1", "2", "3"])
        let b4 = try QueryNode.equal(field: "B", value: "4")
        let c5 = try QueryNode.equal(field: "C", value: "5")
        #expect(
            try QueryBuilder(matchList: a).and(b4).buildQueryString()
                == #"(A eq "1" or A eq "2" or A eq "3") and B eq "4""#)
        #expect(
            try QueryBuilder(matchList: a).and(b4, grouping: .grouped).or(c5).buildQueryString()
                == #"((A eq "1" or A eq "2" or A eq "3") and B eq "4") or C eq "5""#)
        let inner = QueryBuilder(node: try .equal(field: "B", value: "2")).or(
            try .equal(field: "C", value: "3"), grouping: .grouped)
        #expect(
            QueryBuilder(node: try .equal(field: "A", value: "1")).and(builder: inner).buildQueryString()
                == #"A eq "1" and (B eq "2" or C eq "3")"#)
        let a1 = try QueryNode.equal(field: "A", value: "1")
        let b2 = try QueryNode.equal(field: "B", value: "2")
        #expect(QueryBuilder(node: a1).and(b2).buildQueryString() == #"A eq "1" and B eq "2""#)
        #expect(QueryBuilder(node: a1).or(b2).buildQueryString() == #"A eq "1" or B eq "2""#)
        #expect(QueryBuilder(node: a1).and(b2, grouping: .grouped).buildQueryString() == #"(A eq "1" and B eq "2")"#)
        let mixed = QueryBuilder(node: a1).and(b2).and(try .equal(field: "C", value: "3"))
            .or(try .equal(field: "1", value: "XXX")).or(try .equal(field: "22", value: "YYY"))
            .and(try .equal(field: "D", value: "4"))
        #expect(
            mixed.buildQueryString()
                == #"A eq "1" and B eq "2" and C eq "3" or 1 eq "XXX" or 22 eq "YYY" and D eq "4""#)
    }

    @Test("and(matchList:) parenthesises both the list and the whole")
    func andMatchList() throws {
        let builder = try QueryBuilder(node: .equal(field: "A", value: "1"))
            .and(matchList: QueryNode.matchList(field: "B", values: ["2", "3"]))
        #expect(builder.buildQueryString() == #"(A eq "1" and (B eq "2" or B eq "3"))"#)
    }

    @Test("NOT wraps an expression")
    func not() throws {
        let builder = QueryBuilder.not(QueryBuilder(node: try .equal(field: "type", value: "Image")))
        #expect(builder.buildQueryString() == #"NOT (type eq "Image")"#)
    }

    @Test("a value with a double quote is refused")
    func quote() {
        #expect(throws: QueryError.quoteInValue(field: "name", value: #"say "hi""#)) {
            try QueryNode.equal(field: "name", value: #"say "hi""#)
        }
        #expect(throws: QueryError.self) { try QueryNode.matchList(field: "x", values: ["ok", #"no""#]) }
    }

    @Test("field names without spaces, quotes or parentheses", arguments: ["", "a b", #"a"b"#, "a(b"])
    func badField(field: String) {
        #expect(throws: QueryError.invalidField(field)) { try QueryNode.equal(field: field, value: "1") }
    }

    @Test(
        "doubles print as plain decimals",
        arguments: [
            (1.234, "1.234"), (1.0, "1.0"), (1e20, "100000000000000000000.0"), (1.5e-7, "0.00000015"),
            (-2.5e-5, "-0.000025"), (123456789012345.0, "123456789012345.0"), (1e16, "10000000000000000.0"),
            (-0.0, "-0.0"),
        ])
    func doubles(value: Double, expected: String) throws {
        #expect(try QueryNode.equal(field: "A", doubleValue: value).buildQueryString() == "A eq \"\(expected)\"")
    }

    @Test("non-finite doubles are refused")
    func nonFinite() {
        #expect(throws: QueryError.nonFiniteNumber(field: "A")) { try QueryNode.equal(field: "A", doubleValue: .nan) }
    }

    @Test(
        "dates use the calendar year and day of month, never week-year",
        arguments: [
            (QueryDateFormat.date, "1970-02-10"), (.slashDate, "1970/02/10"), (.dayFirstDate, "10-02-1970"),
            (.dayFirstSlashDate, "10/02/1970"), (.dateTime, "1970-02-10T13:14:15"),
            (.dateTimeMilliseconds, "1970-02-10T13:14:15.678"), (.compactDate, "19700210"),
            (.compactDateTime, "19700210131415"), (.compactDateTimeMilliseconds, "19700210131415678"),
            (.dateTimeOffset, "1970-02-10T13:14:15+00:00"),
            (.dateTimeMillisecondsOffset, "1970-02-10T13:14:15.678+00:00"),
        ])
    func dates(format: QueryDateFormat, expected: String) {
        // 10 Feb 1970 13:14:15.678 UTC: the SDK's YYYY/MM/DD renders it 1970/02/41.
        let date = Date(timeIntervalSince1970: 40 * 86_400 + 13 * 3600 + 14 * 60 + 15.678)
        #expect(format.string(from: date) == expected)
    }

    @Test("the week-based year of 31 Dec 2018 does not leak in")
    func weekYearBoundary() throws {
        // 2018-12-31 is in ISO week 1 of 2019; yyyy must still say 2018.
        let date = Date(timeIntervalSince1970: 1_546_214_400)
        #expect(QueryDateFormat.date.string(from: date) == "2018-12-31")
        #expect(
            try QueryNode.greaterThan(field: "updatedDate", dateValue: date).buildQueryString()
                == #"updatedDate gt "2018-12-31""#)
    }

    @Test("offsets shift the rendered wall time")
    func offsets() throws {
        let date = Date(timeIntervalSince1970: 0)
        let format = try QueryDateFormat("yyyy-MM-dd'T'HH:mm:ssxxx", utcOffsetSeconds: -6 * 3600)
        #expect(format.string(from: date) == "1969-12-31T18:00:00-06:00")
        #expect(
            QueryDateFormat.dateTimeOffset.offset(bySeconds: 19_800).string(from: date) == "1970-01-01T05:30:00+05:30")
    }

    @Test(
        "week-year, day-of-year and 12-hour patterns are refused",
        arguments: ["YYYY/MM/DD", "yyyy/MM/DD", "hh:mm", "yyyy-QQ"])
    func badPatterns(pattern: String) {
        #expect(throws: QueryError.self) { try QueryDateFormat(pattern) }
    }
}
