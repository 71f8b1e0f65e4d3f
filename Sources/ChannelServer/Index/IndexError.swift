/// A search the index cannot evaluate as asked: the request's fault (HTTP 400).
///
/// Examples: `ge` with a value that is neither a number nor a datetime, `sw` on a datetime
/// field, `translatable eq "maybe"`.
public struct IndexError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong, lower-case, without the position.
    public var message: String
    /// Offset in `q` of the condition's field, when the error comes from a condition.
    public var offset: Int?

    public init(message: String, offset: Int? = nil) {
        self.message = message
        self.offset = offset
    }

    public var description: String {
        offset.map { "\(message) at position \($0)" } ?? message
    }
}
