/// `GET /assets/{id}/native`: the original file of a digital asset.
import OCEQCore

public struct DownloadNative: DownloadRequest, ParameterizedRequest {
    public let id: String
    public var parameters = RequestParameters()

    init(id: String) { self.id = id }

    public func endpoint() throws(DeliveryError) -> Endpoint {
        try requireNonEmpty(id, "Asset identifier cannot be empty.")
        return try parameters.endpoint(["assets", id, "native"])
    }
}

/// `GET /assets/{id}/{renditionName}?format=&type=`: a named rendition.
public struct DownloadRendition: DownloadRequest, ParameterizedRequest {
    public let id: String
    public let renditionName: String
    public var parameters = RequestParameters()

    init(id: String, renditionName: String, format: String?, type: String?) {
        self.id = id
        self.renditionName = renditionName
        let format = (format ?? "").trimmedWhitespace
        let type = (type ?? "").trimmedWhitespace
        if !format.isEmpty { parameters["format"] = format }
        if !type.isEmpty { parameters["type"] = type }
    }

    public func endpoint() throws(DeliveryError) -> Endpoint {
        try requireNonEmpty(id, "Asset identifier cannot be empty.")
        try requireNonEmpty(renditionName, "Rendition name cannot be empty.")
        return try parameters.endpoint(["assets", id, renditionName])
    }
}

/// The thumbnail as Oracle's SDK requests it, chosen from the file group (delivery-api.md E7).
public struct DownloadThumbnail: DownloadRequest, ParameterizedRequest {
    public let id: String
    public let fileGroup: String
    /// True only for a video hosted by an advanced-video provider.
    public let advancedVideo: Bool
    public var parameters = RequestParameters()

    init(id: String, fileGroup: String, advancedVideo: Bool) {
        self.id = id
        self.fileGroup = fileGroup
        self.advancedVideo = advancedVideo
    }

    public func endpoint() throws(DeliveryError) -> Endpoint {
        try requireNonEmpty(id, "Asset identifier cannot be empty.")
        if advancedVideo && fileGroup == "Videos" {
            return try parameters.endpoint(
                ["assets", id, "Thumbnail"], leading: [QueryItem("format", "jpg"), QueryItem("type", "advancedvideo")])
        }
        return try parameters.endpoint(["assets", id, "thumbnail"], leading: [QueryItem("type", "uithumbnail")])
    }
}
