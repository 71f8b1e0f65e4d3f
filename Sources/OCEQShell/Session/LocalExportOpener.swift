// The seam between the shell and `oceq serve`: a local export (a folder or zip named as the url) is
// served in-process on loopback, and the shell talks to it over HTTP like to any channel. The shell
// only knows this protocol; the executable injects the opener that starts ChannelServer, so the
// shell (and everything above it) builds without the server.

/// Serves a channel export on loopback for the life of a connection.
package protocol LocalExportOpener: Sendable {
    /// Starts serving the export at `path` (an absolute folder or zip) with the channel token `token`
    /// (nil: generate one) and, for a secure channel, `bearer`. Throws `.connection` naming `path`.
    func open(_ path: String, token: String?, bearer: String?) throws(ShellError) -> LocalExport
}

/// A local export being served: where, with which token, and how to stop it.
package struct LocalExport: Sendable {
    /// `http://127.0.0.1:PORT`: the server's origin.
    package var url: String
    /// The channel token the server requires.
    package var token: String
    /// Things worth telling the user once (items of the export that could not be read).
    package var warnings: [String]
    /// Stops the server (called once, when the connection goes).
    package var stop: @Sendable () -> Void

    /// A served export at `url` requiring `token`, with `warnings`, stopped by `stop`.
    package init(url: String, token: String, warnings: [String] = [], stop: @escaping @Sendable () -> Void) {
        self.url = url
        self.token = token
        self.warnings = warnings
        self.stop = stop
    }
}
