// A user command, written in oceq itself:
//
//   # Articles of a topic, by topic name
//   define topic-articles(name, n = 10)
//     let t = first type=OCEGettingStartedTopic name=$name
//     list type=OCEGettingStartedArticle topic=$t order published_date desc limit $n
//   end
//
// The comment lines right above `define` are its help: the first is the abstract, the rest the
// discussion. The body is parsed whole with the block, so every syntax error is found when the file
// is read, and `$name` in the body must be a parameter or set by a `let` above it.

/// `define NAME(PARAM, PARAM = DEFAULT, ...)` ... `end`.
package struct DefineStatement: Sendable, Hashable {
    /// One parameter.
    package struct Parameter: Sendable, Hashable {
        /// The name, used as `$name` in the body and `name=VALUE` in a call.
        package var name: String
        /// Where it was declared.
        package var span: SourceSpan
        /// The value used when a call gives none; nil for a required parameter.
        package var defaultValue: Value?

        /// A parameter `name` (required unless it has a default).
        package init(name: String, span: SourceSpan = .at(0), defaultValue: Value? = nil) {
            self.name = name
            self.span = span
            self.defaultValue = defaultValue
        }
    }

    /// The command's name.
    package var name: String
    /// Where the name was written.
    package var nameSpan: SourceSpan
    /// The parameters, in order.
    package var parameters: [Parameter]
    /// The statements run by a call, in order.
    package var body: [Statement]
    /// The comment lines right above `define`, without their `#`.
    package var help: [String]
    /// From `define` to `end`.
    package var span: SourceSpan

    /// A definition of `name`.
    package init(
        name: String, parameters: [Parameter], body: [Statement], help: [String] = [], span: SourceSpan = .at(0),
        nameSpan: SourceSpan? = nil
    ) {
        self.name = name
        self.parameters = parameters
        self.body = body
        self.help = help
        self.span = span
        self.nameSpan = nameSpan ?? span
    }

    /// The synopsis: `topic-articles name [n=10]`.
    package var usage: String {
        var parts = [name]
        for parameter in parameters {
            if let value = parameter.defaultValue {
                parts.append("[\(parameter.name)=\(Printer.text(of: value))]")
            } else {
                parts.append(parameter.name)
            }
        }
        return parts.joined(separator: " ")
    }

    /// The number of parameters without a default.
    package var requiredCount: Int { parameters.filter { $0.defaultValue == nil }.count }

    /// The comment lines directly above the line holding `offset` (a shebang and blank lines end them).
    static func helpLines(in bytes: UnsafeBufferPointer<UInt8>, before offset: Int) -> [String] {
        var lineStart = offset
        while lineStart > 0 && bytes[lineStart - 1] != UInt8(ascii: "\n") { lineStart -= 1 }
        var lines: [String] = []
        while lineStart > 0 {
            let end = lineStart - 1
            var start = end
            while start > 0 && bytes[start - 1] != UInt8(ascii: "\n") { start -= 1 }
            var text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
            text = String(text.drop { $0 == " " || $0 == "\t" })
            if text.hasSuffix("\r") { text.removeLast() }
            guard text.hasPrefix("#"), !text.hasPrefix("#!") else { break }
            text.removeFirst()
            if text.hasPrefix(" ") { text.removeFirst() }
            lines.append(text)
            lineStart = start
        }
        return lines.reversed()
    }
}
