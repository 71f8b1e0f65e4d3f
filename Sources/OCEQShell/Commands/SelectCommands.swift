// `list`, `count` and `first`: compile the select statement against the session, send it, and
// return rows (remembered for `@n`) or a number.

import DeliveryKit
import OCEQCore
import OCEQLanguage

/// `list`: items, a page at a time.
package enum ListCommand: Command {
    package static let descriptor = CommandDescriptor(
        name: "list", abstract: "list items that match conditions, numbered for @n",
        usage: "list [CONDITION...] [order [by] FIELD [asc|desc], ...] [limit N] [offset N] "
            + "[fields all|NAME,...] [expand all|NAME,...] [search TEXT]",
        examples: [
            "list type=OCEGettingStartedArticle order published_date desc limit 5",
            "list type=OCEGettingStartedTopic",
            "list name ^= \"Coffee\" or name ~ tea",
            "list type in (OCEGettingStartedAuthor, OCEGettingStartedTopic) order name",
        ],
        discussion: """
            Conditions are FIELD OP VALUE. The operators (the API's word in brackets):
              =  [eq]  equals; a standard field exactly,       name = "Cold Brew"
                       a custom text field in any case
              != [ne]  does not equal                          language != en-US
              ~  [co]  contains a word of the value (any one)  name ~ "cold tea"
                       whole words: ~ ratio misses "Ratios"; =~ "ratio*" finds it
              ^= [sw]  starts with                             name ^= Co
              >  >=  <  <=  [gt ge lt le]  numbers and dates    published_date >= 2026-01-01
              =~ [mt]  matches a phrase; ? is one character,
                       * any number of them                    name =~ "cold b*"
              ~~ [sm]  similar: up to two letters differ       name ~~ Expreso
              in (A, B)  any of the values                     topic in (Recipes, Roasting)
            Grouping: `not` binds tightest, then `and`, then `or`; conditions written side by
            side are ANDed, each taken whole, so  type=A name ~ tea or name ~ milk  means
            type=A and (name ~ tea or name ~ milk). Parentheses group as written:
              list (name ~ tea or name ~ milk) and not language = fr
            Standard fields (id type name description slug language createdDate updatedDate ...)
            are sent as written; any other name means fields.NAME. With the channel's catalog
            the statement is checked before it is sent: the type, each field (in the statement's
            types, or in any type without type=), the operator and the value for the field's data
            type (a date is a date: published_date >= 2026 is refused; write 2026-01-01), and
            order on a field the API can sort. A custom field to order by or to show (fields
            topic) needs the statement to name one type: OCM leaves custom fields out of a
            search over several types. A reference field compared with a name
            (topic=Recipes, author="Hana Kim") is sent as the id of the item of that name:
            exactly, in any case, or the one name starting with or containing it; an id or @n is
            used as it is. So is a category or taxonomy named for taxonomies (taxonomies=Espresso;
            taxonomies.categories.nodes.id=Methods matches Methods and the categories below it).
            A list field (the home page's topics) is compared as the API allows: ~ finds a value
            among its values (topics ~ Recipes), and for a list of references = and != are sent
            as ~ and not ~ (the API's eq does not take a list).
            Without limit, a list asks for the `set limit` setting (20).
            """
    ).planning(CorePlans.select).sendingAhead(SelectRunner.sendAhead)

    package static func run(_ statement: Statement, in session: Session) async throws(ShellError) -> CommandResult {
        guard case .select(let select) = statement else { throw .usage("list takes conditions", span: nil) }
        return try await SelectRunner.run(select, in: session)
    }
}

/// `count`: the number of matching items.
package enum CountCommand: Command {
    package static let descriptor = CommandDescriptor(
        name: "count", abstract: "count the items that match conditions (the API's totalResults)",
        usage: "count [CONDITION...] [search TEXT]",
        examples: ["count type=OCEGettingStartedArticle", "count", "count type=Image"]
    ).planning(CorePlans.select).sendingAhead(SelectRunner.sendAhead)

    package static func run(_ statement: Statement, in session: Session) async throws(ShellError) -> CommandResult {
        guard case .select(let select) = statement else { throw .usage("count takes conditions", span: nil) }
        return try await SelectRunner.run(select, in: session)
    }
}

