import CArguments
import Testing

/// `CArguments`: the arguments the executable's `CommandLine.arguments` comes from, captured by an
/// initialiser before `main`. In this test process the runtime's own `CommandLine` (the shared library's)
/// reads them its way, so the two must agree.
@Suite("The arguments captured before main")
struct CapturedArgumentsTests {
    @Test("are the process's own, every one, in order")
    func sameAsCommandLine() {
        let count = Int(oceq_captured_argument_count())
        #expect(count == CommandLine.arguments.count)
        let captured = (0..<max(count, 0)).map { oceq_captured_argument(Int32($0)).map { String(cString: $0) } }
        #expect(captured == CommandLine.arguments.map(Optional.some))
        #expect(oceq_captured_argument(Int32(count)) == nil)
        #expect(oceq_captured_argument(-1) == nil)
    }
}
