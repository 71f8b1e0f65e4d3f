// This process's environment as a dictionary, read from `environ` on bytes. Foundation's
// `ProcessInfo.processInfo.environment` finds each `=` by walking Characters (grapheme breaking):
// about 6,000 instructions a variable, 0.4 M at every start of oceq (callgrind, issue 21), where a
// byte search costs a tenth of that.

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The environment of this process.
package enum ProcessEnvironment {
    /// Every `NAME=value` of `environ`, as `ProcessInfo.processInfo.environment` gives them: an entry
    /// without `=` is skipped, and of two entries with one name the later wins.
    package static func current() -> [String: String] {
        var variables: [String: String] = [:]
        var entry = environ
        while let pointer = entry.pointee {
            let length = strlen(pointer)
            pointer.withMemoryRebound(to: UInt8.self, capacity: length) { bytes in
                let buffer = UnsafeBufferPointer(start: bytes, count: length)
                guard let equals = buffer.firstIndex(of: UInt8(ascii: "=")) else { return }
                let name = String(decoding: buffer[..<equals], as: UTF8.self)
                variables[name] = String(decoding: buffer[(equals + 1)...], as: UTF8.self)
            }
            entry += 1
        }
        return variables
    }
}
