/// One statement: what a line (or the text between `;`) says.
package indirect enum Statement: Sendable, Hashable {
    /// `list`, `count` or `first` with clauses.
    case select(SelectStatement)
    /// `let name = value` or `let name = statement`.
    case `let`(LetStatement)
    /// `explain statement`.
    case explain(ExplainStatement)
    /// Any other command, parsed generically for the shell to dispatch.
    case command(CommandStatement)
    /// `define NAME(PARAMS)` ... `end`: a user command.
    case define(DefineStatement)

    /// The whole statement.
    package var span: SourceSpan {
        switch self {
        case .select(let statement): return statement.span
        case .let(let statement): return statement.span
        case .explain(let statement): return statement.span
        case .command(let statement): return statement.span
        case .define(let statement): return statement.span
        }
    }

    /// The command word as written (`list`, `let`, `get`, ...).
    package var commandName: String {
        switch self {
        case .select(let statement): return statement.verb.rawValue
        case .let: return "let"
        case .explain: return "explain"
        case .command(let statement): return statement.name
        case .define: return "define"
        }
    }
}

/// `let name = value | statement`.
package struct LetStatement: Sendable, Hashable {
    /// What the variable is bound to.
    package indirect enum Binding: Sendable, Hashable {
        /// A single value (which may itself be a reference).
        case value(Value)
        /// The result of a statement (`let a = first type=Author`).
        case statement(Statement)
    }

    /// The variable's name, without `$`.
    package var name: String
    /// Where the name was written.
    package var nameSpan: SourceSpan
    /// What it is bound to.
    package var binding: Binding
    /// The whole statement.
    package var span: SourceSpan

    /// `let name = binding`.
    package init(name: String, binding: Binding, span: SourceSpan = .at(0), nameSpan: SourceSpan? = nil) {
        self.name = name
        self.binding = binding
        self.span = span
        self.nameSpan = nameSpan ?? span
    }
}

/// `explain statement`: show what a statement would send, without sending it.
package struct ExplainStatement: Sendable, Hashable {
    /// The statement explained (a select statement or a command, never `let` or `explain`).
    package var statement: Statement
    /// The whole statement, `explain` included.
    package var span: SourceSpan

    /// `explain statement`.
    package init(statement: Statement, span: SourceSpan = .at(0)) {
        self.statement = statement
        self.span = span
    }
}

/// A command the language does not know itself (`get @2`, `echo hi`, `set format json`, a user
/// command): the command word and its arguments, each with its span, for the shell to dispatch.
///
/// Arguments split at whitespace like a shell's: tokens written without space between them form
/// one word (`~/out`, `--keep-going`, `a=b`), quoted strings and references (`$x`, `$1`, `@2`)
/// stay values, and parentheses group, a parenthesised `list`/`count`/`first` becoming a
/// selection (`download (list type=Image) rendition Thumbnail`).
package struct CommandStatement: Sendable, Hashable {
    /// The command word.
    package var name: String
    /// Where the command word was written.
    package var nameSpan: SourceSpan
    /// The arguments in order.
    package var arguments: [CommandArgument]
    /// The whole statement.
    package var span: SourceSpan
    /// The arguments exactly as written (from the first to the last, comments excluded at the ends).
    package var argumentText: String

    /// A command `name` with `arguments`.
    package init(
        name: String, arguments: [CommandArgument], span: SourceSpan = .at(0), nameSpan: SourceSpan? = nil,
        argumentText: String = ""
    ) {
        self.name = name
        self.arguments = arguments
        self.span = span
        self.nameSpan = nameSpan ?? span
        self.argumentText = argumentText
    }
}

/// One argument of a generic command.
package struct CommandArgument: Sendable, Hashable {
    /// The kinds of argument.
    package indirect enum Kind: Sendable, Hashable {
        /// Unquoted text (one or more tokens written without space between them).
        case word(String)
        /// A quoted string or a reference (`$name`, `$1`, `@2`).
        case value(Value)
        /// `,` or `|`, or an operator standing alone (`=`).
        case symbol(String)
        /// `( list ... )`
        case selection(SelectStatement)
        /// `( ... )` holding anything else.
        case group([CommandArgument])
    }

    /// What the argument is.
    package var kind: Kind
    /// Where it was written.
    package var span: SourceSpan

    /// An argument of `kind` at `span`.
    package init(_ kind: Kind, span: SourceSpan = .at(0)) {
        self.kind = kind
        self.span = span
    }
}
