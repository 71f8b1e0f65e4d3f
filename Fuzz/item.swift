// libFuzzer harness: an export item file, from JSON bytes to the item's delivery shape. Built by
// Scripts/fuzz (with the package name SwiftPM built with, for the package entry point).
import ChannelServer

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzItem(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    ChannelServerFuzz.readItem(UnsafeRawBufferPointer(start: data, count: size))
    return 0
}
