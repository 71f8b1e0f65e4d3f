// `oceq serve`: parse, load, listen, log, and stop cleanly on SIGINT/SIGTERM. Failures are written
// by the shell's `ErrorPresenter` as `oceq serve: ...` (2 for usage, 1 otherwise).

import CSystem
import ChannelServer
import DeliveryKit
import FoundationEssentials
import Glibc
import OCEQCore
import OCEQShell

/// `oceq serve`: load, listen, log, and stop cleanly on SIGINT/SIGTERM.
package enum ServeCommand {
    /// The prefix of every message.
    static let program = "oceq serve"

    /// Runs the command; returns the process exit code (0 after a clean stop, 1 on failure, 2 on usage).
    package static func run(
        _ arguments: [String], environment: [String: String] = ProcessEnvironment.current()
    ) -> Int32 {
        if arguments.contains("--help") || arguments.contains("-h") {
            Console.output(ServeOptions.usage)
            return 0
        }
        let options: ServeOptions
        do {
            options = try ServeOptions.parse(arguments, environment: environment)
        } catch {
            // One line and where to read more, as `oceq` itself answers a bad option: the whole usage
            // (45 lines) after a misspelt flag buried the one line that said what was wrong.
            return fail(error, usage: "see 'oceq serve --help'")
        }
        // Block the stop signals before any thread starts, so every thread inherits the mask and
        // only `sigwait` below sees them.
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        pthread_sigmask(SIG_BLOCK, &signals, nil)

        // Heap arenas for the request threads and two more, not one per thread of the parallel load,
        // which otherwise each keep a fragmented arena. Process-wide, so here and not in
        // `ChannelService.load`, which the REPL also calls to open a local export; and fixed now, as
        // glibc reads the cap once. Two arenas for everything (until session 32) left the request
        // threads waiting for each other's heap locks: with both workers busy, pages of 100 whole items
        // at 690-710 requests/s in half the runs instead of 1,720-1,810 (2 CPUs, 100,000 items; the
        // cold start's peak, 300 MB, did not move).
        oceq_limit_heap_arenas(Int32(options.threads + options.renderThreads + 2))
        let service: ChannelService
        do {
            service = try ChannelService.load(options)
        } catch {
            return fail(error)
        }
        // Export names and messages are escaped by the access log's rule (a name may hold controls). Each
        // message says what became of its file (skipped, or an asset served without its native file).
        for issue in service.content.issues.prefix(20) {
            Console.error("oceq serve: \(AccessLog.escape(issue.description, keepingSpaces: true))")
        }
        if service.content.issues.count > 20 {
            Console.error("oceq serve: ... and \(service.content.issues.count - 20) more")
        }
        let assets: Int
        do {
            assets = try service.content.items.digitalAssetCount()
        } catch {
            return fail(error)
        }
        Console.error(
            "oceq serve: \(service.content.items.count) items (\(service.content.items.count - assets) content items, "
                + "\(assets) digital assets) from "
                + AccessLog.escape(service.content.roots.joined(separator: ", "), keepingSpaces: true)
                + (service.content.issues.isEmpty ? "" : "; \(Self.problems(service.content.issues.count))")
                + "; read in \(String(cFormat: "%.2f", service.loadSeconds))s, index "
                + "\(service.index.wasCached ? "opened" : "built") in \(String(cFormat: "%.2f", service.indexSeconds))s"
        )

        let tokens = [service.token.revealedForRequest, options.bearer?.revealedForRequest]
        let secrets = Redactor(secrets: tokens)
        let log = options.quiet ? nil : AccessLog(secrets: tokens)
        let server: HTTPServer
        do {
            let router = service.router
            // First-time renditions are made on the server's slow pool, off the request threads.
            var handler: HTTPServer.Handler = { router.handleDeferringRenditions($0) }
            if let faults = options.faults {
                let injector = FaultInjector(spec: faults, seed: options.faultSeed) {
                    Console.error("oceq serve: \(secrets.redact($0))")
                }
                handler = injector.wrap(handler)
                Console.error(
                    "oceq serve: fault injection on: \(faults.rules.count) rule(s), seed \(options.faultSeed)")
            }
            var observer: HTTPServer.Observer?
            if let log { observer = { exchange in log.record(exchange) } }
            server = try HTTPServer(
                host: options.host, port: options.port, threads: options.threads, slowThreads: options.renderThreads,
                limits: options.connections, handler: handler, observer: observer)
        } catch {
            return fail(error)
        }
        let shownHost = options.host.contains(":") ? "[\(options.host)]" : options.host
        Console.output("oceq serve: listening on http://\(shownHost):\(server.port)/content/published/api/v1.1")
        switch service.tokenSource {
        case .generated:
            Console.error(
                "oceq serve: no channel token given; clients must send this generated one: \(service.token.revealedForRequest)"
            )
        case .channelFile, .option:
            Console.error("oceq serve: channel token from \(service.tokenSource.rawValue)")
        }
        if options.bearer != nil { Console.error("oceq serve: secure channel: a bearer token is required") }
        if let check = service.exportCheck {
            // A restart from the cache checked the export's listing; each file's size and times
            // are checked now, while serving.
            DetachedThread.start(name: "oceq-export-check") {
                guard !check.run() else { return }
                Console.error(
                    "oceq serve: the export changed since its index was built (a file's size or times differ); "
                        + "this server answers from the index as it was: restart oceq serve to read the export again")
            }
        }

        var received: Int32 = 0
        sigwait(&signals, &received)
        Console.error("oceq serve: stopping (\(received == SIGINT ? "SIGINT" : "SIGTERM"))")
        server.stop()
        return 0
    }

    /// "1 problem" or "N problems (the first 20 listed above)": files skipped, or served incomplete.
    static func problems(_ count: Int) -> String {
        count == 1 ? "1 problem (above)" : "\(count) problems (\(count > 20 ? "the first 20 " : "")listed above)"
    }

    /// Writes how `error` ends the command and returns the exit code.
    static func fail(_ error: any Error, usage: String? = nil) -> Int32 {
        ErrorPresenter.reportProgramFailure(error, program: program, usage: usage, to: FileOutput.standardError())
    }
}

/// Line output to stdout and stderr, flushed at once (tests read the port line from a pipe).
enum Console {
    /// Writes a line to stdout.
    static func output(_ line: String) {
        StandardStream.output.write(line + "\n")
    }

    /// Writes a line to stderr.
    static func error(_ line: String) {
        StandardStream.error.write(line + "\n")
    }
}
