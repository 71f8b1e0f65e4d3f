import FoundationEssentials
import Glibc
import OCEQCore

/// Wraps a handler and misbehaves on purpose, as a `FaultSpec` says.
///
/// Decisions are deterministic for a seed: whether rule r hits a request depends only on the
/// seed, the rule, the request target and how many times that same target was asked before — so
/// a client's retry of a URL draws anew, and concurrent clients do not disturb each other's draws.
public final class FaultInjector: @unchecked Sendable {
    public let spec: FaultSpec
    public let seed: UInt64
    private struct Counts {
        var occurrences: [String: UInt64] = [:]
        var window: (second: Int, count: Int) = (0, 0)
    }
    private let counts = Locked(Counts())
    private let log: @Sendable (String) -> Void

    /// An injector; `log` receives one line per injected fault.
    public init(spec: FaultSpec, seed: UInt64, log: @escaping @Sendable (String) -> Void) {
        self.spec = spec
        self.seed = seed
        self.log = log
    }

    /// The handler with faults applied.
    public func wrap(_ handler: @escaping HTTPServer.Handler) -> HTTPServer.Handler {
        { request in self.apply(request, handler) }
    }

    func apply(_ request: ServerRequest, _ handler: HTTPServer.Handler) -> HTTPResponse {
        guard let (ruleIndex, rule) = pick(request) else { return handler(request) }
        let subject = "\(AccessLog.escape(request.method)) \(AccessLog.redact(request.target))"
        switch rule.kind {
        case .status(let status):
            log("fault: \(status) for \(subject) (rule \(ruleIndex + 1))")
            var error = APIError(status: status, detail: "injected fault: \(status)", code: "OCEQ-FAULT-\(status)")
            if status == 503 { error.headers["Retry-After"] = String(rule.retryAfter) }
            return error.response
        case .tooManyRequests:
            log("fault: 429 Retry-After \(rule.retryAfter) for \(subject) (rule \(ruleIndex + 1))")
            return APIError(
                status: 429, detail: "injected fault: too many requests", code: "OCEQ-FAULT-429",
                headers: ["Retry-After": String(rule.retryAfter)]
            ).response
        case .delay:
            log("fault: delay \(rule.milliseconds)ms for \(subject) (rule \(ruleIndex + 1))")
            usleep(UInt32(min(rule.milliseconds, 600_000)) * 1000)
            return handler(request)
        case .malformed:
            var response = handler(request)
            let json = response.headers.contains {
                $0.name.lowercased() == "content-type" && $0.value.lowercased().contains("json")
            }
            guard json, response.status < 300 else { return response }
            log("fault: malformed JSON for \(subject) (rule \(ruleIndex + 1))")
            response.body = .bytes(FaultInjector.malformedBody)
            response.headers.removeAll { $0.name.lowercased() == "etag" || $0.name.lowercased() == "content-length" }
            return response
        case .reset, .truncate, .stall:
            let response = handler(request)
            guard let bytes = FaultInjector.bodyBytes(response), !bytes.isEmpty, response.status < 300 else {
                return response
            }
            var faulted = response
            switch rule.kind {
            case .reset:
                let keep = min(rule.afterBytes, bytes.count - 1)
                log("fault: reset after \(keep) bytes for \(subject) (rule \(ruleIndex + 1))")
                faulted.body = .stream(
                    HTTPBodyStream(declaredLength: bytes.count, resetOnAbort: true) { offset in
                        offset < keep ? Array(bytes[offset..<keep]) : nil
                    })
            case .truncate:
                let keep = min(rule.keepBytes ?? bytes.count / 2, bytes.count - 1)
                log("fault: truncate to \(keep) of \(bytes.count) bytes for \(subject) (rule \(ruleIndex + 1))")
                faulted.body = .stream(
                    HTTPBodyStream(declaredLength: bytes.count) { offset in
                        offset < keep ? Array(bytes[offset..<keep]) : []
                    })
            default:
                let step = max(1, rule.bytesPerSecond / 10)
                log("fault: stall at \(rule.bytesPerSecond) B/s for \(subject) (rule \(ruleIndex + 1))")
                faulted.body = .stream(
                    HTTPBodyStream(declaredLength: bytes.count) { offset in
                        guard offset < bytes.count else { return [] }
                        usleep(100_000)
                        return Array(bytes[offset..<min(bytes.count, offset + step)])
                    })
            }
            return faulted
        }
    }

    /// The first rule that hits this request, if any.
    func pick(_ request: ServerRequest) -> (Int, FaultRule)? {
        let path = "/" + request.pathSegments.dropFirst(DeliveryRouter.prefix.count).joined(separator: "/")
        let key = request.method + " " + request.target
        let now = Int(Date().timeIntervalSince1970)
        let (occurrence, countThisSecond) = counts.withLock { counts in
            let occurrence = counts.occurrences[key, default: 0]
            counts.occurrences[key] = occurrence + 1
            counts.window = counts.window.second == now ? (now, counts.window.count + 1) : (now, 1)
            return (occurrence, counts.window.count)
        }
        for (index, rule) in spec.rules.enumerated() {
            if let prefix = rule.pathPrefix, !path.hasPrefix(prefix) { continue }
            if let limit = rule.perSecondLimit {
                if countThisSecond > limit { return (index, rule) }
                continue
            }
            if draw(rule: index, key: key, occurrence: occurrence) < rule.rate { return (index, rule) }
        }
        return nil
    }

    /// A number in [0, 1) from the seed, the rule, the request and its occurrence (SplitMix64 over FNV).
    func draw(rule: Int, key: String, occurrence: UInt64) -> Double {
        var x =
            seed ^ EntityTag.fnv1a(Array(key.utf8)) ^ (UInt64(rule) &* 0x9E37_79B9_7F4A_7C15)
            ^ (occurrence &* 0xD6E8_FEB8_6659_FD93)
        x = (x ^ (x >> 30)) &* 0xBF58_476D_1CE4_E5B9
        x = (x ^ (x >> 27)) &* 0x94D0_49BB_1331_11EB
        x ^= x >> 31
        return Double(x >> 11) / Double(1 << 53)
    }

    /// The body a `malformed` fault sends: the start of a listing, cut inside a string.
    static let malformedBody = Array(#"{"items":[{"id":"CONT"#.utf8) + [0xFF, 0xFE] + Array(#"", "hasMore": tru"#.utf8)

    /// The whole body of a response, read from memory or its file.
    static func bodyBytes(_ response: HTTPResponse) -> [UInt8]? {
        switch response.body {
        case .bytes(let bytes): return bytes
        case .file(let path, let offset, let length):
            return FileSystem.read(path, offset: offset, count: length)
        case .empty, .stream: return nil
        }
    }
}
