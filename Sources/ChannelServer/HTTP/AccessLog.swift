import Foundation
import OCEQCore

/// One line per request on stderr, with secrets removed: the `channelToken` query value is
/// replaced, the server's own secrets are hidden wherever they appear (a client that asks for an
/// item named like the token puts it in the path), and no header (so no `Authorization` or
/// `channelToken` header) is ever written.
public final class AccessLog: Sendable {
    /// Held while a line is written, so lines never interleave.
    private let lock = Locked(())
    private let write: @Sendable (String) -> Void
    /// Hides the server's channel token and bearer, raw or percent-encoded.
    public let redactor: Redactor

    /// A log that hands each finished line to `write` (stderr by default), with `secrets` hidden.
    public init(
        secrets: [String?] = [],
        write: @escaping @Sendable (String) -> Void = { FileHandle.standardError.write(Data($0.utf8)) }
    ) {
        self.write = write
        redactor = Redactor(secrets: secrets)
    }

    /// Records one exchange.
    public func record(_ exchange: HTTPExchange) {
        let line =
            "\(exchange.request.clientAddress) \(exchange.request.method) "
            + "\(redactor.redact(AccessLog.redact(exchange.request.target))) "
            + "\(exchange.status) \(exchange.bytes) \(String(format: "%.2f", exchange.milliseconds))ms\n"
        lock.withLock { _ in write(line) }
    }

    /// The target with the value of every `channelToken` parameter replaced by `REDACTED`, and
    /// control characters escaped so a hostile target cannot drive the terminal.
    public static func redact(_ target: String) -> String {
        var out = ""
        if let mark = target.firstIndex(of: "?") {
            out = String(target[..<mark]) + "?"
            let pairs = target[target.index(after: mark)...].split(separator: "&", omittingEmptySubsequences: false)
            out += pairs.map { pair -> String in
                let name = pair.split(separator: "=", maxSplits: 1).first.map(String.init) ?? ""
                let decoded = URLEncoding.decode(name, plusAsSpace: true)
                return decoded.lowercased() == "channeltoken" ? "\(name)=REDACTED" : String(pair)
            }.joined(separator: "&")
        } else {
            out = target
        }
        return String(
            String.UnicodeScalarView(
                out.unicodeScalars.flatMap { scalar -> [Unicode.Scalar] in
                    scalar.value < 0x20 || scalar.value == 0x7F || (0x80..<0xA0).contains(scalar.value)
                        ? Array("\\x\(String(scalar.value, radix: 16))".unicodeScalars) : [scalar]
                }))
    }
}
