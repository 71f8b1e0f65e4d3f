import ChannelServer
import Foundation

// Thin entry point: everything worth testing lives in the library targets.
let arguments = Array(CommandLine.arguments.dropFirst())
let version = "0.1.0"

switch arguments.first {
case "serve":
    exit(ServeCommand.run(Array(arguments.dropFirst())))
case "--version", "-V":
    print("oceq \(version)")
case "--help", "-h", "help", nil:
    print(
        """
        oceq \(version): explore an Oracle Content Management delivery channel

        usage: oceq serve PATH... [options]    serve the delivery API from an export (oceq serve --help)
               oceq --version

        The REPL, scripts and downloads are being built; see README.md.
        """)
default:
    FileHandle.standardError.write(Data("oceq: unknown command '\(arguments[0])'; try 'oceq --help'\n".utf8))
    exit(2)
}
