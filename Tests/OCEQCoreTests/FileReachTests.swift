import Foundation
import Testing

@testable import OCEQCore

@Suite("FileSystem.reaches agrees with realpath's containment check")
struct FileReachTests {
    @Test("files, folders, links in and out, dangling links and missing paths")
    func agreesWithResolves() throws {
        let base = FileManager.default.temporaryDirectory.path + "/oceq-reach-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: base) }
        let manager = FileManager.default
        try manager.createDirectory(atPath: base + "/root/sub", withIntermediateDirectories: true)
        try manager.createDirectory(atPath: base + "/outside", withIntermediateDirectories: true)
        try Data("in".utf8).write(to: URL(fileURLWithPath: base + "/root/sub/file.jpg"))
        try Data("out".utf8).write(to: URL(fileURLWithPath: base + "/outside/secret.jpg"))
        try manager.createSymbolicLink(atPath: base + "/root/in-relative", withDestinationPath: "sub/file.jpg")
        try manager.createSymbolicLink(atPath: base + "/root/in-absolute", withDestinationPath: base + "/root/sub")
        try manager.createSymbolicLink(atPath: base + "/root/out", withDestinationPath: base + "/outside/secret.jpg")
        try manager.createSymbolicLink(atPath: base + "/root/out-folder", withDestinationPath: base + "/outside")
        try manager.createSymbolicLink(atPath: base + "/root/dangling", withDestinationPath: base + "/root/none")
        // A sibling whose name starts with the root's: inside only by a careless prefix test.
        try manager.createDirectory(atPath: base + "/root-sibling", withIntermediateDirectories: true)
        try Data("x".utf8).write(to: URL(fileURLWithPath: base + "/root-sibling/x.jpg"))
        try manager.createSymbolicLink(atPath: base + "/root/sibling", withDestinationPath: "../root-sibling/x.jpg")
        let root = try #require(FileSystem.realPath(base + "/root"))

        let expected: [(String, Bool)] = [
            ("sub/file.jpg", true), ("sub", true), ("", true), ("in-relative", true), ("in-absolute/file.jpg", true),
            ("sub/../sub/file.jpg", true), ("out", false), ("out-folder/secret.jpg", false), ("dangling", false),
            ("missing.jpg", false), ("sibling", false), ("../outside/secret.jpg", false),
        ]
        for (relative, inside) in expected {
            let path = base + "/root/" + relative
            #expect(FileSystem.reaches(path, inside: root) == inside, "\(relative)")
            #expect(FileSystem.resolves(path, inside: root) == inside, "\(relative)")
        }
    }
}
