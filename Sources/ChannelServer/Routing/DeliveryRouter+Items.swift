import OCEQCore

// E1 `/items`, E2 `/items/{id}`, E3 `/items/.by.slug/{slug}`, E4 variations.
extension DeliveryRouter {
    func items(_ request: ServerRequest, _ rest: [String], _ linking: LinkContext) throws(APIError) -> HTTPResponse {
        // Answers whose every `links` array `links=none` empties are shaped without making links.
        var context = linking
        context.omitsLinks = linksNone(request)
        if rest.isEmpty { return try search(request, context) }
        if rest == ["suggest"] { return try suggest(request, context) }
        let item: ExportItem
        var tail = rest
        if rest[0] == ".by.slug" {
            guard rest.count >= 2 else { throw .notFound("a slug is required after /items/.by.slug/") }
            guard let found = try lookUp(slug: rest[1]) else {
                throw .itemNotFound("no item with slug '\(rest[1])' in this channel")
            }
            item = found
            tail = Array(rest.dropFirst(2))
        } else {
            guard let found = try lookUp(id: rest[0]) else {
                // OCM's words (ErrorTests.testItemNotFound): the id as it was sent.
                throw .itemNotFound("Item not found: \(rest[0])")
            }
            item = found
            tail = Array(rest.dropFirst())
        }
        if tail.isEmpty { return json(try read(item, request, context), request, emptyingLinks: true) }
        if tail == ["taxonomies"] { return json(itemTaxonomies(item, request, linking), request) }
        guard tail[0] == "variations", tail.count <= 3 else {
            throw .notFound("no resource '\(tail.joined(separator: "/"))' under an item")
        }
        return try variations(of: item, Array(tail.dropFirst()), request, context)
    }

    /// One full item, with `expand` applied (400 for an unknown field or a deeper path).
    func read(_ item: ExportItem, _ request: ServerRequest, _ context: LinkContext) throws(APIError) -> JSON {
        let expand: ExpandSpec
        do {
            expand = try ExpandSpec.parse(expandParameter(request), for: content.contentTypes[item.type])
        } catch {
            guard case .unknownField(let name, _) = error else { throw .badRequest("invalid expand: \(error)") }
            // OCM's words, its title repeating its detail (recorded ErrorTests.testGetItemInvalidParam).
            let text =
                "Invalid fields : User defined fields [\(name.prefix(80))] does not exist for the item \(item.id)"
            throw APIError(status: 400, detail: text, code: "OCE-DELIVERY-BAD-REQUEST", title: text)
        }
        let full = try stored { () throws(IndexStorageError) in
            try shaper.full(item, context: context, expand: expand)
        }
        return filterLinks(full, request)
    }

    /// `expand` without one pair of enclosing double quotes: the JS SDK sends `expand="all"`.
    func expandParameter(_ request: ServerRequest) -> String? {
        guard let value = request.parameter("expand") else { return nil }
        let text = value.trimmingSpaces()
        guard text.count >= 2, text.hasPrefix("\""), text.hasSuffix("\"") else { return value }
        return String(text.dropFirst().dropLast())
    }

    /// The first type that a `type eq` or `type ne` condition of `query` names and the channel has no
    /// definition of (names compared exactly, as OCM compares standard fields); nil when every one is known.
    func unknownType(in query: QueryExpression) -> String? {
        switch query {
        case .condition(let condition):
            guard condition.field == "type", condition.op == .equal || condition.op == .notEqual,
                content.contentTypes[condition.value] == nil
            else { return nil }
            return condition.value
        case .and(let operands), .or(let operands): return operands.lazy.compactMap(unknownType).first
        case .not(let operand), .group(let operand): return unknownType(in: operand)
        case .verbatim: return nil
        }
    }

