import Foundation
import OCEQShell
import Testing

/// Tab completion after `mirror`: a folder.
@MainActor
@Suite("Tab after mirror")
struct MirrorCompletionTests {
    @Test("mirror completes folders only")
    func folders() {
        let session = Session(
            registry: registry, connection: nil, output: MemoryOutput(), errors: MemoryOutput(),
            baseDirectory: repositoryRoot.path)
        let completer = Completer(source: SessionCompletionSource(session: session))
        func texts(_ line: String) -> [String] {
            completer.complete(line: line, cursor: line.count).candidates.map(\.text)
        }
        #expect(texts("mirror Sampl") == ["Samples/"])
        let all = texts("mirror ")
        #expect(all.contains("Tests/") && !all.contains("Package.swift"), "\(all)")
    }
}
