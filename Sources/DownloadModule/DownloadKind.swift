/// What `download` fetches of an asset.
package enum DownloadKind: Sendable, Hashable {
    /// The original file.
    case native
    /// A named rendition in one format (nil: the server's choice).
    case rendition(name: String, format: String?)
    /// The thumbnail as the SDK requests it.
    case thumbnail

    /// `native`, `rendition` or `thumbnail`.
    package var kindName: String {
        switch self {
        case .native: return "native"
        case .rendition: return "rendition"
        case .thumbnail: return "thumbnail"
        }
    }

    /// The rendition's name, for a rendition.
    package var renditionName: String? {
        if case .rendition(let name, _) = self { return name }
        return nil
    }

    /// The rendition's format, for a rendition with one.
    package var format: String? {
        if case .rendition(_, let format) = self { return format }
        return nil
    }

    /// A key that tells kinds apart (`rendition/Medium/webp`). Built by concatenation: an array
    /// joined cost 2 K instructions, four times a file (callgrind, 500 renditions).
    package var key: String { kindName + "/" + (renditionName ?? "") + "/" + (format ?? "") }

    /// The kind of a manifest entry.
    init?(kindName: String, rendition: String?, format: String?) {
        switch kindName {
        case "native": self = .native
        case "thumbnail": self = .thumbnail
        case "rendition":
            guard let rendition else { return nil }
            self = .rendition(name: rendition, format: format)
        default: return nil
        }
    }
}
