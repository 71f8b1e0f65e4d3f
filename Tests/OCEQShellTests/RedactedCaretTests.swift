// An error's source line is echoed with the session's secrets replaced by REDACTED; the caret
// under it must point at the same place in that redacted line, not at the raw column.

import Testing

@testable import OCEQShell

@MainActor
@Suite("Carets under a redacted source line")
struct RedactedCaretTests {
    /// The token of `offlineConnection`.
    nonisolated static let token = "s3cr3t-token"

    /// The echoed source line and the caret line under it, without their gutters.
    static func excerpt(_ errors: String) throws -> (line: String, marker: String) {
        let lines = errors.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let index = try #require(lines.firstIndex { $0.hasPrefix("1 | ") }, "\(errors)")
        try #require(index + 1 < lines.count, "\(errors)")
        return (String(lines[index].dropFirst(4)), String(lines[index + 1].dropFirst(4)))
    }

    /// The text above the `^~~` of `marker` in `line`.
    static func marked(_ excerpt: (line: String, marker: String)) -> String {
        let line = Array(excerpt.line)
        let marker = Array(excerpt.marker)
        let start = marker.firstIndex(of: "^") ?? marker.count
        let end = marker.lastIndex { $0 == "^" || $0 == "~" }.map { $0 + 1 } ?? start
        return String(line[min(start, line.count)..<min(end, line.count)])
    }

    @Test(
        "the caret follows the redacted line",
        arguments: [
            // A diagnostic from the compiler (an unknown variable after the token).
            ("echo \(token) $missing", "$missing"),
            // A usage error with a span (ErrorPresenter's own caret).
            ("echo \(token) (count)", "(count)"),
            // A span on the secret itself points at its placeholder, whole.
            ("quit \(token)", "REDACTED"),
            // Two secrets before the error.
            ("echo \(token) and \(token) $missing", "$missing"),
        ])
    func follows(statement: String, expected: String) async throws {
        let result = await runScript(statement, connection: offlineConnection)
        #expect(result.code == 1)
        #expect(!result.errors.contains(Self.token))
        let excerpt = try Self.excerpt(result.errors)
        #expect(excerpt.line.contains("REDACTED"), "\(result.errors)")
        #expect(Self.marked(excerpt) == expected, "\(result.errors)")
    }

    @Test("a syntax error after a secret: the caret under the redacted line, the header keeps the file's column")
    func syntaxError() async throws {
        let statement = "list name=\"\(Self.token)\" type==X"
        let result = await runScript(statement, connection: offlineConnection)
        #expect(result.code == 2)
        #expect(!result.errors.contains(Self.token))
        let column = statement.distance(from: statement.startIndex, to: statement.firstRange(of: "==")!.lowerBound) + 1
        #expect(result.errors.hasPrefix("test.oceq:1:\(column): error: "), "\(result.errors)")
        let excerpt = try Self.excerpt(result.errors)
        #expect(excerpt.line == "list name=\"REDACTED\" type==X", "\(result.errors)")
        #expect(Self.marked(excerpt) == "==", "\(result.errors)")
    }
}
