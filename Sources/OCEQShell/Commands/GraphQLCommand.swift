// `gql QUERY` / `gql FILE.graphql`: one GraphQL request to the connected channel (oceq serve or
// any OCM server), `data` printed as a document through the renderers.
//
// The query is the statement's text after the options, exactly as written (a quoted string is
// taken as its value); a single word naming a readable file is that file's text. Options come
// first: `--var NAME=VALUE` (VALUE read as JSON when it parses, else as text) and `--operation
// NAME`. A declared `$channelToken` the options do not set is filled with the session's token,
// so OCM-style queries run unchanged. A GraphQL error is shown against the query: on the
// statement with a caret when the query was typed, as FILE:LINE:COLUMN when it came from a file.

import DeliveryKit
import DeliveryTransport
import FoundationEssentials
import OCEQCore
import OCEQLanguage

/// `gql`: send a GraphQL query.
package enum GraphQLCommand: Command {
    package static let descriptor = CommandDescriptor(
        name: "gql", abstract: "send a GraphQL query to the channel and print its data",
        usage: "gql [--var NAME=VALUE]... [--operation NAME] QUERY|FILE.graphql",
        examples: [
            "gql { getItems(limit: 3) { totalResults items { name type } } }",
            "gql --var slug=coffee query ($slug: String!) { getItem(slug: $slug) { id name } }",
            "gql Scripts/authors.graphql",
        ],
        discussion:
            "The channel token is sent as the channelToken query parameter and fills a declared $channelToken.\n"
            + "A query with unbalanced brackets must be quoted. explain gql ... shows the POST and its curl line."
    ).planning(plan)

    /// The one POST `gql` sends.
    static func plan(_ statement: Statement, in session: Session) throws(ShellError) -> CommandPlan {
        guard case .command(let command) = statement else { throw .usage("gql QUERY", span: nil) }
        let token = try session.requireConnection().client.configuration.channelToken
        let invocation = try parse(command, in: session, token: token)
        return .requests([PlannedRequest("the query, POSTed as JSON", graphQL: invocation.request)])
    }

    /// A parsed `gql` statement.
    struct Invocation {
        var request: GraphQLQuery
        /// Where the query text starts in the statement (nil: from a file).
        var queryOffset: Int?
        /// The file it came from.
        var file: String?
        /// Whether the query was a quoted string (its offsets no longer match the statement).
        var quoted: Bool
    }

    package static func run(_ statement: Statement, in session: Session) async throws(ShellError) -> CommandResult {
        guard case .command(let command) = statement else { throw .usage("gql QUERY", span: nil) }
        let connection = try session.requireConnection()
        let invocation = try parse(command, in: session, token: connection.client.configuration.channelToken)
        let answer: JSON
        do {
            answer = try await connection.client.graphQL(invocation.request)
        } catch {
            throw .delivery(error)
        }
        let errors = answer["errors"]?.arrayValue ?? []
        let data = answer["data"] ?? .null
        if errors.isEmpty { return .document(data) }
        if data.isNull || data.objectValue?.values.allSatisfy(\.isNull) == true {
            throw describe(errors, invocation)
        }
        return .document(answer)
    }

    /// The explanation `explain gql ...` prints: the POST, its URL and curl line, tokens redacted.
    static func explanation(_ command: CommandStatement, in session: Session) throws(ShellError) -> String {
        let connection = try session.requireConnection()
        let client = connection.client
        let token = client.configuration.channelToken
        let invocation = try parse(command, in: session, token: token)
        let prepared = client.prepare(graphQL: invocation.request)
        let redactor = client.configuration.redactor
        let body = redactor.redact(String(decoding: prepared.body ?? [], as: UTF8.self))
        var out = "POST /graphql\n"
        out += "  query      \(invocation.request.query.split(separator: "\n").joined(separator: "\n             "))\n"
        if !invocation.request.variables.isEmpty {
            let variables = String(decoding: JSONWriter().bytes(.object(invocation.request.variables)), as: UTF8.self)
            out += "  variables  \(redactor.redact(variables))\n"
        }
        out += "url   \(prepared.redactedURL)\n"
        var curl = "curl -sS -X POST '\(prepared.redactedURL)' -H 'Content-Type: application/json'"
        if client.configuration.bearerToken?.isEmpty == false { curl += " -H 'Authorization: Bearer REDACTED'" }
        curl += " --data-raw '" + body.replacingAllBytes(of: "'", with: "'\\''") + "'"
        out += "curl  \(curl)\n"
        return out
    }

    static func parse(
        _ command: CommandStatement, in session: Session, token: Secret?
    ) throws(ShellError) -> Invocation {
        let text = command.argumentText
        let base = command.arguments.first?.span.start ?? command.span.end
        var rest = Substring(text)
        var variables: [String: JSON] = [:]
        var operation: String?
        while true {
            let trimmed = rest.drop { $0 == " " || $0 == "\t" || $0 == "\n" }
            guard trimmed.hasPrefix("--var ") || trimmed.hasPrefix("--operation ") else {
                rest = trimmed
                break
            }
            let isVar = trimmed.hasPrefix("--var ")
            let afterFlag = trimmed.dropFirst(isVar ? 6 : 12).drop { $0 == " " }
            let word = afterFlag.prefix { $0 != " " && $0 != "\t" && $0 != "\n" }
            let at = SourceSpan(start: base + text.utf8.distance(from: text.startIndex, to: word.startIndex), end: 0)
            rest = afterFlag.dropFirst(word.count)
            if isVar {
                guard let equals = word.firstIndex(of: "="), equals > word.startIndex else {
                    throw .usage("--var takes NAME=VALUE", span: .at(at.start))
                }
                var value = String(word[word.index(after: equals)...])
                if value.count >= 2, value.hasPrefix("\"") || value.hasPrefix("'"), value.last == value.first {
                    value = String(value.dropFirst().dropLast())
                    variables[String(word[..<equals])] = .string(value)
                } else {
                    variables[String(word[..<equals])] = (try? JSON.parse(value)) ?? .string(value)
                }
            } else {
                guard !word.isEmpty else { throw .usage("--operation takes a name", span: .at(at.start)) }
                operation = String(word)
            }
        }
        let queryText = String(rest).trimmedWhitespace
        guard !queryText.isEmpty else {
            throw .usage("gql takes a query or a .graphql file", span: .at(command.span.end))
        }
        var invocation = Invocation(
            request: GraphQLQuery(query: queryText, variables: variables, operationName: operation),
            queryOffset: base + text.utf8.distance(from: text.startIndex, to: rest.startIndex), file: nil,
            quoted: false)
        // One argument: a quoted query, or a file.
        let tail = command.arguments.last
        if let tail, tail.span.start == invocation.queryOffset {
            if case .value = tail.kind, let value = try session.text(of: tail) {
                invocation.request.query = value
                invocation.quoted = true
            } else if !queryText.contains(where: { "{}() \n".contains($0) }) {
                let path = XDGPaths.resolve(queryText, in: session.baseDirectory)
                guard let contents = try? String(contentsOfFile: path, encoding: .utf8) else {
                    throw .usage("cannot read the query file \(queryText)", span: tail.span)
                }
                invocation.request.query = contents
                invocation.file = queryText
                invocation.queryOffset = nil
            }
        }
        if let token, invocation.request.variables["channelToken"] == nil,
            invocation.request.declaredVariables.contains("channelToken")
        {
            invocation.request.variables["channelToken"] = .string(token.revealedForRequest)
        }
        return invocation
    }

    /// The first error against the query: a caret on the statement, or FILE:LINE:COLUMN.
    static func describe(_ errors: [JSON], _ invocation: Invocation) -> ShellError {
        let first = errors[0]
        var message = TerminalText.clean(first["message"]?.stringValue ?? "the GraphQL query failed")
        if errors.count > 1 { message += " (and \(errors.count - 1) more error\(errors.count == 2 ? "" : "s"))" }
        guard let location = first["locations"]?[0], let line = location["line"]?.intValue,
            let column = location["column"]?.intValue
        else { return .usage(message, span: nil) }
        if let file = invocation.file { return .usage("\(file):\(line):\(column): \(message)", span: nil) }
        guard let start = invocation.queryOffset, !invocation.quoted,
            let offset = byteOffset(invocation.request.query, line: line, column: column)
        else { return .usage("\(message) (query line \(line), column \(column))", span: nil) }
        return .usage(message, span: SourceSpan(start: start + offset, end: start + offset + 1))
    }

    /// The UTF-8 offset of a GraphQL line and column (columns count Unicode scalars).
    static func byteOffset(_ text: String, line: Int, column: Int) -> Int? {
        var currentLine = 1
        var currentColumn = 1
        var offset = 0
        for scalar in text.unicodeScalars {
            if currentLine == line, currentColumn == column { return offset }
            offset += String(scalar).utf8.count
            if scalar == "\n" {
                currentLine += 1
                currentColumn = 1
            } else {
                currentColumn += 1
            }
        }
        return currentLine == line && currentColumn == column ? offset : nil
    }
}
