import ChannelServer
import OCEQCore
import OCEQTestSupport
import Testing

@Suite("channel index search")
struct IndexSearchTests {
    static let index = try! ChannelIndex(
        items: IndexTestItems.items, fingerprint: "test", cacheDirectory: TestTemporary.shared("oceq-index"))

    /// The ids matching `q` (and `default`), in result order.
    func ids(
        _ q: String?, default text: String? = nil, orderBy: String = "", limit: Int = 100, offset: Int = 0
    ) throws -> [String] {
        let request = SearchRequest(
            query: try q.map(QueryParser.parse), defaultText: text, orderBy: try OrderByParser.parse(orderBy),
            limit: limit, offset: offset, countTotal: true)
        return try Self.index.search(request).ordinals.map { IndexTestItems.items[$0].id }
    }

    @Test(
        "standard text fields: eq is case-sensitive, sw/co are not",
        arguments: [
            ("type eq \"Author\"", ["COREA1", "COREA2"]),
            ("type eq \"author\"", []),
            ("name eq \"Ana Lima\"", ["COREA1"]),
            ("name eq \"ana lima\"", []),
            ("id eq \"CORER2\"", ["CORER2"]),
            ("slug eq \"cafe-culture\"", ["CORER3"]),
            ("language eq \"fr-FR\"", ["CORER2"]),
            ("typeCategory eq \"DigitalAssetType\"", ["CONTI1", "CONTI2"]),
            ("name sw \"roast\"", ["CORER1", "CORER4"]),
            ("name sw \"ROASTING d\"", ["CORER4"]),
            ("name co \"roasting\"", ["CORER1", "CORER4"]),
            ("name co \"CAFE\"", ["CORER3"]),
            ("name co \"guide lima\"", ["COREA1", "CORER2"]),
            ("name co \"the at\"", []),
            ("description co \"roast\"", ["CORER4"]),
            ("name ne \"Ana Lima\" AND type eq \"Author\"", ["COREA2"]),
            ("id co \"CORER1 CORER3\"", ["CORER1", "CORER3"]),
        ])
    func standardText(q: String, expected: [String]) throws {
        let got = try ids(q)
        #expect(got == expected)
    }

    @Test(
        "asset standard fields",
        arguments: [
            ("fileExtension eq \"jpg\"", ["CONTI1"]),
            ("mimeType eq \"image/png\"", ["CONTI2"]),
            ("mimeType eq \"contentItem\" AND type eq \"Author\"", ["COREA1", "COREA2"]),
            ("fileGroup eq \"Images\"", ["CONTI1", "CONTI2"]),
            ("fileGroup eq \"contentItem\" AND name sw \"b\"", ["COREA2", "CORER2"]),
            ("translatable eq \"false\"", ["CORER3"]),
            ("translatable eq \"TRUE\"", ["CORER1", "CORER2"]),
        ])
    func assetFields(q: String, expected: [String]) throws {
        let got = try ids(q)
        #expect(got == expected)
    }

    @Test(
        "user fields: eq is case-insensitive, null and missing never match",
        arguments: [
            ("fields.topic eq \"coffee\"", ["CORER1", "CORER3", "CORER4"]),
            ("fields.topic eq \"COFFEE\"", ["CORER1", "CORER3", "CORER4"]),
            ("fields.topic eq \"Coff\"", []),
            ("fields.alias eq \"ana\"", ["COREA1"]),
            ("fields.alias ne \"ana\" AND type eq \"Author\"", ["COREA2"]),
            ("fields.topic ne \"coffee\"", ["COREA1", "COREA2", "CORER2", "CONTI1", "CONTI2"]),
            ("fields.nothing eq \"x\"", []),
            (
                "fields.nothing ne \"x\"",
                ["COREA1", "COREA2", "CORER1", "CORER2", "CORER3", "CORER4", "CONTI1", "CONTI2"]
            ),
            ("fields.featured eq \"true\"", ["CORER2"]),
            ("fields.title sw \"café\"", ["CORER3"]),
            ("fields.title sw \"CAFÉ C\"", ["CORER3"]),
            ("fields.title co \"cup lisbon\"", ["CORER2", "CORER3"]),
            ("fields.body co \"patience\"", ["CORER1"]),
            ("fields.body co \"amp\"", []),
            ("fields.body co \"b\"", []),
        ])
    func userFields(q: String, expected: [String]) throws {
        let got = try ids(q)
        #expect(got == expected)
    }

