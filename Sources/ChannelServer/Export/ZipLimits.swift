/// What an export zip may expand to. Checked while extracting: the first entry past a limit stops
/// the extraction, and its partial folder is removed.
public struct ZipLimits: Sendable, Equatable {
    /// Bytes all entries may expand to together (default 8 GiB).
    public var maximumExpandedBytes: Int64 = 8 << 30
    /// Entries (files and folders) in the zip (default 100 000).
    public var maximumEntries = 100_000
    /// Expanded bytes per compressed byte read so far (default 200; JSON compresses about 10:1,
    /// images about 1:1, a file of zeros about 1000:1). Not checked before 1 MiB has been expanded.
    public var maximumRatio = 200

    /// The defaults.
    public init() {}
}
