// Issue 18, point 9's small ones in the shell: `exit` is listed by `help`; `set color` sits beside
// `--color`; `echo` replaces `$var`, `${var}` and `$1` inside double quotes, not inside single ones.

import Foundation
import OCEQCore
import OCEQLanguage
import Testing

@testable import OCEQShell

@Suite("Small ones: exit in help, set color, echo interpolation")
@MainActor
struct SmallOnesTests {
    @Test("help lists quit with its alias exit")
    func exitInHelp() async {
        let result = await runScript("help", connection: offlineConnection)
        #expect(result.output.contains("  quit, exit  "), "\(result.output)")
    }

    @Test("set color always|never|auto|on|off changes the colour of messages; a bad value is refused")
    func setColor() async throws {
        let (session, _, errors) = makeSession(connection: offlineConnection)
        var code = await ScriptRunner.run(text: "set color always", fileName: "t.oceq", in: session)
        #expect(code == 0, "\(errors.text)")
        #expect(session.settings.color)
        code = await ScriptRunner.run(text: "set color never", fileName: "t.oceq", in: session)
        #expect(!session.settings.color)
        code = await ScriptRunner.run(text: "set color on", fileName: "t.oceq", in: session)
        #expect(session.settings.color)
        code = await ScriptRunner.run(text: "set color auto", fileName: "t.oceq", in: session)
        #expect(!session.settings.color, "auto is off when messages do not go to a terminal")
        code = await ScriptRunner.run(text: "set color alwyas", fileName: "t.oceq", in: session)
        #expect(code != 0)
        #expect(errors.text.contains("did you mean 'always'?"), "\(errors.text)")
        #expect(Settings.values(of: "color") == ["auto", "always", "never"])
        #expect(session.settings.summary.contains("color    off"))
    }

    @Test(
        "echo interpolates in double quotes and in words, as a shell does, not in single quotes",
        arguments: [
            (#"echo "n is $n""#, "n is 3\n"), (#"echo "${n}rd and $1""#, "3rd and first\n"),
            (#"echo 'n is $n'"#, "n is $n\n"), (#"echo "costs $ 5 or $""#, "costs $ 5 or $\n"),
            (#"echo "$n$n""#, "33\n"),
            // A word that runs a reference on into text was printed as written ("$n$n", "a${n}b").
            ("echo $n$n", "33\n"), ("echo a${n}b ${n}rd", "a3b 3rd\n"), ("echo $1-$n", "first-3\n"),
            ("echo price$ $ x", "price$ $ x\n"),
        ])
    func echo(text: String, expected: String) async {
        let result = await runScript("let n = 3\n" + text, connection: offlineConnection, arguments: ["first"])
        #expect(result.code == 0, "\(result.errors)")
        #expect(result.output == expected)
    }

    @Test("echo of a variable holding a listing prints its rows' ids")
    func echoListing() async {
        let result = await runScript(
            "let x = list type=OCEGettingStartedTopic limit 2\necho $x\necho \"rows: $x\"\nlist type=OCEGettingStartedTopic limit 2\necho @1 @2\n",
            connection: sampleConnection)
        #expect(result.code == 0, "\(result.errors)")
        let lines = result.output.split(separator: "\n").map(String.init)
        let ids = lines.last ?? ""
        #expect(ids.split(separator: " ").count == 2)
        #expect(lines.first == ids, "\(result.output)")
        #expect(lines.dropFirst().first == "rows: " + ids)
    }

    @Test("an unknown variable inside double quotes is an error with a caret under it")
    func echoUnknown() async {
        let result = await runScript(#"echo "total: $nope!""#, connection: offlineConnection)
        #expect(result.code != 0)
        #expect(result.errors.contains("unknown variable"), "\(result.errors)")
        // The caret sits under `$nope`, 13 columns in.
        #expect(result.errors.contains("\n  |              ^~~~~"), "\(result.errors)")
    }
}
