// File names from the server are untrusted (`download` and `mirror` alike). `SafeFileName.sanitize`
// turns any asset name into one plain file name that stays inside the target folder on Linux, macOS
// and Windows alike:
//
// - Unicode is normalised to NFC, so the NFD and NFC spellings of "café" are one name.
// - Path separators (`/`, `\`), the characters Windows forbids (`: * ? " < > |`), control
//   characters (C0, DEL, C1: NUL, newline, ESC ...) and invisible format characters (bidi
//   overrides that could make `gpj.exe` read as `exe.jpg`) become `_`.
// - Leading dots and spaces are dropped (no hidden files, no `.` or `..`), as are trailing dots and
//   spaces (Windows drops them itself and would merge names).
// - Windows device names (`CON`, `nul.txt`, `COM1.jpg` ...) get a leading `_`.
// - Names that could pass for oceq's own files (`*.part`, `*.part.meta`, the manifest) get a `_`.
// - The result is at most `maximumBytes` bytes of UTF-8, cut at a character boundary with the
//   extension kept; an empty result becomes the fallback (the asset id).
//
// `UniqueFileNames` then makes names unique within one folder, ignoring case (a folder on macOS or
// Windows would merge `A.jpg` and `a.jpg`): the second `photo.jpg` becomes `photo (2).jpg`.

import FoundationEssentials

