// The printer: AST back to canonical text, which parses again to a statement that compiles to the
// same query (the round-trip property tested in `RoundTripTests`).
//
// Canonical means: operators as symbols with a space either side (`type = "A"`), `order by` with
// directions only where written, `and`/`or`/`not` in lower case, parentheses where written plus
// wherever precedence needs them (`a and (b or c)`), strings in double quotes unless they hold
// one, barewords bare unless they would read back as something else (a keyword, a number, a
// date, or several tokens), in which case they are quoted (a quoted string and a bareword compile
// to the same value).

import OCEQCore

/// Prints statements as canonical oceq text.
package enum Printer {
    /// Statements, one per line.
    package static func text(of statements: [Statement]) -> String {
        statements.map { text(of: $0) }.joined(separator: "\n")
    }

    /// One statement.
    package static func text(of statement: Statement) -> String {
        switch statement {
        case .select(let select): return text(of: select)
        case .let(let statement):
            switch statement.binding {
            case .value(let value): return "let \(statement.name) = " + text(of: value)
            case .statement(let inner): return "let \(statement.name) = " + text(of: inner)
            }
        case .explain(let statement): return "explain " + text(of: statement.statement)
        case .command(let command):
            return ([command.name] + command.arguments.map { text(of: $0) }).joined(separator: " ")
        case .define(let define):
            let parameters = define.parameters.map { parameter in
                parameter.name + (parameter.defaultValue.map { " = " + text(of: $0) } ?? "")
            }
            var lines = define.help.map { "# " + $0 }
            lines.append("define \(define.name)(" + parameters.joined(separator: ", ") + ")")
            lines += define.body.map { "  " + text(of: $0) }
            lines.append("end")
            return lines.joined(separator: "\n")
        }
    }

    /// A select statement.
    package static func text(of select: SelectStatement) -> String {
        var parts = [select.verb.rawValue]
        for clause in select.clauses {
            parts.append(text(of: clause))
        }
        return parts.joined(separator: " ")
    }

    /// One clause.
    package static func text(of clause: Clause) -> String {
        switch clause.kind {
        case .condition(let condition): return text(of: condition)
        case .order(let keys):
            let keys = keys.map { key in key.field.text + (key.direction.map { " " + $0.rawValue } ?? "") }
            return "order by " + keys.joined(separator: ", ")
        case .limit(let value): return "limit " + text(of: value)
        case .offset(let value): return "offset " + text(of: value)
        case .fields(let list): return "fields " + text(of: list)
        case .expand(let list): return "expand " + text(of: list)
        case .search(let value): return "search " + text(of: value)
        }
    }

    static func text(of list: FieldList) -> String {
        switch list {
        case .all: return "all"
        case .names(let names): return names.map(\.text).joined(separator: ", ")
        }
    }

    /// A condition, parenthesised where precedence needs it.
    package static func text(of condition: Condition) -> String {
        var out = ""
        write(condition, context: 0, into: &out)
        return out
    }

    /// Precedence: 1 `or`, 2 `and`, 3 everything else. A condition printed where a tighter one is
    /// expected gets parentheses.
    static func write(_ condition: Condition, context: Int, into out: inout String) {
        switch condition.kind {
        case .or(let operands):
            if context > 1 { out += "(" }
            for (index, operand) in operands.enumerated() {
                if index > 0 { out += " or " }
                write(operand, context: 2, into: &out)
            }
            if context > 1 { out += ")" }
        case .and(let operands):
            if context > 2 { out += "(" }
            for (index, operand) in operands.enumerated() {
                if index > 0 { out += " and " }
                write(operand, context: 3, into: &out)
            }
            if context > 2 { out += ")" }
        case .not(let operand):
            out += "not "
            write(operand, context: 3, into: &out)
        case .parenthesized(let operand):
            out += "("
            write(operand, context: 0, into: &out)
            out += ")"
        case .comparison(let field, let op, let value):
            out += field.text + " " + op.symbol + " " + text(of: value)
        case .membership(let field, let values):
            out += field.text + " in (" + values.map { text(of: $0) }.joined(separator: ", ") + ")"
        }
    }

    /// A value as it would be typed.
    package static func text(of value: Value) -> String {
        switch value.kind {
        case .string(let text, let quote):
            return quoted(text, preferring: quote)
        case .bareword(let text):
            return isPlainBareword(text) ? text : quoted(text, preferring: .double)
        case .number(let text): return text
        case .date(let date): return date.text
        case .variable(let name): return "$" + name
        case .argument(let number): return "$\(number)"
        case .row(let number): return "@\(number)"
        }
    }

    static func quoted(_ text: String, preferring quote: QuoteStyle) -> String {
        let hasDouble = text.contains("\"")
        let hasSingle = text.contains("'")
        let useSingle = hasDouble || (quote == .single && !hasSingle)
        return useSingle ? "'" + text + "'" : "\"" + text + "\""
    }

    /// True when `text` reads back as one bareword: a single word token that is not a keyword,
    /// number or date and does not start a comment.
    static func isPlainBareword(_ text: String) -> Bool {
        let source = SourceText(text)
        let (tokens, _) = Lexer.tokenize(source)
        guard tokens.count == 2, tokens[0].kind == .word, tokens[0].span.length == source.bytes.count else {
            return false
        }
        if Keyword(text: text) != nil { return false }
        return source.bytes.withUnsafeBufferPointer { bytes in
            !ParserState.isNumber(bytes, tokens[0].span) && !DateLiteral.looksLikeDate(bytes)
        }
    }

    static func text(of argument: CommandArgument) -> String {
        switch argument.kind {
        case .word(let text), .symbol(let text): return text
        case .value(let value): return text(of: value)
        case .selection(let select): return "(" + text(of: select) + ")"
        case .group(let arguments): return "(" + arguments.map { text(of: $0) }.joined(separator: " ") + ")"
        }
    }
}

extension Statement: CustomStringConvertible {
    package var description: String { Printer.text(of: self) }
}

extension SelectStatement: CustomStringConvertible {
    package var description: String { Printer.text(of: self) }
}

extension Condition: CustomStringConvertible {
    package var description: String { Printer.text(of: self) }
}

extension Value: CustomStringConvertible {
    package var description: String { Printer.text(of: self) }
}
