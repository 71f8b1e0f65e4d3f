import OCEQCore

/// The three commands that select items.
package enum SelectVerb: String, Sendable, Hashable, CaseIterable {
    /// Items, a page at a time.
    case list
    /// The number of matching items (`totalResults`).
    case count
    /// The first matching item.
    case first
}

/// One key of an `order` clause.
package struct OrderKey: Sendable, Hashable {
    /// The field sorted on.
    package var field: FieldPath
    /// The direction written, if any (none means ascending).
    package var direction: SortOrder?
    /// From the field to the direction.
    package var span: SourceSpan

    /// A key on `field`.
    package init(field: FieldPath, direction: SortOrder? = nil, span: SourceSpan? = nil) {
        self.field = field
        self.direction = direction
        self.span = span ?? field.span
    }
}

/// The argument of `fields` and `expand`.
package enum FieldList: Sendable, Hashable {
    /// `all`
    case all
    /// `a, b.c, ...`
    case names([FieldPath])
}

/// One clause of a select statement.
package struct Clause: Sendable, Hashable {
    /// The clauses.
    package enum Kind: Sendable, Hashable {
        /// A condition; adjacent conditions are ANDed.
        case condition(Condition)
        /// `order [by] key, ...`
        case order([OrderKey])
        /// `limit N`
        case limit(Value)
        /// `offset N`
        case offset(Value)
        /// `fields all | a, b`
        case fields(FieldList)
        /// `expand all | a, b`
        case expand(FieldList)
        /// `search TEXT`: the API's full-text `default`.
        case search(Value)
    }

    /// What the clause says.
    package var kind: Kind
    /// The whole clause, keyword included.
    package var span: SourceSpan
    /// The clause keyword (`limit`, `order`, ...); for a condition, the condition's span.
    package var keywordSpan: SourceSpan

    /// A clause of `kind` at `span`.
    package init(_ kind: Kind, span: SourceSpan = .at(0), keywordSpan: SourceSpan? = nil) {
        self.kind = kind
        self.span = span
        self.keywordSpan = keywordSpan ?? span
    }

    /// The keyword that starts the clause, or nil for a condition.
    package var keyword: Keyword? {
        switch kind {
        case .condition: return nil
        case .order: return .order
        case .limit: return .limit
        case .offset: return .offset
        case .fields: return .fields
        case .expand: return .expand
        case .search: return .search
        }
    }
}

/// `list`, `count` or `first` with its clauses.
package struct SelectStatement: Sendable, Hashable {
    /// Which command.
    package var verb: SelectVerb
    /// The clauses in the order written.
    package var clauses: [Clause]
    /// The whole statement.
    package var span: SourceSpan
    /// The command word.
    package var verbSpan: SourceSpan

    /// A statement of `verb` with `clauses`.
    package init(verb: SelectVerb, clauses: [Clause], span: SourceSpan = .at(0), verbSpan: SourceSpan? = nil) {
        self.verb = verb
        self.clauses = clauses
        self.span = span
        self.verbSpan = verbSpan ?? span
    }

    /// The conditions in the order written (ANDed together).
    package var conditions: [Condition] {
        clauses.compactMap { clause in
            if case .condition(let condition) = clause.kind { return condition }
            return nil
        }
    }
}

/// Where each clause keyword was first given, for "given twice" (six slots, no hashing).
struct SeenClauses {
    var order, limit, offset, fields, expand, search: SourceSpan?

    subscript(keyword: Keyword) -> SourceSpan? {
        get {
            switch keyword {
            case .order: return order
            case .limit: return limit
            case .offset: return offset
            case .fields: return fields
            case .expand: return expand
            case .search: return search
            default: return nil
            }
        }
        set {
            switch keyword {
            case .order: order = newValue
            case .limit: limit = newValue
            case .offset: offset = newValue
            case .fields: fields = newValue
            case .expand: expand = newValue
            case .search: search = newValue
            default: break
            }
        }
    }
}
