// The state one REPL or script run keeps: variables, the rows of the last listing (for `@n`), the
// script's arguments, settings, the connection, and where output goes. One session per process;
// `source` runs files in the same session.

import DeliveryKit
import OCEQCore
import OCEQLanguage

/// What a `let` variable holds.
package enum Variable: Sendable {
    /// Text or a number.
    case text(String)
    /// One item; used as a value it is its id.
    case item(Asset)
    /// A listing; not usable as a single value.
    case listing(Listing)
}

/// The state of one shell, isolated to the main actor: the REPL, the script runner and every command
/// run there (a command waits for the channel off it), and Tab completion reads a copy
/// (`SessionCompletionSource`) made before each line.
@MainActor
package final class Session {
    /// Variables set by `let`.
    package var variables: [String: Variable] = [:]
    /// The rows of the last listing, for `@n`; nil before the first.
    package var lastRows: [Asset]?
    /// `$1` ... `$9`.
    package var arguments: [String]
    /// What `set` changes.
    package var settings: Settings
    /// The channel; nil when not connected (explain and help still work). Its secrets join
    /// `secrets` whenever it changes.
    package var connection: Connection? {
        didSet {
            remember(connection)
            // Another channel: what was learned of the old one no longer holds.
            completionCache.clear()
        }
    }
    /// Every token this session has used; hidden from the messages it prints (which may echo a
    /// typed line or a server's error), never from results.
    private(set) var secrets: Set<String> = []
    /// Where messages go before redaction.
    let rawErrors: any OutputSink
    /// Results go here as they are: channel content is never rewritten (URLs and headers hide their
    /// tokens where they are built, and links as they arrive).
    package let output: any OutputSink
    /// Messages, errors and timing go here, with the session's secrets shown as REDACTED (an error
    /// may echo the line the user typed, or a server's text about the request).
    package var errors: any OutputSink { RedactingOutput(rawErrors, redactor: Redactor(secrets: Array(secrets))) }
    /// Hides this session's secrets as its message sink does: for the source line shown under an
    /// error, whose caret has to follow the redacted text.
    package var redact: @Sendable (String) -> String {
        let redactor = Redactor(secrets: Array(secrets))
        return { redactor.redact($0) }
    }
    /// The status line on stderr: the REPL's spinner and the progress of `download` and `mirror` share
    /// it, and `output` and `errors` write around it.
    package let statusLine: StatusLine
    /// The commands; `define` adds to them.
    package var registry: CommandRegistry
    /// Serves a local export for `connect PATH` (injected by the executable; nil: none can be opened).
    package var localExportOpener: (any LocalExportOpener)?
    /// What Tab completion and the compiler learned from the channel (its catalog); `refresh` and
    /// `connect` clear it.
    package let completionCache = CompletionCache()
    /// The history file `history` reads (the REPL's, which every statement typed is written to at
    /// once); nil when neither XDG_STATE_HOME nor HOME names a folder. Looked up when `history` first
    /// asks, not at every start. Tests point it elsewhere.
    package lazy var historyPath: String? = History.defaultPath()
    /// How deep `source` is nested.
    var sourceDepth = 0
    /// How deep calls of user commands are nested.
    var callDepth = 0
    /// The calls the error being reported from a user command's body has passed on its way out,
    /// innermost first, written when it reaches the outermost call (`UserCommand.noteCall`).
    var callNotes: [UserCommand.CallNote] = []
    /// The text and file name of the statements running now (a `define` keeps them for its errors).
    var currentSource: (text: SourceText, fileName: String?)?
    /// The directory relative `source` paths are resolved against.
    var baseDirectory: String
    /// Why the catalog read that stood for the start-up probe failed (`checkChannelByCatalog`), kept for
    /// the first statement that needs the catalog to report as `prepareCatalog` does.
    var startupCatalogFailure: ShellError?

    /// A session writing to `output` and `errors`, the connection's secrets redacted from both.
    package init(
        registry: CommandRegistry, connection: Connection?, output: any OutputSink, errors: any OutputSink,
        arguments: [String] = [], settings: Settings = Settings(), baseDirectory: String = "."
    ) {
        self.registry = registry
        self.connection = connection
        let statusLine = StatusLine(sink: errors)
        self.statusLine = statusLine
        self.output = StatusLineGuard(output, statusLine: statusLine)
        self.rawErrors = StatusLineGuard(errors, statusLine: statusLine)
        self.arguments = arguments
        self.settings = settings
        self.baseDirectory = baseDirectory
        remember(connection)
    }

    /// Adds the secrets of `connection` to those hidden from output.
    func remember(_ connection: Connection?) {
        for secret in connection?.client.configuration.redactor.secrets ?? [] { secrets.insert(secret) }
    }

    /// The connection, or `notConnected`.
    package func requireConnection() throws(ShellError) -> Connection {
        guard let connection else { throw .notConnected }
        return connection
    }

    /// A compiler resolving references (`$name`, `$n`, `@n`) in this session; package so that a
    /// module's commands resolve their arguments as the core commands do.
    package var compiler: Compiler { Compiler(environment: SessionEnvironment(session: self)) }

    /// The parser options for this session's commands.
    var parserOptions: ParserOptions { registry.parserOptions }
}

/// The session seen by the compiler.
struct SessionEnvironment: CompileEnvironment {
    let variables: [String: Variable]
    let rows: [Asset]?
    let arguments: [String]
    /// The channel's schema if it has been read (see `Session.prepareCatalog`).
    let schema: ChannelSchema?
    /// Where the names of items by type are kept.
    let cache: CompletionCache

    @MainActor
    init(session: Session) {
        variables = session.variables
        rows = session.lastRows
        arguments = session.arguments
        schema =
            session.connection == nil
            ? nil
            : session.completionCache.cached(ChannelCatalog.schemaKey, as: ChannelSchema.self).map {
                ChannelCatalog.displayable($0)
            }
        cache = session.completionCache
    }

    func items(ofType type: String) -> [ItemName]? { ChannelCatalog.displayableItems(ofType: type, in: cache) }

    func taxonomyNames() -> TaxonomyNames? { ChannelCatalog.displayableTaxonomyNames(in: cache) }

    func variable(_ name: String) -> VariableLookup {
        switch variables[name] {
        case .text(let text): return .value(text)
        case .item(let asset): return .value(asset.id)
        case .listing(let listing):
            return .notAValue("a listing of \(listing.items.count) row\(listing.items.count == 1 ? "" : "s")")
        case nil: return .undefined
        }
    }

    func row(_ number: Int) -> RowLookup {
        guard let rows else { return .noListing }
        guard number >= 1 && number <= rows.count else { return .outOfRange(rows: rows.count) }
        return .id(rows[number - 1].id)
    }

    func rowItem(_ number: Int) -> ReferencedItem? {
        guard let rows, number >= 1 && number <= rows.count else { return nil }
        return Self.referenced(rows[number - 1])
    }

    func variableItem(_ name: String) -> ReferencedItem? {
        guard case .item(let asset) = variables[name] else { return nil }
        return Self.referenced(asset)
    }

    /// `asset`'s name and type, when the answer that brought it said its type.
    private static func referenced(_ asset: Asset) -> ReferencedItem? {
        asset.type.isEmpty ? nil : ReferencedItem(name: asset.name, type: asset.type)
    }

    func argument(_ number: Int) -> String? {
        number >= 1 && number <= arguments.count ? arguments[number - 1] : nil
    }

    var argumentCount: Int { arguments.count }

    var variableNames: [String] { variables.keys.sorted() }
}