    /// E1: the search, paged, in the list envelope.
    func search(_ request: ServerRequest, _ context: LinkContext) throws(APIError) -> HTTPResponse {
        var search = SearchRequest(query: nil, defaultText: nil, orderBy: [], limit: 100, offset: 0, countTotal: true)
        if let q = request.parameter("q"), !q.trimmingSpaces().isEmpty {
            guard q.utf8.count <= configuration.maximumQueryLength else {
                throw .badRequest("q is longer than \(configuration.maximumQueryLength) bytes")
            }
            do {
                search.query = try QueryParser.parse(q)
            } catch {
                throw .invalidQuery("invalid q: \(error)")
            }
        }
        if let fields = try FieldParameters.expression(request.query) { search.require(fields) }
        // OCM refuses a search naming a type the channel does not have (ErrorTests.testSearchNotFound:
        // 400 "Invalid Query", "Type with name unknown is not found") rather than answering nothing.
        if let query = search.query, let unknown = unknownType(in: query) {
            throw .invalidQuery("Type with name \(unknown) is not found")
        }
        if let text = request.parameter("default"), !text.trimmingSpaces().isEmpty {
            guard text.utf8.count <= configuration.maximumQueryLength else {
                throw .badRequest("default is longer than \(configuration.maximumQueryLength) bytes")
            }
            var value = Substring(text.trimmingSpaces())
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") { value = value.dropFirst().dropLast() }
            search.defaultText = String(value)
        }
        if let order = request.parameter("orderBy"), !order.isEmpty {
            do {
                search.orderBy = try OrderByParser.parse(order)
            } catch {
                throw .badRequest("invalid orderBy: \(error)")
            }
        }
        search.limit = try integer(request, "limit", default: 100)
        guard search.limit <= configuration.maximumLimit else {
            throw .badRequest("limit must be at most \(configuration.maximumLimit), got \(search.limit)")
        }
        search.offset = try integer(request, "offset", default: 0)
        let scrollId = try scroll(request, &search)
        let fieldsParameter = request.parameter("fields") ?? ""
        let allFields = fieldsParameter.lowercased() == "all"
        let expand: ExpandSpec
        do {
            expand = try ExpandSpec.parse(expandParameter(request), for: nil)
        } catch {
            throw .badRequest("invalid expand: \(error)")
        }

        let result: SearchResult
        do {
            result = try index.search(search)
        } catch let error as IndexError {
            throw .invalidQuery("\(error)")
        } catch let error as QuerySyntaxError {
            throw .invalidQuery("invalid q: \(error)")
        } catch {
            throw APIError(status: 500, detail: "the search failed: \(error)")
        }
        let named =
            fieldsParameter.isEmpty || allFields
            ? nil : fieldsParameter.split(separator: ",").map { String($0.trimmingSpaces()) }.filter { !$0.isEmpty }
        // OCM leaves the user `fields` out of every hit of a query that does not pin one type (an OR of
        // types, a taxonomy search: SearchContentItemsMenuTests.testSearchTypeList,
        // TaxonomyModelTests.b1TestSearchByNodeIds), even with fields=all; a search without a query keeps
        // them (no recording says otherwise, and a whole-channel listing is how mirrors read a channel).
        let userFields = search.query.map { $0.pinnedType != nil } ?? true
        let total = result.total
        let hasMore = result.hasMore
        // OCM reports the number of all matches as `limit` (every recorded search: `limit=5` over
        // 30 matches answers `count: 5, limit: 30`).
        var envelope: [String: JSON] = [
            "hasMore": .bool(hasMore), "offset": .int(search.offset), "count": .int(result.ordinals.count),
            "limit": .int(total >= 0 ? total : result.ordinals.count),
        ]
        if request.parameter("totalResults")?.lowercased() == "true" { envelope["totalResults"] = .int(total) }
        if let scrollId {
            envelope["scrollId"] = .string(scrollId)
            if result.ordinals.isEmpty { scrolls.close(scrollId) }
        }
        envelope["links"] = .array(
            envelopeLinks(
                request, context, resource: "items", offset: search.offset, limit: search.limit,
                count: result.ordinals.count, total: total))
        if allFields && named == nil && !linksNone(request) {
            // Whole items, written as text: each item's stored fields are copied, not rebuilt.
            let writer = JSONWriter()
            var text: [UInt8] = [UInt8(ascii: "[")]
            try stored { () throws(IndexStorageError) in
                for (position, item) in try content.items.items(at: result.ordinals).enumerated() {
                    if position > 0 { text.append(UInt8(ascii: ",")) }
                    if let parts = try shaper.listEntryParts(item, context: context, expand: expand, writer: writer) {
                        let members = filterLinks(.object(parts.members), request).objectValue ?? parts.members
                        writer.write(object: members, written: userFields ? ["fields": parts.fields] : [:], into: &text)
                    } else {
                        var entry = try shaper.listEntry(item, context: context, expand: expand)
                        if !userFields { entry = Self.withoutUserFields(entry) }
                        writer.write(filterLinks(entry, request), into: &text)
                    }
                }
            }
            text.append(UInt8(ascii: "]"))
            var bytes: [UInt8] = []
            bytes.reserveCapacity(text.count + 1024)
            writer.write(object: envelope, written: ["items": text], into: &bytes)
            return json(bytes: bytes, tag: EntityTag.of(bytes), request)
        }
        let entries: [JSON] = try stored { () throws(IndexStorageError) in
            if !allFields && named == nil {
                return try content.items.summaries(at: result.ordinals).map {
                    filterLinks(shaper.summaryEntry($0, context: context), request)
                }
            }
            return try content.items.items(at: result.ordinals).map { (item) throws(IndexStorageError) in
                var entry = try shaper.listEntry(item, context: context, expand: expand)
                if let named { entry = Self.project(entry, named) }
                if !userFields { entry = Self.withoutUserFields(entry) }
                return filterLinks(entry, request)
            }
        }
        envelope["items"] = .array(entries)
        return json(.object(envelope), request, emptyingLinks: true)
    }

