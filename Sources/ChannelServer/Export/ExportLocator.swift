// Finds the content folders a user's PATH stands for.
//
// A content folder is recognised by what it holds, never by its name: a `ContentItems/` folder,
// or `metadata.json` beside `ContentTypes/` (an export of types only). PATH may be such a folder,
// a folder holding one up to three levels down (`contentexport/`, `Content Template of X/`,
// `assets/contenttemplate/Content Template of X/` under an unpacked site template), an export zip,
// or a zip holding export zips (a site template's `template/assets/contenttemplate/export.zip`).
// Zips are extracted into the cache by `ZipExtractor`; nested zips are opened two levels deep.

import Glibc
import OCEQCore

struct ExportLocator {
    var extractor: ZipExtractor

    /// How many folder levels below PATH are searched for a content folder.
    static let searchDepth = 3
    /// How many zips inside zips are opened.
    static let maximumZipNesting = 2

    /// The content folders found for one PATH, and what was skipped on the way.
    struct Located {
        var roots: [String] = []
        var issues: [ExportIssue] = []
    }

    /// The content folders PATH stands for; an error when there is none.
    func locate(_ path: String) throws(ExportError) -> Located {
        try locate(path, nesting: 0, shownAs: path)
    }

    private func locate(_ path: String, nesting: Int, shownAs shown: String) throws(ExportError) -> Located {
        let absolute = FileSystem.absolute(path)
        let info: stat
        switch FileSystem.status(absolute) {
        case .failure(let error):
            if error.code == ENOENT || error.code == ENOTDIR { throw ExportError.notFound(path: shown) }
            throw ExportError.unreadable(path: shown, reason: error.reason)
        case .success(let value):
            info = value
        }
        switch FileSystem.kind(mode: info.st_mode) {
        case .directory:
            guard FileSystem.isReadable(absolute, directory: true) else {
                throw ExportError.unreadable(path: shown, reason: String(cString: strerror(EACCES)))
            }
            return try locateInFolder(absolute, nesting: nesting, shownAs: shown)
        case .regular:
            guard FileSystem.isReadable(absolute, directory: false) else {
                throw ExportError.unreadable(path: shown, reason: String(cString: strerror(EACCES)))
            }
            guard ZipExtractor.looksLikeZip(absolute) else {
                throw ExportError.notAnExport(path: shown, reason: "neither a folder nor a zip file")
            }
            guard nesting <= Self.maximumZipNesting else {
                throw ExportError.notAnExport(path: shown, reason: "zips nested too deep")
            }
            let (folder, skipped) = try extractor.extract(absolute)
            var located: Located
            do {
                located = try locateInFolder(folder, nesting: nesting + 1, shownAs: shown)
            } catch {
                // A zip refused after extraction (not an export) leaves nothing in the cache.
                FileSystem.removeTree(folder)
                throw error
            }
            located.issues = skipped + located.issues
            return located
        case .missing:
            throw ExportError.notFound(path: shown)
        case .other:
            throw ExportError.notAnExport(path: shown, reason: "not a regular file or folder")
        }
    }

    private func locateInFolder(_ folder: String, nesting: Int, shownAs shown: String) throws(ExportError) -> Located {
        var roots: [String] = []
        var zips: [String] = []
        // Links are followed only while they stay inside PATH: a `../` link or a content folder
        // linked in from elsewhere is not part of the export.
        let inside = FileSystem.realPath(folder) ?? folder
        do {
            try search(folder, inside: inside, depth: 0, roots: &roots, zips: &zips)
        } catch {
            throw ExportError.unreadable(path: shown, reason: error.reason)
        }
        if !roots.isEmpty { return Located(roots: roots) }

        // No content folder: open export zips found on the way, preferring a site template's
        // `contenttemplate/` folder over any other zip.
        let templateZips = zips.filter { $0.split(separator: "/").dropLast().last == "contenttemplate" }
        let candidates = templateZips.isEmpty ? zips : templateZips
        var located = Located()
        if nesting <= Self.maximumZipNesting {
            for zip in candidates {
                let innerShown =
                    nesting == 0 ? zip : shown + " → " + zip.split(separator: "/").suffix(3).joined(separator: "/")
                do {
                    let inner = try locate(zip, nesting: nesting, shownAs: innerShown)
                    located.roots += inner.roots
                    located.issues += inner.issues
                } catch {
                    if case .notAnExport = error, candidates.count > 1 {
                        located.issues.append(ExportIssue(file: innerShown, message: "holds no export; skipped"))
                        continue
                    }
                    throw error
                }
            }
        }
        if located.roots.isEmpty {
            throw ExportError.notAnExport(
                path: shown,
                reason:
                    "no folder with ContentItems/ (or metadata.json and ContentTypes/) within \(Self.searchDepth) levels"
            )
        }
        return located
    }

    private func search(
        _ folder: String, inside root: String, depth: Int, roots: inout [String], zips: inout [String]
    )
        throws(FileSystemError)
    {
        let entries: [DirectoryEntry]
        do {
            entries = try FileSystem.list(folder, inside: root)
        } catch {
            if depth == 0 { throw error }
            return  // an unreadable subfolder is simply not searched
        }
        if Self.isContentFolder(entries) {
            roots.append(folder)
            return
        }
        for entry in entries where entry.kind == .regular && entry.name.lowercased().hasSuffix(".zip") {
            zips.append(folder + "/" + entry.name)
        }
        guard depth < Self.searchDepth else { return }
        for entry in entries where entry.kind == .directory {
            if entry.name.hasPrefix(".") || entry.name == "META-INF" || entry.name == "__MACOSX" { continue }
            try search(folder + "/" + entry.name, inside: root, depth: depth + 1, roots: &roots, zips: &zips)
        }
    }

    /// True for a folder holding `ContentItems/`, or `metadata.json` beside `ContentTypes/`.
    static func isContentFolder(_ entries: [DirectoryEntry]) -> Bool {
        var hasMetadata = false
        var hasTypes = false
        for entry in entries {
            if entry.name == "ContentItems" && entry.kind == .directory { return true }
            if entry.name == "metadata.json" && entry.kind == .regular { hasMetadata = true }
            if entry.name == "ContentTypes" && entry.kind == .directory { hasTypes = true }
        }
        return hasMetadata && hasTypes
    }
}
