// Reading the item a command names. X is `@n`, `$var`, `$n`, an id or `slug:S`, resolved by the
// session's compiler exactly as `get` resolves it; a 404 becomes "no item X in this channel".

import DeliveryKit
import OCEQCore
import OCEQLanguage

/// The item argument of a module's command, resolved and read: shared by the modules that name
/// items (`show`, `fields`, `download` ...), which never import one another.
@MainActor
package enum ItemLookup {
    /// The generic command of `statement`, or a usage error naming `command`.
    package static func command(_ statement: Statement, usage: String) throws(ShellError) -> CommandStatement {
        guard case .command(let command) = statement else { throw .usage("usage: \(usage)", span: nil) }
        return command
    }

    /// The read `argument` stands for (an id, `@n`, `$var`, `slug:S`, or a parenthesised `first` or
    /// `list` that matches exactly one item).
    package static func read(
        _ argument: CommandArgument, of command: CommandStatement, in session: Session
    )
        async throws(ShellError) -> CompiledRead
    {
        if case .selection(let select) = argument.kind {
            return CompiledRead(target: .id(try await selected(select, at: argument.span, in: session)))
        }
        let single = CommandStatement(
            name: command.name, arguments: [argument], span: command.span, nameSpan: command.nameSpan)
        do {
            return try session.compiler.compileGet(single)
        } catch {
            throw .diagnostics(error)
        }
    }

    /// The id of the one item `select` matches.
    package static func selected(
        _ select: SelectStatement, at span: SourceSpan, in session: Session
    ) async throws(ShellError)
        -> String
    {
        let query = try session.compile(select)
        guard query.kind != .count else { throw .usage("a count selects no item; use first or list", span: span) }
        let client = try session.requireConnection().client
        let page: Page<Asset>
        do {
            page = try await client.fetch(selectionRequest(query))
        } catch {
            throw QueryRefusal.error(error, select: select, query: query, in: session)
        }
        guard let first = page.items.first else { throw .usage("the selection matched no item", span: span) }
        if query.kind == .list && page.items.count > 1 {
            let total = page.totalResults.map { "\($0) items" } ?? "more than one item"
            throw .usage("the selection matched \(total); name one (first ... or @n)", span: span)
        }
        return first.id
    }

    /// What the user calls the item of `read` in messages.
    package static func describe(_ read: CompiledRead) -> String {
        read.target.reference
    }

    /// The item of `read`; a 404 says there is no such item.
    package static func fetch(
        _ read: CompiledRead, at span: SourceSpan?, in session: Session
    ) async throws(ShellError)
        -> Asset
    {
        let connection = try session.requireConnection()
        do {
            return try await connection.client.fetch(read.request())
        } catch {
            throw map(error, read: read, span: span)
        }
    }

    /// The item of `read` as the server sent it.
    package static func fetchJSON(
        _ read: CompiledRead, at span: SourceSpan?, in session: Session
    ) async throws(ShellError)
        -> JSON
    {
        let connection = try session.requireConnection()
        do {
            return try await connection.client.fetchJSON(read.request())
        } catch {
            throw map(error, read: read, span: span)
        }
    }

    /// The item with `id` (a reference being followed).
    package static func fetch(id: String, in session: Session) async throws(ShellError) -> Asset {
        try await fetch(CompiledRead(target: .id(id)), at: nil, in: session)
    }

    /// A 404 as "no item X in this channel" (with the `slug:` form when X reads like a slug, which the
    /// API took for an id); any other error as it is.
    package static func map(_ error: DeliveryError, read: CompiledRead, span: SourceSpan?) -> ShellError {
        guard case .http(let http) = error, http.status == 404 else { return .delivery(error) }
        let written = TerminalText.clean(describe(read))
        // OCM's ids are capitals and digits; a word with a small letter or a dash reads like a slug.
        if case .id(let id) = read.target, !ItemName.looksLikeID(id),
            id.utf8.contains(where: { (0x61...0x7A).contains($0) || $0 == UInt8(ascii: "-") })
        {
            return .usage(
                "no item with id '\(written)' in this channel; to read one by its slug, write slug:\(written)",
                span: span)
        }
        return .usage("no item \(written) in this channel", span: span)
    }

    /// The first of `arguments` as the item; a usage error when there is none or more than `limit`.
    package static func itemArgument(
        _ arguments: [CommandArgument], of command: CommandStatement, usage: String, limit: Int = 1
    )
        throws(ShellError) -> CommandArgument
    {
        guard let first = arguments.first else {
            throw .usage("\(command.name) needs an item: \(usage)", span: .at(command.nameSpan.end))
        }
        if arguments.count > limit {
            throw .usage("too many arguments: \(usage)", span: arguments[limit].span)
        }
        return first
    }

    /// The `--flag` words of a command and its other arguments.
    package struct Options {
        /// The flags given.
        package var flags: Set<String> = []
        /// The arguments that are not flags, in order.
        package var rest: [CommandArgument] = []
    }

    /// Splits `--flag` words from the other arguments; unknown flags are usage errors.
    package static func options(_ arguments: [CommandArgument], allowed: Set<String>) throws(ShellError) -> Options {
        var flags: Set<String> = []
        var rest: [CommandArgument] = []
        for argument in arguments {
            if case .word(let word) = argument.kind, word.hasPrefix("--") {
                guard allowed.contains(word) else {
                    let known = allowed.sorted().joined(separator: ", ")
                    throw .usage(
                        "unknown option '\(word)'" + (known.isEmpty ? "" : " (options: \(known))"), span: argument.span)
                }
                flags.insert(word)
            } else {
                rest.append(argument)
            }
        }
        return Options(flags: flags, rest: rest)
    }

    /// An argument as plain text: a word, or a value with references resolved.
    package static func text(_ argument: CommandArgument, in session: Session) throws(ShellError) -> String? {
        switch argument.kind {
        case .word(let word): return word
        case .value(let value):
            do {
                return try session.compiler.resolve(value)
            } catch {
                throw .diagnostics(error)
            }
        default: return nil
        }
    }
}
