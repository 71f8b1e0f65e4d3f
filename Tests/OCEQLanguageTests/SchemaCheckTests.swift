import OCEQLanguage
import OCEQTestSupport
import Testing

/// A small channel: articles with a topic reference, a date, a number, a list of tags, a list of related
/// topics and a list of scores. The last listing
/// has three rows: one of a type not known, an image, a topic; `$img` holds the image.
let schemaEnvironment = StaticEnvironment(
    variables: [
        "img": "CONT0000000000000000000000000000000A", "kind": "Articel", "roast": "roa",
        "id": "CORE00000000000000000000000000000001", "articleType": "Article", "topicType": "Topic",
    ],
    rows: [
        "CORE00000000000000000000000000000009", "CONT0000000000000000000000000000000A",
        "CORE00000000000000000000000000000002",
    ],
    schema: ChannelSchema(
        types: [
            SchemaType(
                name: "Article",
                fields: [
                    SchemaField(name: "topic", dataType: .reference, referenceTypes: ["Topic"]),
                    SchemaField(name: "published", dataType: .datetime, isSortable: true),
                    SchemaField(name: "reads", dataType: .number, isSortable: true),
                    SchemaField(name: "featured", dataType: .boolean),
                    SchemaField(name: "body", dataType: .largetext),
                    SchemaField(name: "tags", dataType: .text, isList: true),
                    SchemaField(name: "related", dataType: .reference, isList: true, referenceTypes: ["Topic"]),
                    SchemaField(name: "scores", dataType: .number, isList: true),
                ]),
            SchemaType(name: "Topic", fields: [SchemaField(name: "blurb", dataType: .text)]),
        ], source: .metadataCatalog),
    itemsByType: [
        "Topic": [
            ItemName(name: "Recipes", id: "CORE00000000000000000000000000000001"),
            ItemName(name: "Roasting", id: "CORE00000000000000000000000000000002"),
        ]
    ],
    rowItems: [2: ReferencedItem(name: "cup.jpg", type: "Image"), 3: ReferencedItem(name: "Roasting", type: "Topic")],
    variableItems: ["img": ReferencedItem(name: "cup.jpg", type: "Image")])

