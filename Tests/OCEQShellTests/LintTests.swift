import Foundation
import OCEQLanguage
import OCEQTestSupport
import Testing

@testable import OCEQShell

@Suite("oceq lint")
struct LintTests {
    @Test("the good fixtures and Scripts/ pass with no output")
    func good() async throws {
        let result = try await OceqBinary.run(["lint", "Tests/LintFixtures/good", "Scripts"])
        #expect(result.code == 0, "\(result.stdout)")
        #expect(result.stdout == "")
        #expect(result.stderr.hasPrefix("oceq lint: "))
        #expect(result.stderr.hasSuffix(", 0 errors, 0 warnings\n"))
    }

    @Test("the bad fixtures fail with exactly the pinned diagnostics")
    func bad() async throws {
        let result = try await OceqBinary.run(["lint", "Tests/LintFixtures/bad"])
        #expect(result.code == 1)
        expectGolden(result.stdout, named: "lint-bad.txt")
        #expect(result.stderr.hasPrefix("oceq lint: 5 files, "))
    }

    @Test("a file that cannot be read is an error at 1:1; no paths is a usage error")
    func unreadable() async throws {
        let missing = try await OceqBinary.run(["lint", "Tests/LintFixtures/none.oceq"])
        #expect(missing.code == 1)
        #expect(missing.stdout == "Tests/LintFixtures/none.oceq:1:1: error: cannot read: no such file or directory\n")
        let none = try await OceqBinary.run(["lint"])
        #expect(none.code == 2)
        #expect(none.stderr.hasPrefix("usage: oceq lint"))
    }

    @Test("in code: module commands are known, top-level variables are warned about until a source")
    func linterInCode() {
        let linter = Linter(registry: .standard)
        let checked = linter.check("echo $a\nlet a = 1\necho $a\nsource x.oceq\necho $b\nhome\n")
        #expect(checked.diagnostics.map(\.message) == [.variableNotSet("a"), .unknownCommand("home", suggestion: nil)])
        #expect(checked.diagnostics.first?.severity == .warning)
    }

    @Test("in code: a command that reaches itself through others is a warning with the chain")
    func recursionWarning() {
        let checked = Linter(registry: .standard).check(
            "define a()\n  b\nend\ndefine b()\n  a\nend\ndefine c()\n  a\nend\n")
        #expect(
            checked.diagnostics.map(\.text) == [
                "'a' calls itself (a -> b -> a); every call would fail at the depth limit",
                "'b' calls itself (b -> a -> b); every call would fail at the depth limit",
            ])
    }

    @Test("--plugin makes a plugin's commands known to the files checked; a broken plugin is an error")
    func plugins() async throws {
        let folder = try PluginFolder([
            "p.oceq": "define hi(who)\n  echo hi $who\nend\n", "s.oceq": "hi you\nhi\n", "bad.oceq": "define x(\n",
        ])
        defer { folder.remove() }
        let without = try await OceqBinary.run(["lint", folder.path("s.oceq")])
        #expect(without.code == 1)
        #expect(without.stdout.contains("s.oceq:1:1: error: unknown command 'hi'"))
        let with = try await OceqBinary.run(["lint", "--plugin", folder.path("p.oceq"), folder.path("s.oceq")])
        #expect(with.code == 1)
        #expect(
            with.stdout.hasPrefix("\(folder.path("s.oceq")):2:3: error: 'hi' needs a value for 'who' (usage: hi who)\n")
        )
        let broken = try await OceqBinary.run([
            "lint", "--plugin", folder.path("bad.oceq"), "--", folder.path("p.oceq"),
        ])
        #expect(broken.code == 1)
        #expect(broken.stdout.hasPrefix("\(folder.path("bad.oceq")):1:1: error: 'define x' has no 'end'\n"))
        #expect(broken.stderr.hasSuffix("1 file, 1 error, 0 warnings\n"))
    }
}
