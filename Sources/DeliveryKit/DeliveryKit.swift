// DeliveryKit: the client of Oracle Content Management's REST API for Content Delivery v1.1.
//
// Layers, bottom up: `JSON` (values, parser, writer); the query tree (`QueryNode`, `QueryBuilder`)
// that renders the `q` text; request values (`DeliveryAPI.listAssets()` and friends) that build a
// URL and never touch the network; models decoded from `JSON` (`Asset`, `Page`, `Taxonomy`, ...);
// and a `Transport` seam. No C: the libcurl implementation (`CurlTransport`) and `DeliveryClient`, which
// sends requests with retries, pages through lists and streams downloads to disk, are DeliveryTransport.
import OCEQCore

/// Facts about this library.
public enum DeliveryKitInfo {
    /// The version sent in the default `User-Agent: oceq/<version>`.
    public static let version = "0.1.0"

    /// The default user agent.
    public static var userAgent: String { "oceq/\(version)" }
}
