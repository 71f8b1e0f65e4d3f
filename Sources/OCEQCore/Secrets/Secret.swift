// A token as a value: the channel token or a bearer token. Interpolating, printing, dumping or
// reflecting a `Secret` shows `REDACTED`; the raw text is reached only through `revealedForRequest`,
// which the code that builds a request (a URL's `channelToken=`, an `Authorization` header) or
// checks one (the server's comparison) calls by name. So secrets are hidden where URLs, headers and
// log lines are built, and content that happens to contain the token's text is never rewritten.

/// A channel token or bearer token whose description is always `REDACTED`.
public struct Secret: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible,
    ExpressibleByStringLiteral,
    CustomReflectable
{
    /// The text shown wherever a secret would be printed.
    public static let placeholder = "REDACTED"
    /// The fewest characters a token must have to be taken for a secret (shorter ones are refused
    /// by `oceq serve` unless `--insecure-token` is given).
    public static let minimumLength = 8

    private let value: String

    /// Wraps `value`.
    public init(_ value: String) { self.value = value }

    /// A secret written in source (tests, examples).
    public init(stringLiteral value: String) { self.value = value }

    /// The raw token, for building a request (its URL or `Authorization` header) or comparing what a
    /// client sent; never for text a person reads.
    public var revealedForRequest: String { value }

    /// True for the empty token.
    public var isEmpty: Bool { value.isEmpty }

    /// Why this token cannot be a secret (empty, containing whitespace or a control character, or
    /// shorter than `minimumLength`), or nil when it can.
    public var weakness: String? {
        if value.isEmpty { return "is empty" }
        if value.unicodeScalars.contains(where: { $0.properties.isWhitespace || $0.value < 0x20 || $0.value == 0x7F }) {
            return "contains whitespace or a control character"
        }
        if value.count < Secret.minimumLength { return "is shorter than \(Secret.minimumLength) characters" }
        return nil
    }

    /// `REDACTED`.
    public var description: String { Secret.placeholder }

    /// `Secret(REDACTED)`.
    public var debugDescription: String { "Secret(\(Secret.placeholder))" }

    /// Reflection (`dump`, `Mirror`) shows no child, so no raw value.
    public var customMirror: Mirror { Mirror(self, children: [:], displayStyle: .struct) }
}
