import DeliveryKit
import OCEQCore
import Testing

/// `text` with its one `⟂` marker removed, and the marker's offset in Unicode scalars.
func marked(_ text: String) -> (text: String, offset: Int) {
    let scalars = Array(text.unicodeScalars)
    let offset = scalars.firstIndex(of: "⟂")!
    var rest = scalars
    rest.remove(at: offset)
    return (String(String.UnicodeScalarView(rest)), offset)
}

private func cond(_ field: String, _ op: QueryOperator, _ value: String) -> QueryExpression {
    .condition(QueryCondition(field: field, op: op, value: value))
}

/// The tree's meaning: the parse without its groups (the server evaluates `ungrouped`).
private func parse(_ q: String) throws(QuerySyntaxError) -> QueryExpression {
    try QueryParser.parse(q).ungrouped
}

@Suite("q parser")
struct QueryParserTests {
    @Test("parentheses stay in the parsed tree as groups")
    func groups() throws {
        let a = cond("name", .equal, "a")
        let b = cond("name", .equal, "b")
        #expect(try QueryParser.parse("((name eq \"a\"))") == .group(.group(a)))
        #expect(try QueryParser.parse("NOT (name eq \"a\") AND name eq \"b\"") == .and([.not(.group(a)), b]))
        #expect(try QueryParser.parse("(name eq \"a\" or name eq \"b\")").ungrouped == .or([a, b]))
    }

    @Test("every operator parses", arguments: QueryOperator.allCases)
    func everyOperator(op: QueryOperator) throws {
        #expect(try parse("fields.x \(op.rawValue) \"v\"") == cond("fields.x", op, "v"))
    }

    @Test("operators accept any case")
    func operatorCase() throws {
        #expect(try parse("name EQ \"a\"") == cond("name", .equal, "a"))
        #expect(try parse("name Co \"a\"") == cond("name", .contains, "a"))
    }

