// `oceq serve`'s command line: the options (through core's `ArgumentScanner`), the environment
// variables that stand in for some of them, and the usage text. The server library only sees the
// resulting `ServeOptions`.

import ChannelServer
import OCEQCore

extension ServeOptions {
    /// The usage text of `oceq serve`.
    package static let usage = """
        usage: oceq serve PATH... [--port N] [--host ADDR] [--token TOKEN] [--bearer TOKEN] [--insecure-token]
                                  [--strict]
                                  [--threads N] [--cache-dir DIR] [--response-cache MIB] [--quiet]
                                  [--faults SPEC [--fault-seed N]] [--cors ORIGIN]... [limits...]

        Serves the Content Delivery API (v1.1) from OCM content exports on disk.
        PATH is an export folder, an export zip, or a site-template zip; several merge into one channel.

          --port N          port to listen on (default 8411; 0 picks a free one and prints it)
          --host ADDR       address to bind (default 127.0.0.1; use 0.0.0.0 or :: to serve others)
          --token TOKEN     the channel token clients must send (default: channel.json beside the
                            export, else a new random token, printed once)
          --bearer TOKEN    make the channel secure: require 'Authorization: Bearer TOKEN'
                            (or set OCEQ_SERVE_BEARER, which keeps it out of the process list)
          --insecure-token  accept a --token or --bearer that cannot be a secret (shorter than 8
                            characters)
          --strict          refuse to start if any item of the export could not be read
          --threads N       worker threads (default 4)
          --cache-dir DIR   where zips are extracted and indexes cached (default ~/.cache/oceq)
          --response-cache MIB
                            memory for finished JSON answers to repeated requests (default 32; 0 is off)
          --quiet           no access log
          --faults SPEC     misbehave on purpose, for testing clients (also OCEQ_SERVE_FAULTS), e.g.
                            '503@0.1,429@5%:retry-after=2,reset@0.05:after=1024:path=/assets,delay@0.2:ms=300'
                            kinds: 500 502 503 504 401 403 404 429 reset truncate delay stall malformed;
                            keys: path retry-after limit after keep ms bps
          --fault-seed N    seed for the fault draws (also OCEQ_SERVE_FAULT_SEED; default 1)
          --cors ORIGIN     let browser apps on ORIGIN (http[s]://host[:port]) read the answers; repeat
                            for more origins; '*' allows any origin (not with --bearer). Off by default

        Limits (a client or an export past one is refused, not served slowly):
          --max-connections N      connections held at once (default 4096; at most half the descriptor
                                   limit, which is raised to its hard limit at start)
          --max-connections-per-client N
                                   connections from one address (default 128)
          --header-timeout SECONDS seconds to send a request's headers (default 10; then closed)
          --zip-max-mib N          MiB an export zip may expand to (default 8192)
          --zip-max-entries N      entries in an export zip (default 100000)
          --zip-max-ratio N        expanded bytes per compressed byte of a zip (default 200)
          --item-max-mib N         largest item JSON file read, in MiB (default 64; larger: skipped)
          --max-image-pixels N     largest image rendered, width x height (default 100000000)
          --render-threads N       renditions made at once, off the request threads (default 2)
        """

    /// The options `oceq serve` accepts.
    static let scannerOptions: [ArgumentScanner.Option] = [
        .value("--port", "-p"), .value("--host"), .value("--token"), .value("--bearer"), .flag("--insecure-token"),
        .flag("--strict"),
        .value("--threads"), .value("--cache-dir"), .flag("--quiet", "-q"), .value("--response-cache"),
        .value("--faults"), .value("--fault-seed"), .flag("--help", "-h"),
        .value("--cors"),
        .value("--max-connections"),
        .value("--max-connections-per-client"), .value("--header-timeout"), .value("--zip-max-mib"),
        .value("--zip-max-entries"), .value("--zip-max-ratio"), .value("--item-max-mib"), .value("--max-image-pixels"),
        .value("--render-threads"),
    ]

