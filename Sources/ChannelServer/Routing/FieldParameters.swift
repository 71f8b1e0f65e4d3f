// The search parameters of the older `field:NAME[:OP]=VALUE` form, which Oracle's clients still
// send: the JavaScript Content SDK's `getItems({types})` sends `field:type:equals=T` (an array of
// types arrives comma-joined, `A,B`), older site components `field:name:equals=N` and
// `field:<type>_category="value"` (no operator: equality on a user field). Each becomes a `q`
// condition built as a value (never spliced into query text) and is ANDed with `q`. Only
// `equals` is known; any other operator is refused with 400, never silently ignored.
import OCEQCore

/// Turns `field:...` query parameters into a `q` expression.
enum FieldParameters {
    /// The operator words of the form and the `q` operator each means.
    static let operators: [String: QueryOperator] = ["equals": .equal]

    /// The conditions of every `field:` parameter ANDed (nil when there is none); 400 for a
    /// malformed name, an unknown operator or an empty value.
    static func expression(_ query: [(name: String, value: String)]) throws(APIError) -> QueryExpression? {
        var conditions: [QueryExpression] = []
        for (name, value) in query where name.hasPrefix("field:") {
            conditions.append(try condition(name: name, value: value))
        }
        switch conditions.count {
        case 0: return nil
        case 1: return conditions[0]
        default: return .and(conditions)
        }
    }

    /// One `field:NAME[:OP]=VALUE` parameter as a condition (an OR group for a list of types).
    static func condition(name: String, value: String) throws(APIError) -> QueryExpression {
        let parts = name.dropFirst("field:".count).split(separator: ":", omittingEmptySubsequences: false)
        let shown = String(name.prefix(80))
        guard parts.count <= 2, let fieldName = parts.first, !fieldName.isEmpty else {
            throw .badRequest("invalid search parameter '\(shown)': the form is field:NAME:equals=VALUE")
        }
        let operatorWord = parts.count == 2 ? parts[1].lowercased() : "equals"
        guard let op = operators[operatorWord] else {
            throw .badRequest(
                "unsupported operator '\(operatorWord.prefix(40))' in search parameter '\(shown)': only "
                    + "field:NAME:equals=VALUE is supported; use q for other comparisons")
        }
        let field = path(String(fieldName))
        guard QueryFieldPath(field) != nil else {
            throw .badRequest("invalid field '\(fieldName.prefix(80))' in search parameter '\(shown)'")
        }
        var text = Substring(value.trimmingSpaces())
        if text.count >= 2, text.hasPrefix("\""), text.hasSuffix("\"") { text = text.dropFirst().dropLast() }
        // Type names hold no commas; the SDK joins an array of types with them.
        let values =
            field == "type"
            ? text.split(separator: ",").map { String($0.trimmingSpaces()) }.filter { !$0.isEmpty }
            : [String(text)]
        guard !values.isEmpty, !values.contains(where: \.isEmpty) else {
            throw .badRequest("search parameter '\(shown)' needs a value")
        }
        let leaves = values.map { QueryExpression.condition(QueryCondition(field: field, op: op, value: $0)) }
        return leaves.count == 1 ? leaves[0] : .group(.or(leaves))
    }

    /// A standard field keeps its name, `fields.x` stays, any other name is a user field.
    static func path(_ name: String) -> String {
        if StandardField(rawValue: name) != nil || name.hasPrefix("fields.") { return name }
        return "fields." + name
    }
}
