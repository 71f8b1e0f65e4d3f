/// A command-line mistake: the message (lower case, no program name); the presenter prints it after
/// the program's prefix, with the usage, and exits with 2.
public struct UsageError: Error, CustomStringConvertible, Equatable, Sendable {
    /// What was wrong, in one line.
    public var message: String
    /// The message.
    public var description: String { message }

    /// A usage error saying `message`.
    public init(_ message: String) {
        self.message = message
    }
}
