import OCEQLanguage

/// `echo`: print words and values.
package enum EchoCommand: Command {
    package static let descriptor = CommandDescriptor(
        name: "echo", abstract: "print its arguments, variables and rows resolved",
        usage: "echo [WORD|\"TEXT\"|$VAR|$n|@n]...",
        examples: ["echo \"Articles:\" $n", "echo first row is @1", "echo $1", "echo \"$n articles\""],
        discussion: """
            $name, ${name} and $1..$9 are replaced by their values, inside double quotes and in a
            word (a$n, $n$n), as a shell does; single quotes keep the text as written. A $ not
            followed by a name stays a $. A variable holding a listing prints its rows' ids.
            """
    ).sendingNothing(because: "it prints its arguments")

    package static func run(_ statement: Statement, in session: Session) async throws(ShellError) -> CommandResult {
        guard case .command(let command) = statement else { return .text("\n") }
        var words: [String] = []
        let compiler = session.compiler
        /// A value as echo prints it: a listing as its rows' ids, anything else as a condition takes it.
        func text(of value: Value) throws(DiagnosticError) -> String {
            if case .variable(let name) = value.kind, case .listing(let listing) = session.variables[name] {
                return listing.items.map(\.id).joined(separator: " ")
            }
            return try compiler.resolve(value)
        }
        for argument in command.arguments {
            switch argument.kind {
            case .symbol(let word): words.append(word)
            case .word(let word):
                // A word that runs a reference on into text (`a$n`, `$n$n`, `${n}s`) is read as a shell
                // reads it, not printed as written.
                do {
                    words.append(
                        word.contains("$") ? try interpolated(word, at: argument.span.start, resolve: text) : word)
                } catch {
                    throw .diagnostics(error)
                }
            case .value(let value):
                do {
                    if case .string(let string, .double) = value.kind {
                        words.append(try interpolated(string, at: value.span.start + 1, resolve: text))
                    } else {
                        words.append(try text(of: value))
                    }
                } catch {
                    throw .diagnostics(error)
                }
            case .selection, .group:
                throw .usage("echo prints words and values, not statements", span: argument.span)
            }
        }
        return .text(TerminalText.cleanKeepingLines(words.joined(separator: " ")) + "\n")
    }

    /// `text` (a double-quoted string or a word whose first byte is at `offset` of the source) with
    /// `$name`, `${name}` and `$1`..`$9` replaced by their values (`resolve`); an unknown name fails at
    /// its span.
    static func interpolated(
        _ text: String, at offset: Int, resolve: (Value) throws(DiagnosticError) -> String
    ) throws(DiagnosticError) -> String {
        let bytes = Array(text.utf8)
        var out: [UInt8] = []
        var index = 0
        func isNameStart(_ byte: UInt8) -> Bool {
            (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
                || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z")) || byte == UInt8(ascii: "_")
        }
        func isName(_ byte: UInt8) -> Bool { isNameStart(byte) || (byte >= 0x30 && byte <= 0x39) }
        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: "$"), index + 1 < bytes.count else {
                out.append(bytes[index])
                index += 1
                continue
            }
            let start = index
            let braced = bytes[index + 1] == UInt8(ascii: "{")
            let nameStart = index + (braced ? 2 : 1)
            var kind: Value.Kind?
            var end = nameStart
            if nameStart < bytes.count, bytes[nameStart] >= UInt8(ascii: "1"), bytes[nameStart] <= UInt8(ascii: "9"),
                !braced
            {
                kind = .argument(Int(bytes[nameStart] - 0x30))
                end = nameStart + 1
            } else if nameStart < bytes.count, isNameStart(bytes[nameStart]) {
                while end < bytes.count && isName(bytes[end]) { end += 1 }
                kind = .variable(String(decoding: bytes[nameStart..<end], as: UTF8.self))
            }
            if braced {
                if kind == nil || end >= bytes.count || bytes[end] != UInt8(ascii: "}") { kind = nil } else { end += 1 }
            }
            guard let kind else {
                out.append(bytes[index])
                index += 1
                continue
            }
            let value = Value(kind, span: SourceSpan(start: offset + start, end: offset + end))
            out += Array(try resolve(value).utf8)
            index = end
        }
        return String(decoding: out, as: UTF8.self)
    }
}

/// `quit`: end the session.
package enum QuitCommand: Command {
    package static let descriptor = CommandDescriptor(
        name: "quit", aliases: ["exit"], abstract: "leave oceq (Ctrl-D does the same); in a script, stop it",
        usage: "quit", examples: ["quit"]
    ).taking(0...0).sendingNothing(because: "it ends the session or script")

    package static func run(_ statement: Statement, in session: Session) async throws(ShellError) -> CommandResult {
        if case .command(let command) = statement, let extra = command.arguments.first {
            throw .usage("quit takes no arguments", span: extra.span)
        }
        return .quit
    }
}
