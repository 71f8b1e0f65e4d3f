import Foundation
import Testing

@testable import OCEQShell

@Suite("The process environment read on bytes")
struct ProcessEnvironmentTests {
    @Test("it holds what Foundation's ProcessInfo reads, names and values alike")
    func sameAsFoundation() {
        // Compared with this process's environment as it stands (setenv here would race with the tests
        // that read it on other threads); it holds HOME and PATH at least.
        let read = ProcessEnvironment.current()
        #expect(read == ProcessInfo.processInfo.environment)
        #expect(read["HOME"] != nil)
        #expect(read["PATH"] != nil)
    }
}
