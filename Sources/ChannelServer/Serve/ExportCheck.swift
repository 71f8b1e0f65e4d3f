import OCEQCore

/// The check of every export file's size and times that a restart from the cache leaves for after
/// the server has started (`ExportStamp`'s full stamp against the one the index was built with).
public struct ExportCheck: Sendable {
    let roots: [String]
    let salt: [String]
    /// The full stamp taken when the index was built.
    let expected: String
    /// The record of the listing stamp that led to the index, removed when the check fails.
    let stampFile: String

    /// True when the export is as it was when its index was built. Otherwise the record is
    /// removed, so the next start reads the export again, and false is returned (slow: one stat
    /// per file; run it off the request threads).
    public func run() -> Bool {
        guard let full = ExportStamp.compute(roots: roots, salt: salt, depth: .full), full == expected else {
            FileSystem.remove(stampFile)
            return false
        }
        return true
    }
}
