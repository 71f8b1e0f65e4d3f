import Foundation
import OCEQCore
import Testing

@testable import ChannelServer

@Suite("serve: a native file's containment, with and without links on its path")
struct NativeContainmentTests {
    @Test("paths in realpath's form are told from the others")
    func canonicalForm() {
        for path in ["/a", "/a/b.jpg", "/a/.hidden", "/a/...", "/a/b..", "/ä/ß.png"] {
            #expect(NativeContainment.isCanonical(path), "\(path)")
        }
        for path in ["", "/", "a/b", "/a//b", "/a/./b", "/a/../b", "/a/b/", "/a/.", "/a/..", "//a"] {
            #expect(!NativeContainment.isCanonical(path), "\(path)")
        }
    }

    @Test("agrees with realpath for plain paths, links in and out, odd forms and missing files")
    func agreesWithResolves() throws {
        let manager = FileManager.default
        let base = try #require(FileSystem.realPath(NSTemporaryDirectory())) + "/oceq-native-\(UUID().uuidString)"
        defer { try? manager.removeItem(atPath: base) }
        try manager.createDirectory(atPath: base + "/root/sub", withIntermediateDirectories: true)
        try manager.createDirectory(atPath: base + "/outside", withIntermediateDirectories: true)
        try Data("in".utf8).write(to: URL(fileURLWithPath: base + "/root/sub/file.jpg"))
        try Data("out".utf8).write(to: URL(fileURLWithPath: base + "/outside/secret.jpg"))
        try manager.createSymbolicLink(atPath: base + "/root/in", withDestinationPath: "sub/file.jpg")
        try manager.createSymbolicLink(atPath: base + "/root/out", withDestinationPath: base + "/outside/secret.jpg")
        try manager.createSymbolicLink(atPath: base + "/root/out-folder", withDestinationPath: base + "/outside")
        try manager.createSymbolicLink(atPath: base + "/root-link", withDestinationPath: base + "/root")
        let root = base + "/root"
        let cases = [
            root + "/sub/file.jpg", root + "/in", root + "/out", root + "/out-folder/secret.jpg",
            root + "/sub/../../outside/secret.jpg", root + "/sub/./file.jpg", root + "//sub/file.jpg",
            root + "/missing.jpg", base + "/outside/secret.jpg", base + "/root-link/sub/file.jpg",
            base + "/root-link/out",
        ]
        for path in cases {
            #expect(
                NativeContainment.holds(path, root: root) == FileSystem.resolves(path, inside: root), "\(path)")
        }
        #expect(NativeContainment.holds(root + "/sub/file.jpg", root: root))
        #expect(!NativeContainment.holds(root + "/out", root: root))
    }
}
