import Foundation
import OCEQLanguage
import OCEQTestSupport
import Testing

@testable import OCEQShell

/// A plugins folder for one test (`BASE/oceq/plugins`, BASE standing for XDG_CONFIG_HOME), removed at the end.
struct PluginFolder {
    let base: URL
    let url: URL

    init(_ files: [String: String]) throws {
        base = FileManager.default.temporaryDirectory.appendingPathComponent("oceq-plugins-\(UUID().uuidString)")
        url = base.appendingPathComponent("oceq/plugins")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        for (name, text) in files {
            try text.write(to: url.appendingPathComponent(name), atomically: false, encoding: .utf8)
        }
    }

    func path(_ name: String) -> String { url.path + "/" + name }

    func remove() { try? FileManager.default.removeItem(at: base) }
}

/// `registry` (the standard one by default) with the plugins of `folder` (as the plugins folder) and `flags` loaded.
func loadPlugins(
    folder: PluginFolder?, flags: [String] = [], registry: CommandRegistry = .standard
) -> (CommandRegistry, String) {
    var registry = registry
    let errors = MemoryOutput()
    PluginLoader.loadAll(
        flagFiles: flags,
        environment: ["XDG_CONFIG_HOME": folder?.base.path ?? "/nonexistent", "HOME": "/nonexistent"],
        into: &registry, errors: errors, colors: false)
    return (registry, errors.text)
}

/// A session over `registry` writing to memory.
@MainActor
func makeSession(registry: CommandRegistry) -> (Session, MemoryOutput, MemoryOutput) {
    let output = MemoryOutput(width: 200)
    let errors = MemoryOutput()
    let session = Session(
        registry: registry, connection: sampleConnection, output: output, errors: errors,
        baseDirectory: repositoryRoot.path)
    return (session, output, errors)
}

let topicArticles = """
    # Articles of a topic, by topic name
    # Newest first; n is how many.
    define topic-articles(name, n = 10)
      let t = first type=OCEGettingStartedTopic name=$name
      list type=OCEGettingStartedArticle topic=$t order published_date desc limit $n
    end

    """

@MainActor
@Suite("User commands and plugins", .serialized)
struct UserCommandTests {
    @Test("a plugin's command runs with values in order, by name, and with defaults")
    func calls() async throws {
        let folder = try PluginFolder(["blog.oceq": topicArticles])
        defer { folder.remove() }
        let (registry, problems) = loadPlugins(folder: folder)
        #expect(problems.isEmpty)
        let (session, output, errors) = makeSession(registry: registry)
        var code = await ScriptRunner.run(text: "topic-articles Recipes 2", fileName: "t.oceq", in: session)
        #expect(code == 0, "\(errors.text)")
        #expect(output.text.contains("(2 rows of 8)"))
        output.clear()
        code = await ScriptRunner.run(text: "topic-articles name=\"Recipes\" n=1", fileName: "t.oceq", in: session)
        #expect(code == 0, "\(errors.text)")
        #expect(output.text.contains("(1 row of 8)"))
        output.clear()
        code = await ScriptRunner.run(text: "topic-articles Recipes", fileName: "t.oceq", in: session)
        #expect(code == 0, "\(errors.text)")
        #expect(output.text.contains("(8 rows)"), "default n = 10 lists all 8")
    }

    @Test("the body runs in a call frame: the caller's variables are hidden and come back, its lets end with it")
    func callFrame() async throws {
        let script = """
            define show(x)
              let inner = $x
              echo inside $x $inner
            end
            let x = outer
            let inner = kept
            show "a b"
            echo after $x $inner
            """
        let result = await runScript(script)
        #expect(result.code == 0, "\(result.errors)")
        #expect(result.output == "inside a b a b\nafter outer kept\n")
    }

    @Test("an argument is a value, never syntax: quotes and clause words stay inside it")
    func noInjection() async throws {
        let result = await runScript(topicArticles + "topic-articles \"Recipes limit 1\"\n")
        #expect(result.code == 1)
        #expect(result.errors.contains("no item matches, so $t is not set"))
        #expect(!result.output.contains("row"))
    }

