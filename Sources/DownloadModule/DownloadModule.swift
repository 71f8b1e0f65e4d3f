import OCEQShell

/// Downloads (issue 7, point 3): `download`.
package enum DownloadModule {
    /// The module value the executable lists.
    package static let module = Module(name: "download", commands: [DownloadCommand.self])
}
