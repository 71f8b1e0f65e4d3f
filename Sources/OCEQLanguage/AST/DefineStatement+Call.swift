// Binding a call's arguments to a user command's parameters. Arguments are values, given in order
// (`topic-articles Coffee 5`) or by name (`topic-articles name=Coffee n=5`, `name="Cold brew"`,
// `name=$t`), named ones after the others; a parameter not given takes its default. The parser
// checks every call it can see this way, and the shell binds with it again when the call runs.

import OCEQCore

extension DefineStatement {
    /// The value of every parameter for `call`, defaults filled in, in parameter order; or every
    /// problem found, each with the span of the argument (or the end of the call) it is about.
    package func bind(_ call: CommandStatement) -> Result<[(name: String, value: Value)], DiagnosticError> {
        var given: [String: Value] = [:]
        var diagnostics: [Diagnostic] = []
        var positional = 0
        var sawNamed = false
        var index = 0
        let arguments = call.arguments
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            var named: (name: String, value: Value)?
            var value: Value?
            switch argument.kind {
            case .value(let written): value = written
            case .word(let word):
                if let split = DefineStatement.namedArgument(word, span: argument.span) {
                    if let inline = split.value {
                        named = (split.name, inline)
                    } else if index < arguments.count, let next = DefineStatement.value(of: arguments[index]) {
                        named = (split.name, next)
                        index += 1
                    } else {
                        diagnostics.append(
                            Diagnostic(.expectedValue(after: split.name + "="), at: .at(argument.span.end)))
                        continue
                    }
                } else {
                    value = Value(.bareword(word), span: argument.span)
                }
            case .symbol, .selection, .group:
                diagnostics.append(Diagnostic(.argumentNotAValue(command: name), at: argument.span))
                continue
            }
            if let named {
                sawNamed = true
                guard parameters.contains(where: { $0.name == named.name }) else {
                    let suggestion = Suggestions.closest(to: named.name, among: parameters.map(\.name))
                    diagnostics.append(
                        Diagnostic(
                            .unknownParameter(named.name, command: name, suggestion: suggestion), at: argument.span))
                    continue
                }
                if given[named.name] != nil {
                    diagnostics.append(Diagnostic(.argumentGivenTwice(named.name), at: argument.span))
                    continue
                }
                given[named.name] = named.value
            } else if let value {
                if sawNamed {
                    diagnostics.append(Diagnostic(.positionalAfterNamed, at: argument.span))
                    continue
                }
                guard positional < parameters.count else {
                    diagnostics.append(
                        Diagnostic(.extraArgument(command: name, maximum: parameters.count), at: argument.span))
                    continue
                }
                given[parameters[positional].name] = value
                positional += 1
            }
        }
        var bound: [(name: String, value: Value)] = []
        var synopsis: String?  // built once: with 10,000 parameters missing, one string, not 10,000
        for parameter in parameters {
            if let value = given[parameter.name] ?? parameter.defaultValue {
                bound.append((parameter.name, value))
            } else {
                let shown = synopsis ?? DiagnosticMessage.shortened(usage)
                synopsis = shown
                diagnostics.append(
                    Diagnostic(
                        .missingArgument(command: name, parameter: parameter.name, usage: shown),
                        at: .at(call.span.end)))
            }
        }
        return diagnostics.isEmpty ? .success(bound) : .failure(DiagnosticError(diagnostics))
    }

    /// `NAME=VALUE` or `NAME=` (the value then being the next argument): the name and, when written
    /// in the same word, the value (`$x`, `$1` and `@2` stay references).
    static func namedArgument(_ word: String, span: SourceSpan) -> (name: String, value: Value?)? {
        guard let equals = word.firstIndex(of: "="), equals != word.startIndex else { return nil }
        let name = String(word[..<equals])
        guard isParameterName(name) else { return nil }
        let rest = String(word[word.index(after: equals)...])
        guard !rest.isEmpty else { return (name, nil) }
        let valueSpan = SourceSpan(start: span.start + name.utf8.count + 1, end: span.end)
        return (name, reference(rest, span: valueSpan) ?? Value(.bareword(rest), span: valueSpan))
    }

    /// `$name`, `$n` or `@n` written as `text`, else nil.
    static func reference(_ text: String, span: SourceSpan) -> Value? {
        guard let sigil = text.first, text.count > 1 else { return nil }
        let rest = String(text.dropFirst())
        if sigil == "$", let number = Int(rest), rest.allSatisfy(\.isASCII) {
            return Value(.argument(number), span: span)
        }
        if sigil == "$", isParameterName(rest) { return Value(.variable(rest), span: span) }
        if sigil == "@", let number = Int(rest), number >= 1, rest.allSatisfy(\.isASCII) {
            return Value(.row(number), span: span)
        }
        return nil
    }

    /// The value an argument stands for, when it is one.
    static func value(of argument: CommandArgument) -> Value? {
        switch argument.kind {
        case .value(let value): return value
        case .word(let word): return Value(.bareword(word), span: argument.span)
        default: return nil
        }
    }

    /// `[A-Za-z_][A-Za-z0-9_]*`: a parameter's (and a variable's) name.
    package static func isParameterName(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, first.isASCII, first == "_" || first.properties.isAlphabetic
        else { return false }
        return text.unicodeScalars.allSatisfy {
            $0.isASCII && ($0 == "_" || $0.properties.isAlphabetic || ("0"..."9").contains($0))
        }
    }

    /// `[A-Za-z][A-Za-z0-9_-]*`: a user command's name.
    package static func isCommandName(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, first.isASCII, first.properties.isAlphabetic else { return false }
        return text.unicodeScalars.allSatisfy {
            $0.isASCII && ($0 == "_" || $0 == "-" || $0.properties.isAlphabetic || ("0"..."9").contains($0))
        }
    }
}