/// Turning an untrusted name into a safe file name.
package enum SafeFileName {
    /// The largest name in UTF-8 bytes (file systems allow 255; room is left for ` (n)` and `.part.meta`).
    package static let maximumBytes = 200

    /// The longest extension kept whole when a name is shortened.
    static let maximumExtensionBytes = 16

    /// `name` as a safe file name, or `fallback` (itself sanitised) when nothing usable is left.
    package static func sanitize(_ name: String, fallback: String = "download") -> String {
        let cleaned = clean(name)
        if !cleaned.isEmpty { return cleaned }
        let second = clean(fallback)
        return second.isEmpty ? "download" : second
    }

    /// Whether `name` is already a safe file name: `sanitize` would leave it as it is.
    package static func isSafe(_ name: String) -> Bool {
        !name.isEmpty && clean(name) == name
    }

    static func clean(_ name: String) -> String {
        // ASCII (most names): already NFC and without format characters, so only the bytes the
        // list forbids change (callgrind: the general path took about 93 000 instructions a name).
        name.utf8.allSatisfy({ $0 < 0x80 }) ? cleanASCII(name) : cleanUnicode(name)
    }

    /// `clean` of any name: NFC, forbidden characters replaced, trimmed, device names and oceq's
    /// own names marked, capped.
    package static func cleanUnicode(_ name: String) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in name.composed.unicodeScalars {
            scalars.append(isForbidden(scalar) ? "_" : scalar)
        }
        var text = String(scalars)
        while let first = text.first, first == "." || first == " " { text.removeFirst() }
        while let last = text.last, last == "." || last == " " { text.removeLast() }
        guard !text.isEmpty else { return "" }
        if isReservedDeviceName(text) { text = "_" + text }
        let lower = text.lowercased()
        if lower.hasSuffix(".part") || lower.hasSuffix(".part.meta") || lower.hasPrefix("oceq-manifest") {
            text += "_"
        }
        return capped(text, bytes: maximumBytes)
    }

    /// `cleanUnicode` of an ASCII name, on its bytes: every character is one byte, so trimming and the
    /// case-insensitive checks need no grapheme breaking, lower-cased copy or Foundation (callgrind,
    /// `download` of 74 renditions: 18 000 instructions a name through the general steps, 2 names an item).
    package static func cleanASCII(_ name: String) -> String {
        var bytes = Array(name.utf8)
        for index in bytes.indices where isForbidden(Unicode.Scalar(bytes[index])) { bytes[index] = UInt8(ascii: "_") }
        let trimmable: (UInt8) -> Bool = { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: " ") }
        guard let first = bytes.firstIndex(where: { !trimmable($0) }),
            let last = bytes.lastIndex(where: { !trimmable($0) })
        else { return "" }
        var kept = Array(bytes[first...last])
        // A device name's stem is at most four bytes; a longer printable one is none (as in
        // `isReservedDeviceName`, without splitting a String by characters).
        let stem = kept[..<(kept.firstIndex(of: UInt8(ascii: ".")) ?? kept.endIndex)]
        if stem.count <= 4 || stem.contains(where: { $0 <= 0x20 || $0 >= 0x7F }),
            isReservedDeviceName(String(decoding: kept, as: UTF8.self))
        {
            kept.insert(UInt8(ascii: "_"), at: 0)
        }
        func lower(_ byte: UInt8) -> UInt8 { byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte }
        func hasSuffix(_ suffix: StaticString) -> Bool {
            let count = suffix.utf8CodeUnitCount
            guard kept.count >= count else { return false }
            let tail = kept[(kept.count - count)...]
            return zip(tail, UnsafeBufferPointer(start: suffix.utf8Start, count: count)).allSatisfy { lower($0) == $1 }
        }
        let prefix: StaticString = "oceq-manifest"
        let prefixMatches =
            kept.count >= prefix.utf8CodeUnitCount
            && zip(kept, UnsafeBufferPointer(start: prefix.utf8Start, count: prefix.utf8CodeUnitCount))
                .allSatisfy { lower($0) == $1 }
        if hasSuffix(".part") || hasSuffix(".part.meta") || prefixMatches { kept.append(UInt8(ascii: "_")) }
        return capped(String(decoding: kept, as: UTF8.self), bytes: maximumBytes)
    }

    /// Separators, characters Windows refuses, control characters and invisible format characters.
    static func isForbidden(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.value < 0x20 || (scalar.value >= 0x7F && scalar.value < 0xA0) { return true }
        switch scalar {
        case "/", "\\", ":", "*", "?", "\"", "<", ">", "|": return true
        default: break
        }
        if scalar.isASCII { return false }
        return scalar.properties.generalCategory == .format || scalar.properties.generalCategory == .lineSeparator
            || scalar.properties.generalCategory == .paragraphSeparator
    }

    /// `CON`, `PRN`, `AUX`, `NUL`, `COM0`–`COM9`, `LPT0`–`LPT9`, with or without an extension, any case.
    static func isReservedDeviceName(_ name: String) -> Bool {
        let stem = name.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        // A device name is three or four letters and digits: a longer ASCII stem without white space is none.
        if stem.utf8.count > 4, stem.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) { return false }
        let upper = stem.uppercased().trimmedSpaces
        if ["CON", "PRN", "AUX", "NUL"].contains(upper) { return true }
        if upper.count == 4, upper.hasPrefix("COM") || upper.hasPrefix("LPT"), let last = upper.last, last.isNumber {
            return true
        }
        return false
    }

    /// The stem and the extension (with its dot) of a name; no extension when the name has no dot
    /// after its first character or the part after the last dot is long or has spaces.
    package static func split(_ name: String) -> (stem: String, extension: String) {
        // On bytes: `String.lastIndex(of:)` walks characters (grapheme breaking, 2 400 instructions
        // a call) and `String.contains(String)` is Foundation's search, 3 600. In an ASCII name every
        // byte is a character; elsewhere a dot may start a character (a dot and a combining mark),
        // which is then no dot, as the character walk finds.
        let utf8 = name.utf8
        let dot: String.Index?
        if utf8.allSatisfy({ $0 < 0x80 }) {
            dot = utf8.lastIndex(of: UInt8(ascii: "."))
        } else {
            dot = name.lastIndex(of: ".")
        }
        guard let dot, dot != name.startIndex else { return (name, "") }
        let ext = utf8[dot...]
        guard ext.count <= maximumExtensionBytes, !ext.contains(0x20) else { return (name, "") }
        return (String(name[..<dot]), String(name[dot...]))
    }

    /// `name` cut to at most `bytes` UTF-8 bytes at a character boundary, its extension kept.
    package static func capped(_ name: String, bytes: Int) -> String {
        guard name.utf8.count > bytes else { return name }
        let (stem, ext) = split(name)
        var kept = ""
        var used = ext.utf8.count
        for character in stem {
            let size = character.utf8.count
            if used + size > bytes { break }
            kept.append(character)
            used += size
        }
        while let last = kept.last, last == "." || last == " " { kept.removeLast() }
        if kept.isEmpty { return "download" + ext }
        return kept + ext
    }
}
