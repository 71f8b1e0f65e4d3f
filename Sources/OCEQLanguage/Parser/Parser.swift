// The parser: tokens in, statements and diagnostics out; it never throws and never stops at the
// first problem.
//
// Design, after swift-syntax's `Parser.swift`:
// - The lexer runs once over the whole input. Statements are then cut at `;` and line breaks
//   (line breaks inside parentheses never reach the parser), and each statement is parsed over
//   its own token range `pos..<limit`; past `limit` the parser sees an `.end` token placed just
//   after the last token it consumed, which is where "expected ... after ..." diagnostics point.
// - One `parse...` function per grammar rule, `mutating` because it consumes tokens; `current`
//   and `peek(_:)` look ahead without consuming.
// - Errors are collected. Within a statement the parser recovers at the next clause keyword, so
//   one statement can report several problems; a statement with any problem is left out of the
//   result so that nothing half-understood ever runs.
// - Hostile input is bounded: nesting deeper than `maximumDepth` (parentheses, `not`, argument
//   groups) and statements longer than `maximumStatementBytes` become diagnostics, so recursion
//   depth is bounded and no input can overflow the stack.

import OCEQCore

/// Limits and vocabulary for the parser.
package struct ParserOptions: Sendable, Hashable {
    /// The deepest nesting of parentheses and `not` accepted.
    package var maximumDepth: Int
    /// The longest statement accepted, in UTF-8 bytes.
    package var maximumStatementBytes: Int
    /// The command words the shell knows, for "unknown command" and its "did you mean"; nil accepts
    /// any word as a command. `list`, `count`, `first`, `let` and `explain` are always known.
    package var commands: Set<String>?
    /// Commands besides `list`/`count`/`first` whose result `let` can bind (`let a = get @1`).
    package var bindableCommands: Set<String>
    /// User commands already defined (by plugins or earlier input), so that calls of them are
    /// checked against their parameters; their names must also be in `commands`.
    package var userCommands: [String: DefineStatement] = [:]

    /// The core commands of issue 5 and DESIGN.md §4.
    package static let coreCommands: Set<String> = [
        "help", "list", "count", "first", "get", "explain", "let", "echo", "set", "source", "history", "connect",
        "quit",
    ]

    /// Options with the given limits and vocabulary.
    package init(
        maximumDepth: Int = 32, maximumStatementBytes: Int = 65_536,
        commands: Set<String>? = ParserOptions.coreCommands, bindableCommands: Set<String> = ["get"]
    ) {
        self.maximumDepth = maximumDepth
        self.maximumStatementBytes = maximumStatementBytes
        self.commands = commands
        self.bindableCommands = bindableCommands
    }
}

/// The statements of an input and every diagnostic found in it.
package struct ParsedInput: Sendable, Hashable {
    /// The text parsed; spans index into it.
    package var source: SourceText
    /// The statements that parsed without error, in order.
    package var statements: [Statement]
    /// Every problem found, in source order.
    package var diagnostics: [Diagnostic]

    /// True when any diagnostic is an error (then some statement was left out, and none should run).
    package var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }
}

/// Whether the REPL has a whole input or should read another line.
package enum InputState: Sendable, Hashable {
    /// Every parenthesis and string is closed.
    case complete
    /// `depth` parentheses are still open.
    case insideParentheses(depth: Int)
    /// A string is still open.
    case insideString
    /// A `define` block has no `end` yet.
    case insideDefine
}

/// Parses oceq statements.
package enum Parser {
    /// Parses `text`.
    package static func parse(_ text: String, options: ParserOptions = ParserOptions()) -> ParsedInput {
        parse(SourceText(text), options: options)
    }

    /// Parses `source`.
    package static func parse(_ source: SourceText, options: ParserOptions = ParserOptions()) -> ParsedInput {
        let (tokens, _) = Lexer.tokenize(source)
        let (statements, diagnostics) = source.bytes.withUnsafeBufferPointer { bytes in
            var state = ParserState(bytes: bytes, tokens: tokens, options: options)
            let statements = state.parseAll()
            return (statements, state.diagnostics)
        }
        return ParsedInput(source: source, statements: statements, diagnostics: diagnostics)
    }

    /// Whether `text` ends inside parentheses or a string, so that the REPL continues on the next line.
    /// A string left open after a quote the user meant to escape (`"a\"b"`) is not waited for: the
    /// input is whole, and parsing it reports that quote.
    package static func inputState(of text: String) -> InputState {
        let source = SourceText(text)
        let (tokens, summary) = Lexer.tokenize(source)
        if summary.endsInsideString {
            let escaped = source.bytes.withUnsafeBufferPointer { bytes in
                zip(tokens, tokens.dropFirst()).contains { ParserState.endsWithEscapedQuote($0, before: $1, bytes) }
            }
            return escaped ? .complete : .insideString
        }
        if summary.openParentheses > 0 { return .insideParentheses(depth: summary.openParentheses) }
        return ParserState.endsInsideDefine(tokens, text: text) ? .insideDefine : .complete
    }
}

