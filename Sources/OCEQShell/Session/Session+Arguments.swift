import OCEQLanguage

extension Session {
    /// The text of a command's argument: a word as written, a value (`"text"`, `$var`, `$1`, `@n`)
    /// resolved in this session; nil for a symbol, a group or a selection. For modules' commands
    /// as much as the core's.
    package func text(of argument: CommandArgument) throws(ShellError) -> String? {
        switch argument.kind {
        case .word(let word): return word
        case .value(let value):
            do {
                return try compiler.resolve(value)
            } catch {
                throw .diagnostics(error)
            }
        default: return nil
        }
    }

    /// The query a parenthesised `select` stands for, its references (`$name`, `$n`, `@n`) resolved
    /// in this session; its problems are one `.diagnostics` error. No default limit is applied.
    package func compile(_ select: SelectStatement) throws(ShellError) -> CompiledQuery {
        do {
            return try compiler.compile(select)
        } catch {
            throw .diagnostics(error)
        }
    }
}
