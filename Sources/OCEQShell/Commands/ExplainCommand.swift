// `explain STATEMENT`: what a statement would send, without sending it. Four parts:
//
//   GET /items                       the compiled parameters, one per line
//   url   http://...                 the full URL the client builds, channel token REDACTED
//   curl  curl -sS '...'             the same request for a shell (bearer REDACTED)
//   swift DeliveryAPI.listAssets()   the equivalent call in Oracle's Swift SDK
//
// followed by a note for each field that is not a standard field (fields are per type, so the
// compiler cannot check them).

import DeliveryKit
import DeliveryTransport
import OCEQCore
import OCEQLanguage

/// `explain`: show the request a statement stands for.
package enum ExplainCommand: Command {
    package static let descriptor = CommandDescriptor(
        name: "explain", abstract: "show the request a statement sends: parameters, URL, curl, and Swift SDK code",
        usage: "explain list ...|count ...|first ...|get ...",
        examples: [
            "explain list type=OCEGettingStartedArticle topic=CORE123 order published_date desc limit 50",
            "explain count type=OCEGettingStartedArticle name ^= \"Coffee\"", "explain get slug:coffee",
        ])

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
            return .text("'\(command.name)' sends no request\n")
        case let other:
            return .text("'\(other.commandName)' sends no request\n")
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
                + "(fields differ by type, so it is not checked)\n"
        }
        return out
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
