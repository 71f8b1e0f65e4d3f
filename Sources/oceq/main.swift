import AssetModule
import BlogModule
import ChannelServer
import DownloadModule
import Foundation
import MirrorModule
import OCEQShell

// Thin entry point: everything worth testing lives in the library targets.
let arguments = Array(CommandLine.arguments.dropFirst())
let version = "0.1.0"

// `--version` alone is answered before the modules are assembled: it needs none of them, and a
// version check is the one start that should cost nothing but the process itself.
if arguments == ["--version"] || arguments == ["-V"] {
    print("oceq \(version)")
    exit(0)
}

// `serve` runs on the main thread before anything else starts: it blocks SIGINT/SIGTERM here so
// that every thread it starts inherits the mask and only its `sigwait` sees them.
if arguments.first == "serve" { exit(ServeCommand.run(Array(arguments.dropFirst()))) }

// The modules whose commands oceq offers, listed once; a name claimed twice stops the program.
let modules = [
    CoreModule.module, BlogModule.module, AssetModule.module, DownloadModule.module, MirrorModule.module,
]
let registry: CommandRegistry
do {
    registry = try CommandRegistry(modules: modules)
} catch {
    FileHandle.standardError.write(Data("oceq: \(error)\n".utf8))
    exit(70)
}
exit(await OceqCLI.run(arguments, version: version, registry: registry))