struct ParserState {
    let bytes: UnsafeBufferPointer<UInt8>
    let tokens: [Token]
    let options: ParserOptions
    /// The command words known: the options' and those this input defines (nil accepts any).
    var commands: Set<String>?
    /// The user commands whose calls are checked: the options' and those this input defines.
    var definitions: [String: DefineStatement]
    /// Where each `define` of this input named its command, to report one defined twice.
    var definedHere: [String: SourceSpan] = [:]
    /// The next token to consume.
    var pos = 0
    /// The separator ending the current statement; tokens from here on are out of reach.
    var limit = 0
    var diagnostics: [Diagnostic] = []
    var depth = 0
    /// Set when nesting went too deep: everything unwinds without further diagnostics.
    var aborted = false

    init(bytes: UnsafeBufferPointer<UInt8>, tokens: [Token], options: ParserOptions) {
        self.bytes = bytes
        self.tokens = tokens
        self.options = options
        self.commands = options.commands
        self.definitions = options.userCommands
    }

    // MARK: Token access

    var atEnd: Bool { pos >= limit }

    /// The next token, or an `.end` token just after the last one consumed.
    var current: Token { pos < limit ? tokens[pos] : Token(kind: .end, span: insertionPoint, spaceBefore: false) }

    /// The token `offset` places after `current`, or `.end`.
    func peek(_ offset: Int) -> Token {
        pos + offset < limit ? tokens[pos + offset] : Token(kind: .end, span: insertionPoint, spaceBefore: false)
    }

    /// Just after the last token consumed: where something missing should go.
    var insertionPoint: SourceSpan { .at(pos > 0 ? tokens[min(pos, tokens.count) - 1].span.end : 0) }

    mutating func advance() {
        if pos < limit { pos += 1 }
    }

    func text(_ token: Token) -> String {
        text(token.span)
    }

