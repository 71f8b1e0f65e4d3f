import OCEQCore

/// The system renditions OCM generates for every image, as `oceq serve` advertises them.
///
/// Widths follow the 2021 export and the Delivery fixtures: `Thumbnail` 150, `Small` 300,
/// `Medium` 1024 and `Large` the native width, never upscaled; the height is the native height
/// scaled by the same factor and rounded down (1900×1200 → 150×94, 300×189, 1024×646).
public struct SystemRendition: Sendable, Hashable {
    /// `Thumbnail`, `Small`, `Medium` or `Large` (case as in links).
    public var name: String
    /// The width cap; nil for `Large` (the native width).
    public var maximumWidth: Int?

    public init(name: String, maximumWidth: Int?) {
        self.name = name
        self.maximumWidth = maximumWidth
    }

    /// In the order OCM lists them (Thumbnail, Medium, Large, Small — as in the export and the
    /// Delivery fixtures).
    public static let all: [SystemRendition] = [
        SystemRendition(name: "Thumbnail", maximumWidth: 150),
        SystemRendition(name: "Medium", maximumWidth: 1024),
        SystemRendition(name: "Large", maximumWidth: nil),
        SystemRendition(name: "Small", maximumWidth: 300),
    ]

    /// The rendition `type` of system renditions.
    public static let renditionType = "responsiveimage"

    /// The formats each system rendition is offered in, with their MIME types.
    public static let formats: [(format: String, mimeType: String)] = [
        ("jpg", "image/jpeg"), ("png", "image/png"), ("webp", "image/webp"),
    ]

    /// The system rendition called `name` (case-insensitive), or nil.
    public static func named(_ name: String) -> SystemRendition? {
        let lower = name.lowercased()
        return all.first { $0.name.lowercased() == lower }
    }

    /// The pixel size of this rendition of an image of `native` size.
    public func size(forNative native: ImageSize) -> ImageSize {
        let width = min(maximumWidth ?? native.width, native.width)
        if width == native.width { return native }
        let height = max(1, native.height * width / native.width)
        return ImageSize(width: width, height: height)
    }

    /// True when this rendition of an image of `native` pixels, asked in `format`, is the native file
    /// itself: no resizing is needed and the format is the native's. The shaper advertises the
    /// native's byte size there and the rendition engine serves the native's bytes, so both ask this.
    public func isNativeFile(native: ImageSize, format: String, nativeMimeType: String) -> Bool {
        size(forNative: native) == native && format == Self.nativeFormat(forMimeType: nativeMimeType)
    }

    /// The pixel size of the `uithumbnail` rendition an export declares in an asset's `fields`
    /// (2018 exports list `{name: "thumbnail", type: "uithumbnail", formats: [{metadata: {width,
    /// height}}]}`), or nil when it declares none.
    public static func declaredUIThumbnail(in fields: [String: JSON]) -> ImageSize? {
        for rendition in fields["renditions"]?.arrayValue ?? [] where rendition["type"]?.stringValue == "uithumbnail" {
            for format in rendition["formats"]?.arrayValue ?? [] {
                guard let metadata = format["metadata"], let width = dimension(metadata["width"]),
                    let height = dimension(metadata["height"]), width > 0, height > 0
                else { continue }
                return ImageSize(width: width, height: height)
            }
        }
        return nil
    }

    /// A width or height written as a string (`"300"`) or a number.
    private static func dimension(_ value: JSON?) -> Int? {
        value?.intValue ?? value?.stringValue.flatMap { Int($0) }
    }

    /// The rendition format that is the native file itself (`jpg` for JPEG, ...), or nil.
    public static func nativeFormat(forMimeType mime: String) -> String? {
        switch mime {
        case "image/jpeg": return "jpg"
        case "image/png": return "png"
        case "image/webp": return "webp"
        default: return nil
        }
    }
}
