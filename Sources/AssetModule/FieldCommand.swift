// `field X PATH [--raw]`: one value, found by a dotted path that follows references. Each segment
// names a field of the current item (custom fields and, for a digital asset, its metadata keys); a
// reference is read before the next segment, a number picks an element of a list (from 1), a key
// goes into a json object. Anything else stops the walk, and the error says where and why.

import DeliveryKit
import OCEQCore
import OCEQLanguage
import OCEQShell
import TerminalMedia

/// `field`: one field's value, following references.
package enum FieldCommand: Command {
    package static let descriptor = CommandDescriptor(
        name: "field", abstract: "one field of an item; a dotted path follows references",
        usage: "field ID|@n|$VAR|slug:SLUG|(first ...) PATH [--raw]",
        examples: [
            "field @1 author.avatar", "field @1 author.name", "field @1 image_caption",
            "field @1 topics.2.thumbnail --raw",
        ],
        discussion: """
            Each segment of PATH names a field of the item reached so far (a custom field, an
            asset's metadata, or a standard field such as name or slug). A reference is read
            before the next segment (`author.avatar` reads the author, then its avatar), a number
            picks an element of a list (counting from 1), a name goes into a json value.
            --raw prints the value as JSON.
            """
    ).completing([.item, .fieldPath]).planning(AssetPlans.field)

    package static func run(_ statement: Statement, in session: Session) async throws(ShellError) -> CommandResult {
        let command = try ItemLookup.command(statement, usage: descriptor.usage)
        let options = try ItemLookup.options(command.arguments, allowed: ["--raw"])
        let rest = options.rest
        let argument = try ItemLookup.itemArgument(rest, of: command, usage: descriptor.usage, limit: 2)
        guard rest.count == 2, let path = try ItemLookup.text(rest[1], in: session), !path.isEmpty else {
            throw .usage(
                "field needs a path after the item: \(descriptor.usage)",
                span: rest.count > 1 ? rest[1].span : .at(argument.span.end))
        }
        let pathSpan = rest[1].span
        let read = try await ItemLookup.read(argument, of: command, in: session)
        let root = try await ItemLookup.fetch(read, at: argument.span, in: session)
        let segments = path.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        if segments.contains(where: \.isEmpty) {
            throw .usage("'\(TerminalText.clean(path))' has an empty segment", span: pathSpan)
        }
        let found = try await walk(segments, from: root, span: pathSpan, in: session)
        if options.flags.contains("--raw") {
            return .screen(
                TerminalText.cleanKeepingLines(JSONWriter(indent: 2).string(found.value)), data: .document(found.value))
        }
        let width = session.output.width >= 10_000 ? 80 : max(session.output.width, 30)
        let htmlOptions = session.settings.html == .raw ? nil : session.richTextOptions(width: width)
        return .screen(text(path: path, found: found, html: htmlOptions), data: .document(found.value))
    }

    /// Standard fields a path may name when the item has no custom field of that name.
    static let standardFields: Set<String> = [
        "id", "type", "typeCategory", "name", "description", "slug", "language", "translatable", "createdDate",
        "updatedDate", "mimeType", "fileGroup", "fileExtension",
    ]

    /// Where a walk ended: the value and the item that holds it.
    struct Found {
        var value: JSON
        var holder: Asset
    }

    /// Follows `segments` from `root`.
    static func walk(
        _ segments: [String], from root: Asset, span: SourceSpan, in session: Session
    )
        async throws(ShellError) -> Found
    {
        var holder = root
        var value: JSON = .object(root.fields ?? [:])
        var atItem = true
        var walked: [String] = []
        // Where each segment was written, for the caret, when `span` holds the path as written (a quoted
        // one starts a byte later); else the whole path.
        let written = segments.reduce(0) { $0 + $1.utf8.count } + segments.count - 1
        let quote = span.end - span.start == written + 2 ? 1 : 0
        let located = span.end - span.start == written + 2 * quote
        var segmentStart = span.start + quote
        for segment in segments {
            let here = walked.isEmpty ? "the item" : "'" + walked.joined(separator: ".") + "'"
            let segmentSpan =
                located ? SourceSpan(start: segmentStart, end: segmentStart + segment.utf8.count) : span
            segmentStart += segment.utf8.count + 1
            let stop = { (why: String) -> ShellError in
                .usage(TerminalText.clean("stopped at '\(segment)': \(why)"), span: segmentSpan)
            }
            if !walked.isEmpty {
                switch FieldKind(value) {
                case .reference:
                    guard let id = value["id"]?.stringValue else { throw stop("\(here) has no id") }
                    do {
                        holder = try await ItemLookup.fetch(id: id, in: session)
                    } catch {
                        if case .usage = error { throw stop("\(here) refers to \(id), which is not in this channel") }
                        throw error
                    }
                    value = .object(holder.fields ?? [:])
                    atItem = true
                case .list:
                    let elements = value.arrayValue ?? []
                    guard let number = Int(segment), number >= 1, number <= elements.count else {
                        throw stop(
                            "\(here) is a \(FieldKind(value).name) of \(elements.count); "
                                + (elements.isEmpty
                                    ? "it is empty" : "pick one with a number from 1 to \(elements.count)"))
                    }
                    value = elements[number - 1]
                    atItem = false
                    walked.append(segment)
                    continue
                case .json:
                    break
                case .empty:
                    throw stop("\(here) is empty (null), so there is nothing to follow")
                case let kind:
                    throw stop("\(here) is \(kind.name), not a reference, so it has no field '\(segment)'")
                }
            }
            let standard = atItem && FieldCommand.standardFields.contains(segment) ? holder.raw[segment] : nil
            guard let next = value[segment] ?? standard else {
                let owner =
                    walked.isEmpty
                    ? FieldText.reference(name: holder.name, type: holder.type, id: holder.id)
                    : here + " → " + FieldText.reference(name: holder.name, type: holder.type, id: holder.id)
                let names = (value.objectValue ?? [:]).keys.sorted()
                let known = names.isEmpty ? "it has no fields" : "its fields: " + names.joined(separator: ", ")
                // A near miss of a custom field, or of a standard one the item has (`name`, `slug`...).
                let standards = atItem ? FieldCommand.standardFields.filter { holder.raw[$0] != nil }.sorted() : []
                let suggestion = Suggestions.closest(to: segment, among: names + standards).map {
                    "; did you mean '\($0)'?"
                }
                throw stop("\(owner) has no field '\(segment)'\(suggestion ?? "") (\(known))")
            }
            value = next
            atItem = false
            walked.append(segment)
        }
        return Found(value: value, holder: holder)
    }

    /// `path`, the item holding the value, its type, and the value in full: HTML rendered with
    /// `html`, or shown as sent when that is nil.
    static func text(path: String, found: Found, html: RichTextOptions? = RichTextOptions(width: 80)) -> String {
        let kind = FieldKind(found.value)
        var out = "path   \(TerminalText.clean(path))\n"
        out += "in     \(FieldText.reference(name: found.holder.name, type: found.holder.type, id: found.holder.id))\n"
        out += "type   \(kind.name)\n"
        switch kind {
        case .text:
            out += "value  \(TerminalText.clean(found.value.stringValue ?? ""))\n"
        case .largetext:
            let text = found.value.stringValue ?? ""
            let plain =
                if let html, FieldText.isHTML(text) {
                    RichText.render(text, options: html)
                } else {
                    TerminalText.cleanKeepingLines(text)
                }
            out += "value\n" + plain + (plain.hasSuffix("\n") ? "" : "\n")
        case .list where !(found.value.arrayValue ?? []).isEmpty:
            out += "value\n"
            for (index, element) in (found.value.arrayValue ?? []).enumerated() {
                out += "  [\(index + 1)] \(FieldText.summary(element))\n"
            }
        case .json:
            out += "value\n" + TerminalText.cleanKeepingLines(JSONWriter(indent: 2).string(found.value)) + "\n"
        default:
            out += "value  \(FieldText.summary(found.value))\n"
        }
        return out
    }
}
