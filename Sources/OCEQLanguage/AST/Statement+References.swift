// What a statement refers to, for the checks that run before anything is sent: the values it holds
// (to find `$name`s nobody set) and the commands it calls (to check calls of user commands against
// their parameters, and to find commands that call themselves).

extension Statement {
    /// Every value written in the statement, nested statements included, in source order.
    package var values: [Value] {
        var out: [Value] = []
        collectValues(into: &out)
        return out
    }

    /// The generic commands the statement runs: itself, or the statement inside `let` or `explain`.
    package var commandCalls: [CommandStatement] {
        switch self {
        case .command(let command): return [command]
        case .let(let statement):
            if case .statement(let inner) = statement.binding { return inner.commandCalls }
            return []
        case .explain(let statement): return statement.statement.commandCalls
        case .define(let define): return define.body.flatMap(\.commandCalls)
        case .select: return []
        }
    }

    func collectValues(into out: inout [Value]) {
        switch self {
        case .select(let select): select.collectValues(into: &out)
        case .let(let statement):
            switch statement.binding {
            case .value(let value): out.append(value)
            case .statement(let inner): inner.collectValues(into: &out)
            }
        case .explain(let statement): statement.statement.collectValues(into: &out)
        case .command(let command):
            for argument in command.arguments { argument.collectValues(into: &out) }
        case .define(let define):
            for statement in define.body { statement.collectValues(into: &out) }
        }
    }
}

extension SelectStatement {
    func collectValues(into out: inout [Value]) {
        for clause in clauses {
            switch clause.kind {
            case .condition(let condition): condition.collectValues(into: &out)
            case .limit(let value), .offset(let value), .search(let value): out.append(value)
            case .order, .fields, .expand: break
            }
        }
    }
}

extension Condition {
    func collectValues(into out: inout [Value]) {
        switch kind {
        case .comparison(_, _, let value): out.append(value)
        case .membership(_, let values): out.append(contentsOf: values)
        case .and(let operands), .or(let operands):
            for operand in operands { operand.collectValues(into: &out) }
        case .not(let operand), .parenthesized(let operand): operand.collectValues(into: &out)
        }
    }
}

extension CommandArgument {
    func collectValues(into out: inout [Value]) {
        switch kind {
        case .value(let value): out.append(value)
        case .selection(let select): select.collectValues(into: &out)
        case .group(let arguments):
            for argument in arguments { argument.collectValues(into: &out) }
        case .word, .symbol: break
        }
    }
}

extension Statement {
    /// Every select statement in the statement (itself, the one `let` or `explain` holds, the
    /// selections among a command's arguments), for the shell to read what compiling them needs.
    package var selects: [SelectStatement] {
        switch self {
        case .select(let select): return [select]
        case .let(let statement):
            if case .statement(let inner) = statement.binding { return inner.selects }
            return []
        case .explain(let statement): return statement.statement.selects
        case .command(let command): return command.arguments.flatMap(\.selects)
        case .define: return []
        }
    }
}

extension CommandArgument {
    /// The selections in this argument.
    var selects: [SelectStatement] {
        switch kind {
        case .selection(let select): return [select]
        case .group(let arguments): return arguments.flatMap(\.selects)
        case .value, .word, .symbol: return []
        }
    }
}
