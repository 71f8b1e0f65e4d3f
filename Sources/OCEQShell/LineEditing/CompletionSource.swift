// Where the completer's words come from. `SessionCompletionSource` reads the session (the registry's
// command names at the moment of Tab, the rows of the last result, variables, the base directory) and asks
// the channel through `ChannelCatalog`, each lookup bounded and cached in `Session.completionCache`.

import DeliveryKit
import Foundation
import OCEQCore

/// The words the completer may offer; every text is taken as it comes (the completer cleans it).
public protocol CompletionSource {
    /// Every command name and alias.
    func commandNames() -> [String]
    /// The channel's type names.
    func typeNames() -> [String]
    /// The user fields of one item of `type`, by name (empty when unknown).
    func fields(ofType type: String) -> [String: JSON]
    /// The names and ids of the items of `type`.
    func items(ofType type: String) -> [ItemName]
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
}

/// A session's completion source: its registry, rows and variables, and its channel through the cache.
public struct SessionCompletionSource: CompletionSource {
    /// The session asked.
    public let session: Session
    /// How long one channel lookup may hold up Tab.
    public var timeout: Duration
    /// The environment that says where `profiles.json` is.
    public var environment: [String: String]

    /// The source for `session`.
    public init(
        session: Session, timeout: Duration = CompletionCache.defaultTimeout,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) {
        self.session = session
        self.timeout = timeout
        self.environment = environment
    }

    public func commandNames() -> [String] { session.registry.parserCommands.sorted() }

    public func typeNames() -> [String] {
        guard let client = session.connection?.client else { return [] }
        let kinds = session.completionCache.value("types", timeout: timeout) { () async throws -> [String: Bool] in
            try await ChannelCatalog.typeKinds(client)
        }
        return (kinds ?? [:]).keys.sorted()
    }

    public func fields(ofType type: String) -> [String: JSON] {
        guard let client = session.connection?.client else { return [:] }
        return session.completionCache.value("fields\u{0}" + type, timeout: timeout) {
            try await ChannelCatalog.sampleFields(client, type: type)
        } ?? [:]
    }

    public func items(ofType type: String) -> [ItemName] {
        guard let client = session.connection?.client else { return [] }
        return session.completionCache.value("items\u{0}" + type, timeout: timeout) {
            try await ChannelCatalog.itemNames(client, type: type)
        } ?? []
    }

    public func values(ofField field: String, type: String) -> [String] {
        guard let client = session.connection?.client else { return [] }
        return session.completionCache.value("values\u{0}" + type + "\u{0}" + field, timeout: timeout) {
            try await ChannelCatalog.fieldValues(client, type: type, field: field)
        } ?? []
    }

    public func itemFields(_ reference: String) -> [String: JSON] {
        guard let client = session.connection?.client else { return [:] }
        return session.completionCache.value("item\u{0}" + reference, timeout: timeout) {
            try await ChannelCatalog.itemFields(client, reference: reference)
        } ?? [:]
    }

    public func argumentCompletion(of command: String) -> [ArgumentCompletion] {
        session.registry.descriptor(named: command)?.argumentCompletion ?? []
    }

    public func profileNames() -> [String] { Credentials.profileNames(environment: environment) }

    public func rows() -> [ItemName] { (session.lastRows ?? []).map { ItemName(name: $0.name, id: $0.id) } }

    public func variableNames() -> [String] { session.variables.keys.sorted() }

    public var baseDirectory: String { session.baseDirectory }
}
