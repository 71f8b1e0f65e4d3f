import ChannelServer
import DeliveryKit
import Foundation
import OCEQCore
import OCEQTestSupport
import Testing

/// Paths and helpers shared by the export tests.
enum ExportFixtures {
    /// `Tests/ChannelServerTests/Fixtures` as copied into the test bundle.
    static var root: String {
        Bundle.module.url(forResource: "Fixtures", withExtension: nil)!.path
    }

    static var exports: String { root + "/exports" }
    static var blog2021Zip: String { exports + "/BlogTemplate-2021-export.zip" }
    static var genA: String { exports + "/gen-a-2018" }
    static var genB: String { exports + "/gen-b-2019" }
    static var genD: String { exports + "/gen-d-2023" }
    static var siteTemplateZip: String { exports + "/site-template.zip" }
    static var hostileZip: String { exports + "/hostile.zip" }
    static var images: String { root + "/images" }

    /// A real Delivery response from `Fixtures/ocm/`.
    static func ocm(_ name: String) throws -> JSON {
        try JSON.parse(Array(try Data(contentsOf: URL(fileURLWithPath: root + "/ocm/" + name))))
    }

    static let context = LinkContext(baseURL: "http://127.0.0.1:8411/", channelToken: "tok en/42")
    static let encodedToken = "tok%20en%2F42"
}

/// A fresh folder under the system temporary folder, removed by `remove()`.
struct TemporaryFolder {
    let path: String

    init(_ label: String = "oceq-export-test") throws {
        path = TestTemporary.make(label)
    }

    /// Writes `text` to `relative` (parents created).
    @discardableResult
    func write(_ relative: String, _ text: String) throws -> String {
        try write(relative, Data(text.utf8))
    }

    /// Writes `data` to `relative` (parents created).
    @discardableResult
    func write(_ relative: String, _ data: Data) throws -> String {
        let full = path + "/" + relative
        try FileManager.default.createDirectory(
            atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try data.write(to: URL(fileURLWithPath: full))
        return full
    }

    /// Every file below the folder, relative, sorted.
    func files() -> [String] {
        let enumerator = FileManager.default.enumerator(atPath: path)
        var out: [String] = []
        while let next = enumerator?.nextObject() as? String { out.append(next) }
        return out.sorted()
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}

/// Loads `paths` with a private cache folder.
func loadExport(_ paths: [String], strict: Bool = false, cache: TemporaryFolder) throws -> ChannelContent {
    try ExportLoader(options: ExportLoadOptions(strict: strict, cacheDirectory: cache.path)).load(paths: paths)
}

extension JSON {
    /// The keys of an object (empty for other values).
    var keySet: Set<String> { Set(objectValue.map { Array($0.keys) } ?? []) }

    /// The value at a dotted path of object keys and array indexes (`fields.renditions.0.name`).
    func at(_ path: String) -> JSON? {
        var current: JSON? = self
        for part in path.split(separator: ".") {
            if let index = Int(part), case .array = current {
                current = current?[index]
            } else {
                current = current?[String(part)]
            }
        }
        return current
    }
}

/// Writes a minimal content folder with the given item files (name → JSON text) for bad-input tests.
func writeExport(in folder: TemporaryFolder, items: [String: String], types: [String: String] = [:]) throws -> String {
    let root = folder.path + "/contentexport"
    try folder.write("contentexport/metadata.json", #"{"export-version":"1.1","groups":1,"group0":[]}"#)
    for (name, text) in items { try folder.write("contentexport/ContentItems/" + name, text) }
    for (name, text) in types { try folder.write("contentexport/ContentTypes/" + name, text) }
    return root
}
