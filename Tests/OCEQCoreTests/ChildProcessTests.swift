// The tests' own process runner (OCEQTestSupport's ChildProcess), checked here, in the test target
// that builds first: every end-to-end test starts `oceq` or python through it.

import Foundation
import OCEQTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite("The tests' process runner")
struct ChildProcessTests {
    static let shell = "/bin/sh"

    @Test("an exit status, and a death by signal, are told apart")
    func termination() async throws {
        let three = try await ChildProcess.run(Self.shell, ["-c", "exit 3"])
        #expect(three.termination == .exit(3))
        #expect(three.code == 3)
        let killed = try await ChildProcess.run(Self.shell, ["-c", "kill -TERM $$"])
        #expect(killed.termination == .signal(SIGTERM))
        #expect(killed.code == 128 + SIGTERM)
    }

    @Test("kill, interrupt and isRunning on a running child, which starts with no signal blocked")
    func signals() async throws {
        let sleeper = try ChildProcess("/bin/sleep", ["60"], stdin: .null)
        #expect(sleeper.isRunning)
        sleeper.kill(SIGKILL)
        #expect(await sleeper.wait() == .signal(SIGKILL))
        #expect(!sleeper.isRunning)
        #expect(await sleeper.wait() == .signal(SIGKILL), "a second wait answers the same")
        // Even when the starting thread blocks SIGINT, the child starts with no signal blocked.
        var interrupt = sigset_t()
        sigemptyset(&interrupt)
        sigaddset(&interrupt, SIGINT)
        var previous = sigset_t()
        pthread_sigmask(SIG_BLOCK, &interrupt, &previous)
        let started = Result { try ChildProcess("/bin/sleep", ["60"], stdin: .null) }
        pthread_sigmask(SIG_SETMASK, &previous, nil)
        let interrupted = try started.get()
        interrupted.interrupt()
        #expect(await interrupted.wait() == .signal(SIGINT))
    }

    @Test("a child past its time limit is killed, with the programs it started when it has a group of its own")
    func timeLimit() async throws {
        let sleeper = try ChildProcess("/bin/sleep", ["60"], stdin: .null, timeLimit: 0.3)
        #expect(await sleeper.wait() == .signal(SIGKILL))
        // The shell's background sleep holds the pipes: the output ends only if it is killed too.
        let shell = try ChildProcess(
            Self.shell, ["-c", "sleep 60 & echo started; wait"], stdin: .null, stdout: .pipe, stderr: .pipe,
            newProcessGroup: true, timeLimit: 0.5)
        let finished = await shell.finish()
        #expect(finished.termination == .signal(SIGKILL))
        #expect(finished.stdoutText == "started\n")
        let quick = try ChildProcess(Self.shell, ["-c", "exit 4"], stdin: .null, timeLimit: 0.2)
        #expect(await quick.wait() == .exit(4))
        try await Task.sleep(for: .milliseconds(400))
        #expect(await quick.wait() == .exit(4), "a child that ended in time keeps its own end")
    }

    @Test("waiting with a bound answers nil while the child runs, then how it ended")
    func boundedWait() async throws {
        let sleeper = try ChildProcess("/bin/sleep", ["60"], stdin: .null)
        #expect(await sleeper.wait(seconds: 0.1) == nil)
        sleeper.terminate()
        #expect(await sleeper.wait(seconds: 30) == .signal(SIGTERM))
    }

    @Test("stdout and stderr, each larger than a pipe buffer, are both read to the end")
    func largeOutputs() async throws {
        // stderr first: a runner that read stdout to its end before stderr would wait forever.
        let script = "yes e | head -c 1000000 >&2; yes o | head -c 1500000; yes e | head -c 1000000 >&2"
        let result = try await ChildProcess.run(Self.shell, ["-c", script])
        #expect(result.code == 0)
        #expect(result.stdout.count == 1_500_000)
        #expect(result.stderr.count == 2_000_000)
        #expect(Set(result.stdout) == [UInt8(ascii: "o"), 10])
        #expect(Set(result.stderr) == [UInt8(ascii: "e"), 10])
    }

    @Test("a large stdin is written while the output is read")
    func largeInput() async throws {
        let input = (0..<1_200_000).map { UInt8(truncatingIfNeeded: $0 % 251) }
        let result = try await ChildProcess.run(Self.shell, ["-c", "cat; echo done >&2"], input: input)
        #expect(result.code == 0)
        #expect(result.stdout == input)
        #expect(result.stderrText == "done\n")
        // A child that reads none of its input and exits: the write fails quietly.
        let early = try await ChildProcess.run(Self.shell, ["-c", "exit 0"], input: input)
        #expect(early.code == 0)
    }

