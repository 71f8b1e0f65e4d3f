// The one type a query confines its matches to. OCM leaves every custom field out of the hits of a
// query that does not pin one type, even with `fields=all` (ocm-recorded:
// SearchContentItemsMenuTests.testSearchTypeList, an OR of two types; TaxonomyModelTests.b1TestSearchByNodeIds,
// a taxonomy search): `oceq serve` answers so, and the client reads such hits whole when it needs them.

extension QueryExpression {
    /// The type of a `type eq` condition that every match must meet: the condition alone, ANDed with
    /// others, in parentheses, or in every branch of an OR alike; nil when the matches may be of several
    /// types.
    public var pinnedType: String? {
        switch self {
        case .condition(let condition):
            return condition.field == "type" && condition.op == .equal ? condition.value : nil
        case .group(let inner): return inner.pinnedType
        case .and(let operands): return operands.lazy.compactMap(\.pinnedType).first
        case .or(let operands):
            let types = operands.map(\.pinnedType)
            guard let first = types.first ?? nil, types.allSatisfy({ $0 == first }) else { return nil }
            return first
        case .not, .verbatim: return nil
        }
    }
}
