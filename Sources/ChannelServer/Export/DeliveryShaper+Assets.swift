import OCEQCore

extension DeliveryShaper {
    /// Rewrites the system fields of an asset: `metadata` (pixel size as strings), `size` (bytes
    /// on disk), `native` (a link on this server), `renditions` (the system renditions for
    /// images, none otherwise), `mimeType`, `fileType`; `fileGroup` moves to the top level.
    func shapeAssetFields(_ fields: inout [String: JSON], item: ExportItem, prepared: Prepared, links: Links) {
        fields["fileGroup"] = nil
        fields["mimeType"] = .string(prepared.mimeType)
        if fields["fileType"]?.stringValue == nil, !prepared.fileExtension.isEmpty {
            fields["fileType"] = .string(prepared.fileExtension == "jpg" ? "jpeg" : prepared.fileExtension)
        }
        if let size = item.nativeSize { fields["size"] = .int(size) }
        fields["native"] = .object([
            "links": links.array([
                links.native(prepared.idSegment, file: prepared.fileSegment, mimeType: prepared.mimeType)
            ])
        ])

        guard prepared.mimeType.hasPrefix("image/"), let native = item.imageSize else {
            fields["renditions"] = nil
            return
        }
        var metadata = fields["metadata"]?.objectValue ?? [:]
        metadata["width"] = .string(String(native.width))
        metadata["height"] = .string(String(native.height))
        fields["metadata"] = .object(metadata)
        fields["renditions"] = .array(
            Self.renditions(
                native: native, nativeSize: item.nativeSize, mimeType: prepared.mimeType, links: links,
                idSegment: prepared.idSegment, fileSegment: prepared.fileSegment))
    }

    /// The four system renditions × jpg/png/webp. A format's `size` is the native file's size when
    /// that rendition is the native file itself (same pixel size and format; the rendition engine then
    /// serves the native's bytes), else 0 (not made yet), as OCM reports renditions it has not generated.
    static func renditions(
        native: ImageSize, nativeSize: Int?, mimeType: String, links: Links, idSegment: String, fileSegment: String
    ) -> [JSON] {
        return SystemRendition.all.map { rendition in
            let size = rendition.size(forNative: native)
            let formats: [JSON] = SystemRendition.formats.map { format in
                let isNative = rendition.isNativeFile(native: native, format: format.format, nativeMimeType: mimeType)
                let bytes = isNative ? (nativeSize ?? 0) : 0
                return .object([
                    "format": .string(format.format),
                    "size": .int(bytes),
                    "mimeType": .string(format.mimeType),
                    "metadata": .object(["width": .string(String(size.width)), "height": .string(String(size.height))]),
                    "links": links.array([
                        links.rendition(
                            idSegment, name: rendition.name, file: fileSegment, format: format.format,
                            mimeType: format.mimeType)
                    ]),
                ])
            }
            return .object([
                "name": .string(rendition.name), "type": .string(SystemRendition.renditionType),
                "formats": .array(formats),
            ])
        }
    }
}
