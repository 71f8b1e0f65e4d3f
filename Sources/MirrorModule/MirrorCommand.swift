// `mirror DIR [(list ...)|(first ...)]`: the channel, or the items a selection matches, written to
// DIR as an OCM content export in the 2023 layout (export-format.md), which `oceq serve DIR`
// answers like the source. DIR is checked (created, written to) before anything is fetched; a
// rerun resumes: complete native files are not fetched again, unchanged item files not rewritten.

import DeliveryKit
import FoundationEssentials
import OCEQCore
import OCEQLanguage
import OCEQShell

/// `mirror`: a channel to an export on disk.
package enum MirrorCommand: Command {
    package static let descriptor = CommandDescriptor(
        name: "mirror",
        abstract: "write the channel (or a selection) to a folder as an OCM export that oceq serve reads",
        usage: "mirror [to] DIR [(list ...)|(first ...)]",
        examples: ["mirror ./cafe-mirror", "mirror ./images (list type=Image)", "mirror \"$1\""],
        discussion: """
            Writes DIR/contentexport/ in the 2023 export layout: ContentTypes/ inferred from the
            items, ContentItems/<Type>/<ID>.json for every item (read with fields=all) and
            ContentItems/<Type>/files/<ID>/<name> for every native file, plus metadata.json,
            Summary.json, META-INF/ and channel.json (the channel's name, never its token).
            A selection (its limit counts; first is one item) brings the items it refers to as
            well, and adds to what DIR holds; a mirror of the whole channel removes the items the
            channel no longer has. DIR must be new, empty or a mirror. Run it again to resume:
            complete files are not fetched again. Under set format json the summary is JSON.
            From the shell: oceq mirror DIR [--query STATEMENT].
            """
    ).planning(MirrorPlan.plan).completing([.folder])

    package static func run(_ statement: Statement, in session: Session) async throws(ShellError) -> CommandResult {
        let (folder, request, selected, maximumItems, first) = try arguments(statement, in: session)
        let connection = try session.requireConnection()
        // A `first` names one item: finding none is the error `show (first ...)` and `download (first
        // ...)` give, before anything is written (a list matching nothing, `limit 1` or not, writes an
        // empty mirror).
        if let first {
            let page: Page<Asset>
            do {
                page = try await connection.client.fetch(request.limit(1))
            } catch {
                throw .delivery(error)
            }
            if page.items.isEmpty { throw .usage("the selection matched no item", span: first) }
        }
        let target = MirrorTarget(folder, relativeTo: FileManager.default.currentDirectoryPath)
        do {
            try target.prepare()
        } catch {
            throw .file("mirror: \(error.description)")
        }
        let run = MirrorRun(
            client: connection.client, target: target, request: request, channelName: connection.channelName,
            progress: session.errors.isTerminal ? ProgressLine(label: "mirror", sink: session.errors) : nil,
            isFullChannel: !selected,
            maximumItems: maximumItems)
        let summary = await run.run()
        _ = connection.takeLog()
        guard summary.succeeded else {
            session.render(summary.result)
            let count = summary.failures.count + summary.skipped.count
            throw .file(
                "mirror: \(count) problem\(count == 1 ? "" : "s") (listed above); run it again to resume")
        }
        return summary.result
    }
    /// True for an argument that can be a folder: a word, a string or a reference.
    static func namesFolder(_ argument: CommandArgument) -> Bool {
        switch argument.kind {
        case .word, .value: return true
        case .symbol, .selection, .group: return false
        }
    }

    /// What `statement` asks for: the folder, the listing request (the selection's, or every item),
    /// whether a selection was given, how many items it may bring, and where a `(first ...)` selection
    /// was written (nil for a list or none).
    static func arguments(
        _ statement: Statement, in session: Session
    ) throws(ShellError) -> (
        folder: String, request: ListAssets, selected: Bool, maximumItems: Int?, first: SourceSpan?
    ) {
        guard case .command(let command) = statement, var first = command.arguments.first else {
            throw .usage("usage: \(descriptor.usage)", span: nil)
        }
        // `mirror to DIR`, as `download ... to DIR` says it; `to` alone, or before a selection, is a folder.
        var rest = command.arguments.dropFirst()
        if case .word("to") = first.kind, let next = rest.first, Self.namesFolder(next) {
            first = next
            rest = rest.dropFirst()
        }
        let folder: String
        switch first.kind {
        case .word(let word): folder = word
        case .value(let value):
            do {
                folder = try session.compiler.resolve(value)
            } catch {
                throw .diagnostics(error)
            }
        default:
            throw .usage("mirror needs a folder first: \(descriptor.usage)", span: first.span)
        }
        guard !folder.isEmpty else { throw .usage("mirror needs a folder name", span: first.span) }
        var request = DeliveryAPI.listAssets()
        var selected = false
        var maximumItems: Int?
        var firstSelection: SourceSpan?
        for argument in rest {
            guard case .selection(let select) = argument.kind, !selected else {
                throw .usage(
                    "mirror takes a folder and at most one (list ...) or (first ...): \(descriptor.usage)",
                    span: argument.span)
            }
            let query = try session.compile(select)
            guard query.kind != .count else { throw .usage("a count selects no items; use list", span: argument.span) }
            request = query.request()
            maximumItems = query.kind == .first ? 1 : query.limit
            if query.kind == .first { firstSelection = argument.span }
            selected = true
        }
        return (folder, request, selected, maximumItems, firstSelection)
    }
}