@Suite("Schema checks in the compiler")
struct SchemaCheckTests {
    @Test(
        "each statement's first problem is at the marked position",
        arguments: [
            ("list type=⟦Articel⟧", "unknownType"),
            ("list type=Article ⟦blurb⟧ = x", "unknownField"),
            ("list ⟦nothing⟧ = x", "unknownField"),
            ("list type=Article order ⟦topic⟧", "fieldNotSortable"),
            ("list type=Article ⟦reads ~ 5⟧", "operatorNotForType"),
            ("list type=Article ⟦body = x⟧", "operatorNotForType"),
            ("list type=Article reads > ⟦many⟧", "valueNotOfType"),
            ("list type=Article featured = ⟦yes⟧", "valueNotOfType"),
            ("list type=Article published >= ⟦2026⟧", "valueNotOfType"),
            ("list type=Article topic = ⟦Baking⟧", "noItemNamed"),
            ("list type=Article topic in (Recipes, ⟦R⟧)", "itemNameAmbiguous"),
            ("list type=Article topic = ⟦@2⟧", "referenceOfOtherType"),
            ("list type=Article topic in (Recipes, ⟦@2⟧)", "referenceOfOtherType"),
            ("list type=Article not topic != ⟦$img⟧", "referenceOfOtherType"),
            ("list type=⟦$kind⟧", "unknownType"),
            ("list order ⟦published⟧ desc", "orderNeedsOneType"),
            ("list name ~ tea fields name, ⟦reads⟧", "fieldsNeedOneType"),
            ("list type in (Article, Topic) fields ⟦fields.reads⟧", "fieldsNeedOneType"),
            ("list type in (Article, Topic) order name, ⟦reads⟧", "orderNeedsOneType"),
            ("list type=$topicType order ⟦published⟧", "unknownField"),
            ("list type in (Article, ⟦$kind⟧)", "unknownType"),
            ("list type=Article ⟦tags = tea⟧", "operatorNotForType"),
            ("list type=Article ⟦scores > 3⟧", "operatorNotForType"),
            ("list type=Article ⟦scores = 3⟧", "operatorNotForType"),
            ("list type=Article related ~ ⟦Baking⟧", "noItemNamed"),
            ("list type=Article related = ⟦@2⟧", "referenceOfOtherType"),
        ])
    func problems(_ input: String, _ id: String) throws {
        let marked = MarkedInput(input)
        let first = try #require(allDiagnostics(marked.text, environment: schemaEnvironment).first)
        #expect(first.message.id == id, "\(first.text)")
        #expect(first.span.start == marked.start, "\(first.text) at \(first.span)")
        if let end = marked.end { #expect(first.span.end == end) }
    }

    @Test("a name compared with a reference is sent as the item's id; an id or @n as it is")
    func references() throws {
        let compiler = Compiler(environment: schemaEnvironment)
        func q(_ text: String) throws -> String? {
            guard case .select(let select) = Parser.parse(text).statements.first else { return nil }
            return try compiler.compile(select).q
        }
        let one = "CORE00000000000000000000000000000001"
        #expect(try q("list type=Article topic=recipes") == "(type eq \"Article\" AND fields.topic eq \"\(one)\")")
        #expect(try q("list type=Article topic=\(one)") == "(type eq \"Article\" AND fields.topic eq \"\(one)\")")
        #expect(
            try q("list type=Article topic=@1")
                == "(type eq \"Article\" AND fields.topic eq \"CORE00000000000000000000000000000009\")")
        #expect(
            try q("list type=Article topic in (Recipes, roa)")
                == "(type eq \"Article\" AND (fields.topic eq \"\(one)\" OR fields.topic eq "
                + "\"CORE00000000000000000000000000000002\"))")
        #expect(try q("list type=Article tags ~ tea reads >= 3 published < 2026-01-01") != nil)
        #expect(
            try q("list type=Article topic=@3")
                == "(type eq \"Article\" AND fields.topic eq \"CORE00000000000000000000000000000002\")",
            "a row of the referenced type is used as it is")
        #expect(try q("list type=Article reads=@2") != nil, "a row of any type for a field that is not a reference")
        #expect(
            try q("list type=Article topic=$roast")
                == "(type eq \"Article\" AND fields.topic eq \"CORE00000000000000000000000000000002\")",
            "a variable holding a name is resolved as the name")
        #expect(
            try q("list type=Article topic=$id") == "(type eq \"Article\" AND fields.topic eq \"\(one)\")",
            "a variable holding an id is sent as it is")
    }

    @Test(
        "a list is compared as the API documents: = and != on references or numbers as membership (co), ~ with a name")
    func lists() throws {
        let compiler = Compiler(environment: schemaEnvironment)
        func compiled(_ text: String) throws -> CompiledQuery? {
            guard case .select(let select) = Parser.parse(text).statements.first else { return nil }
            return try compiler.compile(select)
        }
        let one = "CORE00000000000000000000000000000001"
        let two = "CORE00000000000000000000000000000002"
        // eq does not take a list (delivery-api.md §5.2): membership is co, an id being one word.
        let member = try #require(try compiled("list type=Article related = Recipes"))
        #expect(member.q == "(type eq \"Article\" AND fields.related co \"\(one)\")")
        #expect(member.listMemberships == ["related"])
        #expect(
            try compiled("list type=Article related != roa")?.q
                == "(type eq \"Article\" AND NOT (fields.related co \"\(two)\"))")
        #expect(
            try compiled("list type=Article related in (Recipes, Roasting)")?.q
                == "(type eq \"Article\" AND (fields.related co \"\(one)\" OR fields.related co \"\(two)\"))")
        // ~ on a list of references takes a name as = does (it was sent as the word and matched nothing).
        #expect(
            try compiled("list type=Article related ~ Roasting")?.q
                == "(type eq \"Article\" AND fields.related co \"\(two)\")")
        #expect(try compiled("list type=Article scores ~ 7")?.q == "(type eq \"Article\" AND fields.scores co \"7\")")
        // A single reference keeps eq, with nothing to note.
        let single = try #require(try compiled("list type=Article topic = Recipes"))
        #expect(single.q == "(type eq \"Article\" AND fields.topic eq \"\(one)\")")
        #expect(single.listMemberships.isEmpty)
        // A text list: = is refused with the operators a list takes.
        let refused = try #require(allDiagnostics("list type=Article tags = tea", environment: schemaEnvironment).first)
        #expect(refused.message.text == "'=' does not apply to 'tags' (list of texts); use ~ =~ ~~")
    }

    @Test("type=$var counts as the type it holds; before a script runs (values unknown) the order is not refused")
    func typeHeldByReference() throws {
        func problems(_ text: String, _ environment: any CompileEnvironment) -> [String] {
            allDiagnostics(text, environment: environment).map(\.message.id)
        }
        #expect(problems("list type=$articleType order published desc", schemaEnvironment).isEmpty)
        /// The check before a script runs: references stand for values not known yet.
        struct Unknown: CompileEnvironment {
            var schema: ChannelSchema? { schemaEnvironment.schema }
            var referencesHoldValues: Bool { false }
            func variable(_ name: String) -> VariableLookup { .value("1") }
            func row(_ number: Int) -> RowLookup { .id("1") }
            func argument(_ number: Int) -> String? { "1" }
            var argumentCount: Int { 9 }
            var variableNames: [String] { [] }
        }
        #expect(problems("list type=$1 order published desc", Unknown()).isEmpty)
        #expect(problems("list order published desc", Unknown()) == ["orderNeedsOneType"])
    }

    @Test("a reference field compared with a row or variable of another type: the message names both types")
    func referenceOfOtherType() throws {
        let first = try #require(allDiagnostics("list type=Article topic=@2", environment: schemaEnvironment).first)
        #expect(first.message.text == "'@2' is cup.jpg (Image), but 'topic' refers to Topic items")
        #expect(first.message.isCatalogCheck)
        let variable = try #require(
            allDiagnostics("count type=Article topic != $img", environment: schemaEnvironment).first)
        #expect(variable.message.text == "'$img' is cup.jpg (Image), but 'topic' refers to Topic items")
    }

    @Test("without a schema nothing is checked")
    func unchecked() {
        #expect(allDiagnostics("list type=Articel nmae ~ x order topic", environment: StaticEnvironment()).isEmpty)
    }
}
