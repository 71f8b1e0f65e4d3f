import OCEQCore

/// One GraphQL request from text to response body: parse, pick the operation, validate, coerce
/// the variables, execute. Syntax and validation errors answer `{"errors": […]}` (HTTP 200, as
/// GraphQL servers do); execution errors sit beside `data`.
enum GraphQLEngine {
    /// The response body for `query`.
    static func run(
        schema: GraphQLSchema, query: String, variables: [String: JSON], operationName: String?,
        source: GraphQLDataSource, limits: GraphQLLimits
    ) -> [UInt8] {
        let document: GraphQLDocument
        let operation: GraphQLOperation
        do {
            document = try GraphQLParser.parse(query)
            operation = try GraphQLValidator.operation(document, named: operationName)
        } catch {
            return body(errors: [error], data: nil, hasData: false)
        }
        var validator = GraphQLValidator(schema: schema, document: document, limits: limits)
        validator.validate(operation)
        guard validator.errors.isEmpty else { return body(errors: validator.errors, data: nil, hasData: false) }
        let executor = GraphQLExecutor(schema: schema, document: document, source: source, limits: limits)
        let problems = executor.coerceVariables(operation, variables)
        guard problems.isEmpty else { return body(errors: problems, data: nil, hasData: false) }
        do {
            let data = try executor.execute(operation)
            return body(errors: executor.errors, data: data, hasData: true)
        } catch {
            return body(errors: [error.error], data: nil, hasData: true)
        }
    }

    private static func body(errors: [GraphQLError], data: GraphQLResult?, hasData: Bool) -> [UInt8] {
        var members: [(String, GraphQLResult)] = []
        if !errors.isEmpty { members.append(("errors", .value(.array(errors.map(\.json))))) }
        if hasData { members.append(("data", data ?? .value(.null))) }
        var out: [UInt8] = []
        GraphQLResult.object(members).write(into: &out)
        return out
    }
}
