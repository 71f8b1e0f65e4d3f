// Where the completer's words come from. `SessionCompletionSource` reads the session (the registry's
// command names at the moment of Tab, the rows of the last result, variables, the base directory) and asks
// the channel through `ChannelCatalog`, each lookup bounded and cached in `Session.completionCache`.

import DeliveryKit
import Foundation

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

    /// The source for `session`.
    public init(session: Session, timeout: Duration = CompletionCache.defaultTimeout) {
        self.session = session
        self.timeout = timeout
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

    public func rows() -> [ItemName] { (session.lastRows ?? []).map { ItemName(name: $0.name, id: $0.id) } }

    public func variableNames() -> [String] { session.variables.keys.sorted() }

    public var baseDirectory: String { session.baseDirectory }
}
