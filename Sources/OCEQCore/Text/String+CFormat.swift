// printf-style formatting through the C library (`vsnprintf`): what `String(format:)` did for the targets
// oceq links, which use FoundationEssentials only. The C library rounds as printf always has.

import Glibc

extension String {
    /// `format` (a printf format: `%.2f`, `%02x`, ...) applied to `arguments` by the C library.
    package init(cFormat format: String, _ arguments: any CVarArg...) {
        self = String.formatted(format, arguments)
    }

    private static func formatted(_ format: String, _ arguments: [any CVarArg]) -> String {
        var buffer = [CChar](repeating: 0, count: 64)
        while true {
            let needed = buffer.withUnsafeMutableBufferPointer { target in
                withVaList(arguments) { vsnprintf(target.baseAddress, target.count, format, $0) }
            }
            guard needed >= buffer.count else {
                return String(
                    decoding: buffer.prefix(Int(Swift.max(0, needed))).map { UInt8(bitPattern: $0) }, as: UTF8.self)
            }
            buffer = [CChar](repeating: 0, count: Int(needed) + 1)
        }
    }
}
