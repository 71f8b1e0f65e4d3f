// let     := 'let' name '=' (value | statement)     -- a statement when it starts with list, count,
//                                                   -- first or a bindable command (get)
// explain := 'explain' statement                    -- not let, not explain
// command := word argument*                         -- everything else, for the shell to dispatch
// argument:= word-run | string | $name | $n | @n | ',' | '|' | '(' select ')' | '(' argument* ')'

import OCEQCore

extension ParserState {
    mutating func parseLet() -> LetStatement? {
        let letToken = current
        advance()
        let nameToken = current
        var name: String
        switch nameToken.kind {
        case .variable:
            name = text(SourceSpan(start: nameToken.span.start + 1, end: nameToken.span.end))
            diagnose(.letNameWithDollar(name), at: nameToken.span)
        case .word where ParserState.isVariableName(bytes, nameToken.span):
            name = text(nameToken)
        case .word, .argument:
            name = text(nameToken)
            diagnose(.invalidVariableName(name), at: nameToken.span)
        default:
            diagnose(.expectedVariableName, at: insertionPoint)
            return nil
        }
        advance()
        let equals = current
        guard isOperator(equals, "=") else {
            diagnose(.expectedEqualsAfterName(name), at: insertionPoint)
            return nil
        }
        advance()
        let binding: LetStatement.Binding
        let first = current
        if first.kind == .word,
            SelectVerb(rawValue: text(first)) != nil || options.bindableCommands.contains(text(first))
        {
            guard let statement = nested(at: first, { $0.parseStatement() }) else { return nil }
            binding = .statement(statement)
        } else {
            guard let value = parseValue(after: equals) else { return nil }
            if !atEnd {
                let statementWords = SelectVerb.allCases.map(\.rawValue) + options.bindableCommands.sorted()
                if case .bareword(let word) = value.kind,
                    let suggestion = Suggestions.closest(to: word, among: statementWords)
                {
                    diagnose(.unknownCommand(word, suggestion: suggestion), at: value.span)
                } else {
                    diagnose(
                        .expectedSingleValue, at: SourceSpan(start: current.span.start, end: tokens[limit - 1].span.end)
                    )
                }
                return nil
            }
            binding = .value(value)
        }
        return LetStatement(
            name: name, binding: binding, span: SourceSpan(start: letToken.span.start, end: insertionPoint.start),
            nameSpan: nameToken.span)
    }

