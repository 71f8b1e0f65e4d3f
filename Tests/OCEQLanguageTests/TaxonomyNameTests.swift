// A taxonomy condition compared with a name: the API matches ids only, so `taxonomies=Espresso` is sent as
// the category's id (as `topic=Recipes` is sent as the topic's), and a name that names nothing is an
// error instead of a query that matches nothing.

import OCEQLanguage
import OCEQTestSupport
import Testing

@Suite("Taxonomy and category names in conditions")
struct TaxonomyNameTests {
    static let guide = "DDD3FCE274FD927341A40AFE3EFE35E7"
    static let methods = "444E4DE4EBE9796474AB3AC678DD2C35"
    static let espresso = "AD2DD24D6CB61F377312C8CA0F68467A"
    static let otherInGuide = "0000000000000000000000000000000A"
    static let otherInRegions = "0000000000000000000000000000000B"

    /// Two taxonomies; "Other" is a category of both.
    static let names = TaxonomyNames(
        taxonomies: [
            TaxonomyTerm(name: "Café Supremo Guide", alias: "CSG", id: guide),
            TaxonomyTerm(name: "Regions", alias: "REG", id: "0000000000000000000000000000000C"),
        ],
        categories: [
            TaxonomyTerm(name: "Methods", alias: "csg-methods", id: methods, taxonomy: "Café Supremo Guide"),
            TaxonomyTerm(name: "Espresso", alias: "csg-methods-espresso", id: espresso, taxonomy: "Café Supremo Guide"),
            TaxonomyTerm(name: "Other", alias: "csg-other", id: otherInGuide, taxonomy: "Café Supremo Guide"),
            TaxonomyTerm(name: "Other", alias: "reg-other", id: otherInRegions, taxonomy: "Regions"),
        ])

    static let environment = StaticEnvironment(
        variables: ["cat": "espresso", "catID": espresso], rows: ["CORE00000000000000000000000000000001"],
        arguments: ["Methods"], taxonomies: names)

    static func q(_ text: String, _ environment: StaticEnvironment = environment) throws -> String? {
        try compiled(text, environment: environment).q
    }

