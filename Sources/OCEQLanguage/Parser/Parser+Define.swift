// define  := 'define' name ['(' [param (',' param)*] ')'] NEWLINE statement* 'end'
// param   := name ['=' literal]
//
// A block spans several statements, so `parseAll` drives it: the header opens it, the statements
// up to a lone `end` become its body, and `finishDefine` closes it. The names of every `define` in
// the input are known before any statement is parsed, so a body may call a command defined further
// down (or itself). When the whole input is parsed, every call of a user command (from the options
// or from this input) is bound to its parameters, so a missing or extra argument is reported with
// the other syntax errors, before anything runs.

import OCEQCore

/// A `define` block whose `end` has not been reached yet.
struct OpenDefine {
    var name: String
    var nameSpan: SourceSpan
    var keywordSpan: SourceSpan
    var parameters: [DefineStatement.Parameter] = []
    var help: [String] = []
    var body: [Statement] = []
    var endSpan: SourceSpan
    /// How many diagnostics there were before the block: any more and it is left out.
    var diagnosticsBefore: Int
}

extension ParserState {
    /// The words that the input's `define` statements define.
    func definedNames() -> Set<String> {
        var names: Set<String> = []
        var atStart = true
        for (index, token) in tokens.enumerated() {
            if token.isSeparator {
                atStart = true
                continue
            }
            if atStart, isWord(token, "define"), index + 1 < tokens.count, tokens[index + 1].kind == .word {
                names.insert(text(tokens[index + 1]))
            }
            atStart = false
        }
        return names
    }

    /// True when `tokens` end inside a `define` block (for the REPL's continuation prompt).
    static func endsInsideDefine(_ tokens: [Token], text: String) -> Bool {
        let bytes = Array(text.utf8)
        func isWord(_ token: Token, _ word: String) -> Bool {
            token.kind == .word && token.span.end <= bytes.count
                && bytes[token.span.start..<token.span.end].elementsEqual(word.utf8)
        }
        var open = false
        var atStart = true
        for token in tokens {
            if token.isSeparator {
                atStart = true
                continue
            }
            if atStart {
                if isWord(token, "define") { open = true } else if isWord(token, "end") { open = false }
            }
            atStart = false
        }
        return open
    }

    /// `define NAME(PARAMS)`: always opens a block (so that its body and `end` are consumed), even
    /// when the header has problems; those are reported, and the block is then left out.
    mutating func parseDefineHeader() -> OpenDefine {
        let keyword = current
        var block = OpenDefine(
            name: "", nameSpan: keyword.span, keywordSpan: keyword.span, endSpan: keyword.span,
            diagnosticsBefore: diagnostics.count)
        block.help = DefineStatement.helpLines(in: bytes, before: keyword.span.start)
        advance()
        let nameToken = current
        guard nameToken.kind == .word else {
            diagnose(.expectedCommandNameAfterDefine, at: atEnd ? insertionPoint : nameToken.span)
            return block
        }
        advance()
        block.name = text(nameToken)
        block.nameSpan = nameToken.span
        if ["list", "count", "first", "let", "explain", "define", "end"].contains(block.name) {
            diagnose(.reservedCommandName(block.name), at: nameToken.span)
        } else if !DefineStatement.isCommandName(block.name) {
            diagnose(.invalidCommandName(block.name), at: nameToken.span)
        }
        if current.kind == .leftParen {
            let open = current
            advance()
            parseParameters(into: &block, open: open)
        }
        if !atEnd && diagnostics.count == block.diagnosticsBefore {
            // `define greet who`, as a shell function might be written: say where parameters go.
            var words: [Token] = []
            while peek(words.count).kind == .word { words.append(peek(words.count)) }
            if !words.isEmpty, peek(words.count).kind == .end {
                let names = words.map { text($0.span) }.joined(separator: ", ")
                diagnose(
                    .parametersWithoutParentheses("define \(block.name)(\(names))"),
                    at: words[0].span.union(words[words.count - 1].span))
            } else {
                diagnose(.unexpected(describe(current)), at: current.span)
            }
        }
        return block
    }

