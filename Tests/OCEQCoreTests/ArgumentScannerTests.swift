// Core's one argument scanner, used by `oceq`, `oceq serve`, `oceq mirror`, `oceq lint` and the
// benchmark client.

import OCEQCore
import Testing

@Suite("The argument scanner")
struct ArgumentScannerTests {
    static let options: [ArgumentScanner.Option] = [.value("--query", "-q"), .flag("--strict", "-s")]

    func scan(_ arguments: [String], operandsEndOptions: Bool = false) throws(UsageError) -> [ArgumentScanner.Item] {
        var scanner = ArgumentScanner(arguments, options: Self.options, operandsEndOptions: operandsEndOptions)
        return try scanner.all()
    }

    @Test("long options take a value after a space or an equals sign; short ones after a space")
    func values() throws {
        #expect(
            try scan(["--query", "a b", "x", "--query=c=d", "-q", "e", "-s"]) == [
                .option("--query", value: "a b"), .operand("x"), .option("--query", value: "c=d"),
                .option("--query", value: "e"), .option("--strict", value: nil),
            ])
    }

    @Test("-- ends the options and - alone is an operand")
    func endOfOptions() throws {
        #expect(try scan(["-", "--", "--strict", "-q"]) == [.operand("-"), .operand("--strict"), .operand("-q")])
    }

    @Test("with operandsEndOptions, everything after the first operand is an operand")
    func operandsEnd() throws {
        #expect(
            try scan(["-s", "file", "--strict", "--"], operandsEndOptions: true) == [
                .option("--strict", value: nil), .operand("file"), .operand("--strict"), .operand("--"),
            ])
    }

    @Test(
        "mistakes are one-line usage errors, with a did-you-mean for a near long name",
        arguments: [
            (["--qeury", "x"], "unknown option '--qeury'; did you mean '--query'?"),
            (["--strcit"], "unknown option '--strcit'; did you mean '--strict'?"),
            (["--zzzzzzzz"], "unknown option '--zzzzzzzz'"),
            (["-x"], "unknown option '-x'"),
            (["--query"], "--query needs a value"),
            (["-q"], "-q needs a value"),
            (["--strict=yes"], "--strict takes no value"),
        ])
    func mistakes(arguments: [String], message: String) {
        #expect(throws: UsageError(message)) { try scan(arguments) }
    }

    @Test("numbers are checked against their range")
    func integers() throws {
        #expect(try ArgumentScanner.integer("80", option: "--port", in: 1...65535) == 80)
        #expect(throws: UsageError("--port must be a number from 1 to 65535, got 'x'")) {
            try ArgumentScanner.integer("x", option: "--port", in: 1...65535)
        }
    }
}
