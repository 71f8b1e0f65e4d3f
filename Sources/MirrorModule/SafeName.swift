// Names from the server that become path components. An id or a type name that is not a plain
// name is refused (the item is not mirrored); a file name that core's `SafeFileName` would change
// (separators, control and bidi characters, hidden, device names, too long) is replaced by one made
// from the id, which the export reader finds as the single file of the asset's folder.

import OCEQCore

/// Checks and makes path components out of server text.
enum SafeName {
    /// `[A-Za-z0-9_-]`, 1 to 128 characters: every id OCM makes (`CORE…`, `CONT…`) fits.
    static func isValidID(_ id: String) -> Bool {
        let bytes = Array(id.utf8)
        return !bytes.isEmpty && bytes.count <= 128 && bytes.allSatisfy { isWordByte($0) }
    }

    /// `[A-Za-z0-9_.-]`, 1 to 128 characters, not starting with `.`: a type folder name.
    static func isValidTypeName(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        return !bytes.isEmpty && bytes.count <= 128 && bytes[0] != UInt8(ascii: ".")
            && bytes.allSatisfy { isWordByte($0) || $0 == UInt8(ascii: ".") }
    }

    /// The asset's name when it is a safe file name as it is (`SafeFileName.isSafe`), else `<id>`
    /// plus the extension when that is plain.
    static func fileName(_ name: String, id: String, fileExtension: String?) -> String {
        if SafeFileName.isSafe(name) { return name }
        if let ext = fileExtension, !ext.isEmpty, ext.utf8.count <= 16, ext.utf8.allSatisfy(isWordByte) {
            return id + "." + ext
        }
        return id
    }

    private static func isWordByte(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
            || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
    }
}
