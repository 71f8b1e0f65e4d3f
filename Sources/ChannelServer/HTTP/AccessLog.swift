// The access log: one line per request on stderr,
//
//     CLIENT METHOD TARGET STATUS BYTES MSms
//
// Secrets are hidden where the line is built, as values, never as substrings: the value of every
// `channelToken` query parameter is `REDACTED`, and so is a path segment or query value that equals
// one of the server's secrets once percent-decoded (a client that asks for an item named like the
// token puts it in the path). No header is ever written, so neither `Authorization` nor a
// `channelToken` header can reach the log. Ids that merely contain the token's text are logged as
// they are.
//
// Escaping rule, for every field of every line (and every line `oceq serve` writes about the export):
// C0 controls (U+0000–U+001F, CR and LF included), space, backslash, DEL and the C1 controls
// (U+0080–U+009F, so ESC, CSI and OSC sequences are inert) become `\xNN` with two lower-case hex
// digits; bidi formatting controls and the line and paragraph separators (U+200E, U+200F,
// U+2028–U+202E, U+2066–U+2069) become `\u{NNNN}`. Every other character is written as it is. A
// client therefore cannot start a new line, move the cursor, set the window title, write the
// clipboard (OSC 52) or forge a field. Prose messages (a skipped file) keep their spaces as they are.

import FoundationEssentials
import OCEQCore

/// One line per request on stderr, with secrets hidden where the line is built and every field
/// escaped.
public final class AccessLog: Sendable {
    /// Held while a line is written, so lines never interleave.
    private let lock = Locked(())
    private let write: @Sendable (String) -> Void
    /// The server's channel token and bearer, compared with whole path segments and query values.
    private let secrets: Set<String>

    /// A log that hands each finished line to `write` (stderr by default), with `secrets` hidden.
    public init(
        secrets: [String?] = [],
        write: @escaping @Sendable (String) -> Void = { StandardStream.error.write($0) }
    ) {
        self.write = write
        self.secrets = Set(secrets.compactMap { $0 }.filter { !$0.isEmpty })
    }

    /// Records one exchange.
    public func record(_ exchange: HTTPExchange) {
        let line = line(for: exchange)
        lock.withLock { _ in write(line) }
    }

    /// The line `record` writes for `exchange` (newline included).
    public func line(for exchange: HTTPExchange) -> String {
        let request = exchange.request
        let fields = [
            AccessLog.escape(request.clientAddress), AccessLog.escape(request.method),
            AccessLog.escape(loggedTarget(request.target)), String(exchange.status), String(exchange.bytes),
            String(cFormat: "%.2f", exchange.milliseconds) + "ms",
        ]
        return fields.joined(separator: " ") + "\n"
    }

    /// `target` with its `channelToken` value, and any path segment or query value equal to one of
    /// the secrets, shown as `REDACTED` (not yet escaped).
    func loggedTarget(_ target: String) -> String {
        let mark = target.firstIndex(of: "?")
        let path = target[..<(mark ?? target.endIndex)]
        let shownPath = path.split(separator: "/", omittingEmptySubsequences: false).map { segment -> String in
            isSecret(URLEncoding.decode(String(segment), plusAsSpace: false)) ? "REDACTED" : String(segment)
        }.joined(separator: "/")
        guard let mark else { return shownPath }
        let pairs = target[target.index(after: mark)...].split(separator: "&", omittingEmptySubsequences: false)
        let shownQuery = pairs.map { pair -> String in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(parts[0])
            let value = parts.count > 1 ? String(parts[1]) : nil
            if AccessLog.isTokenParameter(name)
                || value.map({ isSecret(URLEncoding.decode($0, plusAsSpace: true)) }) == true
            {
                return "\(name)=REDACTED"
            }
            return String(pair)
        }
        return shownPath + "?" + shownQuery.joined(separator: "&")
    }

    private func isSecret(_ text: String) -> Bool { !secrets.isEmpty && secrets.contains(text) }

    private static func isTokenParameter(_ name: String) -> Bool {
        URLEncoding.decode(name, plusAsSpace: true).lowercased() == "channeltoken"
    }

    /// The target with the value of every `channelToken` parameter replaced by `REDACTED`, escaped
    /// by the log's rule (for lines about a request written elsewhere, such as fault injection's).
    public static func redact(_ target: String) -> String { escape(AccessLog().loggedTarget(target)) }

    /// `text` escaped by the rule at the top of this file: no control character, backslash, bidi
    /// control, or (unless `keepingSpaces`, for prose) space is written as it is.
    public static func escape(_ text: String, keepingSpaces: Bool = false) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            let value = scalar.value
            if value == 0x20 && keepingSpaces {
                out.unicodeScalars.append(scalar)
            } else if value <= 0x20 || value == 0x5C || value == 0x7F || (0x80...0x9F).contains(value) {
                out += "\\x" + (value < 0x10 ? "0" : "") + String(value, radix: 16)
            } else if value == 0x200E || value == 0x200F || (0x2028...0x202E).contains(value)
                || (0x2066...0x2069).contains(value)
            {
                out += "\\u{" + String(value, radix: 16) + "}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
