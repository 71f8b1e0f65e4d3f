// The checks against the channel's schema, when the environment has one (issue 17):
//
// - the statement's types are those its top-level `type = X` / `type in (...)` conditions name (ANDed,
//   so each item is one of them); with none, every type of the channel. A type name the channel does
//   not have is an error wherever it is compared, and then no field is checked (the scope is unknown);
// - a user field (`nmae`, `fields.nmae`) must be a field of one of those types; a path below it
//   (`author.name`) is checked at its first name only;
// - `order` takes a field the API sorts on; the operator must apply to the field's data type; a literal
//   value must be one the data type can hold: a number, a decimal, true/false, a date. A year alone is
//   not a date: `published_date >= 2026` is refused with the hint to write 2026-01-01;
// - a reference field compared (`=`, `!=`, `in`) with a name is resolved to the id of the one item of
//   the referenced types with that name (core's `NameMatch`: exactly, any case, unique prefix, unique
//   part); an id, `@n`, `$var` or `$n` is used as it is. What was resolved is recorded for `explain`.
//
// With no schema nothing here runs, and the statement compiles as it always has.

import OCEQCore

/// A name compared with a reference field, and the item it was resolved to.
package struct ResolvedName: Sendable, Hashable {
    /// The field (`topic`).
    package var field: String
    /// The name as written (`Recipes`).
    package var written: String
    /// The item's name (`Recipes`).
    package var name: String
    /// The item's id, which is what is sent.
    package var id: String
    /// The operator it was compared with (`=`, `!=`, `~`).
    package var op: String

    /// `written` in `field` resolved to the item `id` called `name`.
    package init(field: String, written: String, name: String, id: String, op: String = "=") {
        self.field = field
        self.written = written
        self.name = name
        self.id = id
        self.op = op
    }

    /// The comparison as written: `topic=Recipes`, `topics ~ Recipes`.
    package var comparison: String { op == "=" ? "\(field)=\(written)" : "\(field) \(op) \(written)" }
}

/// The types a statement is about, under a schema.
struct SchemaScope {
    /// The channel's schema.
    let schema: ChannelSchema
    /// The types the statement names (known ones), or every type when it names none.
    let types: [SchemaType]
    /// True when the statement named its types.
    let named: Bool
    /// True when a `type` condition compares with a reference whose value is not known (the check
    /// before a script runs): the statement's types are then not known either.
    let typesUnknown: Bool

    /// The scope of `select` under `schema`; nil when it names a type the schema lacks. A reference
    /// compared with `type` (`type=$t`, `type=$1`) counts with the value it holds when `environment`
    /// knows it.
    init?(_ select: SelectStatement, schema: ChannelSchema, environment: (any CompileEnvironment)? = nil) {
        var names: [String] = []
        var unknown = false
        for condition in select.conditions {
            Self.typeNames(condition, into: &names, unknown: &unknown, environment: environment)
        }
        var types: [SchemaType] = []
        for name in names {
            guard let type = schema.types[name] else { return nil }
            types.append(type)
        }
        self.schema = schema
        self.named = !types.isEmpty
        self.typesUnknown = unknown
        self.types = types.isEmpty ? schema.typeNames.compactMap { schema.types[$0] } : types
    }

    /// The scope of one item of type `typeName` (`get @1 expand ...`), or of every type when the type is
    /// not known or not in `schema`.
    init(item typeName: String?, schema: ChannelSchema) {
        let type = typeName.flatMap { schema.types[$0] }
        self.schema = schema
        self.named = type != nil
        self.typesUnknown = false
        self.types = type.map { [$0] } ?? schema.typeNames.compactMap { schema.types[$0] }
    }

    /// The type names of top-level `type = X` and `type in (...)` conditions, inside `and`s and parentheses;
    /// `unknown` is set for a reference whose value `environment` does not know.
    static func typeNames(
        _ condition: Condition, into names: inout [String], unknown: inout Bool, environment: (any CompileEnvironment)?
    ) {
        func add(_ value: Value) {
            if let text = value.literalText {
                names.append(text)
            } else if let text = heldText(value, environment) {
                names.append(text)
            } else {
                unknown = true
            }
        }
        switch condition.kind {
        case .comparison(let field, .equal, let value) where field.text == "type":
            add(value)
        case .membership(let field, let values) where field.text == "type":
            values.forEach(add)
        case .and(let operands):
            for operand in operands { typeNames(operand, into: &names, unknown: &unknown, environment: environment) }
        case .parenthesized(let operand):
            typeNames(operand, into: &names, unknown: &unknown, environment: environment)
        default: break
        }
    }

