// Property test of core's one `q` printer and parser: random well-formed expressions (and/or/not
// nesting, groups, every operator, string, number and date values, standard, user and
// referenced field paths) from a seeded generator, so a failure reproduces from its seed.
import OCEQCore
import OCEQTestSupport
import Testing

/// Random expressions of the shapes the parser produces: an `and` operand is a condition, a `NOT`
/// or a group; an `or` operand may also be a bare `and`; a `NOT` operand is a condition or a group.
private struct ExpressionGenerator {
    var random: SeededGenerator

    static let fields = [
        "name", "type", "id", "slug", "language", "description", "createdDate", "updatedDate", "taxonomies",
        "fields.topic", "fields.published_date", "fields.starter-blog-post_title", "fields.author.name",
        "fields.author.bio", "fields.x1", "fields.café",
    ]
    static let words = ["Coffee", "AND", "or", "not", "(x)", "a b", "", " ", "'q'", "Café ☕", "^=", "~", "*", "?"]

    mutating func pick<T>(_ items: [T]) -> T { items[Int.random(in: 0..<items.count, using: &random)] }

    mutating func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &random) < percent }

    mutating func value() -> String {
        switch Int.random(in: 0..<4, using: &random) {
        case 0:
            return (0..<Int.random(in: 1...3, using: &random)).map { _ in pick(Self.words) }.joined(separator: " ")
        case 1:
            return String(Int.random(in: -100_000...100_000, using: &random))
        case 2:
            return String(Double(Int.random(in: -10_000...10_000, using: &random)) / 100)
        default:
            let year = Int.random(in: 1900...2100, using: &random)
            let month = Int.random(in: 1...12, using: &random)
            let day = Int.random(in: 1...28, using: &random)
            var text = CivilTime.pad(year, 4) + "-" + CivilTime.pad(month, 2) + "-" + CivilTime.pad(day, 2)
            if chance(50) { text += "T" + CivilTime.pad(Int.random(in: 0...23, using: &random), 2) + ":30:15.250Z" }
            return text
        }
    }

    mutating func condition() -> QueryExpression {
        .condition(QueryCondition(field: pick(Self.fields), op: pick(QueryOperator.allCases), value: value()))
    }

    mutating func operands(_ depth: Int, allowAnd: Bool) -> [QueryExpression] {
        (0..<Int.random(in: 2...4, using: &random)).map { _ in
            if allowAnd && depth > 0 && chance(25) { return .and(operands(depth - 1, allowAnd: false)) }
            return operand(depth)
        }
    }

    /// A condition, a `NOT` or a group.
    mutating func operand(_ depth: Int) -> QueryExpression {
        guard depth > 0, chance(60) else { return condition() }
        if chance(30) { return .not(chance(50) ? condition() : .group(expression(depth - 1))) }
        return .group(expression(depth - 1))
    }

    /// Any expression.
    mutating func expression(_ depth: Int) -> QueryExpression {
        guard depth > 0 else { return condition() }
        switch Int.random(in: 0..<4, using: &random) {
        case 0: return .and(operands(depth - 1, allowAnd: false))
        case 1: return .or(operands(depth - 1, allowAnd: true))
        default: return operand(depth)
        }
    }
}

@Suite("q printer and parser agree")
struct QueryExpressionPropertyTests {
    @Test("print, parse, print is stable and parse(print(e)) == e", arguments: [1, 2, 3, 15, 2024])
    func roundTrip(seed: UInt64) throws {
        var generator = ExpressionGenerator(random: SeededGenerator(seed: seed))
        for _ in 0..<300 {
            let expression = generator.expression(5)
            for style in [QueryStyle.sdk, .explicit] {
                let text = expression.text(style: style)
                let parsed = try QueryParser.parse(text)
                #expect(parsed == expression, "seed \(seed): \(text)")
                #expect(parsed.text(style: style) == text, "seed \(seed)")
            }
        }
    }

    @Test("parenthesized text keeps the meaning of any tree", arguments: [7, 8, 9])
    func parenthesized(seed: UInt64) throws {
        var generator = ExpressionGenerator(random: SeededGenerator(seed: seed))
        for _ in 0..<300 {
            let meaning = generator.expression(5).ungrouped
            for whole in [true, false] {
                let text = meaning.parenthesized(whole: whole).text(style: .explicit)
                #expect(try QueryParser.parse(text).ungrouped == meaning, "seed \(seed): \(text)")
            }
        }
    }

    @Test("the two styles differ only in the case of and/or")
    func styles() {
        let a = QueryExpression.condition(QueryCondition(field: "name", op: .equal, value: "a"))
        let b = QueryExpression.condition(QueryCondition(field: "type", op: .contains, value: "b"))
        let tree = QueryExpression.and([a, .not(.group(.or([a, b])))])
        #expect(tree.text(style: .sdk) == #"name eq "a" and NOT (name eq "a" or type co "b")"#)
        #expect(tree.text(style: .explicit) == #"name eq "a" AND NOT (name eq "a" OR type co "b")"#)
        #expect(
            tree.parenthesized(whole: true).text(style: .explicit)
                == #"(name eq "a" AND NOT (name eq "a" OR type co "b"))"#)
        #expect(a.parenthesized(whole: true).text() == #"(name eq "a")"#)
        #expect(QueryExpression.not(a).parenthesized(whole: true).text() == #"(NOT (name eq "a"))"#)
    }
}