/// `first`: the first matching item.
package enum FirstCommand: Command {
    package static let descriptor = CommandDescriptor(
        name: "first", abstract: "the first item that matches conditions, as row @1",
        usage: "first [CONDITION...] [order [by] FIELD [asc|desc], ...] [fields all|NAME,...]",
        examples: [
            "first type=OCEGettingStartedHomePage", "first type=OCEGettingStartedArticle order published_date desc",
        ]
    ).planning(CorePlans.select).sendingAhead(SelectRunner.sendAhead)

    package static func run(_ statement: Statement, in session: Session) async throws(ShellError) -> CommandResult {
        guard case .select(let select) = statement else { throw .usage("first takes conditions", span: nil) }
        return try await SelectRunner.run(select, in: session)
    }
}

/// Compiling and sending select statements.
@MainActor
enum SelectRunner {
    /// The query `select` stands for in `session` (a list without `limit` gets the session's).
    ///
    /// The `fields` sent also name the `order` fields the rows show (`ListingColumn`): without a
    /// `fields` clause the API sends only `id type name description`, so ordering on another field
    /// asks for `name,description` and that field; a `fields` list gets the order fields added.
    static func compile(_ select: SelectStatement, in session: Session) throws(ShellError) -> CompiledQuery {
        try compiled(select, in: session).query
    }

    /// The query `select` stands for and the columns its rows show (from the query as written).
    static func compiled(
        _ select: SelectStatement, in session: Session
    ) throws(ShellError) -> (
        query: CompiledQuery, columns: [ListingColumn]
    ) {
        var query = try session.compile(select)
        if query.kind == .list && query.limit == nil { query.limit = session.settings.limit }
        let columns = ListingColumn.columns(for: query)
        if query.kind != .count { query.fields = fieldsSent(query) }
        return (query, columns)
    }

    /// The `fields` parameter that brings every column `query`'s rows show.
    static func fieldsSent(_ query: CompiledQuery) -> String? {
        if query.fields?.lowercased() == "all" { return query.fields }
        let summary = ["id", "type", "name", "description"]
        var fields = query.fields.map { $0.split(separator: ",").map(String.init) } ?? []
        let missing = query.orderKeys.map(\.field).filter { field in
            !fields.contains(field) && (query.fields != nil || !summary.contains(field))
        }
        guard !missing.isEmpty else { return query.fields }
        if query.fields == nil { fields = ["name", "description"] }
        var seen: Set<String> = []
        return (fields + missing).filter { seen.insert($0).inserted }.joined(separator: ",")
    }

    /// Sends the query of `statement` now (`DeliveryClient.sendAhead`), before the channel's catalog is read,
    /// when it is a `list`, `count` or `first` of the core whose query the catalog cannot change (no user field
    /// compared with what may be an item's name): a one-shot's query then travels while the catalog is read and
    /// the statement checked. When the check fails, or compiling with the catalog gives another query, the
    /// answer is not used; when it is, it is the answer the query would have had a moment later.
    static func sendAhead(_ statement: Statement, in session: Session) {
        guard case .select(let select) = statement, !select.mayNameItems, let client = session.connection?.client,
            let (query, _) = try? compiled(select, in: session)
        else { return }
        client.sendAhead(query.request())
    }

    static func run(_ select: SelectStatement, in session: Session) async throws(ShellError) -> CommandResult {
        let (query, columns) = try compiled(select, in: session)
        let connection = try session.requireConnection()
        let page: Page<Asset>
        do {
            page = try await connection.client.fetch(query.request())
        } catch {
            throw QueryRefusal.error(error, select: select, query: query, in: session)
        }
        switch query.kind {
        case .count:
            return .count(page.totalResults ?? page.count)
        case .list, .first:
            var listing = Listing(
                items: query.kind == .first ? Array(page.items.prefix(1)) : page.items,
                totalResults: page.totalResults, hasMore: page.hasMore, columns: columns)
            await ReferenceNames.fill(&listing, client: connection.client)
            session.lastRows = listing.items
            return .items(listing)
        }
    }
}
