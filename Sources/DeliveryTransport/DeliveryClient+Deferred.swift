// A page of a list read with its items left unbuilt (`JSON.parse(_:skipping:deferring:)`): the page
// around the items is parsed as it arrives and the items only delimited (a page cut short or broken
// outside its items fails before any item is used, as `fetch` fails); each item is read in place,
// checked and decoded when asked for (`JSONReader`: the caller's reader takes the values it needs
// and builds no tree), so a malformed item fails in its turn. A caller that acts on each item (a
// download plans and requests one file per item) starts on the first before the others are read.

import DeliveryKit
import OCEQCore

/// Decodes one item of a page where it lies, with its path in the page (`items[3]`) for messages:
/// it throws the reader's `JSONParseError` for malformed JSON and a `ShapeError` for a value of
/// the wrong shape. It reads no link, or redacts those it builds: the hrefs carry the channel token.
public typealias DeferredElementReader<Element> = @Sendable (inout JSONReader, String) throws -> Element

/// A page of a list whose items are decoded one at a time (`DeliveryClient.fetchDeferred`).
public struct DeferredPage<Element: Sendable>: Sendable {
    /// The page; its items are their positions (`0 ..< count`), for `item(_:)`.
    public let page: Page<Int>
    let elements: JSONDeferredElements
    let decode: DeferredElementReader<Element>
    let url: String

    /// How many items the page holds.
    public var count: Int { page.items.count }

    /// The item at `position`, read and decoded.
    public func item(_ position: Int) throws(DeliveryError) -> Element {
        let path = "items[\(position)]"
        do {
            return try elements.read(position) { reader in try decode(&reader, path) }
        } catch let error as JSONParseError {
            throw .malformedJSON(url: url, error)
        } catch let error as ShapeError {
            throw .unexpectedShape(url: url, error)
        } catch {
            throw .unexpectedShape(url: url, ShapeError(path: path, expected: "an item", found: "\(error)"))
        }
    }
}

extension DeliveryClient {
    /// Sends `request` (a page of a list) and returns the page with its items not yet built; `element`
    /// decodes one (with its path in the page, for messages). An answer sent ahead with
    /// `sendAhead(deferring:element:)` for the same request is taken instead of sending it again.
    nonisolated(nonsending) public func fetchDeferred<R: PagedRequest, Element: Sendable>(
        _ request: R, element: @escaping DeferredElementReader<Element>
    ) async throws(DeliveryError) -> DeferredPage<Element> {
        let prepared = try prepare(request)
        if let answer = await answerAhead(prepared, form: .deferred, as: DeferredPage<Element>.self) {
            return answer
        }
        return try deferredPage(try await sendForJSON(prepared), prepared, element: element)
    }

    /// Sends `request` (a page of a list) now, to be read as `fetchDeferred` reads it: the next
    /// `fetchDeferred` of it (by this client or a copy, skipping the same members) takes its answer.
    /// For the first page that `deferredPages` reads, send `pages(request).firstPageRequest`.
    public func sendAhead<R: PagedRequest, Element: Sendable>(
        deferring request: R, element: @escaping DeferredElementReader<Element>
    ) {
        guard let prepared = try? prepare(request) else { return }
        let client = self
        sendAhead(prepared, form: .deferred) { () async throws(DeliveryError) -> any Sendable in
            try client.deferredPage(try await client.sendForJSON(prepared), prepared, element: element)
        }
    }

    /// `body`, the answer to `prepared`, as a page whose items are built when asked for.
    func deferredPage<Element: Sendable>(
        _ body: [UInt8], _ prepared: PreparedRequest,
        element: @escaping DeferredElementReader<Element>
    ) throws(DeliveryError) -> DeferredPage<Element> {
        let head: JSON
        let elements: JSONDeferredElements
        do {
            (head, elements) = try JSON.parse(body, skipping: skippedMembers, deferring: "items")
        } catch {
            throw .malformedJSON(url: prepared.redactedURL, error)
        }
        var page: Page<Int>
        do {
            page = try Page(json: head) { (json, path) throws(ShapeError) -> Int in
                guard let position = json.intValue else {
                    throw ShapeError(path: path, expected: "an item", found: json)
                }
                return position
            }
        } catch {
            throw .unexpectedShape(url: prepared.redactedURL, error)
        }
        // `items` held something else than the positions of deferred elements: nothing to build.
        if page.items.count != elements.count { page.items = [] }
        return DeferredPage(page: page, elements: elements, decode: element, url: prepared.redactedURL)
    }

    /// The pages of `request` read as `fetchDeferred` reads one, fetched one at a time.
    public func deferredPages<R: PagedRequest, Element: Sendable>(
        _ request: R, element: @escaping DeferredElementReader<Element>
    ) -> DeferredPages<R, Element> {
        DeferredPages(pages: pages(request), element: element)
    }
}

/// The pages of a list read with their items left unbuilt, one `next()` at a time, ending as
/// `PageSequence` ends. Each page is asked for as soon as the one before it has arrived
/// (`sendAhead`), so that it is there, or on its way, when the items before it run out.
public struct DeferredPages<Request: PagedRequest, Element: Sendable>: Sendable {
    var pages: PageSequence<Request>
    let element: DeferredElementReader<Element>
    var nextOffset: Int?

    init(pages: PageSequence<Request>, element: @escaping DeferredElementReader<Element>) {
        self.pages = pages
        self.element = element
        nextOffset = Swift.max(0, pages.request.requestedOffset)
    }

    /// The next page, or nil after the last.
    public mutating func next() async throws(DeliveryError) -> DeferredPage<Element>? {
        guard let offset = nextOffset else { return nil }
        nextOffset = nil
        let deferred = try await pages.client.fetchDeferred(
            pages.request.page(offset: offset, limit: pages.pageLimit), element: element)
        nextOffset = PageSequence<Request>.offset(after: deferred.page, at: offset)
        if let following = nextOffset {
            pages.client.sendAhead(
                deferring: pages.request.page(offset: following, limit: pages.pageLimit), element: element)
        }
        return deferred
    }
}
