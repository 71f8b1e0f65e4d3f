/// A C library that oceq opens at first use (SQLite, libmicrohttpd, libarchive, libvips, ...) is not
/// installed, or lacks a function oceq calls. Its description is the one line the shell prints, naming
/// the Debian package that provides the library.
package struct LibraryUnavailable: Error, Sendable, Equatable, CustomStringConvertible {
    /// The library's name as users know it ("SQLite").
    package var library: String
    /// The Debian package that provides it ("libsqlite3-0").
    package var debianPackage: String
    /// What the dynamic loader said (a missing file or function).
    package var reason: String

    /// The exit code of a command that stops for this error: 127, as a shell's for a missing program.
    package static let exitCode: Int32 = 127

    /// An unavailable `library` from `debianPackage`, with the loader's `reason`.
    package init(library: String, debianPackage: String, reason: String) {
        self.library = library
        self.debianPackage = debianPackage
        self.reason = reason
    }

    /// The library cannot be used, why, and what to install.
    package var description: String {
        "\(library) cannot be used (\(reason)); install it with: apt-get install \(debianPackage)"
    }
}
