// `oceq help [TOPIC]`, `oceq SUBCOMMAND --help`, and the hint for a command word given as a script.

import Foundation
import OCEQCore
import OCEQTestSupport
import Testing

@testable import OCEQShell

@MainActor
@Suite("the command line's help and hints")
struct CommandLineHelpTests {
    let registry = CommandRegistry.standard

    @Test("help alone is the program's usage; help TOPIC is a subcommand's usage or a command's help")
    func topics() throws {
        #expect(try CommandLineHelp.answer(["help"], registry: registry)?.get() == CLIOptions.usage)
        let run = try #require(try CommandLineHelp.answer(["help", "run"], registry: registry)?.get())
        #expect(run.hasPrefix("usage: oceq [OPTIONS] [run] FILE [ARGS...]"))
        let list = try #require(try CommandLineHelp.answer(["help", "list"], registry: registry)?.get())
        #expect(list.hasPrefix("usage: list ") && list.contains("examples:"))
        #expect(throws: UsageError("no help on 'lsit'; did you mean 'list'? (see 'oceq help')")) {
            try CommandLineHelp.answer(["help", "lsit"], registry: registry)?.get()
        }
        #expect(throws: UsageError("help takes one topic; see 'oceq help'")) {
            try CommandLineHelp.answer(["help", "a", "b"], registry: registry)?.get()
        }
    }

    @Test("SUBCOMMAND --help and -h answer the subcommand's usage; other arguments are not help")
    func subcommandHelp() throws {
        for subcommand in ["run", "repl", "mirror"] {
            for flag in ["--help", "-h"] {
                let text = try #require(try CommandLineHelp.answer([subcommand, flag], registry: registry)?.get())
                #expect(text.hasPrefix("usage: oceq [OPTIONS] ") && text.contains(subcommand))
            }
        }
        #expect(CommandLineHelp.answer(["script.oceq"], registry: registry) == nil)
        #expect(CommandLineHelp.answer(["-c", "help"], registry: registry) == nil)
        #expect(CommandLineHelp.answer([], registry: registry) == nil)
    }

    @Test("a script that cannot be read says why, and a command word suggests -c with the words quoted")
    func unreadable() {
        withTemporaryFolder { folder in
            let missing = CommandLineHelp.unreadableScript(
                "list", path: folder + "/list", arguments: ["type=Image", "name=it's"], registry: registry)
            #expect(
                missing.message
                    == "cannot read script list: no such file; did you mean: oceq -c 'list type=Image name=it'\\''s'")
            let plain = CommandLineHelp.unreadableScript(
                "tour.oceq", path: folder + "/tour.oceq", arguments: [], registry: registry)
            #expect(plain.message == "cannot read script tour.oceq: no such file")
            let misspelt = CommandLineHelp.unreadableScript(
                "servr", path: folder + "/servr", arguments: ["x"], registry: registry)
            #expect(misspelt.message == "cannot read script servr: no such file; did you mean 'oceq serve'?")
            let far = CommandLineHelp.unreadableScript(
                "frobnicate", path: folder + "/frobnicate", arguments: [], registry: registry)
            #expect(far.message == "cannot read script frobnicate: no such file")
            let aFolder = CommandLineHelp.unreadableScript("list", path: folder, arguments: [], registry: registry)
            #expect(aFolder.message == "cannot read script list: it is a folder")
        }
    }
}
