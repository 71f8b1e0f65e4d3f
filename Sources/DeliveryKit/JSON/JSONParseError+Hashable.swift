extension JSONParseError: Hashable {
    public func hash(into hasher: inout Hasher) {
        hasher.combine(offset)
        hasher.combine(message)
    }
}
