/// A `q` or `orderBy` text that could not be parsed.
public struct QuerySyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
    /// 0-based offset into the text, counted in Unicode scalars (characters, for ordinary text).
    public var offset: Int
    /// What went wrong, lower-case, without the position.
    public var message: String

    /// An error at `offset`.
    public init(offset: Int, message: String) {
        self.offset = offset
        self.message = message
    }

    /// `message at position N`, e.g. `expected an operator (eq, ne, co, ...) at position 14`.
    public var description: String { "\(message) at position \(offset)" }
}
