import Foundation
import OCEQShell

// Thin entry point: everything worth testing lives in the library targets.
let code = await OceqCLI.run(Array(CommandLine.arguments.dropFirst()), version: "0.1.0")
exit(code)
