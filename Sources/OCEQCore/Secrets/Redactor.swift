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
                out = out.replacingAllBytes(
                    of: form, with: "REDACTED", standingAlone: form.utf8.count < Redactor.wholeWordsBelow)
            }
        }
        return Redactor.redactTokenParameters(out)
    }

    /// A secret shorter than this many bytes is replaced only where it stands alone, not inside a
    /// word: `--token t` turned "SSL certificate problem" into "SSL cerREDACTEDificaREDACTEDe". A
    /// token that short is no secret (`oceq serve` refuses one below 8 characters); `channelToken=`
    /// values are hidden whatever their length.
    public static let wholeWordsBelow = 8

    /// Replaces the value of every `channelToken=` parameter (up to `&`, `#`, a quote, `<`, or
    /// whitespace) with `REDACTED`.
    package static func redactTokenParameters(_ text: String) -> String {
        // One pass over the UTF-8 bytes in place; the unchanged runs are copied whole (a link of a
        // listing cost about 12 000 instructions when every byte was copied on its own).
        var utf8 = text
        return utf8.withUTF8 { bytes -> String in
            let key = tokenKey
            guard bytes.count >= key.count else { return text }
            var out: [UInt8] = []
            var copied = 0
            var i = 0
            while i + key.count <= bytes.count {
                guard bytes[i] | 0x20 == key[0], (1..<key.count).allSatisfy({ bytes[i + $0] | 0x20 == key[$0] })
                else {
                    i += 1
                    continue
                }
                i += key.count
                let start = i
                while i < bytes.count, !isStop(bytes[i]) { i += 1 }
                if i > start && !UnsafeBufferPointer(rebasing: bytes[start..<i]).starts(with: "REDACTED".utf8) {
                    if out.isEmpty { out.reserveCapacity(bytes.count) }
                    out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copied..<start]))
                    out.append(contentsOf: "REDACTED".utf8)
                    copied = i
                }
            }
            guard copied > 0 else { return text }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copied...]))
            return String(decoding: out, as: UTF8.self)
        }
    }

    /// `channeltoken=` in lower case, as bytes.
    static let tokenKey = Array("channeltoken=".utf8)

    /// Whether `byte` ends a parameter value: one of `& # " ' < > ; , )` or white space.
    static func isStop(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "&"), UInt8(ascii: "#"), UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: "<"),
            UInt8(ascii: ">"), UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"), UInt8(ascii: "\n"),
            UInt8(ascii: ";"), UInt8(ascii: ","), UInt8(ascii: ")"):
            return true
        default:
            return false
        }
    }
}