    @Test("exactly the environment given, in the folder given")
    func environmentAndDirectory() async throws {
        let folder = TestTemporary.make("oceq-child")
        defer { TestTemporary.remove(folder) }
        let env = try await ChildProcess.run("/usr/bin/env", environment: ["GREETING": "hello world", "EMPTY": ""])
        #expect(Set(env.stdoutText.split(separator: "\n")) == ["GREETING=hello world", "EMPTY="])
        let pwd = try await ChildProcess.run("/bin/pwd", directory: folder)
        let resolved = URL(fileURLWithPath: folder).resolvingSymlinksInPath().path
        #expect(pwd.stdoutText == resolved + "\n" || pwd.stdoutText == folder + "\n", "\(pwd.stdoutText)")
    }

    @Test("no descriptor of the test process but stdin, stdout and stderr reaches the child")
    func descriptors() async throws {
        // A descriptor without close-on-exec, as a C library might leave one.
        let leaky = open("/dev/null", O_RDONLY)
        #expect(leaky > 2)
        defer { close(leaky) }
        let result = try await ChildProcess.run("/bin/ls", ["/proc/self/fd"])
        #expect(result.code == 0, "\(result.stderrText)")
        let open = Set(result.stdoutText.split(separator: "\n").map(String.init))
        // ls's own listing of /proc/self/fd is the lowest free descriptor, 3.
        #expect(open == ["0", "1", "2", "3"], "\(open.sorted())")
    }

    @Test("lines of stdout as they come, stderr merged into stdout, files and /dev/null")
    func streams() async throws {
        let lines = try ChildProcess(Self.shell, ["-c", "printf 'one\\ntwo\\nthree'"], stdout: .pipe)
        await #expect(lines.readLine() == "one")
        await #expect(lines.readLine() == "two")
        await #expect(lines.readLine() == "three")
        await #expect(lines.readLine() == nil)
        await #expect(lines.finish().stdoutText == "one\ntwo\nthree", "readLine leaves the output whole")

        let merged = try ChildProcess(Self.shell, ["-c", "echo out; echo err >&2"], stdout: .pipe, stderr: .stdout)
        let both = await merged.finish()
        #expect(both.stdoutText == "out\nerr\n")
        #expect(both.stderr.isEmpty)

        let folder = TestTemporary.make("oceq-child")
        defer { TestTemporary.remove(folder) }
        try Data("from a file\n".utf8).write(to: URL(fileURLWithPath: folder + "/in"))
        let copied = try ChildProcess(
            "/bin/cat", stdin: .file(folder + "/in"), stdout: .file(folder + "/out"), stderr: .null)
        await #expect(copied.wait() == .exit(0))
        #expect(try String(contentsOfFile: folder + "/out", encoding: .utf8) == "from a file\n")
        let nothing = try await ChildProcess("/bin/cat", stdin: .null, stdout: .pipe).finish()
        #expect(nothing.stdout.isEmpty && nothing.code == 0)
    }

    @Test("a kept stdin pipe is open until closeInput")
    func keptInput() async throws {
        let cat = try ChildProcess("/bin/cat", stdin: .pipe, stdout: .pipe)
        #expect(cat.isRunning)
        cat.closeInput()
        #expect(await cat.finish().termination == .exit(0))
    }

    @Test("a new process group on request, else the test process's own")
    func processGroup() throws {
        func group(of pid: pid_t) throws -> pid_t {
            let stat = try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
            // pid (comm) state ppid pgrp ...: the fields after the last ')'.
            let fields = stat[stat.range(of: ")", options: .backwards)!.upperBound...].split(separator: " ")
            return pid_t(fields[2])!
        }
        let own = try ChildProcess("/bin/sleep", ["60"], stdin: .null, newProcessGroup: true)
        defer {
            own.kill(SIGKILL)
            own.reap()
        }
        let shared = try ChildProcess("/bin/sleep", ["60"], stdin: .null)
        defer {
            shared.kill(SIGKILL)
            shared.reap()
        }
        #expect(try group(of: own.pid) == own.pid)
        #expect(try group(of: shared.pid) == getpgrp())
    }

    @Test("a program that is not there is an error, not a crash")
    func missing() {
        #expect(throws: ChildProcess.StartError.self) { try ChildProcess("/nonexistent/program") }
        #expect(throws: ChildProcess.StartError.self) {
            try ChildProcess("/bin/true", directory: "/nonexistent/folder")
        }
    }
}
