// Tab in the arguments that are not one token each: an item's name after `articles`, `read` and
// `author` (several words, matched in any case, inserted in quotes when it has to be), and the words
// after `download`'s target, which come in any order, each once: the ones not given yet, then after
// `rendition` the item's rendition names, after `format` the formats of that rendition, after `to` folders.

import DeliveryKit
import OCEQCore
import OCEQLanguage

extension Completer {
    /// The renditions OCM makes of every image, offered when the item's own are not known.
    static let standardRenditions = ["Thumbnail", "Small", "Medium", "Large"]

    /// The names of the items of `type` that start with (else contain) what is typed after `offset` (the end
    /// of the command word), quoted where the parser needs it; the whole typed text is replaced.
    func name(ofType type: String, typed text: SourceText, after offset: Int) -> Completion {
        let typedBytes = text.bytes[offset...].drop(while: { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") })
        let typed = String(decoding: typedBytes, as: UTF8.self)
        let name = (typed.hasPrefix("\"") || typed.hasPrefix("'") ? String(typed.dropFirst()) : typed).lowercased()
        let names = Set(source.items(ofType: type).map(\.name)).sorted()
        var matched = names.filter { $0.lowercased().hasPrefix(name) }
        if matched.isEmpty, !name.isEmpty { matched = names.filter { $0.lowercased().contains(name) } }
        let candidates = matched.compactMap { name in
            Completer.quoted(name).map { CompletionCandidate($0, display: name) }
        }
        return Completion(word: typed, candidates: candidates)
    }

    /// The words of `options` after the arguments before `start`: a value after a word that takes one, else
    /// the words not given yet (options starting `--` only once `-` is typed).
    func options(
        _ options: [CommandOption], _ arguments: [[Token]], at start: Int, in text: SourceText, word: String,
        raw: String
    ) -> Completion {
        var given: [String: String] = [:]
        var awaiting: CommandOption?
        var index = start
        while index < arguments.count {
            let written = arguments[index].map { text.text(of: $0.span) }.joined()
            index += 1
            guard let option = options.first(where: { $0.word == written.lowercased() }) else { continue }
            given[option.word] = ""
            guard option.value != nil else { continue }
            guard index < arguments.count else {
                awaiting = option
                break
            }
            given[option.word] = Completer.unquoted(arguments[index].map { text.text(of: $0.span) }.joined())
            index += 1
        }
        if let awaiting, let value = awaiting.value {
            switch value {
            case .folder:
                return paths(raw, foldersOnly: true)
            case .typed:
                return .none
            case .rendition:
                let names = renditions(of: start >= 1 ? arguments[0] : [], in: text).map(\.name)
                return Completion(word: word, candidates: matching(names, word).map { CompletionCandidate($0) })
            case .format:
                let named = given["rendition"]?.lowercased()
                let formats =
                    renditions(of: start >= 1 ? arguments[0] : [], in: text)
                    .first { $0.name.lowercased() == named }?.formats ?? []
                return Completion(word: word, candidates: matching(formats, word).map { CompletionCandidate($0) })
            }
        }
        let groups = Set(options.filter { given[$0.word] != nil }.compactMap(\.group))
        let open = options.filter { option in
            given[option.word] == nil && option.group.map { !groups.contains($0) } != false
                && option.after.map { given[$0] != nil } != false
                && (!option.word.hasPrefix("-") || word.hasPrefix("-"))
        }
        return Completion(word: word, candidates: matching(open.map(\.word), word).map { CompletionCandidate($0) })
    }

    /// The renditions (names and formats) of the item `target` names, or of the first item of the type a
    /// parenthesised selection names (none for a content item); the standard ones when the item is not known.
    private func renditions(of target: [Token], in text: SourceText) -> [(name: String, formats: [String])] {
        var item = reference(target, in: text)
        if item == nil, target.first?.kind == .leftParen {
            let words = target.map { text.text(of: $0.span) }
            if let at = words.indices.dropLast(2).first(where: {
                words[$0].lowercased() == "type" && words[$0 + 1] == "="
            }) {
                item = source.items(ofType: Completer.unquoted(words[at + 2])).first?.id
            }
        }
        let fields = item.map { source.itemFields($0) } ?? [:]
        guard !fields.isEmpty else { return Completer.standardRenditions.map { ($0, []) } }
        return (fields["renditions"]?.arrayValue ?? []).compactMap { rendition in
            guard let name = rendition["name"]?.stringValue else { return nil }
            let formats = (rendition["formats"]?.arrayValue ?? []).compactMap { $0["format"]?.stringValue }
            return (name, formats)
        }
    }

    /// `text` without the quotes around it.
    static func unquoted(_ text: String) -> String {
        guard text.count >= 2, let first = text.first, first == "\"" || first == "'", text.last == first else {
            return text
        }
        return String(text.dropFirst().dropLast())
    }
}
