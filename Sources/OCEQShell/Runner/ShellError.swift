import DeliveryKit
import OCEQCore
import OCEQLanguage

/// Everything that can go wrong in the shell, as one typed error for the presenter.
package enum ShellError: Error, CustomStringConvertible {
    /// The statement's references or clauses did not compile (rendered with a caret).
    case diagnostics(DiagnosticError)
    /// A command was used wrongly; `span` points at the argument (rendered with a caret).
    case usage(String, span: SourceSpan?)
    /// A request failed.
    case delivery(DeliveryError)
    /// Connecting failed at start: one line naming the problem and what to try.
    case connection(String)
    /// A file could not be read or run.
    case file(String)
    /// The statement needs a connection and there is none.
    case notConnected
    /// A nested script failed and said so itself; carries its exit code.
    case alreadyReported(Int32)

    /// A failed probe, as the one line the user sees at start; `urlOrigin` says where the url was given
    /// (nil: typed to `connect`).
    static func connectionFailure(_ error: DeliveryError, urlOrigin: String?) -> ShellError {
        switch error {
        case .http(let http) where http.status == 401:
            // OCM answers 401 for a secure channel asked without a valid bearer token, 403 for the
            // channel token.
            return .connection(
                "the channel refused the request (HTTP 401): a secure channel needs its bearer token; check "
                    + "authorization in credentials.json, --bearer or OCEQ_BEARER")
        case .http(let http) where http.status == 403:
            return .connection(
                "the channel refused the token (HTTP 403); check channelToken in credentials.json, --token or "
                    + "OCEQ_CHANNEL_TOKEN")
        case .http(let http) where http.status == 404:
            return .connection(
                "no delivery API at that url (HTTP 404 from \(http.url)); the url should be https://host[:port]")
        case _ where isUnreachable(error):
            return .connection("cannot reach the channel: \(error); check \(urlOrigin ?? "the url given")")
        default:
            return .connection("the channel did not answer as a delivery API: \(error)")
        }
    }

    /// Whether `error` says that nothing answered at the channel's address (no HTTP status at all).
    static func isUnreachable(_ error: DeliveryError) -> Bool {
        switch error {
        case .unknownHost, .connectionRefused, .timedOut, .tls, .connectionLost: return true
        default: return false
        }
    }

    package var description: String {
        switch self {
        case .diagnostics(let error): return error.diagnostics.first?.text ?? "invalid statement"
        case .usage(let message, _): return message
        case .delivery(let error): return error.description
        case .connection(let message): return message
        case .file(let message): return message
        case .notConnected: return "not connected to a channel"
        case .alreadyReported(let code): return "failed with exit code \(code)"
        }
    }
}
