import OCEQCore

/// A GraphQL request to the delivery API (`POST /content/published/api/v1.1/graphql` with
/// `{"query", "variables", "operationName"}`), as a value: building one never touches the network.
public struct GraphQLQuery: Sendable {
    /// The GraphQL document.
    public var query: String
    /// Variable values by name.
    public var variables: [String: JSON]
    /// The operation to run when the document has several.
    public var operationName: String?

    public init(query: String, variables: [String: JSON] = [:], operationName: String? = nil) {
        self.query = query
        self.variables = variables
        self.operationName = operationName
    }

    /// The GraphQL endpoint (the channel token rides along as the query parameter).
    public func endpoint() -> Endpoint {
        Endpoint(path: ["graphql"])
    }

    /// The JSON body.
    public var body: [UInt8] {
        var object: [String: JSON] = ["query": .string(query)]
        if !variables.isEmpty { object["variables"] = .object(variables) }
        if let operationName { object["operationName"] = .string(operationName) }
        return JSONWriter().bytes(.object(object))
    }

    /// The names of the variables the document declares (`$name:` after `query`'s parenthesis),
    /// found by a light scan: enough to fill `$channelToken` from the session.
    public var declaredVariables: Set<String> {
        var names: Set<String> = []
        let scalars = Array(query.unicodeScalars)
        var index = 0
        while index < scalars.count {
            if scalars[index] == "$" {
                var name = ""
                var next = index + 1
                while next < scalars.count,
                    scalars[next].properties.isAlphabetic || scalars[next] == "_"
                        || ("0"..."9").contains(scalars[next])
                {
                    name.unicodeScalars.append(scalars[next])
                    next += 1
                }
                var colon = next
                while colon < scalars.count, scalars[colon] == " " || scalars[colon] == "\t" { colon += 1 }
                if !name.isEmpty, colon < scalars.count, scalars[colon] == ":" { names.insert(name) }
                index = next
            } else {
                index += 1
            }
        }
        return names
    }
}