    /// A scrolled search (`scroll=true`, then `scrollId`): sets the page's offset from the cursor
    /// and returns the cursor's id, or nil for an ordinary search; 400 for an unknown `scrollId`.
    func scroll(_ request: ServerRequest, _ search: inout SearchRequest) throws(APIError) -> String? {
        if let id = request.parameter("scrollId"), !id.isEmpty {
            guard let offset = scrolls.advance(id, limit: search.limit) else {
                throw .badRequest(
                    "unknown or finished scrollId '\(id.prefix(40))': start again with scroll=true and no scrollId")
            }
            search.offset = offset
            return id
        }
        guard let flag = request.parameter("scroll")?.lowercased(), flag == "true" else { return nil }
        return scrolls.open(offset: search.offset, limit: search.limit)
    }

    /// A hit without its user `fields` object.
    static func withoutUserFields(_ entry: JSON) -> JSON {
        guard case .object(var members) = entry else { return entry }
        members["fields"] = nil
        return .object(members)
    }

    /// A full hit cut down to a `fields` list, as OCM does (recorded testFieldsSpecific*,
    /// testSearchItemSpecificFields): `id`, `type` and `links`, the named top-level properties, and
    /// a `fields` object of the named user fields (`fields.x`, or a bare name the hit has no
    /// top-level property of), present only when one is named.
    static func project(_ entry: JSON, _ names: [String]) -> JSON {
        guard case .object(let members) = entry else { return entry }
        var kept: [String: JSON] = [:]
        for key in ["id", "type", "links"] { kept[key] = members[key] }
        var userFields: Set<String> = []
        for name in names {
            if name.hasPrefix("fields.") {
                userFields.insert(String(name.dropFirst("fields.".count)))
            } else if name == "fields" {
                kept["fields"] = members["fields"]
            } else if let value = members[name] {
                kept[name] = value
            } else {
                userFields.insert(name)
            }
        }
        if !userFields.isEmpty, kept["fields"] == nil {
            let fields = members["fields"]?.objectValue ?? [:]
            kept["fields"] = .object(fields.filter { userFields.contains($0.key) })
        }
        return .object(kept)
    }

    /// E4: variation sets of an item, one of them, or the item in one variation.
    func variations(
        of item: ExportItem, _ rest: [String], _ request: ServerRequest, _ context: LinkContext
    )
        throws(APIError) -> HTTPResponse
    {
        let sets = variationSets(of: item)
        let selfLink = link(context, "items/\(URLEncoding.component(item.id))/variations", rel: "self")
        if rest.isEmpty {
            let data: [JSON] = sets.map { set in
                [
                    "varType": .string(set.varType), "masterItem": .string(set.masterItemId),
                    "items": .array(set.items.map { ["id": .string($0.id), "value": .string($0.value)] }),
                ]
            }
            return json(["data": .array(data), "links": [selfLink]], request)
        }
        guard let set = sets.first(where: { $0.varType == rest[0] }) else {
            throw .notFound("item \(item.id) has no '\(rest[0])' variations")
        }
        if rest.count == 1 {
            let entries: [JSON] = set.items.map { member in
                [
                    "id": .string(member.id), "value": .string(member.value),
                    "links": [link(context, "items/\(URLEncoding.component(member.id))", rel: "self")],
                ]
            }
            // OCM's set carries its own self and canonical links (GetItemLanguageVariationsTests).
            let setPath = "items/\(URLEncoding.component(item.id))/variations/\(URLEncoding.component(set.varType))"
            let setLinks: [JSON] = [link(context, setPath, rel: "self"), link(context, setPath, rel: "canonical")]
            return json(
                [
                    "setId": .string(set.id), "masterItem": .string(set.masterItemId), "items": .array(entries),
                    "links": .array(setLinks),
                ], request)
        }
        guard let member = set.items.first(where: { $0.value == rest[1] }), let variant = try lookUp(id: member.id)
        else { throw .notFound("item \(item.id) has no \(rest[0]) variation '\(rest[1])'") }
        return json(try read(variant, request, context), request, emptyingLinks: true)
    }

    /// The variation sets an item belongs to; an item outside any set forms its own language set.
    func variationSets(of item: ExportItem) -> [ExportVariationSet] {
        let sets = content.variationSets.filter { set in set.items.contains(where: { $0.id == item.id }) }
        if !sets.isEmpty { return sets }
        guard let language = item.language else { return [] }
        return [
            ExportVariationSet(
                id: item.id, varType: "language", masterItemId: item.id, items: [.init(id: item.id, value: language)])
        ]
    }

    /// A non-negative integer parameter (400 otherwise).
    func integer(_ request: ServerRequest, _ name: String, default value: Int) throws(APIError) -> Int {
        guard let text = request.parameter(name), !text.isEmpty else { return value }
        guard let number = Int(text), number >= 0 else {
            throw .badRequest("\(name) must be a non-negative integer, got '\(text.prefix(40))'")
        }
        return number
    }
}
