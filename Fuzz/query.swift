// libFuzzer harness: the server's `q` and `orderBy` parsers, each given the whole input (invalid
// UTF-8 repaired, as the server's percent-decoding does). Built by Scripts/fuzz.
import OCEQCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzQuery(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    _ = try? QueryParser.parse(text)
    _ = try? OrderByParser.parse(text)
    return 0
}
