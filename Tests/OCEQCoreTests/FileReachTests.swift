import Foundation
import OCEQTestSupport
import Testing

@testable import OCEQCore

@Suite("FileSystem.reaches agrees with realpath's containment check")
struct FileReachTests {
    @Test("files, folders, links in and out, dangling links and missing paths")
    func agreesWithResolves() throws {
        let farm = try LinkFarm()
        defer { farm.remove() }
        for (relative, inside) in LinkFarm.cases {
            let path = farm.root + "/" + relative
            #expect(FileSystem.reaches(path, inside: farm.root) == inside, "\(relative)")
            #expect(FileSystem.resolves(path, inside: farm.root) == inside, "\(relative)")
        }
    }
}
