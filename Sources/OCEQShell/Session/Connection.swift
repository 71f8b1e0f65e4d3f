// A live connection: a DeliveryKit client, and for a local export the in-process `oceq serve`
// it talks to over loopback HTTP (port 0, quiet, cache in `~/.cache/oceq`), so local and remote
// channels take exactly the same path. The shell does not know the server: the executable injects
// a `LocalExportOpener` that starts it (the shell's tests inject the same one).

import DeliveryKit
import DeliveryTransport
import FoundationEssentials
import OCEQCore

/// A client, the server it talks to when that runs in-process, and a log of requests for timing.
package final class Connection: @unchecked Sendable {
    /// Sends the requests.
    package let client: DeliveryClient
    /// The in-process server for a local export; nil for a remote channel.
    let localExport: LocalExport?
    /// What the banner and prompt call the channel.
    package let channelName: String
    /// Things worth telling the user once (items of a local export that could not be read).
    package var warnings: [String] = []
    /// Where the url was given (`Credentials.urlOrigin`), for the error when nothing answers there.
    package var urlOrigin: String?
    /// How https was checked (`--insecure`, `--cacert`): `connect` keeps it for the next channel.
    package var insecure = false
    package var caBundle: String?
    /// Requests since `takeLog()` (the client's request log feeds it).
    let log: RequestLogBox

    /// A connection over `client`, naming the channel `channelName`; `log` is where the client's
    /// `requestLog` writes, if anywhere. `localExport` is stopped with the connection.
    package init(
        client: DeliveryClient, localExport: LocalExport? = nil, channelName: String, log: RequestLogBox? = nil
    ) {
        self.client = client
        self.localExport = localExport
        self.channelName = channelName
        self.log = log ?? RequestLogBox()
    }

    deinit { localExport?.stop() }

    /// The request log entries since the last call (at most `RequestLogBox.keptEntries`).
    package func takeLog() -> [RequestLogEntry] {
        log.take()
    }

    /// The totals of the requests since the last `takeLog` or `takeTotals`.
    package func takeTotals() -> RequestTotals {
        log.takeTotals()
    }

    /// Connects as `credentials` say: for an export path, `opener` serves it on loopback (nil: a
    /// local export cannot be opened, which is said).
    package static func open(
        _ credentials: Credentials, opener: (any LocalExportOpener)?
    ) throws(ShellError) -> Connection {
        let box = RequestLogBox()
        var url = credentials.url
        // A scheme is read in any case (`HTTPS://host`), as curl reads it; the rest is sent as written.
        if let scheme = Credentials.scheme(of: url), !credentials.isLocalExport {
            url = scheme.lowercased() + url.dropFirst(scheme.utf8.count)
        }
        var token = credentials.channelToken
        var localExport: LocalExport?
        var name: String
        if credentials.isLocalExport {
            let expected =
                (credentials.urlOrigin.map { "\($0) must be" } ?? "give")
                + " a server (http:// or https://) or an export folder or zip"
            if let scheme = Credentials.scheme(of: url) {
                throw .connection("\(scheme):// is not a scheme oceq speaks; \(expected)")
            }
            var isDirectory = false
            guard FileManager.default.fileExists(atPath: url, isDirectory: &isDirectory) else {
                throw .connection("\(url) does not exist; \(expected)")
            }
            guard let opener else {
                throw .connection("\(url) is a channel export, and this program cannot serve one; use `oceq`")
            }
            // The export's own token (channel.json) is the server's, so a wrong token is refused
            // as a real server would; without one, the token given (or a generated one) is used.
            let export = try opener.open(
                url, token: channelFileValue(url, "channelToken") ?? token, bearer: credentials.bearer)
            token = token ?? export.token
            name = channelFileValue(url, "name") ?? PathText.lastComponent(of: url)
            url = export.url
            localExport = export
        } else {
            name = credentials.profile ?? (try? ServerAddress(url))?.host ?? url
        }
        let configuration: DeliveryConfiguration
        do {
            configuration = try DeliveryConfiguration(url: url, channelToken: token, bearerToken: credentials.bearer)
        } catch {
            throw .connection("\(error); check \(credentials.urlOrigin ?? "the url given")")
        }
        var logged = configuration
        logged.requestLog = { entry in box.append(entry) }
        // The shared default transport unless TLS is set up otherwise (`--cacert`, `--insecure`).
        var transport: CurlTransport?
        if credentials.insecure || credentials.caBundle != nil {
            if let bundle = credentials.caBundle, !FileManager.default.isReadableFile(atPath: bundle) {
                throw .connection("cannot read the certificate authorities \(bundle) (--cacert)")
            }
            transport = CurlTransport(
                options: CurlTransport.Options(insecure: credentials.insecure, caBundle: credentials.caBundle))
        }
        let connection = Connection(
            client: DeliveryClient(configuration: logged, transport: transport), localExport: localExport,
            channelName: name, log: box)
        connection.warnings = localExport?.warnings ?? []
        connection.urlOrigin = credentials.urlOrigin
        connection.insecure = credentials.insecure
        connection.caBundle = credentials.caBundle
        return connection
    }

    /// A string member (`name`, `channelToken`) of a `channel.json` in or beside the export.
    static func channelFileValue(_ path: String, _ key: String) -> String? {
        for candidate in [path + "/channel.json", PathText.parent(of: path) + "/channel.json"] {
            if let data = FileManager.default.contents(atPath: candidate), let json = try? JSON.parse(Array(data)),
                let value = json[key]?.stringValue, !value.isEmpty
            {
                return value
            }
        }
        return nil
    }

    /// Checks that the channel answers and the token is accepted; the total number of items.
    /// The request `probe` sends: one item and the number of items.
    package static var probeRequest: ListAssets { DeliveryAPI.listAssets().limit(1).totalResults(true) }

    package func probe() async throws(ShellError) -> Int? {
        do {
            let page = try await client.fetch(Connection.probeRequest)
            _ = takeLog()
            return page.totalResults
        } catch {
            _ = takeLog()
            throw ShellError.connectionFailure(error, urlOrigin: urlOrigin)
        }
    }
}