    @Test("long text values compare in full")
    func longText() throws {
        let one = IndexTestItems.longOne
        #expect(try ids("fields.summary eq \"\(one)\"") == ["CORER1"])
        #expect(try ids("fields.summary eq \"\(one.uppercased())\"") == ["CORER1"])
        #expect(try ids("fields.summary eq \"\(one.dropLast())\"") == [])
        #expect(try ids("fields.summary eq \"\(IndexTestItems.sharedStart)\"") == [])
        #expect(try ids("fields.summary sw \"\(IndexTestItems.sharedStart.lowercased())\"") == ["CORER1", "CORER2"])
        #expect(try ids("fields.summary sw \"\(IndexTestItems.sharedStart) about b\"") == ["CORER2"])
        #expect(try ids("fields.summary sw \"long story\"") == ["CORER1", "CORER2"])
        #expect(try ids("fields.summary co \"crack\"") == ["CORER1"])
        #expect(try ids("fields.summary mt \"until they crack\"") == ["CORER1"])
        #expect(try ids("fields.summary mt \"story 0123456789\"") == ["CORER1", "CORER2"])
        #expect(
            try ids("type eq \"Article\"", orderBy: "fields.summary:desc") == ["CORER1", "CORER2", "CORER3", "CORER4"])
    }

    @Test(
        "multivalued fields match when any value matches",
        arguments: [
            ("fields.keywords co \"home\"", ["CORER1"]),
            ("fields.keywords co \"beans tea\"", ["CORER1", "CORER2"]),
            ("fields.keywords eq \"green beans\"", ["CORER1"]),
            ("fields.keywords eq \"green\"", []),
            ("fields.keywords eq \"coffee\"", ["CORER1", "CORER4"]),
            ("fields.keywords mt \"green beans\"", ["CORER1"]),
            ("fields.keywords mt \"home green\"", []),
        ])
    func multivalued(q: String, expected: [String]) throws {
        let got = try ids(q)
        #expect(got == expected)
    }

    @Test(
        "references compare by id; two-level paths follow them",
        arguments: [
            ("fields.author eq \"COREA1\"", ["CORER1", "CORER3"]),
            ("fields.author eq \"corea1\"", ["CORER1", "CORER3"]),
            ("fields.related co \"CORER3\"", ["CORER1"]),
            ("fields.related co \"CORER3, CORER1\"", ["CORER1", "CORER3"]),
            ("fields.related eq \"CORER1\"", ["CORER3"]),
            ("fields.author.name eq \"Ana Lima\"", ["CORER1", "CORER3"]),
            ("fields.author.name eq \"ana lima\"", []),
            ("fields.author.name co \"stone\"", ["CORER2"]),
            ("fields.author.bio co \"lisbon\"", ["CORER1", "CORER3"]),
            ("fields.author.age ge \"50\"", ["CORER2"]),
            ("fields.author.name ne \"Ana Lima\" AND type eq \"Article\"", ["CORER2", "CORER4"]),
            ("fields.related.topic eq \"tea\"", ["CORER1"]),
            ("fields.nothing.name eq \"x\"", []),
        ])
    func references(q: String, expected: [String]) throws {
        let got = try ids(q)
        #expect(got == expected)
    }

    @Test(
        "numbers compare numerically",
        arguments: [
            ("fields.minutes eq \"6\"", ["CORER1", "CORER3"]),
            ("fields.minutes eq \"6.0\"", ["CORER1", "CORER3"]),
            ("fields.minutes gt \"6\"", ["CORER2"]),
            ("fields.minutes ge \"6\"", ["CORER1", "CORER2", "CORER3"]),
            ("fields.minutes lt \"10\"", ["CORER1", "CORER3", "CORER4"]),
            ("fields.minutes le \"3\"", ["CORER4"]),
            ("fields.rating ge \"4.5\"", ["CORER1", "CORER3"]),
            ("fields.rating lt \"4\"", ["CORER2"]),
            ("fields.size gt \"100\" AND type eq \"Image\"", ["CONTI1"]),
            ("NOT fields.minutes ge \"6\"", ["COREA1", "COREA2", "CORER4", "CONTI1", "CONTI2"]),
        ])
    func numbers(q: String, expected: [String]) throws {
        let got = try ids(q)
        #expect(got == expected)
    }

    @Test(
        "datetimes compare by instant, in every accepted format",
        arguments: [
            ("createdDate ge \"2021-03-01\"", ["CORER1", "CORER2", "CORER4"]),
            ("createdDate ge \"2021/03/01\"", ["CORER1", "CORER2", "CORER4"]),
            ("createdDate ge \"01-03-2021\"", ["CORER1", "CORER2", "CORER4"]),
            ("createdDate ge \"01/03/2021\"", ["CORER1", "CORER2", "CORER4"]),
            ("createdDate ge \"20210301\"", ["CORER1", "CORER2", "CORER4"]),
            ("createdDate gt \"2021-03-01T10:00:00\"", ["CORER2", "CORER4"]),
            ("createdDate gt \"2021-03-01T09:59:59.999\"", ["CORER1", "CORER2", "CORER4"]),
            ("createdDate gt \"20210301095959999\"", ["CORER1", "CORER2", "CORER4"]),
            ("createdDate gt \"20210301100000\"", ["CORER2", "CORER4"]),
            ("createdDate ge \"2021-03-01T12:00:00+02:00\"", ["CORER1", "CORER2", "CORER4"]),
            ("createdDate ge \"2021-03-01T11:00:00.000+01:00\"", ["CORER1", "CORER2", "CORER4"]),
            ("createdDate lt \"2021-01-02\"", ["CONTI1"]),
            ("createdDate le \"2021-01-02\"", ["CONTI1", "CONTI2"]),
            ("createdDate eq \"2021-03-01\"", ["CORER1"]),
            ("createdDate eq \"2021-03-01T10:00:00Z\"", ["CORER1"]),
            ("createdDate eq \"2021-03-01T10:00:01Z\"", []),
            ("updatedDate lt \"2021-01-03\" AND type eq \"Image\"", ["CONTI1", "CONTI2"]),
            ("fields.published ge \"2021-03-01\"", ["CORER2", "CORER4"]),
            ("fields.published ge \"2021-02-28\"", ["CORER1", "CORER2", "CORER4"]),
            ("fields.published eq \"2021-02-28\"", ["CORER1"]),
            ("fields.published eq \"28/02/2021\"", ["CORER1"]),
            ("fields.published eq \"2021-02-28T07:00:00Z\"", ["CORER1"]),
            ("fields.published lt \"2021-04-01T11:00:00Z\"", ["CORER1", "CORER4"]),
            ("fields.published le \"2021-04-01T10:00:00Z\"", ["CORER1", "CORER4"]),
            ("fields.published lt \"2021-04-01T10:00:00Z\"", ["CORER1"]),
        ])
    func datetimes(q: String, expected: [String]) throws {
        let got = try ids(q)
        #expect(got == expected)
    }

    @Test(
        "mt matches phrases with wildcards, sm fuzzy words",
        arguments: [
            ("fields.title mt \"roasting coffee\"", ["CORER1"]),
            ("fields.title mt \"coffee roasting\"", []),
            ("fields.title mt \"roasting at home\"", []),
            ("fields.title mt \"coffee at home\"", ["CORER1"]),
            ("fields.title mt \"coffee home\"", ["CORER1"]),
            ("fields.title mt \"roast* coffee\"", ["CORER1"]),
            ("fields.title mt \"r?asting\"", ["CORER1"]),
            ("fields.title mt \"*ing\"", ["CORER1", "CORER2"]),
            ("fields.title mt \"cafe culture\"", ["CORER3"]),
            ("name mt \"brewing guide\"", ["CORER2"]),
            ("fields.body mt \"green beans\"", ["CORER1"]),
            ("fields.body sm \"rone\"", ["CORER4"]),
            ("fields.body sm \"dome\"", ["CORER3", "CORER4"]),
            ("fields.body sm \"roastd\"", ["CORER4"]),
            ("name sm \"lama\"", ["COREA1"]),
            ("name sm \"gide\"", ["CORER2"]),
            ("name sm \"xq\"", []),
        ])
    func fuzzy(q: String, expected: [String]) throws {
        let got = try ids(q)
        #expect(got == expected)
    }

    @Test(
        "co on values that are not text, and text operators on short standard fields",
        arguments: [
            ("fields.published co \"2021-02-28\"", ["CORER1"]),
            ("fields.published co \"2021-05-10T09:30:00Z, 2021-02-28\"", ["CORER1", "CORER2"]),
            ("fields.minutes co \"6 12\"", ["CORER1", "CORER2", "CORER3"]),
            ("fields.rating co \"4.5\"", ["CORER1", "CORER3"]),
            ("fields.featured co \"TRUE\"", ["CORER2"]),
            ("fields.title co \"CAFE\"", ["CORER3"]),
            ("fields.title sm \"brewin\"", ["CORER2"]),
            ("slug co \"home\"", ["CORER1"]),
            ("slug co \"the\"", []),
            ("slug mt \"roasting-*\"", ["CORER1", "CORER4"]),
            ("slug mt \"at home\"", ["CORER1"]),
            ("slug sm \"brewng\"", ["CORER2"]),
            ("type co \"image author\"", ["COREA1", "COREA2", "CONTI1", "CONTI2"]),
            ("mimeType co \"png\"", ["CONTI2"]),
            ("description mt \"intro to\"", ["CORER1"]),
            ("description sm \"rost\"", ["CORER4"]),
            ("name sw \"\"", ["COREA1", "COREA2", "CORER1", "CORER2", "CORER3", "CORER4", "CONTI1", "CONTI2"]),
        ])
    func otherForms(q: String, expected: [String]) throws {
        let got = try ids(q)
        #expect(got == expected)
    }

    @Test(
        "boolean structure",
        arguments: [
            ("type eq \"Author\" OR type eq \"Image\"", ["COREA1", "COREA2", "CONTI1", "CONTI2"]),
            ("type eq \"Article\" AND (fields.topic eq \"tea\" OR fields.minutes le \"3\")", ["CORER2", "CORER4"]),
            ("type eq \"Article\" AND NOT (fields.topic eq \"coffee\")", ["CORER2"]),
            ("NOT type eq \"Article\" AND NOT type eq \"Image\"", ["COREA1", "COREA2"]),
            ("type eq \"Image\" OR type eq \"Author\" AND name co \"bob\"", ["COREA2", "CONTI1", "CONTI2"]),
        ])
    func structure(q: String, expected: [String]) throws {
        let got = try ids(q)
        #expect(got == expected)
    }

    @Test("default searches every text field and combines with q by AND")
    func defaultText() throws {
        #expect(try ids(nil, default: "lisbon") == ["COREA1", "CORER3"])
        #expect(try ids(nil, default: "\"Patience\"") == ["CORER1"])
        #expect(try ids(nil, default: "guide, espresso") == ["CORER2", "CORER3"])
        #expect(try ids("type eq \"Author\"", default: "lisbon") == ["COREA1"])
        #expect(try ids(nil, default: "the") == [])
        #expect(try ids(nil, default: "  ").count == IndexTestItems.items.count)
        #expect(try ids(nil, default: "Article") == [])
    }

    @Test(
        "orderBy: several keys, asc/desc/des, ties and missing values keep export order",
        arguments: [
            ("name:asc", "type eq \"Article\"", ["CORER2", "CORER3", "CORER1", "CORER4"]),
            ("name:desc", "type eq \"Article\"", ["CORER4", "CORER1", "CORER3", "CORER2"]),
            ("fields.minutes:asc", "type eq \"Article\"", ["CORER4", "CORER1", "CORER3", "CORER2"]),
            ("fields.minutes:des", "type eq \"Article\"", ["CORER2", "CORER1", "CORER3", "CORER4"]),
            ("fields.minutes:desc;name:desc", "type eq \"Article\"", ["CORER2", "CORER1", "CORER3", "CORER4"]),
            ("fields.minutes:desc;name:asc", "type eq \"Article\"", ["CORER2", "CORER3", "CORER1", "CORER4"]),
            ("fields.rating:desc", "type eq \"Article\"", ["CORER1", "CORER3", "CORER2", "CORER4"]),
            ("fields.rating:asc", "type eq \"Article\"", ["CORER2", "CORER1", "CORER3", "CORER4"]),
            ("fields.published:desc", "type eq \"Article\"", ["CORER2", "CORER4", "CORER1", "CORER3"]),
            ("fields.published", "type eq \"Article\"", ["CORER1", "CORER4", "CORER2", "CORER3"]),
            ("createdDate:desc", "type eq \"Image\" OR type eq \"Author\"", ["COREA2", "COREA1", "CONTI2", "CONTI1"]),
            ("updatedDate:asc", "type eq \"Author\"", ["COREA1", "COREA2"]),
            ("fields.unknown:desc", "type eq \"Author\"", ["COREA1", "COREA2"]),
            ("fields.author:desc", "type eq \"Article\"", ["CORER1", "CORER2", "CORER3", "CORER4"]),
            ("fields.keywords:desc", "type eq \"Article\"", ["CORER1", "CORER2", "CORER3", "CORER4"]),
            ("fields.unknown;fields.minutes", "type eq \"Article\"", ["CORER4", "CORER1", "CORER3", "CORER2"]),
            ("fields.topic:asc;name:asc", "type eq \"Article\"", ["CORER3", "CORER1", "CORER4", "CORER2"]),
            ("description:asc", "type eq \"Article\"", ["CORER4", "CORER2", "CORER1", "CORER3"]),
        ])
    func orderBy(orderBy: String, q: String, expected: [String]) throws {
        let got = try ids(q, orderBy: orderBy)
        #expect(got == expected)
    }

    @Test("orderBy without q sorts every item")
    func orderAll() throws {
        #expect(try ids(nil, orderBy: "name").prefix(3) == ["COREA1", "CONTI1", "COREA2"])
    }

    @Test("limit, offset, total and hasMore")
    func paging() throws {
        let q = try QueryParser.parse("type eq \"Article\"")
        let first = try Self.index.search(SearchRequest(query: q, limit: 3, offset: 0, countTotal: true))
        #expect(first.ordinals == [2, 3, 4])
        #expect(first.total == 4)
        #expect(first.hasMore)
        let second = try Self.index.search(SearchRequest(query: q, limit: 3, offset: 3, countTotal: true))
        #expect(second.ordinals == [5])
        #expect(second.total == 4)
        #expect(!second.hasMore)
        let beyond = try Self.index.search(SearchRequest(query: q, limit: 3, offset: 10, countTotal: true))
        #expect(beyond.ordinals.isEmpty && beyond.total == 4 && !beyond.hasMore)
        let countOnly = try Self.index.search(SearchRequest(query: q, limit: 0, countTotal: true))
        #expect(countOnly.ordinals.isEmpty && countOnly.total == 4 && countOnly.hasMore)

        let uncounted = try Self.index.search(SearchRequest(query: q, limit: 2, countTotal: false))
        #expect(uncounted.ordinals == [2, 3])
        #expect(uncounted.total == -1)
        #expect(uncounted.hasMore)
        let lastPage = try Self.index.search(SearchRequest(query: q, limit: 2, offset: 2, countTotal: false))
        #expect(lastPage.ordinals == [4, 5] && !lastPage.hasMore)

        let sorted = try Self.index.search(
            SearchRequest(query: q, orderBy: [SortKey("fields.minutes", .desc)], limit: 2, offset: 1))
        #expect(sorted.ordinals == [2, 4])
        #expect(sorted.total == 4 && sorted.hasMore)

        let all = try Self.index.search(SearchRequest(limit: 5, offset: 6, countTotal: true))
        #expect(all.ordinals == [6, 7] && all.total == 8 && !all.hasMore)
        #expect(try Self.index.search(SearchRequest(limit: -3, offset: -1)).ordinals.isEmpty)
        #expect(try Self.index.search(SearchRequest(limit: .max, offset: 7)).ordinals == [7])
    }

    @Test(
        "values that cannot be compared are request errors with the condition's position",
        arguments: [
            (
                "type eq \"Article\" AND ⟂fields.minutes ge \"many\"",
                "operator ge needs a number or a datetime, not 'many'"
            ),
            (
                "⟂createdDate ge \"yesterday\"",
                "'yesterday' is not a datetime (use e.g. 2021-04-15 or 2021-04-15T18:20:47.459Z)"
            ),
            (
                "⟂createdDate eq \"2021-02-30\"",
                "'2021-02-30' is not a datetime (use e.g. 2021-04-15 or 2021-04-15T18:20:47.459Z)"
            ),
            ("⟂name ge \"a\"", "operator ge cannot be used on text field 'name'"),
            ("⟂createdDate sw \"2021\"", "operator sw cannot be used on datetime field 'createdDate'"),
            ("⟂translatable eq \"maybe\"", "'maybe' is not a boolean (true or false)"),
            (
                "⟂translatable co \"true\" OR ⟂taxonomies gt \"1\"",
                "operator gt cannot be used on reference field 'taxonomies'"
            ),
        ])
    func comparisonErrors(input: String, message: String) throws {
        var text = input
        if text.components(separatedBy: "⟂").count > 2 {
            // Two markers: the error is at the second one.
            let first = text.range(of: "⟂")!
            text.removeSubrange(first)
        }
        let (q, offset) = marked(text)
        #expect(throws: IndexError(message: message, offset: offset)) {
            try Self.index.search(SearchRequest(query: try QueryParser.parse(q)))
        }
    }

    @Test("taxonomies: a known field without values")
    func taxonomies() throws {
        #expect(try ids("taxonomies eq \"CAT1\"") == [])
        #expect(try ids("taxonomies co \"CAT1 CAT2\"") == [])
        #expect(try ids("taxonomies ne \"CAT1\"").count == IndexTestItems.items.count)
    }

    @Test("a long OR list stays within SQLite's limits")
    func longLists() throws {
        let q = (0..<500).map { "fields.minutes eq \"\($0)\"" }.joined(separator: " OR ")
        #expect(try ids(q) == ["CORER1", "CORER2", "CORER3", "CORER4"])
        let nested = String(repeating: "NOT (", count: 64) + "type eq \"Image\"" + String(repeating: ")", count: 64)
        #expect(try ids(nested) == ["CONTI1", "CONTI2"])

        // As many conditions as 16 KiB hold.
        let widest = Array(repeating: "id eq \"\"", count: 1300).joined(separator: " or ") + " or id eq \"CORER3\""
        #expect(widest.unicodeScalars.count <= QueryParser.maximumLength)
        #expect(try ids(widest) == ["CORER3"])

        // 64 levels alternating AND/OR, each with a two-level condition that reaches for FTS.
        var deep = "fields.author.bio co \"lisbon\""
        for level in 0..<63 {
            let op = level.isMultiple(of: 2) ? "AND" : "OR"
            deep = "(fields.related.title co \"cup culture\" \(op) \(deep))"
        }
        #expect(try ids(deep) == ["CORER1"])
    }
}

