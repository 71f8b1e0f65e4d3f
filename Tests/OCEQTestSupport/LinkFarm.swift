// A folder tree with symbolic links leading into and out of a root folder, for the tests of the
// containment checks (`FileSystem.reaches` and `resolves`, `NativeContainment`), which must all
// give realpath's verdict.

import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// `base/root` holds `sub/file.jpg` and links that lead inside it (`in-relative`, `in-absolute`),
/// out of it (`out`, `out-folder`, `sibling`, whose target's name starts with the root's) or
/// nowhere (`dangling`); `base/outside/secret.jpg` lies outside, and `base/root-link` links to the
/// root itself. `base` is a canonical path, so `root` is one too.
public struct LinkFarm: Sendable {
    /// The folder holding everything.
    public let base: String
    /// `base/root`, the folder the checks are about.
    public var root: String { base + "/root" }

    /// Paths relative to `root` and whether each lies inside it once its links are resolved.
    public static let cases: [(relative: String, inside: Bool)] = [
        ("sub/file.jpg", true), ("sub", true), ("", true), ("in-relative", true), ("in-absolute/file.jpg", true),
        ("sub/../sub/file.jpg", true), ("sub/./file.jpg", true), ("/sub/file.jpg", true),
        ("../root-link/sub/file.jpg", true), ("out", false), ("out-folder/secret.jpg", false), ("dangling", false),
        ("missing.jpg", false), ("sibling", false), ("../outside/secret.jpg", false),
        ("sub/../../outside/secret.jpg", false), ("../root-link/out", false),
    ]

    /// Makes the tree in a new folder under the temporary directory.
    public init() throws {
        let temporary = realpath(NSTemporaryDirectory(), nil).map { pointer in
            defer { free(pointer) }
            return String(cString: pointer)
        }
        base = (temporary ?? NSTemporaryDirectory()) + "/oceq-links-\(UUID().uuidString)"
        let manager = FileManager.default
        try manager.createDirectory(atPath: base + "/root/sub", withIntermediateDirectories: true)
        try manager.createDirectory(atPath: base + "/outside", withIntermediateDirectories: true)
        try manager.createDirectory(atPath: base + "/root-sibling", withIntermediateDirectories: true)
        try Data("in".utf8).write(to: URL(fileURLWithPath: base + "/root/sub/file.jpg"))
        try Data("out".utf8).write(to: URL(fileURLWithPath: base + "/outside/secret.jpg"))
        try Data("x".utf8).write(to: URL(fileURLWithPath: base + "/root-sibling/x.jpg"))
        let links = [
            ("root/in-relative", "sub/file.jpg"), ("root/in-absolute", base + "/root/sub"),
            ("root/out", base + "/outside/secret.jpg"), ("root/out-folder", base + "/outside"),
            ("root/dangling", base + "/root/none"), ("root/sibling", "../root-sibling/x.jpg"),
            ("root-link", base + "/root"),
        ]
        for (link, target) in links {
            try manager.createSymbolicLink(atPath: base + "/" + link, withDestinationPath: target)
        }
    }

    /// Removes the whole tree.
    public func remove() {
        try? FileManager.default.removeItem(atPath: base)
    }
}
