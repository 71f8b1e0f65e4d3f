// Core's one place for XDG paths: the spec's fallbacks, and never a path from an empty HOME.

import Glibc
import OCEQCore
import OCEQShell
import Testing

@Suite("XDG paths")
struct XDGPathsTests {
    @Test("XDG_*_HOME wins when absolute; HOME's defaults otherwise")
    func fallbacks() {
        let both = XDGPaths(
            environment: [
                "HOME": "/h", "XDG_CONFIG_HOME": "/c/", "XDG_STATE_HOME": "/s", "XDG_CACHE_HOME": "/k",
            ])
        #expect(both.profilesFile == "/c/oceq/profiles.json")
        #expect(both.credentialsFile == "/c/oceq/credentials.json")
        #expect(both.pluginsFolder == "/c/oceq/plugins")
        #expect(both.historyFile == "/s/oceq/history")
        #expect(both.cacheFolder == "/k/oceq")
        let home = XDGPaths(environment: ["HOME": "/h", "XDG_CONFIG_HOME": "relative", "XDG_STATE_HOME": ""])
        #expect(home.profilesFile == "/h/.config/oceq/profiles.json")
        #expect(home.historyFile == "/h/.local/state/oceq/history")
        #expect(home.cacheFolder == "/h/.cache/oceq")
    }

    @Test(
        "an unset, empty or relative HOME gives no path, never one under /",
        arguments: [[:], ["HOME": ""], ["HOME": "h"]])
    func noHome(environment: [String: String]) {
        let paths = XDGPaths(environment: environment)
        #expect(paths.profilesFile == nil)
        #expect(paths.credentialsFile == nil)
        #expect(paths.pluginsFolder == nil)
        #expect(paths.historyFile == nil)
        #expect(paths.cacheFolder == nil)
        #expect(paths.cacheFolderOrTemporary.hasSuffix("/oceq-\(getuid())"))
    }

    @Test("~ and ~/ stand for the home folder; ~user and a ~ inside a path stay as typed")
    func tilde() {
        #expect(XDGPaths.expandingTilde("~", home: "/h") == "/h")
        #expect(XDGPaths.expandingTilde("~/", home: "/h") == "/h")
        #expect(XDGPaths.expandingTilde("~/a/b", home: "/h/") == "/h/a/b")
        #expect(XDGPaths.expandingTilde("~/a", home: "/") == "/a")
        #expect(XDGPaths.expandingTilde("~user/a", home: "/h") == "~user/a")
        #expect(XDGPaths.expandingTilde("a/~/b", home: "/h") == "a/~/b")
        #expect(XDGPaths.expandingTilde("rel", home: "/h") == "rel")
    }

    @Test("a typed path is made absolute under the folder given, standardized, with ~ expanded")
    func resolve() {
        #expect(XDGPaths.resolve("x.oceq", in: "/s", home: "/h") == "/s/x.oceq")
        #expect(XDGPaths.resolve("../x/./y", in: "/s/t", home: "/h") == "/s/x/y")
        #expect(XDGPaths.resolve("/a//b/../c/", in: "/s", home: "/h") == "/a/c")
        #expect(XDGPaths.resolve("~", in: "/s", home: "/h") == "/h")
        #expect(XDGPaths.resolve("~/m/../n", in: "/s", home: "/h") == "/h/n")
        #expect(XDGPaths.resolve("~x", in: "/s", home: "/h") == "/s/~x")
        #expect(XDGPaths.resolve("a", in: ".", home: "/h") == "a")
        #expect(XDGPaths.resolve("", in: "/s", home: "/h") == "/s")
    }

    @Test("a profile without any config folder is a clear error, not /.config")
    func profileError() {
        #expect(Credentials.profilesFile(environment: ["HOME": ""]) == nil)
        do {
            _ = try Credentials.profile("work", environment: ["HOME": ""])
            Issue.record("a profile was found")
        } catch {
            #expect(error.description.contains("neither XDG_CONFIG_HOME nor HOME"), "\(error)")
            #expect(!error.description.contains("/.config"), "\(error)")
        }
    }
}