    /// `name, name = literal, ...)` after the `(`.
    mutating func parseParameters(into block: inout OpenDefine, open: Token) {
        var seen: [String: SourceSpan] = [:]
        var sawDefault = false  // not a search of the parameters so far: 10,000 of them stay linear
        if current.kind == .rightParen {
            advance()
            return
        }
        while true {
            let token = current
            var name = text(token)
            switch token.kind {
            case .word where DefineStatement.isParameterName(name): break
            case .variable:
                name = String(name.dropFirst())
                diagnose(.letNameWithDollar(name), at: token.span)
            default:
                diagnose(.expectedParameterName, at: atEnd ? insertionPoint : token.span)
                return
            }
            advance()
            var defaultValue: Value?
            if isOperator(current, "=") {
                let equals = current
                advance()
                guard let value = parseValue(after: equals) else { return }
                if value.isReference { diagnose(.defaultNotLiteral(name), at: value.span) }
                defaultValue = value
            } else if seen[name] == nil, sawDefault {
                diagnose(.requiredAfterDefault(name), at: token.span)
            }
            if let first = seen[name] {
                diagnose(
                    .duplicateParameter(name), at: token.span,
                    notes: [Diagnostic.Note("'\(name)' is first declared here", span: first)])
            }
            seen[name] = seen[name] ?? token.span
            sawDefault = sawDefault || defaultValue != nil
            block.parameters.append(DefineStatement.Parameter(name: name, span: token.span, defaultValue: defaultValue))
            if current.kind == .comma {
                advance()
                continue
            }
            if current.kind == .rightParen {
                advance()
                return
            }
            if atEnd {
                diagnose(
                    .expectedRightParen, at: insertionPoint,
                    notes: [Diagnostic.Note("to match this '('", span: open.span)]
                )
            } else {
                diagnose(.expectedCommaOrParenInParameters, at: current.span)
            }
            return
        }
    }

    /// The block as a statement, after checking the names its body uses; nil when it has problems.
    mutating func finishDefine(_ block: OpenDefine) -> DefineStatement? {
        let define = DefineStatement(
            name: block.name, parameters: block.parameters, body: block.body, help: block.help,
            span: block.keywordSpan.union(block.endSpan), nameSpan: block.nameSpan)
        checkVariables(of: define)
        if let first = definedHere[define.name] {
            diagnose(
                .duplicateDefine(define.name), at: define.nameSpan,
                notes: [Diagnostic.Note("'\(define.name)' is first defined here", span: first)])
        }
        definedHere[define.name] = definedHere[define.name] ?? define.nameSpan
        guard diagnostics.count == block.diagnosticsBefore else { return nil }
        definitions[define.name] = define
        return define
    }

    /// Every `$name` of the body is a parameter or set by a `let` above it; `$1`..`$9` are refused.
    mutating func checkVariables(of define: DefineStatement) {
        var known = Set(define.parameters.map(\.name))
        var order = define.parameters.map(\.name)
        for statement in define.body {
            for value in statement.values {
                switch value.kind {
                case .variable(let name) where !known.contains(name):
                    diagnose(
                        .undeclaredVariable(
                            name, command: define.name, suggestion: Suggestions.closest(to: name, among: order)),
                        at: value.span)
                case .argument:
                    diagnose(.scriptArgumentInDefine(text(value.span)), at: value.span)
                default: break
                }
            }
            if case .let(let binding) = statement, known.insert(binding.name).inserted { order.append(binding.name) }
        }
    }

    /// Binds every call of a known user command to its parameters, reporting what does not fit;
    /// returns the statements without those whose calls do not fit.
    mutating func checkCalls(_ statements: [Statement]) -> [Statement] {
        guard !definitions.isEmpty else { return statements }
        let before = diagnostics.count
        var kept: [Statement] = []
        for statement in statements {
            var fits = true
            for call in statement.commandCalls {
                guard let define = definitions[call.name] else { continue }
                if case .failure(let error) = define.bind(call) {
                    diagnostics += error.diagnostics
                    fits = false
                }
            }
            if fits { kept.append(statement) }
        }
        if diagnostics.count > before {
            diagnostics = diagnostics.enumerated().sorted {
                ($0.element.span.start, $0.offset) < ($1.element.span.start, $1.offset)
            }.map(\.element)
        }
        return kept
    }
}
