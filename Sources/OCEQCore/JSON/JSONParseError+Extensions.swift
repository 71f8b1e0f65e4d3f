extension JSONParseError: Hashable {
    public func hash(into hasher: inout Hasher) {
        hasher.combine(offset)
        hasher.combine(message)
    }
}

extension JSONParseError {
    /// An error at `offset` with `message` (for callers that report their own parse failures).
    public init(at offset: Int, _ message: String) {
        self.init(offset: offset, message: message)
    }
}
