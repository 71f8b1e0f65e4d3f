// GraphQLLexer: the tokens of the October 2021 GraphQL specification (§2.1): punctuators, names,
// int and float values, strings and block strings; whitespace, line terminators, commas, the BOM
// and comments are ignored. Positions are counted in Unicode scalars.

/// One token and where it starts.
struct GraphQLToken: Sendable, Equatable {
    enum Kind: Sendable, Equatable {
        case punctuator
        case name
        case int
        case float
        case string
        case blockString
        case end
    }

    var kind: Kind
    /// The punctuator or name as written; a string's value (escapes and block indentation resolved).
    var text: String
    var location: GraphQLLocation

    /// How an error names the token.
    var described: String {
        switch kind {
        case .end: return "<EOF>"
        case .punctuator: return "\"\(text)\""
        case .name: return "Name \"\(text)\""
        case .int, .float: return "\(kind == .int ? "Int" : "Float") \"\(text)\""
        case .string, .blockString: return "String \"\(text.prefix(40))\""
        }
    }
}

/// Splits a GraphQL document into tokens.
struct GraphQLLexer {
    private let scalars: [Unicode.Scalar]
    private var index = 0
    private var line = 1
    private var lineStart = 0

    init(_ source: String) {
        scalars = Array(source.unicodeScalars)
    }

    /// All tokens, ending with `.end`.
    static func tokens(_ source: String) throws(GraphQLError) -> [GraphQLToken] {
        var lexer = GraphQLLexer(source)
        var tokens: [GraphQLToken] = []
        while true {
            let token = try lexer.next()
            tokens.append(token)
            if token.kind == .end { return tokens }
        }
    }

    private var location: GraphQLLocation { GraphQLLocation(line: line, column: index - lineStart + 1) }

    private func peek(_ offset: Int = 0) -> Unicode.Scalar? {
        index + offset < scalars.count ? scalars[index + offset] : nil
    }

    private mutating func newLine(after position: Int) {
        line += 1
        lineStart = position
    }

    private mutating func skipIgnored() {
        while let c = peek() {
            switch c {
            case "\u{FEFF}", " ", "\t", ",": index += 1
            case "\n":
                index += 1
                newLine(after: index)
            case "\r":
                index += 1
                if peek() == "\n" { index += 1 }
                newLine(after: index)
            case "#":
                while let d = peek(), d != "\n", d != "\r" { index += 1 }
            default: return
            }
        }
    }

    mutating func next() throws(GraphQLError) -> GraphQLToken {
        skipIgnored()
        let start = location
        guard let c = peek() else { return GraphQLToken(kind: .end, text: "", location: start) }
        switch c {
        case "!", "$", "&", "(", ")", ":", "=", "@", "[", "]", "{", "|", "}":
            index += 1
            return GraphQLToken(kind: .punctuator, text: String(c), location: start)
        case ".":
            guard peek(1) == ".", peek(2) == "." else {
                throw GraphQLError("Syntax Error: Unexpected \".\"; did you mean \"...\"?", at: [start])
            }
            index += 3
            return GraphQLToken(kind: .punctuator, text: "...", location: start)
        case "\"":
            if peek(1) == "\"", peek(2) == "\"" { return try blockString(start) }
            return try string(start)
        case "-", "0"..."9":
            return try number(start)
        default:
            guard Self.isNameStart(c) else {
                throw GraphQLError("Syntax Error: Unexpected character \"\(c.escaped(asASCII: true))\".", at: [start])
            }
            var text = ""
            while let d = peek(), Self.isNameStart(d) || ("0"..."9").contains(d) {
                text.unicodeScalars.append(d)
                index += 1
            }
            return GraphQLToken(kind: .name, text: text, location: start)
        }
    }

    static func isNameStart(_ c: Unicode.Scalar) -> Bool {
        c == "_" || ("a"..."z").contains(c) || ("A"..."Z").contains(c)
    }

    private mutating func number(_ start: GraphQLLocation) throws(GraphQLError) -> GraphQLToken {
        var text = ""
        var isFloat = false
        func digits(_ lexer: inout GraphQLLexer, _ text: inout String) -> Int {
            var count = 0
            while let d = lexer.peek(), ("0"..."9").contains(d) {
                text.unicodeScalars.append(d)
                lexer.index += 1
                count += 1
            }
            return count
        }
        if peek() == "-" {
            text = "-"
            index += 1
        }
        if peek() == "0", let d = peek(1), ("0"..."9").contains(d) {
            throw GraphQLError("Syntax Error: Invalid number, unexpected digit after 0: \"\(d)\".", at: [location])
        }
        guard digits(&self, &text) > 0 else {
            throw GraphQLError("Syntax Error: Invalid number, expected digit.", at: [location])
        }
        if peek() == "." {
            isFloat = true
            text += "."
            index += 1
            guard digits(&self, &text) > 0 else {
                throw GraphQLError("Syntax Error: Invalid number, expected digit.", at: [location])
            }
        }
        if peek() == "e" || peek() == "E" {
            isFloat = true
            text += "e"
            index += 1
            if peek() == "+" || peek() == "-" {
                text.unicodeScalars.append(peek()!)
                index += 1
            }
            guard digits(&self, &text) > 0 else {
                throw GraphQLError("Syntax Error: Invalid number, expected digit.", at: [location])
            }
        }
        if let d = peek(), d == "." || Self.isNameStart(d) {
            throw GraphQLError("Syntax Error: Invalid number, expected digit but got \"\(d)\".", at: [location])
        }
        return GraphQLToken(kind: isFloat ? .float : .int, text: text, location: start)
    }

