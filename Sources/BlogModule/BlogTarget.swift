// The one argument of `articles`, `read` and `author`: `@n`, `$var`, `$n`, a quoted string, or
// words written as they are (`articles Espresso & Milk`), or `slug:S`. An id is used as it is; any other text
// names an item of the expected type, matched by core's `NameMatch` (the same rules as a reference
// field compared with a name in a condition).

import DeliveryKit
import OCEQCore
import OCEQLanguage
import OCEQShell

/// What the user named.
struct BlogTarget {
    /// The text: an id, or a name.
    var text: String
    /// Where it was written.
    var span: SourceSpan

    /// True for `CORE…`/`CONT…` ids (32 hex digits after the prefix).
    var isID: Bool {
        let bytes = Array(text.utf8)
        guard bytes.count == 36, text.hasPrefix("CORE") || text.hasPrefix("CONT") else { return false }
        return bytes[4...].allSatisfy { (0x30...0x39).contains($0) || (0x41...0x46).contains($0) }
    }

    /// The argument of `statement`, or nil when there is none; `what` names it in errors.
    @MainActor
    static func parse(_ statement: Statement, in session: Session, what: String) throws(ShellError) -> BlogTarget? {
        guard case .command(let command) = statement, let first = command.arguments.first else { return nil }
        let span = first.span.union(command.arguments.last!.span)
        if command.arguments.count == 1, case .value(let value) = first.kind {
            do {
                return BlogTarget(text: try session.compiler.resolve(value), span: span)
            } catch {
                throw .diagnostics(error)
            }
        }
        for argument in command.arguments {
            switch argument.kind {
            case .word, .symbol: continue
            default: throw .usage("\(command.name) takes one \(what): @n, an id or a name", span: argument.span)
            }
        }
        if case .slug("") = ReadTarget(reference: command.argumentText) {
            throw .usage(DiagnosticMessage.expectedSlug.text, span: span)
        }
        return BlogTarget(text: command.argumentText, span: span)
    }

    /// This target with a `slug:S` (as `get`, `show` and `download` take it) read and replaced by
    /// the id of its item; any other target as it is.
    func resolvingSlug(in channel: BlogChannel, what: String) async throws(ShellError) -> BlogTarget {
        guard case .slug(let slug) = ReadTarget(reference: text) else { return self }
        do {
            return BlogTarget(text: try await channel.fetch(DeliveryAPI.readAsset(slug: slug)).id, span: span)
        } catch .delivery(.http(let error)) where error.status == 404 {
            throw .usage("no \(what) with slug '\(TerminalText.clean(slug))'", span: span)
        }
    }

    /// The item of `items` this target names: by id, else by name through core's `NameMatch` (exactly,
    /// without regard to case, the one name starting with it, the one name containing it).
    func match(in items: [Asset], what: String) throws(ShellError) -> Asset {
        if let item = items.first(where: { $0.id == text }) { return item }
        switch NameMatch.find(text, in: items.map(\.name)) {
        case .found(let index):
            return items[index]
        case .ambiguous(let indices):
            let some = indices.prefix(4).map { "'\(TerminalText.clean(items[$0].name))'" }.joined(separator: ", ")
            throw .usage("'\(text)' names more than one \(what): \(some)", span: span)
        case .none(let suggestion):
            // A near miss, else some of the names there are (as the query language answers `topic=x`).
            let names = items.map { TerminalText.clean($0.name) }.sorted()
            let hint =
                suggestion.map { "; did you mean '\(TerminalText.clean($0))'?" }
                ?? (names.isEmpty ? "" : "; there are " + DiagnosticMessage.list(names, limit: 8))
            throw .usage("no \(what) named '\(TerminalText.clean(text))'" + hint, span: span)
        }
    }
}

/// Checks on the arguments of the blog commands.
enum BlogArguments {
    /// Throws when `statement` has arguments.
    static func none(_ statement: Statement) throws(ShellError) {
        if case .command(let command) = statement, let extra = command.arguments.first {
            throw .usage("\(command.name) takes no arguments", span: extra.span)
        }
    }
}
