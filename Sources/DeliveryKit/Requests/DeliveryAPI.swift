/// The delivery services, shaped like Oracle's Swift SDK: a factory per service, builder methods
/// that return a changed copy, and `DeliveryClient` to run the result.
///
/// ```swift
/// let request = DeliveryAPI.listAssets()
///     .query(QueryBuilder(node: try .equal(field: "type", value: "Article")))
///     .order(.field("fields.published_date", .desc))
///     .limit(50)
/// let page = try await client.fetch(request)
/// ```
import OCEQCore

public enum DeliveryAPI {
    /// The page size the SDK sends when none is given.
    public static let defaultLimit = 100
    /// The largest page the API serves.
    public static let maximumLimit = 500

    /// `GET /items`: search or list items (`offset=0`, `limit=100`, `totalResults=true` by default).
    public static func listAssets() -> ListAssets { ListAssets() }

    /// `GET /items/{id}` (`expand=all` by default).
    public static func readAsset(id: String) -> ReadAsset { ReadAsset(target: .id(id)) }

    /// `GET /items/.by.slug/{slug}` (`expand=all` by default).
    public static func readAsset(slug: String) -> ReadAsset { ReadAsset(target: .slug(slug)) }

    /// `GET /items/{id}/variations`: every variation set of an item.
    public static func listVariations(id: String) -> ListVariations { ListVariations(id: id) }

    /// `GET /items/{id}/variations/{type}`: one variation set (`language`, ...).
    public static func listVariations(id: String, type: String) -> ListVariationsOfType {
        ListVariationsOfType(id: id, type: type)
    }

    /// `GET /items/{id}/variations/{type}/{value}`: the item in one variation (`expand=all` by default).
    public static func readVariation(id: String, type: String, value: String) -> ReadAsset {
        ReadAsset(target: .variation(.id(id), type: type, value: value))
    }

    /// `GET /items/.by.slug/{slug}/variations/{type}/{value}` (`expand=all` by default).
    public static func readVariation(slug: String, type: String, value: String) -> ReadAsset {
        ReadAsset(target: .variation(.slug(slug), type: type, value: value))
    }

    /// `GET /assets/{id}/native`: the original file.
    public static func downloadNative(id: String) -> DownloadNative { DownloadNative(id: id) }

    /// `GET /assets/{id}/{rendition}?format=&type=` (blank format/type are omitted, others trimmed).
    public static func downloadRendition(
        id: String, renditionName: String, format: String? = nil, type: String? = nil
    ) -> DownloadRendition {
        DownloadRendition(id: id, renditionName: renditionName, format: format, type: type)
    }

    /// The thumbnail URL the SDK derives from the file group: `/assets/{id}/thumbnail?type=uithumbnail`,
    /// or `/assets/{id}/Thumbnail?format=jpg&type=advancedvideo` for an advanced video.
    public static func downloadThumbnail(
        id: String, fileGroup: String, advancedVideo: Bool = false
    ) -> DownloadThumbnail {
        DownloadThumbnail(id: id, fileGroup: fileGroup, advancedVideo: advancedVideo)
    }

    /// `GET /taxonomies` (`offset=0`, `limit=100`, `totalResults=true` by default).
    public static func listTaxonomies() -> ListTaxonomies { ListTaxonomies() }

    /// `GET /taxonomies/{id}`
    public static func readTaxonomy(id: String) -> ReadTaxonomy { ReadTaxonomy(id: id) }

    /// `GET /taxonomies/{id}/categories` (`offset=0`, `limit=100`, `totalResults=true` by default).
    public static func listTaxonomyCategories(taxonomyId: String) -> ListTaxonomyCategories {
        ListTaxonomyCategories(taxonomyId: taxonomyId)
    }

    /// `GET /taxonomies/{id}/categories/{categoryId}`
    public static func readTaxonomyCategory(taxonomyId: String, categoryId: String) -> ReadTaxonomyCategory {
        ReadTaxonomyCategory(taxonomyId: taxonomyId, categoryId: categoryId)
    }
}

extension DeliveryAPI {
    /// The thumbnail request for an asset: advanced only for a `Videos` asset that really carries
    /// `advancedVideoInfo` (the SDK's model always has one, which misroutes every video).
    public static func downloadThumbnail(for asset: Asset) -> DownloadThumbnail {
        let fileGroup = asset.fileGroup ?? asset.digitalAsset?.fileGroup ?? ""
        return downloadThumbnail(
            id: asset.id, fileGroup: fileGroup, advancedVideo: asset.digitalAsset?.advancedVideoInfo != nil)
    }
}