    @Test(
        "keywords accept any case",
        arguments: ["and", "AND", "And", "aNd"])
    func keywordCase(word: String) throws {
        #expect(
            try parse("name eq \"a\" \(word) type eq \"b\"")
                == .and([cond("name", .equal, "a"), cond("type", .equal, "b")]))
    }

    @Test("AND binds tighter than OR")
    func precedence() throws {
        let a = cond("name", .equal, "a")
        let b = cond("name", .equal, "b")
        let c = cond("name", .equal, "c")
        #expect(try parse("name eq \"a\" or name eq \"b\" and name eq \"c\"") == .or([a, .and([b, c])]))
        #expect(try parse("name eq \"a\" AND name eq \"b\" OR name eq \"c\"") == .or([.and([a, b]), c]))
        #expect(
            try parse("(name eq \"a\" OR name eq \"b\") AND name eq \"c\"") == .and([.or([a, b]), c]))
    }

    @Test("lists are flat, groups nest")
    func lists() throws {
        let a = cond("name", .equal, "a")
        let b = cond("name", .equal, "b")
        let c = cond("name", .equal, "c")
        #expect(try parse("name eq \"a\" and name eq \"b\" and name eq \"c\"") == .and([a, b, c]))
        #expect(try parse("((name eq \"a\"))") == a)
        #expect(
            try parse("(name eq \"a\" and name eq \"b\") and name eq \"c\"") == .and([.and([a, b]), c]))
    }

    @Test("NOT before a group or a condition")
    func not() throws {
        let a = cond("type", .equal, "T")
        #expect(try parse("NOT (type eq \"T\")") == .not(a))
        #expect(try parse("not type eq \"T\"") == .not(a))
        #expect(try parse("not(type eq \"T\")") == .not(a))
        #expect(
            try parse("name eq \"x\" AND NOT (type eq \"T\" OR type eq \"U\")")
                == .and([cond("name", .equal, "x"), .not(.or([a, cond("type", .equal, "U")]))]))
    }

    @Test("whitespace is flexible")
    func whitespace() throws {
        let expected = QueryExpression.and([cond("name", .equal, "a b"), cond("fields.n", .greaterThanOrEqual, "1")])
        #expect(try parse("  name   eq\"a b\"and\tfields.n ge \"1\"\n") == expected)
        #expect(
            try parse("(name eq \"a b\")AND(fields.n ge \"1\")")
                == .and([
                    cond("name", .equal, "a b"), cond("fields.n", .greaterThanOrEqual, "1"),
                ]))
    }

    @Test("values are verbatim, may be empty and contain keywords or parentheses")
    func values() throws {
        #expect(try parse("name eq \"\"") == cond("name", .equal, ""))
        #expect(try parse("name co \"a AND (b) 'c'\"") == cond("name", .contains, "a AND (b) 'c'"))
        #expect(try parse("name eq \"Café ☕\"") == cond("name", .equal, "Café ☕"))
    }

    @Test("field paths: standard, user, two levels")
    func fields() throws {
        #expect(
            try parse("fields.starter-blog-post_title eq \"x\"")
                == cond("fields.starter-blog-post_title", .equal, "x"))
        #expect(try parse("fields.author.name eq \"x\"") == cond("fields.author.name", .equal, "x"))
        #expect(QueryFieldPath("fields.author.name") == .referenced(reference: "author", target: .standard(.name)))
        #expect(QueryFieldPath("fields.author.bio") == .referenced(reference: "author", target: .user("bio")))
        #expect(QueryFieldPath("createdDate") == .standard(.createdDate))
    }

    @Test("conditions remember where their field starts")
    func offsets() throws {
        let (text, offset) = marked("name eq \"a\" AND ⟂fields.x eq \"b\"")
        guard case .and(let list) = try parse(text), case .condition(let c) = list[1] else {
            Issue.record("expected an AND of conditions")
            return
        }
        #expect(c.offset == offset)
    }

    @Test(
        "errors point at the offending character",
        arguments: [
            ("⟂", "empty query"),
            ("⟂   ", "empty query"),
            ("name eq ⟂\"abc", "unterminated value: missing closing '\"'"),
            ("name ⟂\"x\"", "expected an operator (eq, ne, co, sw, ge, gt, le, lt, mt, sm)"),
            ("name ⟂", "expected an operator (eq, ne, co, sw, ge, gt, le, lt, mt, sm)"),
            ("name ⟂eqq \"x\"", "unknown operator 'eqq' (did you mean 'eq'?)"),
            ("name ⟂= \"x\"", "unknown operator '=' (did you mean 'eq'?)"),
            ("name ⟂!= \"x\"", "unknown operator '!=' (did you mean 'ne'?)"),
            ("name ⟂contains \"x\"", "unknown operator 'contains' (did you mean 'co'?)"),
            ("name ⟂xyz \"x\"", "unknown operator 'xyz'"),
            ("name eq ⟂", "expected a value in double quotes after 'eq'"),
            ("name eq ⟂x", "expected a value in double quotes"),
            ("name eq ⟂'x'", "expected a value in double quotes"),
            ("⟂(name eq \"x\"", "unbalanced parentheses: '(' is never closed"),
            ("⟂((name eq \"x\") ", "unbalanced parentheses: '(' is never closed"),
            ("(⟂(name eq \"x\" ", "unbalanced parentheses: '(' is never closed"),
            ("name eq \"x\"⟂)", "unbalanced parentheses: unexpected ')'"),
            ("name eq \"x\" ⟂foo", "expected AND, OR or the end of the query"),
            ("name eq \"x\" AND ⟂", "expected a condition (field operator \"value\")"),
            ("name eq \"x\" ⟂\"y\"", "expected AND, OR or the end of the query"),
            ("(name eq \"x\" ⟂foo)", "expected AND, OR or ')'"),
            ("⟂AND name eq \"x\"", "expected a condition before AND"),
            ("name eq \"x\" OR ⟂or", "expected a condition before OR"),
            ("NOT ⟂NOT (name eq \"x\")", "expected '(' or a condition after NOT"),
            ("⟂\"x\"", "expected a field name before the value"),
            ("(⟂)", "expected a condition (field operator \"value\") before ')'"),
            ("⟂# eq \"x\"", "unexpected '#'"),
            ("⟂nmae eq \"x\"", "unknown field 'nmae' (did you mean 'name'?)"),
            ("⟂title eq \"x\"", "unknown field 'title': user fields are written fields.<name>"),
            ("⟂Name eq \"x\"", "unknown field 'Name' (did you mean 'name'?)"),
            ("fields⟂ eq \"x\"", "expected '.<name>' after 'fields'"),
            ("fields.⟂ eq \"x\"", "expected a field name after '.'"),
            ("fields.a.b⟂.c eq \"x\"", "field path too deep: at most fields.<reference>.<field>"),
            ("⟂topic.x eq \"x\"", "unknown field 'topic.x': user fields are written fields.<name>"),
        ])
    func errors(input: String, message: String) {
        let (text, offset) = marked(input)
        #expect(throws: QuerySyntaxError(offset: offset, message: message)) { try parse(text) }
    }

    @Test("an error prints with its position")
    func description() {
        let error = QuerySyntaxError(
            offset: 14, message: "expected an operator (eq, ne, co, sw, ge, gt, le, lt, mt, sm)")
        #expect(error.description == "expected an operator (eq, ne, co, sw, ge, gt, le, lt, mt, sm) at position 14")
    }

    @Test("nesting deeper than the limit is an error, not a crash")
    func depth() throws {
        let ok = String(repeating: "(", count: 64) + "name eq \"x\"" + String(repeating: ")", count: 64)
        #expect(try parse(ok) == cond("name", .equal, "x"))
        let deep = String(repeating: "(", count: 5000) + "name eq \"x\"" + String(repeating: ")", count: 5000)
        #expect(throws: QuerySyntaxError(offset: 64, message: "expression nested too deeply (more than 64 levels)")) {
            try parse(deep)
        }
        let nots = String(repeating: "NOT (", count: 65) + "name eq \"x\"" + String(repeating: ")", count: 65)
        #expect(
            throws: QuerySyntaxError(offset: 64 * 5 + 4, message: "expression nested too deeply (more than 64 levels)")
        ) {
            try parse(nots)
        }
    }

    @Test("overlong input is refused")
    func length() throws {
        let long = Array(repeating: "name eq \"x\"", count: 2000).joined(separator: " OR ")
        #expect(throws: QuerySyntaxError(offset: 16_384, message: "query too long (more than 16384 characters)")) {
            try parse(long)
        }
        let many = Array(repeating: "name eq \"x\"", count: 1000).joined(separator: " OR ")
        guard case .or(let list) = try parse(many) else {
            Issue.record("expected an OR")
            return
        }
        #expect(list.count == 1000)
    }
}

