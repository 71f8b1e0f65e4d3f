/// One page of a list response (`/items`, `/taxonomies`, categories, nested `children`).
import OCEQCore

public struct Page<Element: Sendable>: Sendable {
    /// Whether more results follow this page.
    public var hasMore: Bool
    /// Index of the first item of this page.
    public var offset: Int
    /// Number of items in this page.
    public var count: Int
    /// The page size the server used (it may differ from the one requested).
    public var limit: Int?
    /// Total matches, when `totalResults=true` was sent.
    public var totalResults: Int?
    /// The items of this page.
    public var items: [Element]
    /// `self`, `canonical`, `describedby`, `first`, `last`, `prev`, `next`.
    public var links: [Link]

    public init(
        hasMore: Bool, offset: Int, count: Int, limit: Int? = nil, totalResults: Int? = nil, items: [Element],
        links: [Link] = []
    ) {
        self.hasMore = hasMore
        self.offset = offset
        self.count = count
        self.limit = limit
        self.totalResults = totalResults
        self.items = items
        self.links = links
    }

    /// Decodes a list envelope; `items` must be an array and each element must decode.
    ///
    /// A missing `count` is the number of items and a missing `offset` is 0; a missing `hasMore`
    /// is derived from `totalResults` when present, else false, so paging always ends.
    public init(json: JSON, path: String = "", element: (JSON, String) throws(ShapeError) -> Element) throws(ShapeError)
    {
        let reader = try JSONObjectReader(json, path: path, expected: "a list object with \"items\"")
        guard case .array = reader.members["items"] else {
            throw ShapeError(
                path: reader.child("items"), expected: "an array of items", found: reader.members["items"])
        }
        let items = try reader.array("items", element)
        let offset = reader.int("offset") ?? 0
        let count = reader.int("count") ?? items.count
        let totalResults = reader.int("totalResults")
        self.init(
            hasMore: reader.bool("hasMore") ?? totalResults.map { offset + count < $0 } ?? false,
            offset: offset, count: count, limit: reader.int("limit"), totalResults: totalResults, items: items,
            links: reader.links())
    }
}

extension Page: Equatable where Element: Equatable {}
extension Page: Hashable where Element: Hashable {}
