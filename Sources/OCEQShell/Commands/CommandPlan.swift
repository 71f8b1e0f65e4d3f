// What a command sends, declared by the command itself so that `explain` can tell the truth about
// every command. A command's descriptor holds a planner: a function from the parsed statement and
// the session to a `CommandPlan`, built from the same request builders the command runs with
// (DeliveryKit request values), so the explanation and the run cannot drift apart.
//
// A plan is one of three things:
//
//   .requests([...])   the requests, in the order they are sent; a value only an earlier answer
//                      gives (the hero image's id) is written `{name}` (see `PlanValue`)
//   .noRequest(why)    the command sends nothing, and why (`set` changes a setting)
//   .unknown(why)      the command cannot say in advance; `explain` refuses with this reason
//
// A command whose descriptor has no planner is refused the same way; the test of every
// registered command fails for it.

import DeliveryKit
import DeliveryTransport
import OCEQCore
import OCEQLanguage

/// What a command would send for one statement.
package enum CommandPlan: Sendable {
    /// The requests, in the order they are sent, and notes (what is not sent here, and why).
    case requests([PlannedRequest], notes: [String] = [])
    /// Nothing is sent; the reason is one lower-case clause (`it changes a setting`).
    case noRequest(String)
    /// The command cannot say before it runs; the reason is one lower-case clause.
    case unknown(String)

    /// The requests of the plan (none for the other cases).
    package var requests: [PlannedRequest] {
        if case .requests(let requests, _) = self { return requests }
        return []
    }
}

/// One request a command sends (or may send), described for a reader.
package struct PlannedRequest: Sendable {
    /// A request value, JSON or download.
    package enum Request: Sendable {
        /// A JSON request of the delivery API.
        case json(any DeliveryRequest)
        /// A binary download (native file, rendition, thumbnail).
        case download(any DownloadRequest)
        /// A GraphQL query, POSTed.
        case graphQL(GraphQLQuery)
    }

    /// What the answer is for, lower case (`the article, its author expanded`).
    package var purpose: String
    /// The request as the command builds it.
    package var request: Request
    /// When or how often it is sent, when not exactly once (`for each topic`, `when the article has
    /// a hero image`); nil: once.
    package var repeats: String?
    /// The client it is sent with, when not the session's (`connect` probes the new channel).
    package var client: DeliveryClient?

    /// A JSON request sent for `purpose`.
    package init(_ purpose: String, _ request: some DeliveryRequest, repeats: String? = nil) {
        self.purpose = purpose
        self.request = .json(request)
        self.repeats = repeats
    }

    /// The URL and headers it would be sent with by `client` (its own client, when it has one);
    /// nil when the request is invalid.
    package func prepared(_ client: DeliveryClient) -> PreparedRequest? {
        let using = self.client ?? client
        switch request {
        case .json(let request): return try? using.prepare(request)
        case .download(let request): return try? using.prepare(download: request)
        case .graphQL(let request): return using.prepare(graphQL: request)
        }
    }

    /// Whether this is the read of the channel's metadata catalog.
    package var readsCatalog: Bool {
        if case .json(let request) = request { return request is ReadItemsMetadataCatalog }
        return false
    }

    /// A GraphQL query sent for `purpose`.
    package init(_ purpose: String, graphQL: GraphQLQuery) {
        self.purpose = purpose
        self.request = .graphQL(graphQL)
    }

    /// A download sent for `purpose`.
    package init(_ purpose: String, download: some DownloadRequest, repeats: String? = nil) {
        self.purpose = purpose
        self.request = .download(download)
        self.repeats = repeats
    }
}

/// Values of a plan that only an earlier answer gives.
package enum PlanValue {
    /// The text standing for a value read from an earlier answer: `{name}`; `name` is letters,
    /// digits, `.`, `_` and `-`, and is shown as written in the explained URL.
    package static func fromAnswer(_ name: String) -> String { "{" + name + "}" }

    /// `url` with each placeholder shown as written (`%7Barticle.id%7D` becomes `{article.id}`).
    package static func readable(_ url: String) -> String {
        url.replacingAllBytes(of: "%7B", with: "{").replacingAllBytes(of: "%7D", with: "}")
    }

    /// Whether a sent URL is one of the planned URL's instances: equal, with each `{name}` standing
    /// for one or more characters other than `/`, `&` and `?` (for tests and for checks).
    package static func matches(planned: String, sent: String) -> Bool {
        let planned = Array(readable(planned).unicodeScalars)
        let sent = Array(sent.unicodeScalars)
        func match(_ p: Int, _ s: Int) -> Bool {
            if p == planned.count { return s == sent.count }
            if planned[p] == "{", let close = planned[p...].firstIndex(of: "}") {
                var end = s
                while end < sent.count, !"/&?".unicodeScalars.contains(sent[end]) {
                    end += 1
                    if match(close + 1, end) { return true }
                }
                return false
            }
            return s < sent.count && planned[p] == sent[s] && match(p + 1, s + 1)
        }
        return match(0, 0)
    }
}

/// Plans a command from its parsed statement in a session; see `CommandPlan`.
package typealias CommandPlanner = @MainActor @Sendable (Statement, Session) throws(ShellError) -> CommandPlan

extension CommandDescriptor {
    /// This descriptor with `planner` saying what the command sends.
    package func planning(_ planner: @escaping CommandPlanner) -> CommandDescriptor {
        var copy = self
        copy.plan = planner
        return copy
    }

    /// This descriptor for a command that never sends a request, `because` (one lower-case clause).
    package func sendingNothing(because reason: String) -> CommandDescriptor {
        planning { _, _ in .noRequest(reason) }
    }
}
