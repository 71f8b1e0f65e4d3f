/// The facts of an asset's native file an `ExportItem` holds out of line (content items have none).
struct AssetFile: Sendable {
    var nativeFile: String?
    var exportRoot: String?
    var fileExtension: String?
    var nativeSize: Int?
    var imageSize: ImageSize?
}

/// The box `ExportItem` keeps its `AssetFile` in. It is only changed while uniquely referenced
/// (`ExportItem` copies it first otherwise), so sharing it between threads is safe.
final class AssetFileBox: @unchecked Sendable {
    var file: AssetFile

    init(_ file: AssetFile) { self.file = file }
}