@Suite("channel index on a synthetic channel")
struct IndexSyntheticTests {
    static let items = IndexSyntheticItems.generate(count: 3000)
    static let index = try! ChannelIndex(
        items: items, fingerprint: "synthetic", cacheDirectory: TestTemporary.shared("oceq-index"))

    @Test(
        "a small page of a sorted search is the head of the whole sorted list",
        arguments: ["fields.published:desc", "name", "fields.price:desc;createdDate", "fields.minutes;name:desc"])
    func pages(orderBy: String) throws {
        let keys = try OrderByParser.parse(orderBy)
        let all = try Self.index.search(SearchRequest(orderBy: keys, limit: 5000))
        #expect(all.ordinals.count == Self.items.count)
        for (offset, limit) in [(0, 1), (0, 10), (5, 20), (100, 300)] {
            let page = try Self.index.search(SearchRequest(orderBy: keys, limit: limit, offset: offset))
            #expect(page.ordinals == Array(all.ordinals[offset..<(offset + limit)]))
        }
    }

    @Test("sorted results respect the keys, then the export order")
    func sortedOrder() throws {
        let q = try QueryParser.parse("type eq \"Article\"")
        let result = try Self.index.search(
            SearchRequest(query: q, orderBy: [SortKey("fields.minutes", .desc)], limit: 5000))
        let minutes = result.ordinals.map { Self.items[$0].fields["minutes"]!.intValue! }
        #expect(minutes == minutes.sorted(by: >))
        for i in 1..<result.ordinals.count where minutes[i] == minutes[i - 1] {
            #expect(result.ordinals[i] > result.ordinals[i - 1])
        }
    }