    @Test("a name, in any case, an API name or a short name is sent as the id it names")
    func resolved() throws {
        #expect(try Self.q("count taxonomies=Espresso") == "(taxonomies eq \"\(Self.espresso)\")")
        #expect(try Self.q("count taxonomies=espresso") == "(taxonomies eq \"\(Self.espresso)\")")
        #expect(try Self.q("count taxonomies=csg-methods-espresso") == "(taxonomies eq \"\(Self.espresso)\")")
        #expect(try Self.q("count taxonomies=CSG") == "(taxonomies eq \"\(Self.guide)\")")
        #expect(try Self.q("count taxonomies=Espr") == "(taxonomies eq \"\(Self.espresso)\")", "the one name it starts")
        #expect(
            try Self.q("count taxonomies.categories.nodes.id != Methods")
                == "(taxonomies.categories.nodes.id ne \"\(Self.methods)\")")
        #expect(
            try Self.q("count taxonomies.categories.id in (Methods, Espresso)")
                == "(taxonomies.categories.id eq \"\(Self.methods)\" OR taxonomies.categories.id eq \"\(Self.espresso)\")"
        )
        // ~ (co, the API's operator for a list) takes a name too: it was sent as the word and matched nothing.
        #expect(try Self.q("count taxonomies ~ Espresso") == "(taxonomies co \"\(Self.espresso)\")")
        #expect(
            try Self.q("count taxonomies.categories.nodes.id ~ methods")
                == "(taxonomies.categories.nodes.id co \"\(Self.methods)\")")
    }

    @Test("TaxonomyNames.find, the one reading of a taxonomy or category name (taxonomies=NAME, categories NAME)")
    func find() {
        let terms = Self.names.taxonomies + Self.names.categories
        func found(_ text: String) -> String? {
            if case .found(let index) = TaxonomyNames.find(text, among: terms) { return terms[index].id }
            return nil
        }
        #expect(found(Self.espresso) == Self.espresso, "an id")
        #expect(found("ESPRESSO") == Self.espresso, "a name in any case")
        #expect(found("csg") == Self.guide, "an alias in any case")
        #expect(found("Meth") == Self.methods, "the one name it starts")
        #expect(TaxonomyNames.find("Other", among: terms) == .ambiguous([4, 5]), "one name, two categories")
        #expect(TaxonomyNames.find("Espreso", among: terms) == .none(suggestion: "Espresso"))
    }

    @Test("explain is told which name became which id")
    func explained() throws {
        let query = try compiled("count taxonomies=espresso", environment: Self.environment)
        #expect(query.resolvedNames.map(\.id) == [Self.espresso])
        #expect(query.resolvedNames.map(\.name) == ["Espresso (Café Supremo Guide)"])
        #expect(query.resolvedNames.map(\.comparison) == ["taxonomies=espresso"])
        // The note writes the comparison as it was written, not always with =.
        let contains = try compiled("count taxonomies ~ espresso", environment: Self.environment)
        #expect(contains.resolvedNames.map(\.comparison) == ["taxonomies ~ espresso"])
    }

    @Test("ids, rows and variables holding ids are sent as they are; a variable or argument holding a name is resolved")
    func references() throws {
        #expect(try Self.q("count taxonomies=\(Self.espresso)") == "(taxonomies eq \"\(Self.espresso)\")")
        #expect(try Self.q("count taxonomies=$catID") == "(taxonomies eq \"\(Self.espresso)\")")
        #expect(try Self.q("count taxonomies=$cat") == "(taxonomies eq \"\(Self.espresso)\")")
        #expect(try Self.q("count taxonomies=$1") == "(taxonomies eq \"\(Self.methods)\")")
        #expect(try Self.q("count taxonomies=@1") == "(taxonomies eq \"CORE00000000000000000000000000000001\")")
    }

    @Test("a name that names nothing, or two categories, is an error at the value")
    func problems() throws {
        let typo = allDiagnostics("count taxonomies=Espreso", environment: Self.environment)
        #expect(typo.map(\.message.id) == ["noItemNamed"])
        #expect(
            typo.first?.text == "no taxonomy or category named 'Espreso' for 'taxonomies'; did you mean 'Espresso'?")
        #expect(typo.first?.span.start == "count taxonomies=".utf8.count)
        let twice = allDiagnostics("count taxonomies=other", environment: Self.environment)
        #expect(twice.map(\.message.id) == ["itemNameAmbiguous"])
        #expect(twice.first?.text.contains("'Other (Café Supremo Guide)' and 'Other (Regions)'") == true)
        let taxonomy = allDiagnostics("count taxonomies.categories.nodes.id=Regions", environment: Self.environment)
        #expect(
            taxonomy.first?.text.hasPrefix("no category named 'Regions' for 'taxonomies.categories.nodes.id'") == true,
            "a path that takes categories does not take a taxonomy's name")
    }

    @Test("a channel without taxonomies says there are none")
    func noTaxonomies() {
        let empty = StaticEnvironment(taxonomies: .empty)
        #expect(
            allDiagnostics("count taxonomies=Espresso", environment: empty).map(\.text)
                == ["no taxonomy or category named 'Espresso' for 'taxonomies'; there are none"])
    }

    @Test("without the names (not read, or no catalog) the value is sent as written")
    func unknown() throws {
        #expect(try Self.q("count taxonomies=Espresso", StaticEnvironment()) == "(taxonomies eq \"Espresso\")")
    }

    @Test("the shell reads the names only for a taxonomy field compared with what may be a name")
    func needsNames() throws {
        func needs(_ text: String) throws -> Bool {
            guard case .select(let select)? = Parser.parse(text).statements.first else {
                throw TestFailure("not a select: \(text)")
            }
            return select.namesTaxonomyTerms(environment: Self.environment)
        }
        #expect(try needs("count taxonomies=Espresso"))
        #expect(try needs("list type=Image taxonomies.categories.nodes.id in (\(Self.methods), Espresso)"))
        #expect(try needs("count taxonomies=$cat"))
        #expect(try needs("count taxonomies ~ Espresso"))
        #expect(try !needs("count taxonomies=\(Self.espresso)"))
        #expect(try !needs("count taxonomies=$catID"))
        #expect(try !needs("count name=Espresso"))
        #expect(try MayNameItemsTests.select("count taxonomies=Espresso").mayNameItems)
        #expect(try !MayNameItemsTests.select("count taxonomies=\(Self.espresso)").mayNameItems)
    }
}
