// The asset commands through the built `oceq` (`$OCEQ_BINARY`, else `.build/debug/oceq`), run in
// the repository's root so that credentials.json names the sample channel: the executable lists
// the module, and errors reach stderr with exit code 1.

import Foundation
import OCEQTestSupport
import Testing

@Suite("The asset commands in the built oceq binary", .serialized)
struct BinaryTests {
    static var executable: URL { OceqBinary.executable }

    /// Runs oceq with `arguments` (stdin empty); exit code, stdout and stderr.
    static func run(_ arguments: [String]) async throws -> (code: Int32, stdout: String, stderr: String) {
        try await OceqBinary.run(arguments)
    }

    @Test("show and types run in the binary")
    func showAndTypes() async throws {
        try #require(FileManager.default.isExecutableFile(atPath: BinaryTests.executable.path), "build oceq first")
        let result = try await BinaryTests.run(["-c", "show slug:spiced-maple-latte", "-c", "types"])
        #expect(result.code == 0, "\(result.stderr)")
        #expect(result.stdout.contains("\nfields (alphabetical)\n"))
        #expect(result.stdout.contains("(5 types, 146 items)"))
    }

    @Test("an unknown id is one error on stderr and exit code 1")
    func unknownID() async throws {
        try #require(FileManager.default.isExecutableFile(atPath: BinaryTests.executable.path), "build oceq first")
        let result = try await BinaryTests.run(["-c", "fields CORE00000000000000000000000000000000"])
        #expect(result.code == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("error: no item CORE00000000000000000000000000000000 in this channel"))
    }
}

@Suite("Images in the built oceq binary", .serialized)
struct ImageBinaryTests {
    @Test("piped output draws nothing, even with --images forced; a bad mode is a usage error")
    func piped() async throws {
        try #require(FileManager.default.isExecutableFile(atPath: BinaryTests.executable.path), "build oceq first")
        let result = try await BinaryTests.run([
            "--images", "symbols", "-c", "preview slug:image-cafe-lights-wide-18", "-c", "read \"The Cortado Guide\"",
        ])
        #expect(result.code == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("cafe-lights-wide-18.jpg: not drawn: output is not a terminal\n"))
        #expect(!result.stdout.contains("\u{1B}"))
        let bad = try await BinaryTests.run(["--images", "png", "-c", "count"])
        #expect(bad.code == 2)
        #expect(bad.stderr.hasPrefix("oceq: --images takes auto, never, symbols, sixel, kitty or iterm, not 'png'"))
    }
}
