// libFuzzer harness: the oceq language (lexer, parser, printer, compiler). Built by Scripts/fuzz.
import OCEQLanguage

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLanguage(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    OCEQLanguage.fuzzParse(UnsafeRawBufferPointer(start: data, count: size))
    return 0
}
