// Requests sent ahead of need by a script's first statement. A one-shot reads the channel's catalog
// before its statement runs (`Session.checkChannelByCatalog`); a command that knows which request its
// first step will send for a statement says so (`CommandDescriptor.sendingAhead`), and that request
// travels while the catalog is read and the statement checked (`DeliveryClient.sendAhead`). Its
// answer is taken only by a fetch of exactly that request (url, headers, body, members skipped), so a
// statement that fails the check, or compiles to another request once the catalog is known, never
// uses it.

import OCEQLanguage

/// Sends ahead (`DeliveryClient.sendAhead`) the request a command will send first for a statement,
/// when it can tell before the catalog is read; does nothing otherwise.
package typealias CommandAhead = @MainActor @Sendable (Statement, Session) -> Void

extension CommandDescriptor {
    /// This descriptor with `ahead` sending the request the command will send first.
    package func sendingAhead(_ ahead: @escaping CommandAhead) -> CommandDescriptor {
        var copy = self
        copy.sendAhead = ahead
        return copy
    }
}

extension Session {
    /// Sends ahead the request `statement`'s command will send first, when the command says which
    /// (`CommandDescriptor.sendAhead`) and no `define`d command of that name shadows it.
    package func sendAhead(_ statement: Statement) {
        guard registry.user.commands[statement.commandName] == nil,
            let ahead = registry.command(named: statement.commandName)?.descriptor.sendAhead
        else { return }
        ahead(statement, self)
    }
}
