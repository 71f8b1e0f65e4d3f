import Foundation
import Testing

@Suite("The oceq binary runs the blog commands")
struct BlogEndToEndTests {
    /// `$OCEQ_BINARY`, else `oceq` beside the test bundle, else `.build/debug/oceq`.
    static var executable: URL {
        if let path = ProcessInfo.processInfo.environment["OCEQ_BINARY"] { return URL(fileURLWithPath: path) }
        let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("oceq")
        if FileManager.default.isExecutableFile(atPath: beside.path) { return beside }
        return repositoryRoot.appendingPathComponent(".build/debug/oceq")
    }

    @Test("oceq -c home -c 'articles @2' -c 'read @1' in the repository opens the sample and chains")
    func chain() throws {
        let process = Process()
        process.executableURL = BlogEndToEndTests.executable
        process.arguments = ["-c", "home", "-c", "articles @2", "-c", "read @1", "-c", "help"]
        process.currentDirectoryURL = repositoryRoot
        var environment = ProcessInfo.processInfo.environment
        for key in ["OCEQ_URL", "OCEQ_CHANNEL_TOKEN", "OCEQ_BEARER", "COLUMNS"] { environment.removeValue(forKey: key) }
        process.environment = environment
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let stdout = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(stdout.hasPrefix("Café Supremo\n"))
        #expect(stdout.contains("Espresso & Milk: 10 articles, newest first\n"))
        #expect(stdout.contains("Réussir son cappuccino à la maison\nby Priya Natarajan\nPosted on Nov 29, 2025\n"))
        #expect(stdout.contains("blog commands:\n"))
    }
}
