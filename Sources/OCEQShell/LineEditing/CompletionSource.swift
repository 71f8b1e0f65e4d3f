// Where the completer's words come from. `SessionCompletionSource` is what the session holds when the
// line starts (the registry's command names, the rows of the last result, variables, the base directory),
// and asks the channel through `ChannelCatalog`, each lookup bounded and cached in `Session.completionCache`.

import DeliveryKit
import DeliveryTransport
import FoundationEssentials
import OCEQCore
import OCEQLanguage

/// The words the completer may offer; every text is taken as it comes (the completer cleans it).
package protocol CompletionSource: Sendable {
    /// Every command name and alias.
    func commandNames() -> [String]
    /// The channel's type names.
    func typeNames() -> [String]
    /// The user fields of `type`, by name, each with a value of its shape (empty when unknown).
    func fields(ofType type: String) -> [String: JSON]
    /// The user fields of `type` the API sorts on.
    func sortableFields(ofType type: String) -> [String]
    /// The names and ids of the items of `type`.
    func items(ofType type: String) -> [ItemName]
    /// The channel's taxonomies and categories (for the value of `taxonomies=`).
    func taxonomyNames() -> TaxonomyNames
    /// The distinct values `field` takes in (the first few hundred) items of `type`.
    func values(ofField field: String, type: String) -> [String]
    /// The fields of the item `reference` (an id or `slug:SLUG`), long texts emptied (empty when unknown).
    func itemFields(_ reference: String) -> [String: JSON]
    /// How the arguments of `command` (a name or alias) complete.
    func argumentCompletion(of command: String) -> [ArgumentCompletion]
    /// The names of the connection profiles.
    func profileNames() -> [String]
    /// The rows of the last result, in order.
    func rows() -> [ItemName]
    /// The session's variable names.
    func variableNames() -> [String]
    /// The directory relative paths are read from.
    var baseDirectory: String { get }
    /// True while a channel lookup is still running after Tab stopped waiting for it.
    func isWaiting() -> Bool
}

extension CompletionSource {
    /// Never, unless the source says otherwise.
    package func isWaiting() -> Bool { false }

    /// None, unless the source has a channel to ask.
    package func taxonomyNames() -> TaxonomyNames { TaxonomyNames.empty }
}

extension CompletionSource {
    /// The fields whose sample value is a single number or date.
    package func sortableFields(ofType type: String) -> [String] {
        fields(ofType: type).filter { ChannelCatalog.isSortable($0.value) }.keys.sorted()
    }
}

/// A session's completion source: what the session holds when it is made (its registry, rows,
/// variables and base directory), and its channel through the session's cache. It is a value:
/// the REPL makes one before each line and the line-reading thread completes from it, never
/// touching the session, which does not change while a line is read.
package struct SessionCompletionSource: CompletionSource {
    /// The commands, for names and argument completion.
    let registry: CommandRegistry
    /// The channel, if connected.
    let client: DeliveryClient?
    /// The session's cache of channel lookups.
    let cache: CompletionCache
    /// The rows of the last result.
    let lastRows: [ItemName]
    /// The variable names.
    let variables: [String]
    /// How long one channel lookup may hold up Tab.
    package var timeout: Duration
    /// The environment that says where `profiles.json` is.
    package var environment: [String: String]
    package let baseDirectory: String

    /// The source for `session` as it is now.
    @MainActor
    package init(
        session: Session, timeout: Duration = CompletionCache.defaultTimeout,
        environment: [String: String] = ProcessEnvironment.current()
    ) {
        registry = session.registry
        client = session.connection?.client
        cache = session.completionCache
        lastRows = (session.lastRows ?? []).map { ItemName(name: $0.name, id: $0.id) }
        variables = session.variables.keys.sorted()
        baseDirectory = session.baseDirectory
        self.timeout = timeout
        self.environment = environment
    }

    package func commandNames() -> [String] { registry.parserCommands.sorted() }

    /// The session's catalog of the channel (the one the compiler checks against), within the timeout.
    private func schema() -> ChannelSchema? {
        guard let client else { return nil }
        return cache.value(ChannelCatalog.schemaKey, timeout: timeout) { try await ChannelCatalog.schema(client) }
    }

    package func typeNames() -> [String] { schema()?.typeNames ?? [] }

    package func fields(ofType type: String) -> [String: JSON] {
        let fields = schema()?.types[type]?.fields ?? []
        return Dictionary(fields.map { ($0.name, ChannelCatalog.shape(of: $0)) }, uniquingKeysWith: { a, _ in a })
    }

    package func sortableFields(ofType type: String) -> [String] {
        (schema()?.types[type]?.fields ?? []).filter(\.isSortable).map(\.name).sorted()
    }

    package func items(ofType type: String) -> [ItemName] {
        guard let client else { return [] }
        return cache.value(ChannelCatalog.itemsKey(type), timeout: timeout) {
            try await ChannelCatalog.itemNames(client, type: type)
        } ?? []
    }

    package func taxonomyNames() -> TaxonomyNames {
        guard let client else { return TaxonomyNames.empty }
        return cache.value(ChannelCatalog.taxonomyNamesKey, timeout: timeout) {
            try await ChannelCatalog.taxonomyNames(client)
        } ?? TaxonomyNames.empty
    }

    package func values(ofField field: String, type: String) -> [String] {
        guard let client else { return [] }
        return cache.value("values\u{0}" + type + "\u{0}" + field, timeout: timeout) {
            try await ChannelCatalog.fieldValues(client, type: type, field: field)
        } ?? []
    }

    package func itemFields(_ reference: String) -> [String: JSON] {
        guard let client else { return [:] }
        return cache.value("item\u{0}" + reference, timeout: timeout) {
            try await ChannelCatalog.itemFields(client, reference: reference)
        } ?? [:]
    }

    package func argumentCompletion(of command: String) -> [ArgumentCompletion] {
        registry.descriptor(named: command)?.argumentCompletion ?? []
    }

    package func profileNames() -> [String] { Credentials.profileNames(environment: environment) }

    package func rows() -> [ItemName] { lastRows }

    package func variableNames() -> [String] { variables }

    package func isWaiting() -> Bool { cache.isLookingUp }
}
