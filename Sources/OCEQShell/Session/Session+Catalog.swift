// The session's one channel catalog: the schema (`ChannelCatalog.schema`) and the names of items by
// type, kept in `completionCache` beside what Tab looked up, so that completion, the compiler's checks,
// `types` and `fields` read the same answers and `refresh` forgets them all at once.
//
// Before a statement runs, `prepareCatalog(for:)` reads what compiling it will check against: the schema,
// and the item names of the types that a reference field compared with a name points at. A catalog that
// cannot be read never blocks the statement: it runs unchecked after one warning line.

import DeliveryKit
import OCEQCore
import OCEQLanguage

extension Session {
    /// The channel's schema, read once per session (until `refresh` or `connect`).
    package func channelSchema() async throws(ShellError) -> ChannelSchema {
        let client = try requireConnection().client
        do {
            return try await completionCache.load(ChannelCatalog.schemaKey) { try await ChannelCatalog.schema(client) }
        } catch let error as DeliveryError {
            throw .delivery(error)
        } catch {
            throw .usage(String(describing: error), span: nil)
        }
    }

    /// Reads the schema and the item names that compiling `statement` needs; when the schema cannot be
    /// read, writes one warning line and the statement compiles unchecked.
    func prepareCatalog(for statement: Statement) async {
        let selects = statement.selects
        guard !selects.isEmpty, let client = connection?.client else { return }
        let schema: ChannelSchema
        do {
            schema = try await channelSchema()
        } catch {
            errors.write(
                "warning: the channel's types and fields could not be read, so the statement is not checked "
                    + "against them: \(TerminalText.clean(error.description))\n")
            return
        }
        for select in selects {
            for type in select.typesNamedByReferences(in: schema) {
                // A failure leaves the names unknown: the name is then sent as written.
                _ = try? await completionCache.load(ChannelCatalog.itemsKey(type)) {
                    try await ChannelCatalog.itemNames(client, type: type)
                }
            }
        }
    }
}