    /// The text a `$variable` or `$n` holds, when `environment` resolves references to their values.
    static func heldText(_ value: Value, _ environment: (any CompileEnvironment)?) -> String? {
        guard let environment, environment.referencesHoldValues else { return nil }
        switch value.kind {
        case .variable(let name):
            if case .value(let text) = environment.variable(name) { return text }
            return nil
        case .argument(let number):
            return environment.argument(number)
        default:
            return nil
        }
    }

    /// True unless the statement may match items of several types: it names one type, or a reference
    /// names its type with a value not known yet (so nothing is refused for want of one).
    var confinedToOneType: Bool { (named && types.count == 1) || typesUnknown }

    /// The channel's types that have a user field `name`, for "add type=..." messages.
    func typesHaving(_ name: String) -> [String] {
        schema.typeNames.filter { schema.types[$0]?.field(named: name) != nil }
    }

    /// The type names of the scope, for messages (empty when the scope is the whole channel).
    var typeNamesForMessages: [String] { named ? types.map(\.name) : [] }

    /// The field `name` of the first type in scope that has it.
    func field(_ name: String) -> SchemaField? {
        for type in types {
            if let field = type.field(named: name) { return field }
        }
        return nil
    }

    /// Every field name of the scope's types and the standard fields, for "did you mean".
    var fieldNames: [String] {
        var seen = Set<String>()
        var out: [String] = []
        for name in ChannelSchema.itemStandardFields + types.flatMap({ $0.fields.map(\.name) })
        where seen.insert(name).inserted {
            out.append(name)
        }
        return out
    }

    /// The fields the API sorts on in this scope: the sortable standard fields a condition names most,
    /// then the sortable user fields.
    var sortableNames: [String] {
        var seen = Set<String>()
        let user = types.flatMap { $0.fields.filter(\.isSortable).map(\.name) }.filter { seen.insert($0).inserted }
        return ["name", "createdDate", "updatedDate"] + user
    }
}

extension CompilerRun {
    /// The user field name a path starts with (`nmae` for `nmae`, `fields.nmae` and `nmae.x`), nil for a
    /// standard field.
    static func userFieldName(_ field: FieldPath) -> String? {
        if field.isStandard || !field.isValid { return nil }
        let segments = field.segments
        if field.isPrefixed { return segments.count > 1 ? segments[1] : nil }
        return segments[0]
    }

    /// The schema field `field` names, or nil (after a diagnostic when it names none in scope). Standard
    /// fields and statements without a scope return nil without a diagnostic.
    mutating func schemaField(_ field: FieldPath) -> SchemaField? {
        guard let scope, let name = Self.userFieldName(field) else { return nil }
        if let found = scope.field(name) { return found }
        guard scope.types.allSatisfy(\.fieldsKnown) else { return nil }
        let suggestion = Suggestions.closest(to: name, among: scope.fieldNames)
        diagnose(.unknownField(name, types: scope.typeNamesForMessages, suggestion: suggestion), at: field.span)
        return nil
    }

    /// Whether `field` is known in scope (a standard field, or a user field of a type in scope).
    mutating func checkKnown(_ field: FieldPath) -> Bool {
        guard let scope, let name = Self.userFieldName(field) else { return true }
        return schemaField(field) != nil || !scope.types.allSatisfy(\.fieldsKnown) && scope.field(name) == nil
    }

    /// Checks an `order` key against the scope.
    mutating func checkSortable(_ key: OrderKey) -> Bool {
        guard let scope, Self.userFieldName(key.field) != nil else { return true }
        guard let field = schemaField(key.field) else { return !scope.types.allSatisfy(\.fieldsKnown) }
        guard !key.field.isPath else { return true }
        if field.isSortable {
            guard !scope.confinedToOneType else { return true }
            diagnose(.orderNeedsOneType(field.name, types: scope.typesHaving(field.name)), at: key.field.span)
            return false
        }
        diagnose(
            .fieldNotSortable(
                field.name, dataType: field.dataType.described(list: field.isList), sortable: scope.sortableNames),
            at: key.field.span)
        return false
    }

    /// Checks that the custom fields a `fields` clause names come back: OCM leaves every custom field out
    /// of the hits of a search that does not name one type (recorded for `fields=all`:
    /// SearchContentItemsMenuTests.testSearchTypeList; taken to hold for a list of names too), so such a
    /// column would be empty. Standard fields come back either way.
    mutating func checkShownInHits(_ names: [FieldPath]) {
        guard let scope, !scope.confinedToOneType,
            let field = names.first(where: { Self.userFieldName($0) != nil }), let name = Self.userFieldName(field)
        else { return }
        diagnose(.fieldsNeedOneType(name, types: scope.typesHaving(name)), at: field.span)
    }

