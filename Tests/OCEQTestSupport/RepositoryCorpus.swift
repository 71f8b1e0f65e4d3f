// The JSON the repository holds, for tests that check a reader on every real document there is:
// test fixtures, the sample export, the fuzz corpus, and the recorded OCM answers of ../shared/fixtures
// when that folder is there.

import Foundation

/// The repository's corpus of JSON documents.
public enum RepositoryCorpus {
    /// The folders, relative to the repository's root.
    public static let folders = [
        "Tests/DeliveryKitTests/Fixtures", "Tests/ChannelServerTests/Fixtures/ocm", "Tests/Fuzz/Corpus", "Samples",
        "../shared/fixtures/ocm", "../shared/fixtures/ocm-recorded/responses",
    ]

    /// Every file below `folders` (paths relative to the repository's root, sorted) that `keeps`.
    public static func files(in folders: [String] = folders, keeping keeps: (String) -> Bool) -> [String] {
        let root = OceqBinary.repositoryRoot.path
        var files: [String] = []
        for folder in folders {
            let base = root + "/" + folder
            guard let walker = FileManager.default.enumerator(atPath: base) else { continue }
            for case let relative as String in walker where keeps(relative) {
                var isFolder: ObjCBool = false
                guard FileManager.default.fileExists(atPath: base + "/" + relative, isDirectory: &isFolder),
                    !isFolder.boolValue
                else { continue }
                files.append(folder + "/" + relative)
            }
        }
        return files.sorted()
    }

    /// The bytes of `file` (relative to the repository's root).
    public static func contents(_ file: String) -> [UInt8]? {
        FileManager.default.contents(atPath: OceqBinary.repositoryRoot.path + "/" + file).map { [UInt8]($0) }
    }
}
