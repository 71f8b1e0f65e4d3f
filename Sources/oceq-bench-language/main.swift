// Parse + compile throughput of the oceq language, for `Scripts/bench-language`.
// Usage: oceq-bench-language [STATEMENTS=1000000]
// Runs a corpus of varied statements round and round until STATEMENTS have been parsed and
// compiled, once as single-line inputs (as the REPL and `-c` see them) and once as one script,
// and prints statements per second for each, by the wall clock and by the process's CPU time (the
// second is the steadier figure on a machine shared with other work).

import Glibc
import OCEQLanguage

let corpus = [
    "list type=OCEGettingStartedArticle topic=@2 order published_date desc limit 50",
    "first type=OCEGettingStartedHomePage name=HomePage fields all",
    "count type=OCEGettingStartedArticle",
    "list type=Image fileExtension in (jpg, png, webp) order by name limit 100",
    "list name ^= \"Coffee\" or description ~ 'espresso beans'",
    "list (type=A or type=B) and not slug=old-post offset 100 limit 20",
    "list published_date >= 2024-01-01 published_date < 2024-02-01T00:00:00Z",
    "list type=OCEGettingStartedArticle author.name = $author expand author, image",
    "list search 'cold brew' limit 10",
    "first id = @1 expand all",
    "list name =~ coff* and language = en-US order by updatedDate desc, name asc",
    "count type=OCEGettingStartedTopic search $1",
    "list type eq Article and fields.rating ge 4.5 and fields.tags co summer",
    "list id != @3 typeCategory = ContentType fields name,description,slug",
    "list name ~~ Rome or name ~~ Dome or name ~~ Home",
    "let picked = first type=OCEGettingStartedAuthor name = 'Jane Doe'",
    "explain list type=OCEGettingStartedArticle name ^= \"Coffee\"",
    "get @2",
    "list createdDate > 2023-12-31T23:59:59.999+05:30 not (taxonomies co CAT1 or taxonomies co CAT2)",
    "echo done  # a comment",
]

let environment = StaticEnvironment(
    variables: ["author": "Jane Doe"], rows: ["CORE1", "CORE2", "CORE3"], arguments: ["roast"])
let compiler = Compiler(environment: environment)
let total = CommandLine.arguments.count > 1 ? Int(CommandLine.arguments[1]) ?? 1_000_000 : 1_000_000

/// Compiles what can be compiled; returns a checksum so the work cannot be optimised away.
func work(_ parsed: ParsedInput, _ compiler: Compiler) -> Int {
    precondition(!parsed.hasErrors, "corpus statement failed to parse: \(parsed.diagnostics)")
    var checksum = 0
    for statement in parsed.statements {
        var select: SelectStatement?
        switch statement {
        case .select(let s): select = s
        case .explain(let e): if case .select(let s) = e.statement { select = s }
        case .let(let l): if case .statement(.select(let s)) = l.binding { select = s }
        case .command(let c): checksum &+= c.arguments.count
        case .define(let d): checksum &+= d.body.count
        }
        if let select {
            let query = try! compiler.compile(select)
            checksum &+= (query.q?.utf8.count ?? 0) &+ (query.limit ?? 0)
        }
    }
    return checksum
}

let clock = ContinuousClock()

/// CPU time used by this process so far, in seconds.
func cpuSeconds() -> Double {
    var spec = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &spec)
    return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
}
var checksum = 0

// Warm-up.
for text in corpus { checksum &+= work(Parser.parse(text), compiler) }

let lineStart = clock.now
let lineCPUStart = cpuSeconds()
for index in 0..<total {
    checksum &+= work(Parser.parse(corpus[index % corpus.count]), compiler)
}
let lineTime = clock.now - lineStart
let lineCPU = cpuSeconds() - lineCPUStart

let repeats = max(1, total / corpus.count)
let script = Array(repeating: corpus.joined(separator: "\n"), count: repeats).joined(separator: "\n")
let scriptStart = clock.now
let scriptCPUStart = cpuSeconds()
let parsedScript = Parser.parse(script, options: ParserOptions())
checksum &+= work(parsedScript, compiler)
let scriptTime = clock.now - scriptStart
let scriptCPU = cpuSeconds() - scriptCPUStart

func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

func rate(_ count: Int, _ seconds: Double) -> String {
    String(Int((Double(count) / seconds).rounded()))
}

func line(_ label: String, _ count: Int, _ wall: Duration, _ cpu: Double) -> String {
    let wallSeconds = seconds(wall)
    return
        "\(label) \(count) statements in \(wallSeconds.rounded(toPlaces: 3)) s: \(rate(count, wallSeconds)) statements/s "
        + "(by CPU time: \(cpu.rounded(toPlaces: 3)) s, \(rate(count, cpu)) statements/s)"
}

print("corpus: \(corpus.count) statements; checksum \(checksum)")
print(line("one statement per input:", total, lineTime, lineCPU))
print(line("one script:             ", parsedScript.statements.count, scriptTime, scriptCPU))

extension Double {
    func rounded(toPlaces places: Int) -> Double {
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        return (self * scale).rounded() / scale
    }
}
