// The `q` expression after compilation: API field names, resolved and quoted-ready values, and
// nested and/or groups flattened (`(a and b) and c` is one group of three). Two renderings:
//
// - `.explicit` (the default, what issue 5 asks for): the whole expression and every group in
//   parentheses, keywords in upper case as in Oracle's documentation:
//   `(type eq "A" AND (fields.x eq "1" OR fields.x eq "2"))`, `(name eq "B")`,
//   `(NOT (name eq "B"))`.
// - `.sdk`: what Oracle's Swift SDK sends for the same query built with `QueryBuilder` (lower-case
//   `and`/`or`, the outermost group bare, inner groups parenthesised), which is what the blog
//   sample's URLs contain: `type eq "A" and fields.topic eq "B"`.
//
// Precedence never matters in either form: every group is parenthesised.

/// How `q` text is written.
public enum QueryStyle: Sendable, Hashable {
    /// Every group and the whole expression parenthesised, `AND`/`OR`/`NOT` in upper case.
    case explicit
    /// As Oracle's Swift SDK writes it: lower-case `and`/`or`, the outermost group bare.
    case sdk
}

/// A compiled search condition.
public indirect enum CompiledCondition: Sendable, Hashable {
    /// `field op "value"`
    case compare(field: String, op: ComparisonOperator, value: String)
    /// All of them (two or more).
    case all([CompiledCondition])
    /// Any of them (two or more).
    case any([CompiledCondition])
    /// Not it.
    case not(CompiledCondition)

    /// The `q` text in `style`.
    public func text(style: QueryStyle = .explicit) -> String {
        var out = ""
        out.reserveCapacity(96)
        switch (self, style) {
        case (.compare, .explicit), (.not, .explicit):
            out += "("
            write(into: &out, style: style)
            out += ")"
        case (.all(let operands), .sdk), (.any(let operands), .sdk):
            let keyword = if case .all = self { " and " } else { " or " }
            for (index, operand) in operands.enumerated() {
                if index > 0 { out += keyword }
                operand.write(into: &out, style: style)
            }
        default:
            write(into: &out, style: style)
        }
        return out
    }

    func write(into out: inout String, style: QueryStyle) {
        switch self {
        case .compare(let field, let op, let value):
            out += field
            out += " "
            out += op.rawValue
            out += " \""
            out += value
            out += "\""
        case .all(let operands), .any(let operands):
            let isAll = if case .all = self { true } else { false }
            let keyword =
                switch style {
                case .explicit: isAll ? " AND " : " OR "
                case .sdk: isAll ? " and " : " or "
                }
            out += "("
            for (index, operand) in operands.enumerated() {
                if index > 0 { out += keyword }
                operand.write(into: &out, style: style)
            }
            out += ")"
        case .not(let operand):
            out += "NOT "
            if case .compare = operand {
                out += "("
                operand.write(into: &out, style: style)
                out += ")"
            } else if case .not = operand {
                out += "("
                operand.write(into: &out, style: style)
                out += ")"
            } else {
                operand.write(into: &out, style: style)
            }
        }
    }

    /// `all`, flattening operands that are themselves `all`; a single operand stands alone.
    static func allOf(_ operands: [CompiledCondition]) -> CompiledCondition {
        var flat: [CompiledCondition] = []
        for operand in operands {
            if case .all(let inner) = operand { flat.append(contentsOf: inner) } else { flat.append(operand) }
        }
        return flat.count == 1 ? flat[0] : .all(flat)
    }

    /// `any`, flattening operands that are themselves `any`; a single operand stands alone.
    static func anyOf(_ operands: [CompiledCondition]) -> CompiledCondition {
        var flat: [CompiledCondition] = []
        for operand in operands {
            if case .any(let inner) = operand { flat.append(contentsOf: inner) } else { flat.append(operand) }
        }
        return flat.count == 1 ? flat[0] : .any(flat)
    }
}
