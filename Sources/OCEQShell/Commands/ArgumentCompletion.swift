/// What Tab offers for one argument of a command, declared in its descriptor (`completing(_:)`); the
/// completer reads it for commands that are not selections.
package enum ArgumentCompletion: Sendable, Equatable {
    /// A command name or alias (`help`).
    case command
    /// A setting name; the argument after it gets that setting's values (`set`).
    case setting
    /// A connection profile's name (`connect`).
    case profile
    /// An item: `@n` of the last listing (ids and `slug:` are typed).
    case item
    /// A dotted field path of the item given by the argument before (`field @1 author.name`).
    case fieldPath
    /// `expand`, then `all` or the reference fields (a comma list) of the item given by the argument before
    /// (`get @1 expand author,topic`).
    case expansion
}

extension CommandDescriptor {
    /// The descriptor of a command whose arguments, in order, complete as `arguments` say.
    package func completing(_ arguments: [ArgumentCompletion]) -> CommandDescriptor {
        var descriptor = self
        descriptor.argumentCompletion = arguments
        return descriptor
    }
}
