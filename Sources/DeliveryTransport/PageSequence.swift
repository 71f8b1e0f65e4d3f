/// The pages of a list, fetched lazily: one request per `next()`, never more than 500 per page,
/// ending when a page says `hasMore: false` (or brings no items, or reaches `totalResults`).
import DeliveryKit
import OCEQCore

public struct PageSequence<Request: PagedRequest>: AsyncSequence, Sendable {
    public typealias Element = Page<Request.Element>
    public typealias Failure = DeliveryError

    let client: DeliveryClient
    let request: Request

    public func makeAsyncIterator() -> Iterator {
        Iterator(client: client, request: request, limit: pageLimit, nextOffset: Swift.max(0, request.requestedOffset))
    }

    /// The items asked for a page: the request's limit, at most 500 (the API's default without one).
    var pageLimit: Int {
        let requested = request.requestedLimit
        return requested <= 0 ? DeliveryAPI.defaultLimit : Swift.min(requested, DeliveryAPI.maximumLimit)
    }

    /// The offset of the page after `page` (asked for at `offset`), or nil when `page` is the last.
    static func offset<E>(after page: Page<E>, at offset: Int) -> Int? {
        let following = offset + page.count
        guard page.hasMore && page.count > 0 && following > offset && following < (page.totalResults ?? Int.max)
        else { return nil }
        return following
    }

    /// The request of the first page, exactly as the first `next()` sends it.
    public var firstPageRequest: Request {
        request.page(offset: Swift.max(0, request.requestedOffset), limit: pageLimit)
    }

    /// Fetches the next page on demand.
    public struct Iterator: AsyncIteratorProtocol, Sendable {
        let client: DeliveryClient
        let request: Request
        let limit: Int
        var nextOffset: Int?

        public mutating func next() async throws(DeliveryError) -> Page<Request.Element>? {
            guard let offset = nextOffset else { return nil }
            nextOffset = nil
            let page = try await client.fetch(request.page(offset: offset, limit: limit))
            nextOffset = PageSequence.offset(after: page, at: offset)
            return page
        }

        public mutating func next(
            isolation actor: isolated (any Actor)?
        ) async throws(DeliveryError) -> Page<
            Request.Element
        >? {
            try await next()
        }
    }
}

/// The items of a list, page by page; only the current page is held.
public struct ItemSequence<Request: PagedRequest>: AsyncSequence, Sendable {
    public typealias Element = Request.Element
    public typealias Failure = DeliveryError

    let pages: PageSequence<Request>

    public func makeAsyncIterator() -> Iterator { Iterator(pages: pages.makeAsyncIterator()) }

    /// Hands out the current page's items, fetching the next page when they run out.
    public struct Iterator: AsyncIteratorProtocol, Sendable {
        var pages: PageSequence<Request>.Iterator
        var buffer: [Request.Element] = []
        var index = 0

        public mutating func next() async throws(DeliveryError) -> Request.Element? {
            while index >= buffer.count {
                guard let page = try await pages.next() else { return nil }
                buffer = page.items
                index = 0
            }
            defer { index += 1 }
            return buffer[index]
        }

        public mutating func next(
            isolation actor: isolated (any Actor)?
        ) async throws(DeliveryError) -> Request
            .Element?
        {
            try await next()
        }
    }
}
