import Foundation
import OCEQCore
import OCEQShell
import Testing

/// The calling thread, as a number.
private func threadID() -> UInt {
    UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(bitPattern: UInt(pthread_self()))))
}

/// A reader that hands out lines and notes the thread each call ran on.
private final class ThreadNotingReader: LineReader, Sendable {
    private struct State {
        var lines: [String]
        var threads: Set<UInt> = []
        var history: [String] = []
    }
    private let state: Locked<State>

    init(_ lines: [String]) { state = Locked(State(lines: lines)) }

    var threads: Set<UInt> { state.withLock { $0.threads } }
    var history: [String] { state.withLock { $0.history } }

    func readLine(prompt: String) -> LineReadResult {
        let name = threadID()
        return state.withLock { state in
            state.threads.insert(name)
            return state.lines.isEmpty ? .end : .line(state.lines.removeFirst())
        }
    }

    func addHistory(_ entry: String) {
        let name = threadID()
        state.withLock {
            $0.threads.insert(name)
            $0.history.append(entry)
        }
    }
}

@Suite("Lines read on a thread of their own")
struct LineInputTests {
    @Test("lines come in order from the reader's own thread (not the main one), and history in order with them")
    @MainActor
    func order() async {
        let reader = ThreadNotingReader(["one", "two"])
        let input = LineInput(reader: reader)
        #expect(await input.readLine(prompt: "> ") == .line("one"))
        await input.addHistory("one")
        #expect(await input.readLine(prompt: "> ") == .line("two"))
        #expect(await input.readLine(prompt: "> ") == .end)
        #expect(reader.threads.count == 1, "every call on one thread")
        #expect(!reader.threads.contains(threadID()), "not on the main actor's thread, which awaits")
        let other = ThreadNotingReader([])
        #expect(await LineInput(reader: other).readLine(prompt: "> ") == .end)
        #expect(other.threads.isDisjoint(with: reader.threads), "a thread of its own for each input")
        #expect(reader.history == ["one"])
    }

    @Test("a plain reader over a pipe: each line, a last one without a newline, then the end")
    func plain() async throws {
        var fds: [Int32] = [-1, -1]
        try #require(pipe(&fds) == 0)
        let text = Array("a\nb\r\nc".utf8)
        #expect(write(fds[1], text, text.count) == text.count)
        close(fds[1])
        defer { close(fds[0]) }
        let input = LineInput(reader: PlainLineReader(descriptor: fds[0], promptSink: MemoryOutput()))
        var read: [LineReadResult] = []
        for _ in 0..<4 { read.append(await input.readLine(prompt: "> ")) }
        #expect(read == [.line("a"), .line("b"), .line("c"), .end])
    }
}
