import ChannelServer
import Foundation
import OCEQShell

// Thin entry point: everything worth testing lives in the library targets.
let arguments = Array(CommandLine.arguments.dropFirst())
let version = "0.1.0"

// `serve` runs on the main thread before anything else starts: it blocks SIGINT/SIGTERM here so
// that every thread it starts inherits the mask and only its `sigwait` sees them.
if arguments.first == "serve" { exit(ServeCommand.run(Array(arguments.dropFirst()))) }

exit(await OceqCLI.run(arguments, version: version))
