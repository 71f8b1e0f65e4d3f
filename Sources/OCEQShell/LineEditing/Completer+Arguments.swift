// Tab after a command that is not a selection: its descriptor's `argumentCompletion` says what each
// argument is (a command name, a setting and its value, a profile, an item, a field path of that item,
// an item's name, a folder, or words in any order such as `download`'s `rendition NAME` and `to DIR`).

import DeliveryKit
import OCEQCore
import OCEQLanguage

extension Completer {
    /// The completion of the argument being typed after `command` (the first of `statement`, the complete
    /// tokens of the statement before the cursor), when its descriptor says how to complete it; nil when it
    /// does not, or when the cursor is inside parentheses (a selection, completed as one).
    func arguments(
        _ command: String, tokens statement: [Token], text: SourceText, word: String, raw: String
    ) -> Completion? {
        let kinds = source.argumentCompletion(of: command)
        guard !kinds.isEmpty, let commandToken = statement.first else { return nil }
        if case .name(let type) = kinds[0] {
            return name(ofType: type, typed: text, after: commandToken.span.end)
        }
        let tokens = Array(statement.dropFirst())
        // One argument is one token, or one parenthesised group.
        var arguments: [[Token]] = []
        var depth = 0
        for token in tokens {
            if depth == 0 { arguments.append([]) }
            arguments[arguments.count - 1].append(token)
            if token.kind == .leftParen { depth += 1 }
            if token.kind == .rightParen { depth = max(0, depth - 1) }
        }
        guard depth == 0 else { return nil }
        let position = arguments.count
        if kinds.last == .expansion, position >= kinds.count - 1 {
            return expansion(arguments, at: kinds.count - 1, in: text, word: word)
        }
        if case .options(let options)? = kinds.last, position >= kinds.count - 1 {
            return self.options(options, arguments, at: kinds.count - 1, in: text, word: word, raw: raw)
        }
        let offered: [String]
        switch position < kinds.count ? kinds[position] : nil {
        case .command?:
            offered = source.commandNames()
        case .setting?:
            offered = Settings.names
        case .profile?:
            let profiles = matching(source.profileNames(), raw)
            if profiles.isEmpty || raw.contains("/") { return paths(raw) }
            return Completion(word: raw, candidates: profiles.map { CompletionCandidate($0) })
        case .item?:
            return rows(word)
        case .fieldPath?:
            guard position >= 1, let item = reference(arguments[position - 1], in: text) else { return Completion.none }
            return fieldPath(raw, of: item)
        case .folder?:
            return paths(raw, foldersOnly: true)
        case .expansion?, .name?, .options?:
            return Completion.none  // handled above
        case nil:
            // The argument after a setting is one of its values.
            guard position == kinds.count, kinds.last == .setting, let name = arguments.last?.first else {
                return Completion.none
            }
            offered = Settings.values(of: text.text(of: name.span)) ?? []
        }
        return Completion(word: word, candidates: matching(offered, word).map { CompletionCandidate($0) })
    }

    /// `expand` where it may start (argument `start`), then `all` or the reference fields of the item before it
    /// that the comma list does not name yet.
    private func expansion(_ arguments: [[Token]], at start: Int, in text: SourceText, word: String) -> Completion {
        if arguments.count == start {
            return Completion(word: word, candidates: matching(["expand"], word).map { CompletionCandidate($0) })
        }
        guard start >= 1, text.text(of: arguments[start][0].span).lowercased() == "expand",
            let item = reference(arguments[start - 1], in: text)
        else { return Completion.none }
        let listed = arguments.dropFirst(start + 1).map { $0.map { text.text(of: $0.span) }.joined() }
        // After `expand` or a comma comes a name; after a name, only a comma would go on.
        guard listed.last.map({ $0 == "," }) ?? true else { return Completion.none }
        let references = source.itemFields(item).filter { _, value in
            Completer.referencedID(value) != nil || value.arrayValue?.first.flatMap(Completer.referencedID) != nil
        }
        let names = (listed.isEmpty ? ["all"] : []) + references.keys.sorted().filter { !listed.contains($0) }
        return Completion(word: word, candidates: matching(names, word).map { CompletionCandidate($0) })
    }

    /// The item an argument names: the id of row `@n`, an id, or `slug:SLUG`; nil for anything else.
    func reference(_ argument: [Token], in text: SourceText) -> String? {
        guard argument.count == 1, let token = argument.first else { return nil }
        let word = text.text(of: token.span)
        switch token.kind {
        case .row:
            let rows = source.rows()
            guard let number = Int(word.dropFirst()), rows.indices.contains(number - 1) else { return nil }
            return rows[number - 1].id
        case .word:
            return word
        default:
            return nil
        }
    }

    /// The fields that may follow the dotted path `typed` in the item `item`: a reference is read before the
    /// name after it, a list takes a number (from 1), a json value its members, as `field` walks them.
    private func fieldPath(_ typed: String, of item: String) -> Completion {
        var segments = typed.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        let last = segments.removeLast()
        var value = JSON.object(source.itemFields(item))
        for (index, segment) in segments.enumerated() {
            if index > 0, let id = Completer.referencedID(value) { value = .object(source.itemFields(id)) }
            switch value {
            case .array(let elements):
                guard let number = Int(segment), number >= 1, number <= elements.count else { return .none }
                value = elements[number - 1]
            case .object(let members):
                guard let next = members[segment] else { return .none }
                value = next
            default:
                return .none
            }
        }
        if !segments.isEmpty, let id = Completer.referencedID(value) { value = .object(source.itemFields(id)) }
        let names: [(String, JSON)]
        switch value {
        case .array(let elements): names = elements.enumerated().map { (String($0.offset + 1), $0.element) }
        case .object(let members): names = members.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        default: names = []
        }
        let prefix = segments.isEmpty ? "" : segments.joined(separator: ".") + "."
        let lowered = last.lowercased()
        // A reference, list or json value may be followed further: no space after it.
        let candidates = names.filter { $0.0.lowercased().hasPrefix(lowered) }.map { name, value in
            let deeper: Bool
            switch value {
            case .array(let elements): deeper = !elements.isEmpty
            case .object: deeper = true
            default: deeper = false
            }
            return CompletionCandidate(prefix + name, display: name, goesOn: deeper)
        }
        return Completion(word: typed, candidates: candidates)
    }

    /// The id of the item a reference value points to.
    static func referencedID(_ value: JSON) -> String? {
        guard let object = value.objectValue, object["type"]?.stringValue != nil else { return nil }
        return object["id"]?.stringValue
    }
}

extension SourceText {
    /// The text of `span`.
    func text(of span: SourceSpan) -> String {
        String(decoding: bytes[span.start..<min(span.end, bytes.count)], as: UTF8.self)
    }
}
