// Tab completion: the lexer's tokens before the cursor say where the cursor stands (a command word, a field
// of a condition, the value after `type=` or after a reference field, a clause keyword, `@n`, a path after
// `to`, `source` or `run`, an argument its command's descriptor says how to complete), and the source says
// what fits there. Text from the channel is cleaned of control characters before it is offered.

import DeliveryKit
import FoundationEssentials
import OCEQCore
import OCEQLanguage

/// Candidates for the word before the cursor, from a `CompletionSource`.
package struct Completer: Sendable {
    /// Where the words come from.
    package var source: any CompletionSource

    /// A completer over `source`.
    package init(source: any CompletionSource) {
        self.source = source
    }

    /// The commands whose clauses select items.
    static let selectCommands: Set<String> = ["list", "count", "first"]
    /// Keywords that may follow a complete condition or clause.
    static let clauseKeywords = ["and", "or", "order", "limit", "offset", "fields", "expand", "search"]
    /// Commands whose argument is a file.
    static let fileCommands: Set<String> = ["source", "run"]

    /// The completion for `line` with the cursor after `cursor` characters.
    package func complete(line: String, cursor: Int) -> Completion {
        let before = String(line.prefix(max(0, cursor)))
        var completion = position(before)
        completion.waiting = source.isWaiting()
        completion.candidates = completion.candidates.map {
            CompletionCandidate(
                TerminalText.clean($0.text), display: TerminalText.clean($0.display), goesOn: $0.goesOn)
        }
        return completion
    }

    // MARK: - Where the cursor is

    private func position(_ before: String) -> Completion {
        let text = SourceText(before)
        var tokens = Lexer.tokenize(text).tokens.filter { $0.kind != .end }
        // The statement the cursor is in starts after the last `;`, line break or `|`.
        if let last = tokens.lastIndex(where: { $0.kind == .semicolon || $0.kind == .newline || $0.kind == .pipe }) {
            tokens.removeFirst(last + 1)
        }
        let end = text.bytes.count
        let partialKinds: Set<TokenKind> = [.word, .string, .variable, .argument, .row, .other]
        var partial: Token?
        if let last = tokens.last, last.span.end == end, partialKinds.contains(last.kind) {
            partial = last
            tokens.removeLast()
        }
        let word = partial.map { text.text(of: $0.span) } ?? ""
        let words = tokens.map { text.text(of: $0.span) }
        // The raw text back to the last blank: paths and `@n` may hold characters the lexer splits at.
        let rawWord = String(before.reversed().prefix(while: { !$0.isWhitespace }).reversed())

        if let command = words.first?.lowercased(), Completer.fileCommands.contains(command) {
            return paths(rawWord)
        }
        if words.count >= 2, words.last?.lowercased() == "to" {
            return paths(rawWord, foldersOnly: true)
        }
        if let row = rawWord.ranges(of: "@").last, rawWord[row.upperBound...].allSatisfy(\.isNumber) {
            let typed = String(rawWord[row.lowerBound...])
            return rows(typed)
        }
        if partial?.kind == .variable || word == "$" {
            let names = source.variableNames().map { "$" + $0 }
            return Completion(word: word, candidates: matching(names, word).map { CompletionCandidate($0) })
        }
        guard let command = words.first?.lowercased() else {
            return Completion(word: word, candidates: matching(source.commandNames(), word).map { .init($0) })
        }
        if let arguments = arguments(command, tokens: tokens, text: text, word: word, raw: rawWord) {
            return arguments
        }
        // The clauses of a select: after the command word, or after `(list`, `= list` (let) or `explain list`.
        guard
            let head = tokens.indices.last(where: { index in
                Completer.selectCommands.contains(words[index].lowercased())
                    && (index == 0 || tokens[index - 1].kind == .leftParen || words[index - 1] == "="
                        || words[index - 1].lowercased() == "explain")
            })
        else { return .none }
        let clause = Array(tokens[(head + 1)...])
        let clauseWords = Array(words[(head + 1)...])
        let type = typeNamed(clause, clauseWords, in: text)
        if let reference = referenceValue(clause, clauseWords, partial: partial, before: before, in: text, type: type) {
            return reference
        }
        return selectClause(clause, clauseWords, word: word, type: type)
    }

    /// The value after `type=`; when a reference field's value is being typed, the names of the items of the
    /// referenced type (they insert their ids; the name may run over several words), and after a taxonomy
    /// field those of the categories; after another field, the values it takes in items of the statement's
    /// type.
    private func referenceValue(
        _ clause: [Token], _ words: [String], partial: Token?, before: String, in text: SourceText, type: String?
    ) -> Completion? {
        // Walk back over the words of a name being typed to the operator before them.
        var index = clause.count - 1
        let nameKinds: Set<TokenKind> = [.word, .string, .other]
        while index >= 0, nameKinds.contains(clause[index].kind), Keyword(text: words[index]) == nil {
            index -= 1
        }
        guard index >= 1, clause[index].kind == .op, clause[index - 1].kind == .word else { return nil }
        let field = words[index - 1]
        let valueStart = clause[index].span.end
        let typedBytes = text.bytes[valueStart...].drop(while: { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") })
        let typed = String(decoding: typedBytes, as: UTF8.self)
        let name = typed.hasPrefix("\"") || typed.hasPrefix("'") ? String(typed.dropFirst()) : typed
        if field.lowercased() == "type" {
            guard index == clause.count - 1, partial?.kind != .string || partial?.isTerminated == false else {
                return nil
            }
            return Completion(word: typed, candidates: matching(source.typeNames(), name).map { .init($0) })
        }
        // Several words of a name are taken only while they are not followed by a blank (still being typed).
        if index < clause.count - 1, before.last?.isWhitespace == true { return nil }
        if let taken = TaxonomyNames.field(FieldPath(field)) {
            // The categories (and for `taxonomies` the taxonomies) whose name starts with what is typed; they
            // insert their ids, as a reference field's items do.
            let terms = source.taxonomyNames().terms(for: taken).filter {
                $0.name.lowercased().hasPrefix(name.lowercased())
            }
            let candidates = terms.sorted { $0.label < $1.label }.map {
                CompletionCandidate($0.id, display: TerminalText.clean($0.label))
            }
            return Completion(word: typed, candidates: candidates, insertsCommonPrefix: false)
        }
        guard let type else { return nil }
        let userField = field.hasPrefix("fields.") ? String(field.dropFirst("fields.".count)) : field
        guard let sample = source.fields(ofType: type)[userField],
            let referenced = ChannelCatalog.referencedType(sample)
        else {
            return fieldValues(field, type: type, typed: typed, name: name)
        }
        let items = source.items(ofType: referenced).filter { $0.name.lowercased().hasPrefix(name.lowercased()) }
        let candidates = items.sorted { $0.name < $1.name }.map { CompletionCandidate($0.id, display: $0.name) }
        return Completion(word: typed, candidates: candidates, insertsCommonPrefix: false)
    }

    /// The values `field` takes in items of `type` that start with `name` (what is typed, unquoted), quoted
    /// where the lexer needs it.
    private func fieldValues(_ field: String, type: String, typed: String, name: String) -> Completion {
        let values = source.values(ofField: field, type: type).map(TerminalText.clean)
        let candidates = matching(values, name).compactMap { value in
            Completer.quoted(value).map { CompletionCandidate($0, display: value) }
        }
        return Completion(word: typed, candidates: candidates)
    }

    /// `value` as a value of a condition: bare when the lexer reads it as one word that is not a keyword, else
    /// in double quotes, else (it holds `"`) in single quotes; nil when it holds both quotes.
    static func quoted(_ value: String) -> String? {
        let tokens = Lexer.tokenize(SourceText(value)).tokens.filter { $0.kind != .end }
        if tokens.count == 1, tokens[0].kind == .word, tokens[0].span.end == value.utf8.count,
            Keyword(text: value) == nil
        {
            return value
        }
        if !value.contains("\"") { return "\"" + value + "\"" }
        if !value.contains("'") { return "'" + value + "'" }
        return nil
    }

    /// Fields and keywords inside the clauses of a select.
    private func selectClause(_ clause: [Token], _ words: [String], word: String, type: String?) -> Completion {
        let lowered = words.map { $0.lowercased() }
        // A clause is given once: one already present is not offered again.
        let present = Set(lowered.filter { Keyword(text: $0)?.startsClause == true })
        let clauses = Completer.clauseKeywords.filter { !present.contains($0) }
        let clauseStart = lowered.lastIndex(where: { Keyword(text: $0)?.startsClause == true })
        let current = clauseStart.map { lowered[$0] }
        let last = clause.last
        var offered: [String]
        switch current {
        case "limit", "offset", "search":
            // A number or a string; once given, the next clause.
            offered =
                clauseStart == lowered.count - 1 ? [] : clauses.filter { $0 != "and" && $0 != "or" }
        case "fields", "expand":
            if clauseStart == lowered.count - 1 || last?.kind == .comma {
                offered = ["all"] + fieldNames(type, prefixed: word.lowercased().hasPrefix("fields."))
            } else {
                offered = clauses.filter { $0 != "and" && $0 != "or" }
            }
        case "order":
            if lowered.last == "order" {
                offered = ["by"] + sortableFieldNames(type)
            } else if lowered.last == "by" || last?.kind == .comma {
                offered = sortableFieldNames(type)
            } else {
                offered = ["asc", "desc"] + clauses.filter { $0 != "and" && $0 != "or" }
            }
        default:
            // Conditions: a field where one starts; after a value, the keywords that go on.
            let startsCondition =
                last == nil || last?.kind == .leftParen
                || ["and", "or", "not"].contains(lowered.last ?? "")
            let endsCondition = clause.count >= 2 && clause[clause.count - 2].kind == .op
            if startsCondition {
                offered = fieldNames(type, prefixed: word.lowercased().hasPrefix("fields.")) + ["not"]
            } else if endsCondition || last?.kind == .rightParen {
                offered = clauses + fieldNames(type, prefixed: word.lowercased().hasPrefix("fields."))
            } else {
                offered = []
            }
        }
        return Completion(word: word, candidates: matching(offered, word).map { CompletionCandidate($0) })
    }

    // MARK: - Sources of words

    /// The standard fields, then the user fields of `type` (as `fields.NAME` when the word starts so).
    private func fieldNames(_ type: String?, prefixed: Bool) -> [String] {
        let standard = ChannelCatalog.standardFields
        let user = type.map { source.fields(ofType: $0).keys.sorted() } ?? []
        return standard + (prefixed ? user.map { "fields." + $0 } : user)
    }

    /// The fields the API sorts on: name and the dates, then the user fields of `type` holding one text,
    /// number or date.
    private func sortableFieldNames(_ type: String?) -> [String] {
        ChannelCatalog.sortableStandardFields + (type.map { source.sortableFields(ofType: $0) } ?? [])
    }

    /// The type that a `type=NAME` condition of the statement names.
    private func typeNamed(_ clause: [Token], _ words: [String], in text: SourceText) -> String? {
        for index in clause.indices.dropLast(2)
        where words[index].lowercased() == "type" && words[index + 1] == "=" {
            let value = clause[index + 2]
            if value.kind == .word { return words[index + 2] }
            if value.kind == .string, value.isTerminated { return String(words[index + 2].dropFirst().dropLast()) }
        }
        return nil
    }

    /// `@n` of the last result, listed with their names.
    func rows(_ typed: String) -> Completion {
        let candidates = source.rows().enumerated().map { index, row in
            CompletionCandidate("@\(index + 1)", display: "@\(index + 1) \(row.name)")
        }.filter { $0.text.hasPrefix(typed) }
        return Completion(word: typed, candidates: candidates, insertsCommonPrefix: false)
    }

    /// Files and folders (only folders when `foldersOnly`) for a path being typed (`~/` is the home folder;
    /// folders end in `/`).
    func paths(_ typed: String, foldersOnly: Bool = false) -> Completion {
        let slash = typed.lastIndex(of: "/")
        let folderPart = slash.map { String(typed[...$0]) } ?? ""
        let namePart = slash.map { String(typed[typed.index(after: $0)...]) } ?? typed
        let folder = XDGPaths.resolve(folderPart.isEmpty ? "." : folderPart, in: source.baseDirectory)
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        var candidates: [CompletionCandidate] = []
        for entry in entries.sorted() where entry.hasPrefix(namePart) {
            if entry.hasPrefix("."), !namePart.hasPrefix(".") { continue }
            var isFolder = false
            _ = FileManager.default.fileExists(atPath: folder + "/" + entry, isDirectory: &isFolder)
            if foldersOnly, !isFolder { continue }
            let shown = entry + (isFolder ? "/" : "")
            candidates.append(CompletionCandidate(folderPart + shown, display: shown))
        }
        return Completion(word: typed, candidates: candidates)
    }

    /// The words of `words` that start with `typed`, in any case, in order.
    func matching(_ words: [String], _ typed: String) -> [String] {
        let lowered = typed.lowercased()
        return words.filter { $0.lowercased().hasPrefix(lowered) }
    }
}
