// The session's one channel catalog: the schema (`ChannelCatalog.schema`) and the names of items by
// type, kept in `completionCache` beside what Tab looked up, so that completion, the compiler's checks,
// `types` and `fields` read the same answers and `refresh` forgets them all at once.
//
// Before a statement runs, `prepareCatalog(for:)` reads what compiling it will check against: the schema,
// and the item names of the types that a reference field compared with a name points at. A catalog that
// cannot be read never blocks the statement: it runs unchecked after one warning line.

import DeliveryKit
import OCEQCore
import OCEQLanguage

extension Session {
    /// The channel's schema, read once per session (until `refresh` or `connect`).
    package func channelSchema() async throws(ShellError) -> ChannelSchema {
        let client = try requireConnection().client
        do {
            return try await completionCache.load(ChannelCatalog.schemaKey) { try await ChannelCatalog.schema(client) }
        } catch let error as DeliveryError {
            throw .delivery(error)
        } catch {
            throw .usage(String(describing: error), span: nil)
        }
    }

    /// The catalog read as `explain` shows it, while this session has neither read the catalog nor found
    /// it unreadable; nil after (it is read once a session).
    package var plannedCatalogRead: PlannedRequest? {
        guard completionCache.cached(ChannelCatalog.schemaKey, as: ChannelSchema.self) == nil,
            completionCache.cached(ChannelCatalog.schemaFailedKey, as: Bool.self) != true
        else { return nil }
        return PlannedRequest(
            "the channel's types and fields (once a session)", DeliveryAPI.readItemsMetadataCatalog())
    }

    /// Whether running `statement` reads the catalog first (`prepareCatalog`): it holds a select whose
    /// names are checked against the channel.
    package static func readsCatalog(_ statement: Statement) -> Bool {
        statement.selects.contains(where: \.checksNames)
    }

    /// The start-up check of a script whose first statement reads the catalog, in place of
    /// `Connection.probe`: that read, which the statement sends first anyway. A channel that nothing answers
    /// at fails as the probe does. Any other failure of the read sends the probe (a 404 from a wrong url and
    /// from a server without a catalog look alike, and only the probe tells them apart), whose failure is
    /// the start-up's; when it succeeds, the first statement that needs the catalog warns as
    /// `prepareCatalog` does and the statements run unchecked.
    package func checkChannelByCatalog() async throws(ShellError) {
        let connection = try requireConnection()
        do {
            _ = try await channelSchema()
        } catch {
            if case .delivery(let failure) = error, ShellError.isUnreachable(failure) {
                throw ShellError.connectionFailure(failure, urlOrigin: connection.urlOrigin)
            }
            _ = try await connection.probe()
            startupCatalogFailure = error
        }
    }

    /// The schema problems of every select statement (and `get ... expand NAME`) in `statements`, found
    /// before any of them runs:
    /// each is compiled with its references (`$x`, `@n`, `$1`) standing for values not known yet, and
    /// only the checks against the channel's catalog count. Empty without a catalog.
    func catalogProblems(in statements: [Statement]) async -> [Diagnostic] {
        var problems: [Diagnostic] = []
        for statement in statements {
            await prepareCatalog(for: statement)
            // Not read (a statement that checks no names, like `echo` or a bare `count`, reads no catalog;
            // or it cannot be read): nothing to check in this one, but a later one may read it. Returning
            // here skipped the check of every statement after an `echo`.
            guard let schema: ChannelSchema = completionCache.cached(ChannelCatalog.schemaKey) else { continue }
            let environment = PrecheckEnvironment(
                schema: ChannelCatalog.displayable(schema), cache: completionCache)
            let compiler = Compiler(environment: environment)
            for select in statement.selects {
                do {
                    _ = try compiler.compile(select)
                } catch {
                    problems += error.diagnostics.filter(\.message.isCatalogCheck)
                }
            }
            if GetCommand.expandsNames(statement), case .command(let command) = statement {
                do {
                    _ = try compiler.compileGet(command)
                } catch {
                    problems += error.diagnostics.filter(\.message.isCatalogCheck)
                }
            }
        }
        return problems
    }

    /// Reads the schema and the item names that compiling `statement` needs; when the schema cannot be
    /// read, writes one warning line and the statement compiles unchecked.
    func prepareCatalog(for statement: Statement) async {
        let selects = statement.selects.filter(\.checksNames)
        guard !selects.isEmpty || GetCommand.expandsNames(statement), let client = connection?.client else { return }
        // Once unreadable, not asked again (nor warned about) until `refresh` or `connect`.
        if completionCache.cached(ChannelCatalog.schemaFailedKey, as: Bool.self) == true { return }
        let schema: ChannelSchema
        do throws(ShellError) {
            // Read at start in place of the probe, and failed then: not asked again.
            if let failure = startupCatalogFailure {
                startupCatalogFailure = nil
                throw failure
            }
            schema = try await channelSchema()
        } catch {
            // `explain` sends nothing and says itself that user fields go unchecked: no warning for it.
            if case .explain = statement { return }
            completionCache.store(ChannelCatalog.schemaFailedKey, true)
            errors.write(
                "warning: the channel's types and fields could not be read, so statements are not checked "
                    + "against them: \(TerminalText.clean(error.description))\n")
            return
        }
        let environment = SessionEnvironment(session: self)
        if selects.contains(where: { $0.namesTaxonomyTerms(environment: environment) }) {
            // A failure leaves the names unknown: the name is then sent as written.
            _ = try? await completionCache.load(ChannelCatalog.taxonomyNamesKey) {
                try await ChannelCatalog.taxonomyNames(client)
            }
        }
        for select in selects {
            for type in select.typesNamedByReferences(in: schema, environment: environment) {
                // A failure leaves the names unknown: the name is then sent as written.
                _ = try? await completionCache.load(ChannelCatalog.itemsKey(type)) {
                    try await ChannelCatalog.itemNames(client, type: type)
                }
            }
        }
    }
}

/// The environment of the check before a script runs: every reference stands for a value not known yet
/// (which no check looks at), and the catalog is the session's.
struct PrecheckEnvironment: CompileEnvironment {
    let schema: ChannelSchema?
    let cache: CompletionCache

    func variable(_ name: String) -> VariableLookup { .value("1") }
    func row(_ number: Int) -> RowLookup { .id("1") }
    func argument(_ number: Int) -> String? { "1" }
    var argumentCount: Int { 9 }
    var variableNames: [String] { [] }
    var referencesHoldValues: Bool { false }

    func items(ofType type: String) -> [ItemName]? { ChannelCatalog.displayableItems(ofType: type, in: cache) }

    func taxonomyNames() -> TaxonomyNames? { ChannelCatalog.displayableTaxonomyNames(in: cache) }
}
