// The local-export opener the executable injects into the shell: `ChannelServer` started in this
// process on loopback (port 0, two threads, quiet, cache in `XDGPaths`' cache folder unless told),
// so that a local export and a remote channel take exactly the same path through the client.

import ChannelServer
import FoundationEssentials
import OCEQCore
import OCEQShell

/// Serves a channel export in-process for the shell's connections.
package struct InProcessServer: LocalExportOpener {
    /// Where zips are extracted and indexes kept (nil: the XDG cache folder).
    package var cacheDirectory: String?

    /// An opener caching under `cacheDirectory` (nil: the XDG cache folder).
    package init(cacheDirectory: String? = nil) {
        self.cacheDirectory = cacheDirectory
    }

    package func open(_ path: String, token: String?, bearer: String?) throws(ShellError) -> LocalExport {
        var options = ServeOptions()
        options.paths = [path]
        options.token = token.map { Secret($0) }
        options.bearer = bearer.map { Secret($0) }
        options.quiet = true
        options.port = 0
        options.cacheDirectory = cacheDirectory
        let service: ChannelService
        do {
            service = try ChannelService.load(options)
        } catch {
            throw .connection("\(path) is not a channel export: \(error)")
        }
        var warnings: [String] = []
        if !service.content.issues.isEmpty {
            let count = service.content.issues.count
            // An item that could not be read is left out; an asset whose native file is missing is served
            // without it: both are problems, neither is silent.
            warnings.append(
                count == 1
                    ? "1 problem in \(path) (an item left out, or an asset without its native file); "
                        + "'oceq serve \(path)' names it"
                    : "\(count) problems in \(path) (items left out, or assets without their native file); "
                        + "'oceq serve \(path)' lists them")
        }
        let router = service.router
        let server: HTTPServer
        do {
            server = try HTTPServer(host: "127.0.0.1", port: 0, threads: 2, handler: { router.handle($0) })
        } catch {
            throw .connection("cannot serve \(path) on loopback: \(error)")
        }
        return LocalExport(
            url: "http://127.0.0.1:\(server.port)", token: service.token.revealedForRequest, warnings: warnings,
            stop: { server.stop() })
    }
}
