import Foundation
import OCEQCore
import OCEQTestSupport
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
        let farm = try LinkFarm()
        defer { farm.remove() }
        for (relative, inside) in LinkFarm.cases {
            let path = farm.root + "/" + relative
            #expect(NativeContainment.holds(path, root: farm.root) == inside, "\(relative)")
            #expect(NativeContainment.holds(path, root: farm.root) == FileSystem.resolves(path, inside: farm.root))
        }
    }
}