    /// Parses the arguments after `serve`; `environment` supplies `OCEQ_SERVE_BEARER`,
    /// `OCEQ_SERVE_FAULTS` and `OCEQ_SERVE_FAULT_SEED` for options not given.
    package static func parse(
        _ arguments: [String], environment: [String: String] = [:]
    ) throws(UsageError) -> ServeOptions {
        var options = ServeOptions()
        var seedGiven = false
        var insecureToken = false
        var scanner = ArgumentScanner(arguments, options: scannerOptions)
        while let item = try scanner.next() {
            guard case .option(let name, let value) = item else {
                if case .operand(let path) = item { options.paths.append(path) }
                continue
            }
            let text = value ?? ""
            switch name {
            case "--port": options.port = try ArgumentScanner.integer(text, option: name, in: 0...65535)
            case "--host": options.host = text
            case "--token": options.token = Secret(text)
            case "--bearer": options.bearer = Secret(text)
            case "--insecure-token": insecureToken = true
            case "--strict": options.strict = true
            case "--threads": options.threads = try ArgumentScanner.integer(text, option: name, in: 1...256)
            case "--cache-dir": options.cacheDirectory = text
            case "--quiet": options.quiet = true
            case "--response-cache":
                options.responseCacheMiB = try ArgumentScanner.integer(text, option: name, in: 0...65536)
            case "--faults": options.faults = try faults(text)
            case "--fault-seed":
                options.faultSeed = UInt64(try ArgumentScanner.integer(text, option: name, in: 0...Int.max))
                seedGiven = true
            case "--cors": options.corsOrigins.append(try corsOrigin(text))
            case "--max-connections", "--max-connections-per-client", "--header-timeout", "--zip-max-mib",
                "--zip-max-entries", "--zip-max-ratio", "--item-max-mib", "--max-image-pixels", "--render-threads":
                try limit(name, text, into: &options)
            default: break  // --help: ServeCommand answers it before parsing
            }
        }
        if options.faults == nil, let spec = environment["OCEQ_SERVE_FAULTS"], !spec.isEmpty {
            options.faults = try faults(spec)
        }
        if let seed = environment["OCEQ_SERVE_FAULT_SEED"], !seedGiven {
            guard let value = UInt64(seed) else {
                throw UsageError("OCEQ_SERVE_FAULT_SEED must be a number, got '\(seed)'")
            }
            options.faultSeed = value
        }
        if options.bearer == nil, let bearer = environment["OCEQ_SERVE_BEARER"], !bearer.isEmpty {
            options.bearer = Secret(bearer)
        }
        if options.corsOrigins.contains("*"), options.bearer != nil {
            throw UsageError(
                "--cors '*' cannot be used with a bearer token: list the origins allowed to call a secure channel")
        }
        guard !options.paths.isEmpty else { throw UsageError("no export given: name an export folder or zip") }
        if let token = options.token?.revealedForRequest, token.isEmpty || token.contains(where: { $0.isWhitespace }) {
            throw UsageError("--token must be a non-empty word")
        }
        // A token too short to be a secret is refused (it would guard nothing), unless asked for.
        for (option, token) in [("--token", options.token), ("--bearer", options.bearer)] {
            if let token, !insecureToken, let weakness = token.weakness {
                throw UsageError("\(option) \(weakness); use a longer token, or add --insecure-token")
            }
        }
        return options
    }

    /// One `--cors` value: `*`, or an origin `http[s]://host[:port]` (a trailing `/` is dropped).
    static func corsOrigin(_ text: String) throws(UsageError) -> String {
        if text == "*" { return text }
        let origin = text.hasSuffix("/") ? String(text.dropLast()) : text
        let lower = origin.lowercased()
        let scheme = lower.hasPrefix("https://") ? "https://" : lower.hasPrefix("http://") ? "http://" : nil
        guard let scheme else {
            throw UsageError("--cors takes an origin such as https://app.example.com or '*', got '\(text)'")
        }
        let host = origin.dropFirst(scheme.count)
        guard !host.isEmpty, !host.contains(where: { "/?#@ ".contains($0) || $0.isWhitespace }) else {
            throw UsageError("--cors takes an origin (scheme://host[:port], no path), got '\(text)'")
        }
        return origin
    }

    /// Sets the limit option `name` from `text`.
    static func limit(_ name: String, _ text: String, into options: inout ServeOptions) throws(UsageError) {
        switch name {
        case "--max-connections":
            options.connections.maximumConnections = try ArgumentScanner.integer(text, option: name, in: 1...1_000_000)
        case "--max-connections-per-client":
            options.connections.maximumConnectionsPerClient = try ArgumentScanner.integer(
                text, option: name, in: 1...1_000_000)
        case "--header-timeout":
            options.connections.headerTimeout = Double(try ArgumentScanner.integer(text, option: name, in: 1...3600))
        case "--zip-max-mib":
            options.zipLimits.maximumExpandedBytes =
                Int64(try ArgumentScanner.integer(text, option: name, in: 1...(1 << 30))) << 20
        case "--zip-max-entries":
            options.zipLimits.maximumEntries = try ArgumentScanner.integer(text, option: name, in: 1...100_000_000)
        case "--zip-max-ratio":
            options.zipLimits.maximumRatio = try ArgumentScanner.integer(text, option: name, in: 1...1_000_000)
        case "--item-max-mib":
            options.maximumItemFileBytes = try ArgumentScanner.integer(text, option: name, in: 1...4096) << 20
        case "--max-image-pixels":
            options.maximumImagePixels = try ArgumentScanner.integer(text, option: name, in: 1...Int(Int32.max) * 4)
        default:
            options.renderThreads = try ArgumentScanner.integer(text, option: name, in: 1...64)
        }
    }

    /// The fault plan of `--faults` or `OCEQ_SERVE_FAULTS`, or a usage error.
    static func faults(_ text: String) throws(UsageError) -> FaultSpec {
        do {
            return try FaultSpec.parse(text)
        } catch {
            throw UsageError(error.description)
        }
    }
}
