import Foundation

/// A command-line mistake: the message, and the usage to show beside it (exit code 2).
public struct UsageError: Error, CustomStringConvertible, Equatable {
    public var message: String
    public var description: String { message }

    public init(_ message: String) {
        self.message = message
    }
}

/// The options of `oceq serve`.
public struct ServeOptions: Sendable, Equatable {
    public var paths: [String] = []
    public var host = "127.0.0.1"
    public var port = 8411
    public var token: String?
    public var bearer: String?
    public var strict = false
    public var threads = 4
    public var cacheDirectory: String?
    public var quiet = false
    /// Fault injection (off unless asked): `--faults SPEC` or `OCEQ_SERVE_FAULTS`.
    public var faults: FaultSpec?
    public var faultSeed: UInt64 = 1
    /// MiB of finished JSON answers kept for repeated requests (`--response-cache`; 0 is off).
    public var responseCacheMiB = 32

    public init() {}

    public static let usage = """
        usage: oceq serve PATH... [--port N] [--host ADDR] [--token TOKEN] [--bearer TOKEN] [--strict]
                                  [--threads N] [--cache-dir DIR] [--response-cache MIB] [--quiet]
                                  [--faults SPEC [--fault-seed N]]

        Serves the Content Delivery API (v1.1) from OCM content exports on disk.
        PATH is an export folder, an export zip, or a site-template zip; several merge into one channel.

          --port N          port to listen on (default 8411; 0 picks a free one and prints it)
          --host ADDR       address to bind (default 127.0.0.1; use 0.0.0.0 or :: to serve others)
          --token TOKEN     the channel token clients must send (default: channel.json beside the
                            export, else a new random token, printed once)
          --bearer TOKEN    make the channel secure: require 'Authorization: Bearer TOKEN'
                            (or set OCEQ_SERVE_BEARER, which keeps it out of the process list)
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
        """

    /// Parses the arguments after `serve`; `environment` supplies `OCEQ_SERVE_BEARER`.
    public static func parse(
        _ arguments: [String], environment: [String: String] = [:]
    ) throws(UsageError) -> ServeOptions {
        var options = ServeOptions()
        var index = 0
        func value(_ flag: String) throws(UsageError) -> String {
            index += 1
            guard index < arguments.count else { throw UsageError("\(flag) needs a value") }
            return arguments[index]
        }
        func number(_ flag: String, _ range: ClosedRange<Int>) throws(UsageError) -> Int {
            let text = try value(flag)
            guard let n = Int(text), range.contains(n) else {
                throw UsageError(
                    "\(flag) must be a number from \(range.lowerBound) to \(range.upperBound), got '\(text)'")
            }
            return n
        }
        var onlyPaths = false
        while index < arguments.count {
            let argument = arguments[index]
            if onlyPaths || !argument.hasPrefix("-") || argument == "-" {
                options.paths.append(argument)
                index += 1
                continue
            }
            var flag = argument
            if let eq = argument.firstIndex(of: "="), argument.hasPrefix("--") {
                flag = String(argument[..<eq])
                var rewritten = arguments
                rewritten[index] = flag
                rewritten.insert(String(argument[argument.index(after: eq)...]), at: index + 1)
                return try parse(rewritten, environment: environment)
            }
            switch flag {
            case "--port", "-p": options.port = try number(flag, 0...65535)
            case "--host": options.host = try value(flag)
            case "--token": options.token = try value(flag)
            case "--bearer": options.bearer = try value(flag)
            case "--strict": options.strict = true
            case "--threads": options.threads = try number(flag, 1...256)
            case "--cache-dir": options.cacheDirectory = try value(flag)
            case "--quiet", "-q": options.quiet = true
            case "--response-cache": options.responseCacheMiB = try number(flag, 0...65536)
            case "--faults": options.faults = try faults(try value(flag))
            case "--fault-seed": options.faultSeed = UInt64(try number(flag, 0...Int.max))
            case "--": onlyPaths = true
            default:
                throw UsageError(
                    "unknown option '\(flag)'\(Suggest.nearest(to: flag, in: knownFlags).map { "; did you mean '\($0)'?" } ?? "")"
                )
            }
            index += 1
        }
        if options.faults == nil, let spec = environment["OCEQ_SERVE_FAULTS"], !spec.isEmpty {
            options.faults = try faults(spec)
        }
        if let seed = environment["OCEQ_SERVE_FAULT_SEED"], !arguments.contains("--fault-seed") {
            guard let value = UInt64(seed) else {
                throw UsageError("OCEQ_SERVE_FAULT_SEED must be a number, got '\(seed)'")
            }
            options.faultSeed = value
        }
        if options.bearer == nil, let bearer = environment["OCEQ_SERVE_BEARER"], !bearer.isEmpty {
            options.bearer = bearer
        }
        guard !options.paths.isEmpty else { throw UsageError("no export given: name an export folder or zip") }
        if let token = options.token, token.isEmpty || token.contains(where: { $0.isWhitespace }) {
            throw UsageError("--token must be a non-empty word")
        }
        return options
    }

    static let knownFlags = [
        "--port", "--host", "--token", "--bearer", "--strict", "--threads", "--cache-dir", "--quiet", "--faults",
        "--fault-seed", "--response-cache",
    ]

    static func faults(_ text: String) throws(UsageError) -> FaultSpec {
        do {
            return try FaultSpec.parse(text)
        } catch {
            throw UsageError(error.description)
        }
    }
}

/// "Did you mean" by edit distance.
public enum Suggest {
    /// The candidate closest to `word` when it is within 2 edits (or a third of its length).
    public static func nearest(to word: String, in candidates: [String]) -> String? {
        let scored = candidates.map { ($0, distance(word, $0)) }.min(by: { $0.1 < $1.1 })
        guard let (best, score) = scored, score <= max(2, word.count / 3), score < word.count else { return nil }
        return best
    }

    /// Levenshtein distance over characters.
    public static func distance(_ a: String, _ b: String) -> Int {
        TextFolding.editDistance(Array(a), Array(b))
    }
}
