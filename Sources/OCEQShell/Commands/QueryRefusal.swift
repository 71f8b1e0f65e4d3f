// A 400 from the channel for a select statement, shown against the statement (issue 18, item 4):
// the server's complaint is mapped back to the part of the statement that produced it, and the
// error is a usage error with that span, so the presenter prints the statement with a caret under
// it and the server's words on one line.
//
// How the part is found, in order:
//
// 1. `at position N` (what `oceq serve` says: the offset of a condition's field in `q`): each
//    condition of the statement is compiled alone, and its comparisons are found, in order, among
//    the comparisons of the whole `q` parsed with core's `QueryParser` (which gives their offsets);
//    the condition whose comparisons start at or before N, last, is the one.
// 2. A value or field of a condition named in the server's text as a whole word (OCM: `Type with
//    name unknown is not found` names the value of `type=unknown`): that condition.
// 3. `orderBy`, `limit`, `offset`, `expand`, `fields`, `default` named in the text: that clause.
// 4. Otherwise the whole statement is underlined.

import DeliveryKit
import OCEQCore
import OCEQLanguage

/// Maps a channel's refusal of a query back to the statement.
@MainActor
package enum QueryRefusal {
    /// The error to show for `error`, raised by the request of `query` compiled from `select`: a
    /// 400 becomes a usage error at the part of `select` it concerns; anything else stays as it is.
    package static func error(
        _ error: DeliveryError, select: SelectStatement, query: CompiledQuery, in session: Session
    ) -> ShellError {
        guard case .http(let http) = error, http.status == 400 else { return .delivery(error) }
        let said = http.detail ?? http.title ?? http.body ?? "the request was refused"
        let (words, position) = splitPosition(said)
        let located = locate(words: words, position: position, select: select, query: query, in: session)
        var status = "HTTP 400"
        if let title = http.title, title != said { status += " " + title }
        if let code = http.errorCode { status += "; o:errorCode " + code }
        let message = "the channel refused \(located.what): \(words.singleLine) (\(status); explain shows the request)"
        return .usage(TerminalText.clean(message), span: located.span)
    }

    /// `text` without a trailing `at position N`, and N.
    static func splitPosition(_ text: String) -> (words: String, position: Int?) {
        guard let range = text.ranges(of: " at position ").last,
            let number = Int(text[range.upperBound...].prefix { $0.isNumber })
        else { return (text, nil) }
        let rest = text[range.upperBound...].drop { $0.isNumber }
        return (String(text[..<range.lowerBound]) + rest, number)
    }

    /// The part of `select` the server's `words` (and `position` in `q`) concern, and what to call it.
    static func locate(
        words: String, position: Int?, select: SelectStatement, query: CompiledQuery, in session: Session
    ) -> (span: SourceSpan, what: String) {
        let leaves = conditions(of: select, query: query, in: session)
        if let position, let leaf = leaves.last(where: { $0.offset != nil && $0.offset! <= position }) {
            return (leaf.span, "this condition")
        }
        for leaf in leaves where leaf.values.contains(where: { names(words, $0) }) {
            return (leaf.span, "this condition")
        }
        for leaf in leaves where leaf.fields.contains(where: { names(words, $0) }) {
            return (leaf.span, "this condition")
        }
        let clauses: [(String, Keyword)] = [
            ("orderBy", .order), ("limit", .limit), ("offset", .offset), ("expand", .expand), ("fields", .fields),
            ("default", .search),
        ]
        for (parameter, keyword) in clauses where names(words.lowercased(), parameter.lowercased()) {
            if let clause = select.clauses.first(where: { $0.keyword == keyword }) {
                return (clause.span, "this clause")
            }
        }
        return (select.span, "the statement")
    }

    /// One written condition (a comparison or `in`), its comparisons in `q` and where they start.
    struct Leaf {
        var span: SourceSpan
        var values: [String]
        var fields: [String]
        var offset: Int?
    }

    /// The written conditions of `select`, in order, each with the offset in `query`'s `q` of its
    /// first comparison (nil when it cannot be told).
    static func conditions(of select: SelectStatement, query: CompiledQuery, in session: Session) -> [Leaf] {
        var written: [Condition] = []
        for condition in select.conditions { collectLeaves(condition, into: &written) }
        let sent = query.q.flatMap { try? QueryParser.parse($0) }.map(comparisons) ?? []
        var cursor = 0
        var leaves: [Leaf] = []
        for condition in written {
            let alone = SelectStatement(
                verb: select.verb, clauses: [Clause(.condition(condition), span: condition.span)], span: select.span,
                verbSpan: select.verbSpan)
            let own = (try? session.compiler.compile(alone))?.filter.map(comparisons) ?? []
            var leaf = Leaf(
                span: condition.span, values: own.map(\.value),
                fields: own.flatMap { [$0.field, $0.field.hasPrefix("fields.") ? String($0.field.dropFirst(7)) : ""] }
                    .filter { !$0.isEmpty })
            if !own.isEmpty, cursor < sent.count,
                let start = (cursor...(sent.count - own.count)).first(where: {
                    Array(sent[$0..<($0 + own.count)]) == own
                })
            {
                leaf.offset = sent[start].offset
                cursor = start + own.count
            }
            leaves.append(leaf)
        }
        return leaves
    }

    /// The comparisons and `in` conditions of `condition`, in the order written.
    static func collectLeaves(_ condition: Condition, into out: inout [Condition]) {
        switch condition.kind {
        case .comparison, .membership: out.append(condition)
        case .and(let operands), .or(let operands): for operand in operands { collectLeaves(operand, into: &out) }
        case .not(let operand), .parenthesized(let operand): collectLeaves(operand, into: &out)
        }
    }

    /// The comparisons of `expression`, in order.
    static func comparisons(_ expression: QueryExpression) -> [QueryCondition] {
        switch expression {
        case .condition(let condition): return [condition]
        case .and(let operands), .or(let operands): return operands.flatMap(comparisons)
        case .not(let operand), .group(let operand): return comparisons(operand)
        case .verbatim: return []
        }
    }

    /// Whether `text` holds `word` as a whole word (not inside a longer run of letters or digits).
    static func names(_ text: String, _ word: String) -> Bool {
        guard !word.isEmpty else { return false }
        var search = text.startIndex..<text.endIndex
        while let found = text[search].firstRange(of: word) {
            let before = found.lowerBound == text.startIndex ? nil : text[text.index(before: found.lowerBound)]
            let after = found.upperBound == text.endIndex ? nil : text[found.upperBound]
            let isWord: (Character?) -> Bool = { $0.map { $0.isLetter || $0.isNumber || $0 == "_" } ?? false }
            if !isWord(before) && !isWord(after) { return true }
            search = found.upperBound..<text.endIndex
        }
        return false
    }
}
