import OCEQShell

/// Downloads (issue 7, point 3): `download`.
public enum DownloadModule {
    /// The module value the executable lists.
    public static let module = Module(name: "download", commands: [DownloadCommand.self])
}
