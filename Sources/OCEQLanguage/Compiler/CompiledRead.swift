// `get` is parsed generically (it is a command of the shell), but what it asks the API for is the
// compiler's business, so that `get` and `explain get` agree:
//
//   get ITEM [expand all | name, ...]
//   ITEM := id | @n | $var | $n | "id" | slug:SLUG
//
// `expand` names map like condition fields (`author` → `fields.author`). Without `expand` the
// request keeps the SDK's default for item reads (`expand=all`). Item reads take no `fields`
// (neither does the SDK's `readAsset`).

import OCEQCore

/// The item a `get` reads.
package enum ReadTarget: Sendable, Hashable {
    /// `GET /items/{id}`
    case id(String)
    /// `GET /items/.by.slug/{slug}`
    case slug(String)

    /// The item `reference` names as the user writes it: `slug:SLUG` (the slug after the prefix, empty
    /// when nothing follows it), else an id.
    package init(reference: String) {
        self = reference.hasPrefix("slug:") ? .slug(String(reference.dropFirst("slug:".count))) : .id(reference)
    }

    /// The target as the user writes it: the id, or `slug:SLUG`.
    package var reference: String {
        switch self {
        case .id(let id): return id
        case .slug(let slug): return "slug:" + slug
        }
    }
}

/// A `get` compiled to the parameters of an item read.
package struct CompiledRead: Sendable, Hashable {
    /// Which item.
    package var target: ReadTarget
    /// The `expand` parameter, or nil for the client's default.
    package var expand: String?

    /// A read of `target`.
    package init(target: ReadTarget, expand: String? = nil) {
        self.target = target
        self.expand = expand
    }
}

extension Compiler {
    /// The read a `get` command stands for, or every problem found in its arguments.
    package func compileGet(_ command: CommandStatement) throws(DiagnosticError) -> CompiledRead {
        var run = CompilerRun(compiler: self)
        let read = run.compileGet(command)
        guard let read, run.diagnostics.isEmpty else { throw DiagnosticError(run.diagnostics) }
        return read
    }
}

extension CompilerRun {
    mutating func compileGet(_ command: CommandStatement) -> CompiledRead? {
        let arguments = command.arguments
        guard let first = arguments.first else {
            diagnose(.expectedItem, at: .at(command.nameSpan.end))
            return nil
        }
        var target: ReadTarget?
        switch first.kind {
        case .word(let word):
            if case .slug("") = ReadTarget(reference: word) {
                diagnose(.expectedSlug, at: first.span)
            } else {
                target = ReadTarget(reference: word)
            }
        case .value(let value):
            target = resolve(value).map(ReadTarget.id)
        default:
            diagnose(.expectedItem, at: first.span)
        }
        var read = target.map { CompiledRead(target: $0) }
        // `expand` names are checked as a select's are: against the item's type when a row or variable
        // says which, else against every type (a misspelt name was the server's raw 400).
        if let schema = environment.schema {
            var typeName: String?
            if case .value(let value) = first.kind { typeName = referencedItem(value)?.item.type }
            scope = SchemaScope(item: typeName, schema: schema)
        }
        var index = 1
        var seen = SeenClauses()
        while index < arguments.count {
            let argument = arguments[index]
            guard case .word(let word) = argument.kind, let keyword = Keyword(text: word), keyword == .expand else {
                let text = CompilerRun.describe(argument)
                diagnose(
                    .unknownOption(text, suggestion: Suggestions.closest(to: text, among: ["expand"])),
                    at: argument.span)
                return nil
            }
            if let firstSpan = seen[keyword] {
                diagnose(
                    .duplicateClause(keyword), at: argument.span,
                    notes: [Diagnostic.Note("'\(keyword.rawValue)' is first given here", span: firstSpan)])
            }
            seen[keyword] = seen[keyword] ?? argument.span
            index += 1
            guard let (list, next) = readFieldList(arguments, from: index, after: argument) else { return nil }
            index = next
            read?.expand = fieldList(list)
        }
        return read
    }

    /// `all` or `name (, name)*` from `index`; the list and the index after it.
    mutating func readFieldList(
        _ arguments: [CommandArgument], from start: Int, after keyword: CommandArgument
    )
        -> (FieldList, Int)?
    {
        var index = start
        var names: [FieldPath] = []
        var previous = keyword
        while true {
            guard index < arguments.count, case .word(let word) = arguments[index].kind else {
                let at = index < arguments.count ? arguments[index].span : .at(previous.span.end)
                diagnose(.expectedFieldName(after: CompilerRun.describe(previous)), at: at)
                return nil
            }
            if names.isEmpty, Keyword(text: word) == .all { return (.all, index + 1) }
            let field = FieldPath(word, span: arguments[index].span)
            guard field.isValid, Keyword(text: word) == nil else {
                diagnose(.invalidFieldName(word), at: field.span)
                return nil
            }
            // As the parser refuses one in a select's `expand`: the API expands one level.
            if field.isPath {
                diagnose(.pathInFieldList(word, clause: Keyword.expand.rawValue), at: field.span)
                return nil
            }
            names.append(field)
            index += 1
            guard index < arguments.count, arguments[index].kind == .symbol(",") else { break }
            previous = arguments[index]
            index += 1
        }
        return (.names(names), index)
    }

    static func describe(_ argument: CommandArgument) -> String {
        switch argument.kind {
        case .word(let text), .symbol(let text): return text
        case .value(let value): return Printer.text(of: value)
        case .selection, .group: return "("
        }
    }
}
