// NativeContainment: whether an asset's native file lies inside its export. Checked when the export
// is loaded (`ItemReader.locateNative`) and again on every asset request, renditions already made
// included: a link planted or swapped in after loading never hands out a file from outside
// (`SymlinkContainmentTests`).
//
// The test is realpath's: the canonical path lies under the export's canonical root. `realpath`
// itself costs a readlink per component (a fifth of a cached rendition's CPU); most exports hold
// no link at all, so the common case is one openat2 with RESOLVE_NO_SYMLINKS. When it opens the
// path, no component is a link, so a path already in canonical form (absolute, no `.`, `..` or
// empty component) is its own realpath and is compared as text. Anything else (a link on the way, a
// kernel without openat2, a missing file) takes `FileSystem.reaches`, which has the kernel name the
// file the path reaches.
import CSystem
import Glibc
import OCEQCore

/// The containment check of a native file (see the design note above).
enum NativeContainment {
    /// True when `native`, its links resolved, exists and lies inside `root` (a canonical path):
    /// `FileSystem.resolves(native, inside: root)`, in two calls when the path holds no link.
    static func holds(_ native: String, root: String) -> Bool {
        if isCanonical(native) {
            let fd = oceq_open_path_without_links(native)
            if fd >= 0 {
                close(fd)
                return FileSystem.isInside(native, root: root)
            }
        }
        return FileSystem.reaches(native, inside: root)
    }

    /// True for an absolute path without empty, `.` or `..` components (nor a trailing `/`): the form
    /// `realpath` gives, which a path without links keeps.
    static func isCanonical(_ path: String) -> Bool {
        var path = path
        return path.withUTF8 { bytes in
            let slash = UInt8(ascii: "/")
            let dot = UInt8(ascii: ".")
            guard bytes.first == slash else { return false }
            var length = 0  // of the current component
            var dots = 0  // how many of its bytes are dots
            for index in 1...bytes.count {
                if index == bytes.count || bytes[index] == slash {
                    if length == 0 || length == dots && dots <= 2 { return false }
                    length = 0
                    dots = 0
                } else {
                    length += 1
                    if bytes[index] == dot { dots += 1 }
                }
            }
            return true
        }
    }
}