/// Collects request log entries from any thread. Between two takes it keeps the first
/// `keptEntries` entries and the totals of all: a `mirror` of 100k items sends over 100k requests,
/// and keeping every entry until the command ended held about 30 MB.
package final class RequestLogBox: Sendable {
    /// What the log holds between two takes.
    struct Contents {
        var entries: [RequestLogEntry] = []
        var totals = RequestTotals()
    }

    /// The most entries kept between two takes (the totals count every request).
    package static let keptEntries = 1000
    let contents = Locked(Contents())

    /// An empty log.
    package init() {}

    /// Adds one entry.
    package func append(_ entry: RequestLogEntry) {
        contents.withLock { contents in
            contents.totals.add(entry)
            if contents.entries.count < Self.keptEntries { contents.entries.append(entry) }
        }
    }

    /// The entries so far (at most `keptEntries`), leaving the log empty.
    package func take() -> [RequestLogEntry] {
        contents.withLock { contents in
            defer { contents = Contents() }
            return contents.entries
        }
    }

    /// The totals of every request so far, leaving the log empty.
    package func takeTotals() -> RequestTotals {
        contents.withLock { contents in
            defer { contents = Contents() }
            return contents.totals
        }
    }
}

/// The number of requests, the bytes received and the time taken, for `set timing on`.
package struct RequestTotals: Sendable, Equatable {
    /// Attempts logged.
    package var count = 0
    /// Body bytes received.
    package var bytes: Int64 = 0
    /// Wall time of the attempts added up, in milliseconds.
    package var milliseconds = 0.0

    /// Counts `entry`.
    mutating func add(_ entry: RequestLogEntry) {
        count += 1
        bytes += entry.bytes
        milliseconds += entry.milliseconds
    }
}
