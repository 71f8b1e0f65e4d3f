// A live connection: a DeliveryKit client, and for a local export the in-process `oceq serve`
// it talks to over loopback HTTP (port 0, quiet, cache in `~/.cache/oceq`), so local and remote
// channels take exactly the same path.

import ChannelServer
import DeliveryKit
import DeliveryTransport
import Foundation
import OCEQCore

/// A client, the server it talks to when that runs in-process, and a log of requests for timing.
public final class Connection: @unchecked Sendable {
    /// Sends the requests.
    public let client: DeliveryClient
    /// The in-process server for a local export; nil for a remote channel.
    let server: HTTPServer?
    /// What the banner and prompt call the channel.
    public let channelName: String
    /// Things worth telling the user once (items of a local export that could not be read).
    public var warnings: [String] = []
    /// Requests since `takeLog()` (the client's request log feeds it).
    let log: RequestLogBox

    /// A connection over `client`, naming the channel `channelName`; `log` is where the client's
    /// `requestLog` writes, if anywhere.
    public init(client: DeliveryClient, server: HTTPServer? = nil, channelName: String, log: RequestLogBox? = nil) {
        self.client = client
        self.server = server
        self.channelName = channelName
        self.log = log ?? RequestLogBox()
    }

    deinit { server?.stop() }

    /// The request log entries since the last call.
    public func takeLog() -> [RequestLogEntry] {
        log.take()
    }

    /// Connects as `credentials` say: starts a local server for an export path.
    public static func open(_ credentials: Credentials) throws(ShellError) -> Connection {
        let box = RequestLogBox()
        var url = credentials.url
        var token = credentials.channelToken
        var server: HTTPServer?
        var name: String
        var warnings: [String] = []
        if credentials.isLocalExport {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url, isDirectory: &isDirectory) else {
                throw .connection("\(url) does not exist; the url in credentials.json must be a server or an export")
            }
            var options = ServeOptions()
            options.paths = [url]
            // The export's own token (channel.json) is the server's, so a wrong token is refused
            // as a real server would; without one, the token given (or a generated one) is used.
            options.token = channelFileValue(url, "channelToken") ?? token
            options.bearer = credentials.bearer
            options.quiet = true
            options.port = 0
            let service: ChannelService
            do {
                service = try ChannelService.load(options)
            } catch {
                throw .connection("\(url) is not a channel export: \(error)")
            }
            token = token ?? service.token
            if !service.content.issues.isEmpty {
                let count = service.content.issues.count
                warnings.append(
                    "\(count) item\(count == 1 ? "" : "s") of \(url) could not be read and are left out "
                        + "('oceq serve \(url)' lists them)")
            }
            let router = service.router
            do {
                server = try HTTPServer(host: "127.0.0.1", port: 0, threads: 2, handler: { router.handle($0) })
            } catch {
                throw .connection("cannot serve \(url) on loopback: \(error)")
            }
            name = channelFileValue(url, "name") ?? (url as NSString).lastPathComponent
            url = "http://127.0.0.1:\(server?.port ?? 0)"
        } else {
            name = (try? ServerAddress(url))?.host ?? url
        }
        let configuration: DeliveryConfiguration
        do {
            configuration = try DeliveryConfiguration(url: url, channelToken: token, bearerToken: credentials.bearer)
        } catch {
            throw .connection("\(error); check the url in credentials.json or --url")
        }
        var logged = configuration
        logged.requestLog = { entry in box.append(entry) }
        let connection = Connection(
            client: DeliveryClient(configuration: logged), server: server, channelName: name, log: box)
        connection.warnings = warnings
        return connection
    }

    /// A string member (`name`, `channelToken`) of a `channel.json` in or beside the export.
    static func channelFileValue(_ path: String, _ key: String) -> String? {
        for candidate in [path + "/channel.json", (path as NSString).deletingLastPathComponent + "/channel.json"] {
            if let data = FileManager.default.contents(atPath: candidate), let json = try? JSON.parse(Array(data)),
                let value = json[key]?.stringValue, !value.isEmpty
            {
                return value
            }
        }
        return nil
    }

    /// Checks that the channel answers and the token is accepted; the total number of items.
    public func probe() async throws(ShellError) -> Int? {
        do {
            let page = try await client.fetch(DeliveryAPI.listAssets().limit(1).totalResults(true))
            _ = takeLog()
            return page.totalResults
        } catch {
            _ = takeLog()
            throw ShellError.connectionFailure(error)
        }
    }
}

/// Collects request log entries from any thread.
public final class RequestLogBox: Sendable {
    let entries = Locked<[RequestLogEntry]>([])

    /// An empty log.
    public init() {}

    /// Adds one entry.
    public func append(_ entry: RequestLogEntry) {
        entries.withLock { $0.append(entry) }
    }

    /// The entries so far, leaving the log empty.
    public func take() -> [RequestLogEntry] {
        entries.withLock { list in
            defer { list.removeAll() }
            return list
        }
    }
}
