// The one printer of `q`. It writes the tree as it stands: a group is parentheses, nothing else is
// added. The style is the keyword case only: `.explicit` writes `AND`/`OR` as Oracle's
// documentation does, `.sdk` writes `and`/`or` as Oracle's Swift SDK does; `NOT` is upper case in
// both (the SDK has no `not`; the search documentation writes `NOT`).

/// How the `and`/`or` keywords of `q` are written.
public enum QueryStyle: Sendable, Hashable {
    /// `AND`/`OR` in upper case (with `parenthesized(whole: true)`, the language's default form).
    case explicit
    /// `and`/`or` in lower case, as Oracle's Swift SDK writes them.
    case sdk
}

extension QueryExpression {
    /// The `q` text of the tree as it stands, keywords in `style`.
    public func text(style: QueryStyle = .sdk) -> String {
        var out = ""
        out.reserveCapacity(96)
        write(into: &out, style: style)
        return out
    }

    /// Appends the text of the tree to `out`.
    public func write(into out: inout String, style: QueryStyle) {
        switch self {
        case .condition(let condition):
            condition.write(into: &out)
        case .and(let operands), .or(let operands):
            let isAnd = if case .and = self { true } else { false }
            let keyword =
                switch style {
                case .explicit: isAnd ? " AND " : " OR "
                case .sdk: isAnd ? " and " : " or "
                }
            for (index, operand) in operands.enumerated() {
                if index > 0 { out += keyword }
                operand.write(into: &out, style: style)
            }
        case .not(let operand):
            out += "NOT "
            operand.write(into: &out, style: style)
        case .group(let inner):
            out += "("
            inner.write(into: &out, style: style)
            out += ")"
        case .verbatim(let text):
            out += text
        }
    }
}

extension QueryCondition: CustomStringConvertible {
    /// `field op "value"`.
    public var description: String {
        var out = ""
        write(into: &out)
        return out
    }

    /// Appends `field op "value"` to `out`.
    func write(into out: inout String) {
        out += field
        out += " "
        out += op.rawValue
        out += " \""
        out += value
        out += "\""
    }
}
