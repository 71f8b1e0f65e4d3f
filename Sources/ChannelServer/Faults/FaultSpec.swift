// Fault specifications for `oceq serve --faults SPEC`.
//
//   SPEC  := RULE (',' RULE)*
//   RULE  := KIND ['@' RATE] (':' KEY '=' VALUE)*
//   KIND  := 500 | 502 | 503 | 504 | 401 | 403 | 404 | 429 | reset | truncate | delay | stall | malformed
//   RATE  := a probability 0...1 or a percentage (`10%`); default 1 (every matching request)
//   KEYS  := path=/items          only requests whose path under /content/published/api/v1.1 starts so
//            retry-after=SECONDS  429 (and 503): the Retry-After value (default 1)
//            limit=N              429: fault only requests beyond N per second (instead of a rate)
//            after=BYTES          reset: body bytes sent before the connection is reset (default 0)
//            keep=BYTES           truncate: body bytes sent of the announced length (default half)
//            ms=MILLISECONDS      delay: wait before the first byte (default 1000)
//            bps=BYTES            stall: drip the body at this many bytes per second (default 64)
//   malformed replaces a JSON response's body with JSON that does not parse (other bodies pass).
//
// Example: `503@0.1,429@5%:retry-after=2,reset@0.05:after=1024:path=/assets,delay@0.2:ms=300`.

/// One rule of a fault specification.
public struct FaultRule: Sendable, Equatable {
    /// What the rule does to a request it picks.
    public enum Kind: Sendable, Equatable {
        case status(Int)
        case tooManyRequests
        case reset
        case truncate
        case delay
        case stall
        case malformed
    }

    public var kind: Kind
    public var rate: Double = 1
    public var pathPrefix: String?
    public var retryAfter = 1
    public var perSecondLimit: Int?
    public var afterBytes = 0
    public var keepBytes: Int?
    public var milliseconds = 1000
    public var bytesPerSecond = 64

    public init(kind: Kind) {
        self.kind = kind
    }
}

/// A malformed specification, naming the offending part.
public struct FaultSpecError: Error, CustomStringConvertible, Equatable {
    public var part: String
    public var reason: String
    public var description: String { "invalid fault spec at '\(part)': \(reason)" }
}

/// A parsed `--faults` value.
public struct FaultSpec: Sendable, Equatable {
    public var rules: [FaultRule]

    /// Parses the text; every error names the rule or key that is wrong.
    public static func parse(_ text: String) throws(FaultSpecError) -> FaultSpec {
        var rules: [FaultRule] = []
        for ruleText in text.split(separator: ",", omittingEmptySubsequences: false) {
            let trimmed = ruleText.trimmingSpaces()
            guard !trimmed.isEmpty else { throw FaultSpecError(part: String(ruleText), reason: "empty rule") }
            var parts = trimmed.split(separator: ":", omittingEmptySubsequences: false)
            let head = parts.removeFirst()
            let kindText: Substring
            var rule: FaultRule
            if let at = head.firstIndex(of: "@") {
                kindText = head[..<at]
                rule = FaultRule(kind: try kind(kindText, in: trimmed))
                rule.rate = try rate(head[head.index(after: at)...], in: trimmed)
            } else {
                kindText = head
                rule = FaultRule(kind: try kind(kindText, in: trimmed))
            }
            for part in parts {
                guard let eq = part.firstIndex(of: "=") else {
                    throw FaultSpecError(part: String(part), reason: "expected KEY=VALUE")
                }
                let key = part[..<eq]
                let value = part[part.index(after: eq)...]
                func number() throws(FaultSpecError) -> Int {
                    guard let n = Int(value), n >= 0 else {
                        throw FaultSpecError(part: String(part), reason: "'\(key)' needs a non-negative integer")
                    }
                    return n
                }
                switch key {
                case "path":
                    guard value.hasPrefix("/") else {
                        throw FaultSpecError(part: String(part), reason: "path must start with '/'")
                    }
                    rule.pathPrefix = String(value)
                case "retry-after": rule.retryAfter = try number()
                case "limit": rule.perSecondLimit = try number()
                case "after": rule.afterBytes = try number()
                case "keep": rule.keepBytes = try number()
                case "ms": rule.milliseconds = try number()
                case "bps":
                    rule.bytesPerSecond = try number()
                    guard rule.bytesPerSecond > 0 else {
                        throw FaultSpecError(part: String(part), reason: "bps must be positive")
                    }
                default:
                    throw FaultSpecError(
                        part: String(part),
                        reason: "unknown key '\(key)' (path, retry-after, limit, after, keep, ms, bps)")
                }
            }
            rules.append(rule)
        }
        return FaultSpec(rules: rules)
    }

    static func kind(_ text: Substring, in rule: Substring) throws(FaultSpecError) -> FaultRule.Kind {
        switch text {
        case "500", "502", "503", "504", "401", "403", "404": return .status(Int(text)!)
        case "429": return .tooManyRequests
        case "reset": return .reset
        case "truncate": return .truncate
        case "delay": return .delay
        case "stall": return .stall
        case "malformed": return .malformed
        default:
            throw FaultSpecError(
                part: String(rule),
                reason:
                    "unknown fault '\(text)' (500, 502, 503, 504, 401, 403, 404, 429, reset, truncate, delay, stall, malformed)"
            )
        }
    }

    static func rate(_ text: Substring, in rule: Substring) throws(FaultSpecError) -> Double {
        let value: Double?
        if text.hasSuffix("%") {
            value = Double(text.dropLast()).map { $0 / 100 }
        } else {
            value = Double(text)
        }
        guard let value, (0...1).contains(value) else {
            throw FaultSpecError(part: String(rule), reason: "rate '\(text)' must be between 0 and 1 (or 0% and 100%)")
        }
        return value
    }
}