    @Test("results agree with a direct evaluation of the items")
    func agree() throws {
        func check(_ q: String, _ predicate: (ExportItem) -> Bool) throws {
            let got = try Self.index.search(SearchRequest(query: try QueryParser.parse(q), limit: 5000)).ordinals
            let expected = Self.items.indices.filter { predicate(Self.items[$0]) }
            #expect(got == expected, "\(q)")
        }
        try check("type eq \"Product\" AND fields.price ge \"50\" AND fields.price lt \"60\"") {
            guard let price = $0.fields["price"]?.doubleValue else { return false }
            return $0.type == "Product" && price >= 50 && price < 60
        }
        // One range beside another condition (the range's set is tested, not walked), and ranges alone.
        try check("fields.price ge \"50\" AND type eq \"Product\" AND NOT fields.price gt \"90\"") {
            guard let price = $0.fields["price"]?.doubleValue else { return false }
            return $0.type == "Product" && price >= 50 && !(price > 90)
        }
        try check("fields.price ge \"50\" AND fields.price lt \"60\"") {
            guard let price = $0.fields["price"]?.doubleValue else { return false }
            return price >= 50 && price < 60
        }
        try check("fields.stock gt \"990\" OR fields.capacity le \"12\"") {
            ($0.fields["stock"]?.intValue).map { $0 > 990 } ?? false
                || ($0.fields["capacity"]?.intValue).map { $0 <= 12 } ?? false
        }
        try check("type eq \"Article\" AND NOT fields.topic eq \"topic-7\"") {
            $0.type == "Article" && $0.fields["topic"]?.stringValue != "topic-7"
        }
        let word = IndexSyntheticItems.word(0)
        try check("name co \"\(word)\" AND type eq \"Event\"") {
            $0.type == "Event" && $0.name.split(separator: " ").contains { $0 == word }
        }
        try check("name co \"\(word)\"") {
            $0.name.split(separator: " ").contains { $0 == word || $0 == word + ".jpg" }
        }
    }
}