    @Test("explain of a call shows where the command is defined and what it runs")
    func explain() async throws {
        let result = await runScript(topicArticles + "explain topic-articles Recipes\n", connection: offlineConnection)
        #expect(result.code == 0, "\(result.errors)")
        #expect(
            result.output == """
                'topic-articles' is a user command (test.oceq:3:8); a call sets its parameters and runs:
                  let t = first type = OCEGettingStartedTopic name = $name
                  list type = OCEGettingStartedArticle topic = $t order by published_date desc limit $n

                """)
    }

    @Test("help lists user commands like built-ins, and 'help NAME' shows the comment and usage")
    func help() async throws {
        let folder = try PluginFolder(["blog.oceq": topicArticles])
        defer { folder.remove() }
        let (registry, _) = loadPlugins(folder: folder)
        let overview = HelpCommand.overview(registry)
        #expect(overview.contains("user commands:\n  topic-articles  Articles of a topic, by topic name\n"))
        let (session, output, _) = makeSession(registry: registry)
        _ = await ScriptRunner.run(text: "help topic-articles", fileName: nil, in: session)
        #expect(output.text.hasPrefix("usage: topic-articles name [n=10]\n\nArticles of a topic, by topic name\n"))
        #expect(output.text.contains("Newest first; n is how many."))
        #expect(output.text.contains("Defined at \(folder.path("blog.oceq")):3:8."))
    }

    @Test("user commands are in the registry's command words, which completion offers")
    func completion() throws {
        let folder = try PluginFolder(["blog.oceq": topicArticles])
        defer { folder.remove() }
        let (registry, _) = loadPlugins(folder: folder)
        #expect(registry.commandNames.contains("topic-articles"))
        #expect(registry.commandNames.contains("list"))
        #expect(registry.parserCommands.contains("topic-articles"))
        #expect(!CommandRegistry.standard.commandNames.contains("topic-articles"))
        let candidates = registry.commandNames.filter { $0.hasPrefix("topic-") }
        #expect(
            CompletionAction.plan(beforeCursor: "topic-", candidates: candidates)
                == .replace(deleting: 6, text: "topic-articles "))
    }

    @Test("a plugin redefining a built-in or another plugin's command is skipped, both places named")
    func conflicts() throws {
        let folder = try PluginFolder([
            "a.oceq": topicArticles, "b.oceq": "define topic-articles()\n  echo mine\nend\n",
            "c.oceq": "define ok()\n  echo ok\nend\ndefine home()\n  echo mine\nend\n",
        ])
        defer { folder.remove() }
        let registry = try CommandRegistry(modules: [
            CoreModule.module, Module(name: "blog", commands: [HomeLike.self]),
        ])
        let (loaded, problems) = loadPlugins(folder: folder, registry: registry)
        #expect(
            problems.contains(
                "\(folder.path("b.oceq")):1:8: error: command 'topic-articles' is already defined at \(folder.path("a.oceq")):3:8"
            ))
        #expect(
            problems.contains(
                "\(folder.path("c.oceq")):4:8: error: command 'home' is already defined by the blog module"))
        #expect(loaded.userCommand(named: "ok") == nil, "a file with a problem is skipped whole")
        #expect(loaded.userCommand(named: "topic-articles")?.fileName == folder.path("a.oceq"))
        #expect(PluginsCommand.report(loaded).contains("\(folder.path("c.oceq")) (plugins folder): skipped: 1 error"))
    }

    @Test("recursion stops at the depth limit with a clear error at the call in the plugin")
    func recursion() async throws {
        let folder = try PluginFolder(["loop.oceq": "define loop(n)\n  echo $n\n  loop $n\nend\n"])
        defer { folder.remove() }
        let (registry, _) = loadPlugins(folder: folder)
        let (session, output, errors) = makeSession(registry: registry)
        let code = await ScriptRunner.run(text: "loop x\necho after", fileName: "t.oceq", in: session)
        #expect(code == 1)
        #expect(output.text == String(repeating: "x\n", count: UserCommand.maximumDepth))
        #expect(
            errors.text.hasPrefix(
                "\(folder.path("loop.oceq")):3:3: error: 'loop' is called more than 16 deep; does it call itself?"))
        #expect(session.callDepth == 0)
    }

    @Test("an error in a command's body is shown at its line, then the calls it came from, innermost first")
    func callNotes() async throws {
        let (session, _, errors) = makeSession(registry: .standard)
        let script = """
            define inner(t)
              count type=OCEGettingStartedArticle topic=$t
            end
            define outer(t)
              inner $t
            end
            outer Recipes
            outer Nope
            """
        let code = await ScriptRunner.run(text: script, fileName: "t.oceq", in: session)
        #expect(code == 1)
        #expect(
            errors.text.hasPrefix("t.oceq:2:45: error: no OCEGettingStartedTopic named 'Nope' for 'topic'"),
            "\(errors.text)")
        #expect(errors.text.contains("t.oceq:5:3: note: in the call of 'inner' here\n5 |   inner $t\n"))
        #expect(
            errors.text.hasSuffix("t.oceq:8:1: note: in the call of 'outer' here\n8 | outer Nope\n  | ^~~~~~~~~~\n"))

        // A recursion 16 deep: the calls at one place are one note, then the outermost (it was the same
        // note three times, then "12 more calls in between").
        let (deep, _, deepErrors) = makeSession(registry: .standard)
        let recursion = "define loop(n)\n  loop $n\nend\nloop x\n"
        #expect(await ScriptRunner.run(text: recursion, fileName: "r.oceq", in: deep) == 1)
        let notes = deepErrors.text.split(separator: "\n").filter { $0.contains("note:") }
        #expect(
            notes == [
                "r.oceq:2:3: note: in the call of 'loop' here (15 calls deep)",
                "r.oceq:4:1: note: in the call of 'loop' here",
            ], "\(deepErrors.text)")

        // Five places: the innermost three, how many are left out, the outermost.
        let (chain, _, chainErrors) = makeSession(registry: .standard)
        let calls = """
            define c1()
              get CORE0000
            end
            define c2()
              c1
            end
            define c3()
              c2
            end
            define c4()
              c3
            end
            define c5()
              c4
            end
            c5
            """
        #expect(await ScriptRunner.run(text: calls, fileName: "c.oceq", in: chain) == 1)
        let chained = chainErrors.text.split(separator: "\n").filter { $0.contains("note:") }
        #expect(
            chained == [
                "c.oceq:5:3: note: in the call of 'c1' here", "c.oceq:8:3: note: in the call of 'c2' here",
                "c.oceq:11:3: note: in the call of 'c3' here", "note: 1 more call in between",
                "c.oceq:16:1: note: in the call of 'c5' here",
            ], "\(chainErrors.text)")
    }

    @Test("a cancelled call (Ctrl-C in the REPL) stops before its next statement")
    func cancelled() async throws {
        let (session, output, _) = makeSession(connection: nil)
        #expect(await ScriptRunner.run(text: "define two()\n  echo a\n  echo b\nend", fileName: nil, in: session) == 0)
        let call = try #require(Parser.parse("two", options: session.parserOptions).statements.first)
        let shared = session
        let task = Task { () async -> Int32? in
            withUnsafeCurrentTask { $0?.cancel() }
            do throws(ShellError) {
                _ = try await Interpreter.execute(call, in: shared)
                return nil
            } catch {
                if case .alreadyReported(let code) = error { return code }
                return nil
            }
        }
        #expect(await task.value == ScriptRunner.ExitCode.interrupted)
        #expect(output.text.isEmpty)
        #expect(session.callDepth == 0)
    }

    @Test("plugins load folder files in name order, then --plugin files in order; each sees those before it")
    func loadingOrder() throws {
        let folder = try PluginFolder([
            "2-uses.oceq": "define twice(name)\n  topic-articles $name 2\n  topic-articles $name 2\nend\n",
            "1-base.oceq": topicArticles,
        ])
        let flags = try PluginFolder([
            "late.oceq": "define late()\n  twice Recipes\nend\n", "early.oceq": "define early()\n  late\nend\n",
        ])
        defer {
            folder.remove()
            flags.remove()
        }
        let (registry, problems) = loadPlugins(
            folder: folder, flags: [flags.path("late.oceq"), flags.path("early.oceq")])
        #expect(problems.isEmpty, "\(problems)")
        #expect(
            registry.user.pluginFiles.map { ($0.path as NSString).lastPathComponent }
                == ["1-base.oceq", "2-uses.oceq", "late.oceq", "early.oceq"])
        #expect(registry.user.pluginFiles.map(\.origin) == [.directory, .directory, .flag, .flag])
        let (reversed, refused) = loadPlugins(folder: nil, flags: [flags.path("early.oceq"), flags.path("late.oceq")])
        #expect(refused.contains("\(flags.path("early.oceq")):2:3: error: unknown command 'late'"))
        #expect(reversed.userCommand(named: "early") == nil)
    }

    @Test("a plugin that cannot be read, or holds another statement, is reported with its place and skipped")
    func brokenPlugins() throws {
        let folder = try PluginFolder(["runs.oceq": "list type=A\n", "good.oceq": "define ok()\n  echo ok\nend\n"])
        defer { folder.remove() }
        let missing = folder.path("missing.oceq")
        let (registry, problems) = loadPlugins(folder: folder, flags: [missing, folder.url.path])
        #expect(problems.contains("\(missing):1:1: error: cannot read plugin: no such file or directory\n"))
        #expect(problems.contains("\(folder.url.path):1:1: error: cannot read plugin: is a directory\n"))
        #expect(
            problems.contains(
                "\(folder.path("runs.oceq")):1:1: error: a plugin file holds only 'define' blocks, not 'list'"))
        #expect(registry.userCommand(named: "ok") != nil)
        #expect(registry.user.pluginFiles.filter { $0.problem != nil }.count == 3)
    }

    @Test("a broken plugin never stops the REPL: it is reported, and the REPL runs the others")
    func replStarts() async throws {
        let folder = try PluginFolder(["bad.oceq": "define broken(\n", "good.oceq": "define ok()\n  echo ok\nend\n"])
        defer { folder.remove() }
        let (registry, problems) = loadPlugins(folder: folder)
        #expect(problems.contains("oceq: plugin \(folder.path("bad.oceq")) skipped"))
        let (session, output, _) = makeSession(registry: registry)
        let reader = FakeLineReader(lines: ["ok", "define greet(who)", "  echo hi $who", "end", "greet you", "plugins"])
        #expect(await REPL(reader: reader, session: session).run() == 0)
        #expect(output.text.hasPrefix("ok\nhi you\n"))
        #expect(output.text.contains("\(folder.path("good.oceq")) (plugins folder): ok\n"))
        #expect(output.text.contains("greet (defined at <input>:1:8)"))
    }

    @Test("the oceq binary reads --plugin files, and a missing one does not stop it")
    func binary() async throws {
        let folder = try PluginFolder(["p.oceq": "# Says hi\ndefine hi(who = you)\n  echo hi $who\nend\n"])
        defer { folder.remove() }
        let environment = ["XDG_CONFIG_HOME": folder.base.appendingPathComponent("empty").path]
        let result = try await OceqBinary.run(
            ["--plugin", folder.path("p.oceq"), "--plugin", "nope.oceq", "-c", "hi; hi who=there; plugins"],
            environment: environment)
        #expect(result.code == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("hi you\nhi there\n"))
        #expect(result.stderr.contains("nope.oceq:1:1: error: cannot read plugin: no such file or directory"))
        let sample = try await OceqBinary.run(
            ["--plugin", "Scripts/plugins/blog.oceq", "-c", "find latte 3; plugins"], environment: environment)
        #expect(sample.code == 0, "\(sample.stderr)")
        #expect(sample.stdout.contains("Spiced Maple Latte"))
        #expect(sample.stdout.contains("Scripts/plugins/blog.oceq (--plugin): topic-articles, latest, find\n"))
        let bad = try await OceqBinary.run(
            ["--plugin", folder.path("p.oceq"), "-c", "hi a b"], environment: environment)
        #expect(bad.code == 2)
        #expect(bad.stderr.hasPrefix("error: 'hi' takes at most 1 argument\n"))
    }
}

/// A stand-in for a module's command, to be redefined.
enum HomeLike: Command {
    static let descriptor = CommandDescriptor(name: "home", abstract: "a module's command", usage: "home", examples: [])
    static func run(_ statement: Statement, in session: Session) async throws(ShellError) -> CommandResult { .none }
}
