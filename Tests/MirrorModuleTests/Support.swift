// Running `mirror` against the bundled sample channel (served in-process) and against stub
// servers, into temporary folders.

import DeliveryKit
import Foundation
import MirrorModule
import OCEQApp
import OCEQCore
import OCEQShell
import OCEQTestSupport

/// The repository's root folder.
let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

/// The sample channel's token.
let sampleToken = "935a30048d49b8479c9bc1577e392eba"

/// The core commands and `mirror`.
let registry: CommandRegistry = {
    do {
        return try CommandRegistry(modules: [CoreModule.module, MirrorModule.module])
    } catch {
        fatalError("\(error)")
    }
}()

/// A connection to the export at `path` (served in-process), with `token`.
func openExport(_ path: String, token: String = sampleToken) throws -> Connection {
    try Connection.open(Credentials(url: path, channelToken: token), opener: InProcessServer())
}

/// Runs `text` as a script on `connection`; exit code, stdout and stderr.
@MainActor
func runScript(_ text: String, on connection: Connection?) async -> (code: Int32, output: String, errors: String) {
    let output = MemoryOutput(width: 120)
    let errors = MemoryOutput()
    let session = Session(
        registry: registry, connection: connection, output: output, errors: errors,
        baseDirectory: repositoryRoot.path)
    let code = await ScriptRunner.run(text: text, fileName: "test.oceq", in: session, keepGoing: false)
    return (code, output.text, errors.text)
}

/// A new empty folder under the system's temporary folder, removed by `cleanup`.
func temporaryFolder(_ label: String) -> String {
    TestTemporary.make("oceq-mirror-\(label)")
}

/// Every regular file under `folder`, as paths relative to it, sorted.
func filesUnder(_ folder: String) -> [String] {
    guard let enumerator = FileManager.default.enumerator(atPath: folder) else { return [] }
    var out: [String] = []
    while let relative = enumerator.nextObject() as? String {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: folder + "/" + relative, isDirectory: &isDirectory),
            !isDirectory.boolValue
        {
            out.append(relative)
        }
    }
    return out.sorted()
}

/// `json` with every `http://127.0.0.1:PORT` (any host and port) in strings written `http://HOST`.
func normalizingHosts(_ json: JSON) -> JSON {
    switch json {
    case .string(let text):
        return .string(
            text.replacingOccurrences(of: #"https?://[^/?#\s"]+"#, with: "http://HOST", options: .regularExpression))
    case .array(let elements): return .array(elements.map(normalizingHosts))
    case .object(let members): return .object(members.mapValues(normalizingHosts))
    default: return json
    }
}

/// Where `actual` first differs from `expected` (`items[3].fields.size: 12 ≠ 14`), or nil.
func firstDifference(_ actual: JSON, _ expected: JSON, at path: String = "") -> String? {
    switch (actual, expected) {
    case (.object(let a), .object(let e)):
        for key in Set(a.keys).union(e.keys).sorted() {
            let here = path.isEmpty ? key : path + "." + key
            guard let left = a[key] else { return "\(here) missing" }
            guard let right = e[key] else { return "\(here) not expected" }
            if let difference = firstDifference(left, right, at: here) { return difference }
        }
        return nil
    case (.array(let a), .array(let e)):
        guard a.count == e.count else { return "\(path): \(a.count) elements ≠ \(e.count)" }
        for (index, (left, right)) in zip(a, e).enumerated() {
            if let difference = firstDifference(left, right, at: "\(path)[\(index)]") { return difference }
        }
        return nil
    default:
        return actual == expected
            ? nil : "\(path): \(JSONWriter().string(actual).prefix(120)) ≠ \(JSONWriter().string(expected).prefix(120))"
    }
}