    /// `[A-Za-z_][A-Za-z0-9_]*`
    static func isVariableName(_ bytes: UnsafeBufferPointer<UInt8>, _ span: SourceSpan) -> Bool {
        for offset in span.start..<span.end {
            let byte = bytes[offset]
            let isLetter = (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x5F
            let isDigit = byte >= 0x30 && byte <= 0x39
            if offset == span.start ? !isLetter : !(isLetter || isDigit) { return false }
        }
        return span.length > 0
    }

    mutating func parseExplain() -> ExplainStatement? {
        let explainToken = current
        advance()
        let next = current
        guard !atEnd else {
            diagnose(.expectedStatementToExplain, at: insertionPoint)
            return nil
        }
        if next.kind == .word, text(next) == "let" || text(next) == "explain" {
            diagnose(.cannotExplain(text(next)), at: next.span)
            return nil
        }
        guard let statement = nested(at: next, { $0.parseStatement() }) else { return nil }
        return ExplainStatement(statement: statement, span: explainToken.span.union(statement.span))
    }

    mutating func parseCommand() -> CommandStatement? {
        let nameToken = current
        advance()
        let firstArgument = pos
        guard let arguments = parseArguments(insideGroup: false) else { return nil }
        let argumentText =
            pos > firstArgument
            ? text(SourceSpan(start: tokens[firstArgument].span.start, end: tokens[pos - 1].span.end)) : ""
        return CommandStatement(
            name: text(nameToken), arguments: arguments,
            span: SourceSpan(start: nameToken.span.start, end: insertionPoint.start), nameSpan: nameToken.span,
            argumentText: argumentText)
    }

    /// Arguments up to the end of the statement, or up to `)` inside a group.
    mutating func parseArguments(insideGroup: Bool) -> [CommandArgument]? {
        var arguments: [CommandArgument] = []
        let before = diagnostics.count
        while !atEnd && !aborted {
            let token = current
            switch token.kind {
            case .rightParen:
                if insideGroup { return diagnostics.count == before ? arguments : nil }
                diagnose(.unexpected(describe(token)), at: token.span)
                advance()
            case .leftParen:
                if let argument = parseArgumentGroup(token) { arguments.append(argument) }
            case .string:
                advance()
                arguments.append(CommandArgument(.value(stringValue(token, checkingEscapes: false)), span: token.span))
            case .comma, .pipe:
                advance()
                arguments.append(CommandArgument(.symbol(text(token)), span: token.span))
            default:
                let start = pos
                advance()
                while !atEnd && !current.spaceBefore && ParserState.joinsWord(current.kind) { advance() }
                if pos - start > 1 {
                    let span = SourceSpan(start: token.span.start, end: tokens[pos - 1].span.end)
                    arguments.append(CommandArgument(.word(text(span)), span: span))
                    continue
                }
                switch token.kind {
                case .variable, .argument, .row:
                    pos = start
                    if let value = parseValue(after: token) {
                        arguments.append(CommandArgument(.value(value), span: token.span))
                    }
                case .op where text(token) == "~":
                    // `~` alone is the home folder (`download ... to ~`), as in a shell; no command takes
                    // it as an operator.
                    arguments.append(CommandArgument(.word("~"), span: token.span))
                case .op:
                    arguments.append(CommandArgument(.symbol(text(token)), span: token.span))
                default:
                    arguments.append(CommandArgument(.word(text(token)), span: token.span))
                }
            }
        }
        return diagnostics.count == before && !aborted ? arguments : nil
    }

    static func joinsWord(_ kind: TokenKind) -> Bool {
        switch kind {
        case .word, .op, .other, .variable, .argument, .row: return true
        default: return false
        }
    }

    /// `( list ... )` or `( arguments )`.
    mutating func parseArgumentGroup(_ open: Token) -> CommandArgument? {
        nested(at: open) { state in
            state.advance()
            let first = state.current
            if first.kind == .word, let verb = SelectVerb(rawValue: state.text(first)) {
                guard let close = state.matchingParen(from: state.pos - 1) else {
                    state.diagnose(
                        .expectedRightParen, at: .at(state.tokens[state.limit - 1].span.end),
                        notes: [Diagnostic.Note("to match this '('", span: open.span)])
                    state.pos = state.limit
                    return nil
                }
                let savedLimit = state.limit
                state.limit = close
                let select = state.parseSelect(verb: verb)
                state.limit = savedLimit
                state.pos = close + 1
                return select.map {
                    CommandArgument(.selection($0), span: open.span.union(state.tokens[close].span))
                }
            }
            guard let inner = state.parseArguments(insideGroup: true) else {
                state.pos = state.limit
                return nil
            }
            guard state.current.kind == .rightParen else {
                state.diagnose(
                    .expectedRightParen, at: state.insertionPoint,
                    notes: [Diagnostic.Note("to match this '('", span: open.span)])
                return nil
            }
            let close = state.current
            state.advance()
            return CommandArgument(.group(inner), span: open.span.union(close.span))
        }
    }

    /// The index of the `)` matching the `(` at `index`, within the statement.
    func matchingParen(from index: Int) -> Int? {
        var depth = 0
        var offset = index
        while offset < limit {
            switch tokens[offset].kind {
            case .leftParen: depth += 1
            case .rightParen:
                depth -= 1
                if depth == 0 { return offset }
            default: break
            }
            offset += 1
        }
        return nil
    }
}
