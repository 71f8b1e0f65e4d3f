import FoundationEssentials

/// Hides secrets in messages: every occurrence of the channel token and the bearer token, and the
/// value of any `channelToken=` query parameter, become `REDACTED`.
///
/// Only for text that may echo a secret the user typed or a server's words about the request: the
/// source line under a diagnostic, the shell's error sink, a server's error body, a transport error.
/// Never for content (results, files `mirror` writes, ids in the access log): tokens are `Secret`
/// values, and URLs, headers and log lines hide them where they are built.
public struct Redactor: Sendable, Hashable {
    /// The literal secrets to hide (empty strings are ignored).
    public var secrets: [String]

    /// A redactor for these secrets (nil and empty ones are dropped).
    public init(secrets: [String?]) {
        self.secrets = secrets.compactMap { $0 }.filter { !$0.isEmpty }.sorted { $0.count > $1.count }
    }

    /// `text` with secrets (as they are, as a query value or a path segment encodes them, and with
    /// every reserved character encoded) and `channelToken=` values replaced by `REDACTED`.
    public func redact(_ text: String) -> String {
        var out = text
        for secret in secrets {
            for form in [
                secret, URLEncoding.query(secret), URLEncoding.pathSegment(secret),
                URLEncoding.component(secret),
            ] {
                out = out.replacingAllBytes(of: form, with: "REDACTED")
            }
        }
        return Redactor.redactTokenParameters(out)
    }

    /// Replaces the value of every `channelToken=` parameter (up to `&`, `#`, a quote, `<`, or
    /// whitespace) with `REDACTED`.
    package static func redactTokenParameters(_ text: String) -> String {
        let key = Array("channeltoken=".utf8)
        let bytes = Array(text.utf8)
        guard bytes.count >= key.count else { return text }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = 0
        var changed = false
        while i < bytes.count {
            if bytes[i] | 0x20 == key[0] && i + key.count <= bytes.count
                && zip(bytes[i..<(i + key.count)], key).allSatisfy({ ($0 | 0x20) == $1 })
            {
                out.append(contentsOf: bytes[i..<(i + key.count)])
                i += key.count
                let start = i
                while i < bytes.count, !Redactor.stops.contains(bytes[i]) { i += 1 }
                if i > start {
                    let value = bytes[start..<i]
                    if value.starts(with: "REDACTED".utf8) {
                        out.append(contentsOf: value)
                    } else {
                        out.append(contentsOf: "REDACTED".utf8)
                        changed = true
                    }
                }
                continue
            }
            out.append(bytes[i])
            i += 1
        }
        return changed ? String(decoding: out, as: UTF8.self) : text
    }

    package static let stops: Set<UInt8> = Set("&#\"'<> \t\r\n;,)".utf8)
}