    /// Checks a `type` value against the schema's type names.
    mutating func checkTypeName(_ value: Value, _ text: String) -> Bool {
        guard let schema = environment.schema, let name = literalOrHeld(value, text), schema.types[name] == nil
        else {
            return true
        }
        diagnose(.unknownType(name, suggestion: Suggestions.closest(to: name, among: schema.typeNames)), at: value.span)
        return false
    }

    /// The text to send for `value` (already resolved to `text`) compared with `field` by `op`, checked
    /// against the field's data type and, for a reference compared with a name, resolved to an id; nil
    /// after a diagnostic.
    mutating func checkedValue(_ field: FieldPath, _ op: QueryOperator, _ value: Value, _ text: String) -> String? {
        if field.text == "type" && !field.isPrefixed && (op == .equal || op == .notEqual) {
            return checkTypeName(value, text) ? text : nil
        }
        // The taxonomy fields are lists of ids.
        if let taxonomyField = TaxonomyNames.field(field), Self.comparesItem(op, inList: true) {
            // A name (literal, or held by `$var`/`$n`) is sent as the id of what it names; a row is an id.
            guard !value.isReference || Self.holdsName(value, in: environment) else { return text }
            return resolveTaxonomyTerm(text, value: value, field: field, taking: taxonomyField, op: op)
        }
        guard let schemaField = schemaField(field) ?? (scope == nil ? nil : ChannelSchema.standardField(field)) else {
            let unknown = scope.map { $0.types.allSatisfy(\.fieldsKnown) } ?? false
            return unknown && Self.userFieldName(field) != nil ? nil : text
        }
        // A path below the field (`author.name`) is another item's field: not checked here.
        guard !field.isPath else { return text }
        let dataType = schemaField.dataType
        let described = dataType.described(list: schemaField.isList)
        let allowed = dataType.operators(list: schemaField.isList)
        guard allowed.contains(op) else {
            let symbols = QueryOperator.languageOrder.filter(allowed.contains).map(\.symbol)
            diagnose(
                .operatorNotForType(op.symbol, field: schemaField.name, dataType: described, allowed: symbols),
                at: field.span.union(value.span))
            return nil
        }
        // References (`@n`, `$var`, `$n`) are used as they are, unless the item behind one is known to be
        // of a type the reference field cannot point at; a variable or argument holding text that is not
        // an id (`topic=$1` given `Recipes`) is a name, resolved as one.
        let comparesItem = dataType == .reference && Self.comparesItem(op, inList: schemaField.isList)
        if value.isReference, !(comparesItem && Self.holdsName(value, in: environment)) {
            if dataType == .reference, !schemaField.referenceTypes.isEmpty, let (written, item) = referencedItem(value),
                !schemaField.referenceTypes.contains(item.type)
            {
                diagnose(
                    .referenceOfOtherType(
                        written, name: item.name, type: item.type, field: schemaField.name,
                        types: schemaField.referenceTypes),
                    at: value.span)
                return nil
            }
            return text
        }
        if let hint = Self.typeProblem(dataType, value, text) {
            diagnose(.valueNotOfType(text, field: schemaField.name, dataType: described, hint: hint), at: value.span)
            return nil
        }
        if comparesItem {
            return resolveName(text, value: value, field: schemaField, op: op)
        }
        return text
    }

    /// Whether `op` compares a reference field with an item (whose name is then sent as its id): equal
    /// or not, or, for a list (`co`: one of its values), contains.
    static func comparesItem(_ op: QueryOperator, inList list: Bool) -> Bool {
        op == .equal || op == .notEqual || (list && op == .contains)
    }

    /// The condition sent for `field op value` (`value` checked already): as written, except that a list
    /// of references compared with `=` or `!=` is sent as membership, `co` or `NOT co`: the API's `eq`
    /// does not take a list (delivery-api.md §5.2), and an id is one word, so `co` finds exactly it
    /// among the values. `explain` notes the fields so sent (`listMemberships`).
    mutating func sentCondition(_ field: FieldPath, _ op: QueryOperator, _ value: String) -> QueryExpression {
        let written = QueryExpression.condition(QueryCondition(field: field.apiName, op: op, value: value))
        guard op == .equal || op == .notEqual, !field.isPath, let scope, let name = Self.userFieldName(field),
            let schemaField = scope.field(name), schemaField.isList, schemaField.dataType == .reference
        else { return written }
        if !listMemberships.contains(schemaField.name) { listMemberships.append(schemaField.name) }
        let member = QueryExpression.condition(QueryCondition(field: field.apiName, op: .contains, value: value))
        return op == .equal ? member : .not(member)
    }

