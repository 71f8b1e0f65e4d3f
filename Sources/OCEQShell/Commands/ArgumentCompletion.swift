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
    /// The name of an item of the type named, which may run over several words to the end of the line
    /// (`articles Espresso & Milk`); a name of several words is inserted in quotes. `@n` also completes.
    case name(ofType: String)
    /// A folder, new or existing (`mirror DIR`): folders only.
    case folder
    /// The rest of the line: words that may come in any order, each once, some followed by a value
    /// (`download @1 rendition Medium format jpg to DIR`).
    case options([CommandOption])
}

/// A word of `ArgumentCompletion.options`: `native`, `rendition NAME`, `to DIR`, `--force`.
package struct CommandOption: Sendable, Equatable {
    /// What follows the word.
    package enum Value: Sendable, Equatable {
        /// A rendition name of the item (or of the selection's type).
        case rendition
        /// A format of the rendition named before.
        case format
        /// A folder.
        case folder
        /// Something typed (a number).
        case typed
    }

    /// The word.
    package var word: String
    /// What follows it; nil when nothing does.
    package var value: Value?
    /// Options of one group exclude each other (`native`, `rendition`, `thumbnail`).
    package var group: String?
    /// An option that goes only after another (`format` after `rendition`).
    package var after: String?

    /// The option `word`, followed by `value`, in `group`, allowed only `after` another.
    package init(_ word: String, value: Value? = nil, group: String? = nil, after: String? = nil) {
        self.word = word
        self.value = value
        self.group = group
        self.after = after
    }
}

extension CommandDescriptor {
    /// The descriptor of a command whose arguments, in order, complete as `arguments` say.
    package func completing(_ arguments: [ArgumentCompletion]) -> CommandDescriptor {
        var descriptor = self
        descriptor.argumentCompletion = arguments
        return descriptor
    }
}
