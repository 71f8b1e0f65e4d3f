// The blog commands take `slug:S` as `get`, `show` and `download` do: a QA run found
// `read slug:spiced-maple-latte` answered "no article named 'slug:spiced-maple-latte'".

import Testing

@MainActor
@Suite("Blog commands by slug", .serialized)
struct SlugTargetTests {
    @Test("read, articles and author find their item by slug; an unknown slug is a one-line error")
    func bySlug() async {
        let shell = Shell()
        let read = await shell.run("read slug:spiced-maple-latte")
        #expect(read.code == 0, "\(read.errors)")
        #expect(read.output.contains("Spiced Maple Latte"))
        let byName = await shell.run("read Spiced Maple Latte")
        #expect(read.output == byName.output)

        let missing = await shell.run("read slug:no-such-article")
        #expect(missing.code == 1)
        #expect(missing.errors.contains("error: no article with slug 'no-such-article'\n"), "\(missing.errors)")

        for (bySlug, byName) in [
            ("articles slug:brewing-at-home", "articles Brewing at Home"),
            ("author slug:mateo-alvarez", "author Mateo Álvarez"),
        ] {
            let slugRun = await shell.run(bySlug)
            #expect(slugRun.code == 0, "\(bySlug): \(slugRun.errors)")
            #expect(!slugRun.output.isEmpty)
            #expect(slugRun.output == (await shell.run(byName)).output, "\(bySlug)")
        }
    }

    @Test("'slug:' without a slug is one error, for the blog commands and their explain")
    func emptySlug() async {
        let shell = Shell()
        for statement in ["read slug:", "articles slug:", "author slug:", "explain read slug:"] {
            let run = await shell.run(statement)
            #expect(run.code == 1, "\(statement)")
            #expect(
                run.errors.contains("error: expected a slug after 'slug:' (slug:NAME)\n"), "\(statement): \(run.errors)"
            )
            #expect(run.output.isEmpty, "\(statement): \(run.output)")
        }
    }
}
