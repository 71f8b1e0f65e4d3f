// `explain STATEMENT`: what a statement would send, without sending it. Four parts:
//
//   GET /items                       the compiled parameters, one per line
//   url   http://...                 the full URL the client builds, channel token REDACTED
//   curl  curl -sS '...'             the same request for a shell (bearer REDACTED)
//   swift DeliveryAPI.listAssets()   the equivalent call in Oracle's Swift SDK
//
// followed by a note for each field that is not a standard field (fields are per type, so the
// compiler cannot check them).
//
// Any other command is explained from the plan its descriptor declares (`CommandPlan`): each
// request it sends, numbered, with what it is for and its url and curl lines; or that it sends
// none, and why; a command that cannot say is refused with one line.

import DeliveryKit
import DeliveryTransport
import OCEQCore
import OCEQLanguage

/// `explain`: show the request a statement stands for.
package enum ExplainCommand: Command {
    package static let descriptor = CommandDescriptor(
        name: "explain", abstract: "show the request a statement sends: parameters, URL, curl, and Swift SDK code",
        usage: "explain STATEMENT",
        examples: [
            "explain list type=OCEGettingStartedArticle topic=CORE123 order published_date desc limit 50",
            "explain count type=OCEGettingStartedArticle name ^= \"Coffee\"", "explain get slug:coffee",
        ]
    ).sendingNothing(because: "it shows what a statement would send")

    package static func run(_ statement: Statement, in session: Session) async throws(ShellError) -> CommandResult {
        guard case .explain(let explain) = statement else { throw .usage("explain STATEMENT", span: nil) }
        let connection = try session.requireConnection()
        switch explain.statement {
        case .select(let select):
            let query = try SelectRunner.compile(select, in: session)
            return .text(text(for: query, client: connection.client))
        case .command(let command) where command.name == "get":
            let read: CompiledRead
            do {
                read = try session.compiler.compileGet(command)
            } catch {
                throw .diagnostics(error)
            }
            return .text(text(for: read, client: connection.client))
        case .command(let command) where command.name == GraphQLCommand.descriptor.name:
            return .text(try GraphQLCommand.explanation(command, in: session))
        case .command(let command):
            if let user = session.registry.userCommand(named: command.name) { return .text(user.explanation) }
            return .text(
                try text(for: CorePlans.plan(explain.statement, in: session), of: command.name, session: session))
        case let other:
            return .text(try text(for: CorePlans.plan(other, in: session), of: other.commandName, session: session))
        }
    }

    /// The explanation of a command's plan: each request numbered with what it is for, its URL
    /// and curl line (as `explain list` shows them); or why it sends none; a plan that cannot say
    /// is refused.
    static func text(for plan: CommandPlan, of name: String, session: Session) throws(ShellError) -> String {
        switch plan {
        case .noRequest(let reason):
            return "'\(name)' sends no request: \(reason)\n"
        case .unknown(let reason):
            throw .usage("explain cannot say what '\(name)' sends: \(reason)", span: nil)
        case .requests(let requests, let notes):
            let client = try session.requireConnection().client
            var out =
                requests.count == 1
                ? "'\(name)' sends 1 request:\n" : "'\(name)' sends these \(requests.count) requests, in order:\n"
            var placeholders = false
            for (index, planned) in requests.enumerated() {
                let using = planned.client ?? client
                out += "\(index + 1)  \(planned.purpose)" + (planned.repeats.map { " (\($0))" } ?? "") + "\n"
                let lines = requestLines(planned.prepared(client), client: using)
                placeholders = placeholders || lines.contains("%7B")
                out += PlanValue.readable(lines).split(separator: "\n").map { "   " + $0 + "\n" }.joined()
            }
            if placeholders { out += "note: {name} stands for a value read from an earlier answer\n" }
            for note in notes { out += "note: \(note)\n" }
            return TerminalText.cleanKeepingLines(out)
        }
    }

    /// The explanation of a select statement.
    static func text(for query: CompiledQuery, client: DeliveryClient) -> String {
        let request = query.request()
        var out = "GET /items\n"
        let parameters = query.parameters()
        let width = parameters.map(\.name.count).max() ?? 0
        for parameter in parameters { out += "  " + parameter.name.padding(width) + "  " + parameter.value + "\n" }
        out += requestLines((try? client.prepare(request)), client: client)
        out += "swift\n" + listSwift(query, request: request)
        for field in query.userFields {
            let name = field.hasPrefix("fields.") ? field : "fields." + field
            out +=
                "note: '\(field)' is not a standard field: sent as \(name) "
                + (query.checked
                    ? "(checked against the channel's catalog)\n" : "(fields differ by type, so it is not checked)\n")
        }
        for name in query.resolvedNames {
            out += "note: \(name.comparison) is sent as the id of '\(name.name)': \(name.id)\n"
        }
        for field in query.listMemberships {
            out +=
                "note: '\(field)' is a list: = and != are sent as co and NOT co, which find the value among its "
                + "values (the API's eq does not take a list)\n"
        }
        if let first = query.datesWithoutOffset.first {
            let dates = query.datesWithoutOffset
            out +=
                "note: \(dates.joined(separator: ", ")) \(dates.count == 1 ? "has" : "have") no UTC offset: the server "
                + "reads \(dates.count == 1 ? "it" : "them") in a zone of its own (oceq serve: UTC; OCM does not say), "
                + "so an item shown at 08:15+10:00 on a date is before that date's midnight UTC; "
                + "write an offset to choose the zone (\(Self.withOffset(first)))\n"
        }
        return out
    }

    /// `date` (as sent, without an offset) with midnight or its time and an offset, for a hint.
    static func withOffset(_ date: String) -> String {
        (date.contains("T") ? date : date + "T00:00") + "+10:00"
    }

    /// The explanation of a `get`.
    static func text(for read: CompiledRead, client: DeliveryClient) -> String {
        let request = read.request()
        var out: String
        var swift = "  let item = try await DeliveryAPI\n"
        switch read.target {
        case .id(let id):
            out = "GET /items/\(id)\n"
            swift += "      .readAsset(assetId: \(swiftString(id)))\n"
        case .slug(let slug):
            out = "GET /items/.by.slug/\(slug)\n"
            swift += "      .readAsset(slug: \(swiftString(slug)))\n"
        }
        out += "  expand  \(read.expand ?? "all")\n"
        out += requestLines((try? client.prepare(request)), client: client)
        if let expand = read.expand, expand != "all" {
            let names = expand.split(separator: ",").map { swiftString(String($0)) }.joined(separator: ", ")
            swift += "      .expand(\(names))\n"
        } else {
            swift += "      .expand(.all)\n"
        }
        swift += "      .fetchAsync()\n"
        return out + "swift\n" + swift
    }

    static func requestLines(_ prepared: PreparedRequest?, client: DeliveryClient) -> String {
        guard let prepared else { return "" }
        var out = "url   \(prepared.redactedURL)\n"
        var curl = "curl -sS '\(prepared.redactedURL)'"
        if client.configuration.bearerToken?.isEmpty == false { curl += " -H 'Authorization: Bearer REDACTED'" }
        out += "curl  \(curl)\n"
        return out
    }

    /// The SDK builder chain for a list query: `q` as the compiled request's builder wrote it.
    static func listSwift(_ query: CompiledQuery, request: ListAssets) -> String {
        var lines = ["  let page = try await DeliveryAPI", "      .listAssets()"]
        if let q = request.queryText { lines.append("      .query(rawText: \(swiftString(q)))") }
        if let text = query.defaultText { lines.append("      .defaultQuery(\(swiftString(text)))") }
        if let fields = query.fields {
            if fields == "all" {
                lines.append("      .fields(.all)")
            } else {
                let names = fields.split(separator: ",").map { swiftString(String($0)) }.joined(separator: ", ")
                lines.append("      .fields(\(names))")
            }
        }
        if !query.orderKeys.isEmpty {
            let keys = query.orderKeys.map { ".field(\(swiftString($0.field)), .\($0.order.rawValue))" }
            lines.append("      .order(\(keys.joined(separator: ", ")))")
        }
        if let limit = query.limit { lines.append("      .limit(\(limit))") }
        if let offset = query.offset { lines.append("      .starting(at: \(offset))") }
        if let expand = query.expand {
            lines.append("      // the SDK's listAssets has no expand builder: expand=\(expand) needs overrideURL")
        }
        lines.append("      .fetchNextAsync()")
        if query.kind == .count { lines.append("  let count = page.totalResults") }
        if query.kind == .first { lines.append("  let item = page.items.first") }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A Swift string literal; raw (`#"..."#`) when the text holds quotes or backslashes.
    static func swiftString(_ text: String) -> String {
        text.contains("\"") || text.contains("\\") ? "#\"" + text + "\"#" : "\"" + text + "\""
    }
}
