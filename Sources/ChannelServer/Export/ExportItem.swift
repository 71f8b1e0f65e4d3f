import DeliveryKit

/// One item of a channel export (a content item or a digital asset), as read from its JSON file.
///
/// The standard fields are lifted out of the management-form JSON and normalised (a missing
/// `typeCategory` is inferred); `fields` keeps the exported user fields as they are, references
/// still as stubs (`{id, type, ...}`), so the index and the delivery shaper share one source.
public struct ExportItem: Sendable {
    /// `CORE…` for content items, `CONT…` for digital assets.
    public var id: String
    /// The content or asset type name (`Image`, `DigitalAsset`, `OCEGettingStartedArticle`, ...).
    public var type: String
    /// `ContentType` or `DigitalAssetType`, never empty.
    public var typeCategory: String
    public var name: String
    public var description: String
    public var slug: String?
    public var language: String?
    public var translatable: Bool?
    /// `{value, timezone}` objects as exported (values carry milliseconds).
    public var createdDate: JSON?
    public var updatedDate: JSON?
    /// The user fields (content items) or asset fields (digital assets), management form.
    public var fields: [String: JSON]
    /// Absolute path of the native binary on disk (digital assets only).
    public var nativeFile: String?
    /// The whole exported JSON object, for keys the shaper passes through.
    public var raw: [String: JSON]
    /// The file the item was read from, for messages.
    public var sourceFile: String

    /// True for digital assets.
    public var isDigitalAsset: Bool { typeCategory == "DigitalAssetType" }

    public init(
        id: String, type: String, typeCategory: String, name: String, description: String = "",
        slug: String? = nil, language: String? = nil, translatable: Bool? = nil,
        createdDate: JSON? = nil, updatedDate: JSON? = nil, fields: [String: JSON] = [:],
        nativeFile: String? = nil, raw: [String: JSON] = [:], sourceFile: String = ""
    ) {
        self.id = id
        self.type = type
        self.typeCategory = typeCategory
        self.name = name
        self.description = description
        self.slug = slug
        self.language = language
        self.translatable = translatable
        self.createdDate = createdDate
        self.updatedDate = updatedDate
        self.fields = fields
        self.nativeFile = nativeFile
        self.raw = raw
        self.sourceFile = sourceFile
    }
}
