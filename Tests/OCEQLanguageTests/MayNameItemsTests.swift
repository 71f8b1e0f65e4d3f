import OCEQLanguage
import Testing

@Suite("SelectStatement.mayNameItems: known without the schema, true whenever the schema may change the query")
struct MayNameItemsTests {
    static func select(_ text: String) throws -> SelectStatement {
        let parsed = Parser.parse(text)
        guard case .select(let select)? = parsed.statements.first, parsed.diagnostics.isEmpty else {
            throw TestFailure("not one select statement: \(text)")
        }
        return select
    }

    @Test(
        "a user field compared with a literal that is not an id may name an item",
        arguments: [
            "list type=Article topic=Recipes", "list type=Article topic != Roasting", "list topic in (Recipes, x)",
            "list type=Article (reads > 1 or not fields.topic = Recipes)",
        ])
    func mayName(text: String) throws {
        #expect(try Self.select(text).mayNameItems)
    }

    @Test(
        "standard fields, ids, references and other operators name no item",
        arguments: [
            "list type=Article order published desc limit 5", "list name = Recipes", "list type=Article reads > 3",
            "list type=Article topic=CORE00000000000000000000000000000001", "list type=Article topic=@1",
            "list type=Article topic ~ Recipes", "count",
        ])
    func namesNone(text: String) throws {
        #expect(try !Self.select(text).mayNameItems)
    }

    @Test(
        "when it is false, compiling with the schema sends what compiling without it sends",
        arguments: [
            "list type=Article order published desc limit 5",
            "list type=Article topic=CORE00000000000000000000000000000001",
            "list type=Article reads > 3", "first type=Article published >= 2026-01-01",
        ])
    func sameQuery(text: String) throws {
        try #require(try !Self.select(text).mayNameItems)
        // As sent: the URL's path and query.
        let without = String(describing: try compiled(text).request().endpoint())
        let with = String(describing: try compiled(text, environment: schemaEnvironment).request().endpoint())
        #expect(without == with)
    }

    @Test("when it is true, the schema may change the query: a name becomes the item's id")
    func nameResolved() throws {
        let text = "list type=Article topic=Recipes"
        try #require(try Self.select(text).mayNameItems)
        let without = String(describing: try compiled(text).request().endpoint())
        let with = String(describing: try compiled(text, environment: schemaEnvironment).request().endpoint())
        #expect(without != with)
    }
}