    func text(_ span: SourceSpan) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[span.start..<span.end]), as: UTF8.self)
    }

    func keyword(_ token: Token) -> Keyword? {
        token.kind == .word ? Keyword.match(bytes, token.span) : nil
    }

    func isKeyword(_ token: Token, _ keyword: Keyword) -> Bool {
        token.kind == .word && Keyword.match(bytes, token.span) == keyword
    }

    func isOperator(_ token: Token, _ symbol: String) -> Bool {
        token.kind == .op && token.span.length == symbol.utf8.count && text(token) == symbol
    }

    func isChar(_ token: Token, _ char: UInt8) -> Bool {
        token.span.length == 1 && bytes[token.span.start] == char
    }

    /// How a token is named in a message.
    func describe(_ token: Token) -> String {
        switch token.kind {
        case .end, .newline, .semicolon: return "the end of the statement"
        case .string: return "a string"
        default:
            let text = text(token)
            return "'" + (text.count > 24 ? String(text.prefix(24)) + "..." : text) + "'"
        }
    }

    mutating func diagnose(_ message: DiagnosticMessage, at span: SourceSpan, notes: [Diagnostic.Note] = []) {
        diagnostics.append(Diagnostic(message, at: span, notes: notes))
    }

    /// Runs `body` one level deeper, or reports the nesting limit at `token` and aborts the statement.
    mutating func nested<T>(at token: Token, _ body: (inout ParserState) -> T?) -> T? {
        guard !aborted else { return nil }
        depth += 1
        defer { depth -= 1 }
        if depth > options.maximumDepth {
            diagnose(.nestingTooDeep(limit: options.maximumDepth), at: token.span)
            aborted = true
            return nil
        }
        return body(&self)
    }

    // MARK: Statements

    mutating func parseAll() -> [Statement] {
        if let known = commands { commands = known.union(definedNames()) }
        var statements: [Statement] = []
        var open: OpenDefine?
        var index = 0
        while true {
            while tokens[index].kind == .semicolon || tokens[index].kind == .newline { index += 1 }
            if tokens[index].kind == .end { break }
            var end = index
            while !tokens[end].isSeparator { end += 1 }
            let length = tokens[end - 1].span.end - tokens[index].span.start
            if length > options.maximumStatementBytes {
                diagnose(
                    .statementTooLong(bytes: length, limit: options.maximumStatementBytes), at: tokens[index].span)
            } else {
                pos = index
                limit = end
                depth = 0
                aborted = false
                let before = diagnostics.count
                if isWord(current, "define") {
                    if let outer = open {
                        diagnose(.defineInsideDefine, at: current.span)
                        open = outer
                    } else {
                        open = parseDefineHeader()
                    }
                } else if isWord(current, "end"), var block = open {
                    advance()
                    if !atEnd { diagnose(.unexpected(describe(current)), at: current.span) }
                    block.endSpan = tokens[pos - 1].span
                    if let define = finishDefine(block) { statements.append(.define(define)) }
                    open = nil
                } else if isWord(current, "end") {
                    diagnose(.endWithoutDefine, at: current.span)
                } else {
                    let statement = parseStatement()
                    if !atEnd && diagnostics.count == before {
                        diagnose(.unexpected(describe(current)), at: current.span)
                    }
                    if let statement, diagnostics.count == before {
                        if open != nil { open?.body.append(statement) } else { statements.append(statement) }
                    }
                }
            }
            index = end
        }
        if let block = open {
            if !block.name.isEmpty { diagnose(.unterminatedDefine(block.name), at: block.keywordSpan) }
            checkVariables(
                of: DefineStatement(name: block.name, parameters: block.parameters, body: block.body))
        }
        return checkCalls(statements)
    }

    /// oceq's command for psql's `\NAME`: `quit` for `\q`, `types` for `\d`, else `help`.
    static func backslashEquivalent(_ name: String) -> String {
        switch name {
        case "q": return "quit"
        case "d", "dt", "d+": return "types"
        case "i", "ir": return "source FILE"
        default: return "help"
        }
    }

    func isWord(_ token: Token, _ word: String) -> Bool {
        token.kind == .word && token.span.length == word.utf8.count && text(token) == word
    }

    /// A statement from `pos` to `limit`.
    mutating func parseStatement() -> Statement? {
        let token = current
        guard token.kind == .word else {
            if token.span.length > 0, bytes[token.span.start] == UInt8(ascii: "\\") {
                // psql's backslash commands (`\q`, `\?`, `\d`): say which word oceq uses.
                let next = peek(1)
                let adjacent = next.kind != .end && !next.spaceBefore
                let name = adjacent ? String(decoding: bytes[next.span.start..<next.span.end], as: UTF8.self) : ""
                let span = adjacent ? token.span.union(next.span) : token.span
                diagnose(.backslashCommand("\\" + name, instead: Self.backslashEquivalent(name)), at: span)
                return nil
            }
            diagnose(.expectedCommand, at: token.span)
            return nil
        }
        let word = UnsafeBufferPointer(rebasing: bytes[token.span.start..<token.span.end])
        if FieldPath.matches(word, "list") { return parseSelect(verb: .list).map(Statement.select) }
        if FieldPath.matches(word, "count") { return parseSelect(verb: .count).map(Statement.select) }
        if FieldPath.matches(word, "first") { return parseSelect(verb: .first).map(Statement.select) }
        if FieldPath.matches(word, "let") { return parseLet().map(Statement.let) }
        if FieldPath.matches(word, "explain") { return parseExplain().map(Statement.explain) }
        let name = text(token)
        if let commands, !commands.contains(name) {
            let next = peek(1)
            if next.kind == .op || isKeyword(next, .in) || QueryOperator.match(word: bytes, next.span) != nil {
                let statementText = text(SourceSpan(start: token.span.start, end: tokens[limit - 1].span.end))
                let shown = statementText.utf8.count <= 40 ? statementText : name + " ..."
                diagnose(.missingCommand(suggestion: "list " + shown), at: token.span)
            } else if name.lowercased() == "select" {
                diagnose(.sqlSelect(name), at: token.span)
            } else {
                let known = SelectVerb.allCases.map(\.rawValue) + ["let", "explain"] + commands.sorted()
                diagnose(.unknownCommand(name, suggestion: Suggestions.closest(to: name, among: known)), at: token.span)
            }
            return nil
        }
        return parseCommand().map(Statement.command)
    }
}