    /// The text of a literal, or the value a reference holds when the environment resolves references
    /// to their values (`text`, already resolved); nil otherwise.
    func literalOrHeld(_ value: Value, _ text: String) -> String? {
        value.literalText ?? (value.isReference && environment.referencesHoldValues ? text : nil)
    }

    /// True when `value` is a `$variable` or `$n` that holds text that is not an id: a name, to be resolved
    /// as one (a row, or a variable bound to an item, holds an id). False when `environment` does not
    /// know the values references hold.
    static func holdsName(_ value: Value, in environment: any CompileEnvironment) -> Bool {
        if case .variable(let name) = value.kind, environment.variableItem(name) != nil { return false }
        guard let text = SchemaScope.heldText(value, environment) else { return false }
        return !ItemName.looksLikeID(text)
    }

    /// The reference as written (`@2`, `$t`) and the name and type of the item it stands for, when the
    /// session knows them.
    func referencedItem(_ value: Value) -> (written: String, item: ReferencedItem)? {
        switch value.kind {
        case .row(let number): return environment.rowItem(number).map { ("@\(number)", $0) }
        case .variable(let name): return environment.variableItem(name).map { ("$\(name)", $0) }
        default: return nil
        }
    }

    /// What is wrong with `text` as a value of `dataType`, as a hint; nil when nothing is.
    static func typeProblem(_ dataType: FieldDataType, _ value: Value, _ text: String) -> String? {
        switch dataType {
        case .number:
            return Int(text) == nil ? "write a whole number, such as 42" : nil
        case .decimal:
            return Double(text) == nil ? "write a number, such as 4.5" : nil
        case .boolean:
            return ["true", "false"].contains(text.lowercased()) ? nil : "write true or false"
        case .datetime:
            if case .date = value.kind { return nil }
            if case .success = DateLiteral.parse(text) { return nil }
            if text.count == 4, Int(text) != nil {
                return "a year alone is not a date; write \(text)-01-01"
            }
            return "write a date, such as 2026-01-01 or 2026-01-01T09:30:00Z"
        case .text, .largetext, .json, .reference:
            return nil
        }
    }

    /// The id of the item of `field`'s referenced types that `text` names; `text` itself when it is the
    /// id of one of them or the names are not known; nil after a diagnostic.
    mutating func resolveName(_ text: String, value: Value, field: SchemaField, op: QueryOperator) -> String? {
        guard !field.referenceTypes.isEmpty else { return text }
        var items: [ItemName] = []
        for type in field.referenceTypes {
            guard let some = environment.items(ofType: type) else { return text }
            items.append(contentsOf: some)
        }
        if items.contains(where: { $0.id == text }) || ItemName.looksLikeID(text) { return text }
        let names = items.map(\.name)
        switch NameMatch.find(text, in: names) {
        case .found(let index):
            resolved.append(
                ResolvedName(
                    field: field.name, written: text, name: items[index].name, id: items[index].id, op: op.symbol))
            return items[index].id
        case .ambiguous(let indices):
            diagnose(
                .itemNameAmbiguous(text, field: field.name, candidates: indices.map { names[$0] }), at: value.span)
        case .none(let suggestion):
            diagnose(
                .noItemNamed(
                    text, field: field.name, types: field.referenceTypes, candidates: names.sorted(),
                    suggestion: suggestion),
                at: value.span)
        }
        return nil
    }
}

extension CompilerRun {
    /// The id of the taxonomy or category `text` names for `field` (its name exactly, in any case, or
    /// the one name starting with or containing it; a taxonomy's short name or a category's API name in
    /// any case); `text` itself when it is an id or the names are not known; nil after a diagnostic.
    mutating func resolveTaxonomyTerm(
        _ text: String, value: Value, field: FieldPath, taking taken: TaxonomyNames.Field, op: QueryOperator
    ) -> String? {
        guard let names = environment.taxonomyNames() else { return text }
        let terms = names.terms(for: taken)
        if TaxonomyNames.looksLikeID(text) || terms.contains(where: { $0.id == text }) { return text }
        func found(_ term: TaxonomyTerm) -> String {
            resolved.append(
                ResolvedName(field: field.text, written: text, name: term.label, id: term.id, op: op.symbol))
            return term.id
        }
        let kinds = taken == .category ? ["category"] : ["taxonomy", "category"]
        switch TaxonomyNames.find(text, among: terms) {
        case .found(let index):
            return found(terms[index])
        case .ambiguous(let indices):
            diagnose(
                .itemNameAmbiguous(text, field: field.text, candidates: indices.map { terms[$0].label }), at: value.span
            )
        case .none(let suggestion):
            diagnose(
                .noItemNamed(
                    text, field: field.text, types: kinds, candidates: terms.map(\.name).sorted(),
                    suggestion: suggestion),
                at: value.span)
        }
        return nil
    }
}