@Suite("orderBy parser")
struct QueryOrderByParserTests {
    @Test(
        "keys and directions",
        arguments: [
            ("name", [SortKey("name")]),
            ("name:asc", [SortKey("name")]),
            ("name:ASC;fields.x:desc", [SortKey("name"), SortKey("fields.x", .desc)]),
            ("updatedDate:des", [SortKey("updatedDate", .desc)]),
            ("updatedDate:Desc", [SortKey("updatedDate", .desc)]),
            (
                " name : desc ; createdDate ;",
                [SortKey("name", .desc), SortKey("createdDate")]
            ),
            ("", []),
            ("fields.unknown:asc", [SortKey("fields.unknown")]),
        ])
    func keys(text: String, expected: [SortKey]) throws {
        #expect(try OrderByParser.parse(text) == expected)
    }

    @Test("the keys a client's request writes into orderBy come back as the same keys")
    func clientKeys() throws {
        let keys: [SortKey] = [.name(.desc), .field("fields.published_date"), .updatedDate(.desc)]
        let text = try #require(DeliveryAPI.listAssets().order(keys).parameters.values["orderBy"])
        #expect(try OrderByParser.parse(text) == keys)
    }

    @Test(
        "errors point at the offending part",
        arguments: [
            ("name:⟂up", "unknown sort direction 'up' (expected asc or desc)"),
            ("name:asc;fields.x:⟂descending", "unknown sort direction 'descending' (expected asc or desc)"),
            ("name:⟂", "expected asc or desc after ':'"),
            ("⟂:asc", "expected a field name before ':'"),
            ("name⟂ x:asc", "expected ':' or ';' after the field name"),
        ])
    func errors(input: String, message: String) {
        let (text, offset) = marked(input)
        #expect(throws: QuerySyntaxError(offset: offset, message: message)) { try OrderByParser.parse(text) }
    }
}
