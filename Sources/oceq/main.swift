import AssetModule
import BlogModule
import CSystem
import DownloadModule
import Glibc
import MirrorModule
import OCEQApp
import OCEQShell

// The composition root, and a thin one: everything worth testing lives in the library targets. Here
// the pieces meet: the modules whose commands oceq offers, `oceq serve`'s command line, and the
// opener that serves a local export in-process (the shell knows neither the server nor a module).
let arguments = Array(CommandLine.arguments.dropFirst())
let version = "0.1.0"

// `--version` alone is answered here, before the modules are assembled and before `await` starts
// Swift's concurrency runtime and its threads: a version check should cost only the process itself.
// (Going through OceqCLI with the registry built lazily was tried: the async start alone took
// `--version` from about 2.0x to 2.7x `sqlite3 -version`.)
if arguments == ["--version"] || arguments == ["-V"] {
    print("oceq \(version)")
    exit(0)
}

// `serve` runs on the main thread before anything else starts: it blocks SIGINT/SIGTERM here so
// that every thread it starts inherits the mask and only its `sigwait` sees them.
if arguments.first == "serve" { exit(ServeCommand.run(Array(arguments.dropFirst()))) }
if arguments == ["help", "serve"] { exit(ServeCommand.run(["--help"])) }
if arguments == ["help", "lint"] { exit(await OceqCLI.run(["lint", "--help"], version: version)) }

// The client's heap keeps what it frees for reuse instead of giving it back and faulting it in again
// (`oceq_keep_freed_heap`); `serve`, above, keeps glibc's defaults.
oceq_keep_freed_heap()

// The executable's `.bss` made present now, while this is the only thread (`oceq_populate_static_zero_data`):
// the Swift runtime's caches there are first written as types and globals are first used, and each such
// page's first write, once the engine thread below runs on the other CPU, waited for an inter-processor TLB
// flush. About 30 of them a run; without them, in alternating runs: the one-shot `list` 0.95x-0.97x the time
// (200-300 rounds), a download of one rendition 0.965x (200), of 74 to tmpfs 0.969x (61). The `.bss` is 0.5 MiB.
_ = oceq_populate_static_zero_data()

// What connecting needs and takes a while (libcurl's set-up) starts now on a thread of its own, beside the
// work below; from here on the program leaves by `_exit`, whose caller has flushed what it wrote, never by
// `exit`, whose handlers (OpenSSL's clean-up) could run while that set-up is under way.
OceqCLI.prepareToConnect(arguments)

// The modules whose commands oceq offers, listed once; a name claimed twice stops the program.
let modules = [
    CoreModule.module, BlogModule.module, AssetModule.module, DownloadModule.module, MirrorModule.module,
]
let registry: CommandRegistry
do {
    registry = try CommandRegistry(modules: modules)
} catch {
    let code = ErrorPresenter.reportProgramFailure(error, program: "oceq", to: FileOutput.standardError())
    fflush(nil)
    _exit(code)
}
let code = await OceqCLI.run(arguments, version: version, registry: registry, localExports: InProcessServer())
// Everything is written and closed by now: flush what stdio still buffers and leave without exit's handlers,
// whose work (libcrypto freeing its tables, every library's destructors: 0.7 M instructions a run) the
// kernel's clean-up makes moot.
fflush(nil)
_exit(code)