extension SelectStatement {
    /// True when compiling the statement checks anything against a schema: it has a condition, an
    /// `order`, or `fields`/`expand` names (`count` alone needs no catalog).
    package var checksNames: Bool {
        clauses.contains { clause in
            switch clause.kind {
            case .condition, .order, .fields(.names), .expand(.names): return true
            case .limit, .offset, .search, .fields(.all), .expand(.all): return false
            }
        }
    }

    /// True when compiling the statement under a schema may send something other than it sends without
    /// one: a user field is compared (`=`, `!=`, `in`) with a literal that is not an id, a name that is
    /// resolved to an item's id when the field is a reference; or a taxonomy field with a literal that is
    /// not a taxonomy's or category's id. Known without the schema.
    package var mayNameItems: Bool {
        comparesEquality { field, values in
            if TaxonomyNames.field(field) != nil {
                return values.contains { $0.literalText.map { !TaxonomyNames.looksLikeID($0) } ?? false }
            }
            return CompilerRun.userFieldName(field) != nil
                && values.contains { value in
                    value.literalText.map { !ItemName.looksLikeID($0) } ?? false
                }
        }
    }

    /// True when compiling this statement may look up the names of the channel's taxonomies and
    /// categories: a taxonomy field (`taxonomies`, `taxonomies.categories.id`,
    /// `taxonomies.categories.nodes.id`) compared (`=`, `!=`, `in`, `~`) with a literal that is not an id,
    /// or with a variable or argument that may hold a name. The shell reads them before it compiles.
    package func namesTaxonomyTerms(environment: (any CompileEnvironment)? = nil) -> Bool {
        comparesEquality(orContains: true) { field, values in
            TaxonomyNames.field(field) != nil
                && values.contains { value in
                    guard let text = value.literalText ?? environment.flatMap({ SchemaScope.heldText(value, $0) })
                    else { return value.isReference && environment == nil }
                    return !TaxonomyNames.looksLikeID(text)
                }
        }
    }

    /// True when one of the conditions compares a field with `=`, `!=` or `in` (or `~`, with
    /// `orContains`) and `matches` holds for the field and its values, at any depth of `and`, `or`,
    /// `not` and parentheses.
    func comparesEquality(orContains: Bool = false, where matches: (FieldPath, [Value]) -> Bool) -> Bool {
        func visit(_ condition: Condition) -> Bool {
            switch condition.kind {
            case .comparison(let field, let op, let value):
                return (op == .equal || op == .notEqual || (orContains && op == .contains)) && matches(field, [value])
            case .membership(let field, let values):
                return matches(field, values)
            case .and(let operands), .or(let operands):
                return operands.contains(where: visit)
            case .not(let operand), .parenthesized(let operand):
                return visit(operand)
            }
        }
        return conditions.contains(where: visit)
    }

    /// The types whose item names compiling this statement under `schema` may look up: the referenced
    /// types of reference fields compared with a name. The shell reads them before it compiles.
    package func typesNamedByReferences(
        in schema: ChannelSchema, environment: (any CompileEnvironment)? = nil
    )
        -> [String]
    {
        guard let scope = SchemaScope(self, schema: schema, environment: environment) else { return [] }
        var out: [String] = []
        func visit(_ condition: Condition) {
            switch condition.kind {
            case .comparison(let field, _, let value):
                add(field, [value])
            case .membership(let field, let values):
                add(field, values)
            case .and(let operands), .or(let operands):
                operands.forEach(visit)
            case .not(let operand), .parenthesized(let operand):
                visit(operand)
            }
        }
        /// A literal, or a variable or argument holding a name.
        func mayBeName(_ value: Value) -> Bool {
            !value.isReference || environment.map { CompilerRun.holdsName(value, in: $0) } ?? false
        }
        func add(_ field: FieldPath, _ values: [Value]) {
            guard let name = CompilerRun.userFieldName(field), let found = scope.field(name),
                found.dataType == .reference, values.contains(where: mayBeName)
            else { return }
            for type in found.referenceTypes where !out.contains(type) { out.append(type) }
        }
        conditions.forEach(visit)
        return out
    }
}