    private mutating func string(_ start: GraphQLLocation) throws(GraphQLError) -> GraphQLToken {
        index += 1
        var value = ""
        while let c = peek() {
            switch c {
            case "\"":
                index += 1
                return GraphQLToken(kind: .string, text: value, location: start)
            case "\n", "\r":
                throw GraphQLError("Syntax Error: Unterminated string.", at: [location])
            case "\\":
                let escapeAt = location
                index += 1
                guard let e = peek() else { break }
                index += 1
                switch e {
                case "\"": value += "\""
                case "\\": value += "\\"
                case "/": value += "/"
                case "b": value += "\u{8}"
                case "f": value += "\u{C}"
                case "n": value += "\n"
                case "r": value += "\r"
                case "t": value += "\t"
                case "u":
                    var hex = ""
                    while hex.count < 4, let h = peek(), h.properties.isASCIIHexDigit {
                        hex.unicodeScalars.append(h)
                        index += 1
                    }
                    guard hex.count == 4, let code = UInt32(hex, radix: 16) else {
                        throw GraphQLError("Syntax Error: Invalid Unicode escape sequence.", at: [escapeAt])
                    }
                    var scalar = Unicode.Scalar(code)
                    if (0xD800...0xDBFF).contains(code), peek() == "\\", peek(1) == "u" {
                        let low = String(
                            String.UnicodeScalarView(
                                scalars[min(index + 2, scalars.count)..<min(index + 6, scalars.count)]))
                        if let lowCode = UInt32(low, radix: 16), (0xDC00...0xDFFF).contains(lowCode) {
                            index += 6
                            scalar = Unicode.Scalar(0x10000 + ((code - 0xD800) << 10) + (lowCode - 0xDC00))
                        }
                    }
                    guard let scalar else {
                        throw GraphQLError("Syntax Error: Invalid Unicode escape sequence.", at: [escapeAt])
                    }
                    value.unicodeScalars.append(scalar)
                default:
                    throw GraphQLError("Syntax Error: Invalid character escape sequence: \"\\\(e)\".", at: [escapeAt])
                }
            default:
                value.unicodeScalars.append(c)
                index += 1
            }
        }
        throw GraphQLError("Syntax Error: Unterminated string.", at: [location])
    }

    private mutating func blockString(_ start: GraphQLLocation) throws(GraphQLError) -> GraphQLToken {
        index += 3
        var raw = ""
        while let c = peek() {
            if c == "\"", peek(1) == "\"", peek(2) == "\"" {
                index += 3
                return GraphQLToken(kind: .blockString, text: Self.blockValue(raw), location: start)
            }
            if c == "\\", peek(1) == "\"", peek(2) == "\"", peek(3) == "\"" {
                raw += "\"\"\""
                index += 4
                continue
            }
            raw.unicodeScalars.append(c)
            index += 1
            if c == "\n" || (c == "\r" && peek() != "\n") { newLine(after: index) }
        }
        throw GraphQLError("Syntax Error: Unterminated string.", at: [location])
    }

    /// BlockStringValue (§2.9.4): common indentation removed, blank first and last lines dropped.
    static func blockValue(_ raw: String) -> String {
        var lines = raw.replacingAllBytes(of: "\r\n", with: "\n").split(
            separator: "\n", omittingEmptySubsequences: false
        ).map(String.init)
        var common: Int?
        for line in lines.dropFirst() {
            let indent = line.prefix { $0 == " " || $0 == "\t" }.count
            if indent < line.count, common == nil || indent < common! { common = indent }
        }
        if let common {
            for i in lines.indices.dropFirst() { lines[i] = String(lines[i].dropFirst(common)) }
        }
        let blank: (String) -> Bool = { $0.allSatisfy { $0 == " " || $0 == "\t" } }
        while let first = lines.first, blank(first) { lines.removeFirst() }
        while let last = lines.last, blank(last) { lines.removeLast() }
        return lines.joined(separator: "\n")
    }
}
