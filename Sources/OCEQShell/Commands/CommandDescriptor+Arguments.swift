extension CommandDescriptor {
    /// The descriptor of a command that takes `count` arguments (`oceq lint` checks calls against it).
    package func taking(_ count: ClosedRange<Int>) -> CommandDescriptor {
        var descriptor = self
        descriptor.argumentCount = count
        return descriptor
    }
}
