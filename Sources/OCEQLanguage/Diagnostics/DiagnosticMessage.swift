// The catalogue: every message the language reports, in one place, in alphabetical order. Texts
// are lower-case, quote source tokens in single quotes and end without a full stop; a suggestion
// found by edit distance is appended as "; did you mean 'x'?". Tests match on the case (its `id`
// is the case name), so wording can change without touching them.

/// Every message of the lexer, parser and compiler.
package enum DiagnosticMessage: Sendable, Hashable {
    /// `$12`: only `$1` to `$9` exist.
    case argumentOutOfRange(String)
    /// `$3` when fewer arguments were given.
    case argumentNotGiven(Int, given: Int)
    /// `limit` on `count`, `order` on `count`, ...
    case clauseNotAllowed(Keyword, SelectVerb)
    /// `explain let ...`, `explain explain ...`
    case cannotExplain(String)
    /// The same clause twice.
    case duplicateClause(Keyword)
    /// `in ()`
    case emptyInList
    /// Something other than `,` or `)` inside an `in` list.
    case expectedCommaOrParenInList
    /// A statement that does not start with a command word.
    case expectedCommand
    /// A command that takes a condition was given something else.
    case expectedCondition(found: String)
    /// `order` or `fields` without a name, or a name expected after `,`.
    case expectedFieldName(after: String)
    /// `get` without an item.
    case expectedItem
    /// `get slug:`: the prefix without a slug.
    case expectedSlug
    /// `search ""`: nothing to look for.
    case emptySearch
    /// `in` without `(`
    case expectedLeftParenAfterIn
    /// A field with no operator after it.
    case expectedOperator(after: String, suggestion: String?)
    /// `(` ... with no `)`
    case expectedRightParen
    /// `let x 5`
    case expectedEqualsAfterName(String)
    /// `let x = a b`
    case expectedSingleValue
    /// `explain` alone.
    case expectedStatementToExplain
    /// An operator with no value after it.
    case expectedValue(after: String)
    /// `let` alone or with something that is not a name.
    case expectedVariableName
    /// `$` not followed by a name.
    case expectedVariableNameAfterDollar
    /// `@` not followed by a number.
    case expectedRowNumber
    /// `limit "x"`, `offset 1.5`
    case integerExpected(Keyword)
    /// A date-shaped bareword that is not a valid date.
    case invalidDate(String, reason: String)
    /// A field name with characters a field cannot have.
    case invalidFieldName(String)
    /// `let 2x = ...`
    case invalidVariableName(String)
    /// `and`/`or` with nothing on its left.
    case joinWithoutLeftOperand(Keyword)
    /// A keyword where a field name was expected.
    case keywordAsField(Keyword)
    /// A keyword where a value was expected.
    case keywordAsValue(Keyword)
    /// `limit=5`, `fields=all`
    case keywordTakesNoOperator(Keyword)
    /// `let $x = ...`
    case letNameWithDollar(String)
    /// `limit 0`, `limit 501`
    case limitOutOfRange(String)
    /// A field condition written without a command (`type=Article`).
    case missingCommand(suggestion: String)
    /// More parentheses or `not`s than the parser accepts.
    case nestingTooDeep(limit: Int)
    /// `@2` with no listing yet.
    case noListing(Int)
    /// `offset -1`
    case offsetOutOfRange(String)
    /// `@0`, `@99999999999999999999`
    case rowNumberInvalid(String)
    /// `@7` after a listing of 5 rows.
    case rowOutOfRange(Int, rows: Int)
    /// `select * from items`: SQL's verb (the word as written); oceq's are `list`, `first`, `count`.
    case sqlSelect(String)
    /// `list type=Image where name co x`: SQL's `where` (as written); conditions need no keyword.
    case sqlWhere(String)
    /// `order author.name`: a field of a referenced item, which the API does not sort on.
    case orderByPath(String)
    /// `order published_date` without one type named: OCM sorts on user fields within one type.
    case orderNeedsOneType(String, types: [String])
    /// `list name ~ x fields topic`: OCM leaves every custom field out of the hits of a search that does
    /// not name one type, so the column would be empty; `types` have the field.
    case fieldsNeedOneType(String, types: [String])
    /// `list ... fields author.name`: a path where `fields` or `expand` (the clause) takes field names.
    case pathInFieldList(String, clause: String)
    /// `list type=Image | count`: a shell's pipe inside a statement.
    case pipeInStatement
    /// `\q`: a psql backslash command (as written) and the oceq command to use instead.
    case backslashCommand(String, instead: String)
    /// A statement longer than the parser accepts.
    case statementTooLong(bytes: Int, limit: Int)
    /// A word close to a clause keyword, used where a clause was expected.
    case unknownClause(String, suggestion: String?)
    /// A command word not in the vocabulary.
    case unknownCommand(String, suggestion: String?)
    /// `get @1 expnd all`
    case unknownOption(String, suggestion: String?)
    /// `==`, `<>`, `&&`, `eqq`, ...
    case unknownOperator(String, suggestion: String?)
    /// `order name dsc`
    case unknownSortDirection(String, suggestion: String?)
    /// `$nme` not defined.
    case unknownVariable(String, suggestion: String?)
    /// A character or token that has no place here.
    case unexpected(String)
    /// A string without its closing quote.
    case unterminatedString
    /// `"say \"hi\""`, `'it\'s'`: a backslash before a quote that then ends the string (strings have no
    /// escapes), of that quote style.
    case escapedQuote(QuoteStyle)
    /// A value containing `"`, which the API cannot express.
    case valueContainsDoubleQuote
    /// `$x` bound to something that is not a single value.
    case variableNotAValue(String, holds: String)

    // Checks against the channel's schema (types, fields, data types) and names of referenced items.

    /// `type=OCEGettingStartedArticel`: no type of that name.
    case unknownType(String, suggestion: String?)
    /// `nmae ^= "Co"`: no type of the statement (`types`; empty: of the channel) has the field.
    case unknownField(String, types: [String], suggestion: String?)
    /// `order author`: the API cannot sort on the field; `sortable` lists those it can.
    case fieldNotSortable(String, dataType: String, sortable: [String])
    /// `published_date ~ x`: the operator does not apply to the field's data type.
    case operatorNotForType(String, field: String, dataType: String, allowed: [String])
    /// `published_date >= 2026`: the value cannot be of the field's data type; `hint` says what can.
    case valueNotOfType(String, field: String, dataType: String, hint: String)
    /// `topic=Recpes`: no item of the referenced types has that name; `candidates` are some that do exist.
    case noItemNamed(String, field: String, types: [String], candidates: [String], suggestion: String?)
    /// `topic=R`: several items fit the name equally well.
    case itemNameAmbiguous(String, field: String, candidates: [String])
    /// `topic=@2` where row 2 is an Image: the reference field cannot point at an item of that type, so
    /// the condition could only match nothing (or, with `!=`, everything).
    case referenceOfOtherType(String, name: String, type: String, field: String, types: [String])

    // `define` blocks and calls of user commands.

    /// `cmd name=a name=b`
    case argumentGivenTwice(String)
    /// A statement or a symbol given to a user command.
    case argumentNotAValue(command: String)
    /// A user command whose name another definition already holds (`where` names it).
    case commandDefinedElsewhere(String, where: String)
    /// `define x(n = $y)`
    case defaultNotLiteral(String)
    /// `define` inside a `define` block.
    case defineInsideDefine
    /// The same command defined twice in one text.
    case duplicateDefine(String)
    /// `define x(a, a)`
    case duplicateParameter(String)
    /// `end` with no open `define`.
    case endWithoutDefine
    /// `define` alone.
    case expectedCommandNameAfterDefine
    /// Something other than `,` or `)` in a parameter list.
    case expectedCommaOrParenInParameters
    /// `define x(,)`
    case expectedParameterName
    /// `define greet who`: parameters without their parentheses; the header as it should be.
    case parametersWithoutParentheses(String)
    /// More arguments than parameters.
    case extraArgument(command: String, maximum: Int)
    /// `define 2x`, `define a=b`
    case invalidCommandName(String)
    /// A required parameter given no value.
    case missingArgument(command: String, parameter: String, usage: String)
    /// `cmd a=1 2`
    case positionalAfterNamed
    /// A statement other than `define` in a plugin file.
    case pluginStatementNotDefine(String)
    /// `define x(a = 1, b)`
    case requiredAfterDefault(String)
    /// A command given fewer arguments than it takes.
    case tooFewArguments(command: String, usage: String)
    /// `define list`, `define end`
    case reservedCommandName(String)
    /// A user command that calls itself, directly or through others (a warning: every such call fails).
    case recursiveCommand(chain: [String])
    /// `$1` in a `define` body.
    case scriptArgumentInDefine(String)
    /// `$x` in a `define` body that is neither a parameter nor set by a `let` above it.
    case undeclaredVariable(String, command: String, suggestion: String?)
    /// `cmd nme=1` when `cmd` has no parameter `nme`.
    case unknownParameter(String, command: String, suggestion: String?)
    /// `define` with no `end` before the end of the text.
    case unterminatedDefine(String)
    /// `$x` in a script that no `let` above sets (a warning: it may come from a sourced file).
    case variableNotSet(String)

    /// `.warning` for what may still run (a variable set elsewhere, a recursive command), else `.error`.
    package var severity: Severity {
        switch self {
        case .variableNotSet, .recursiveCommand: return .warning
        default: return .error
        }
    }

    /// True for the checks against the channel's catalog (types, fields, data types, names of items).
    package var isCatalogCheck: Bool {
        switch self {
        case .unknownType, .unknownField, .fieldNotSortable, .operatorNotForType, .valueNotOfType, .noItemNamed,
            .itemNameAmbiguous, .referenceOfOtherType, .orderNeedsOneType, .fieldsNeedOneType:
            return true
        default: return false
        }
    }

    /// The stable identifier: the case name.
    package var id: String {
        let mirror = Mirror(reflecting: self)
        if let label = mirror.children.first?.label { return label }
        return String(describing: self)
    }

    /// The longest synopsis quoted in a message, in characters.
    package static let maximumUsageLength = 200

    /// `usage` cut to `maximumUsageLength` characters, ending in ` …` when it was cut (a command of
    /// 10,000 parameters must not repeat its whole synopsis in every message).
    package static func shortened(_ usage: String) -> String {
        usage.count <= maximumUsageLength ? usage : String(usage.prefix(maximumUsageLength)) + " …"
    }

    /// The text shown to people.
    package var text: String {
        switch self {
        case .argumentOutOfRange(let text):
            return "'\(text)' is not a script argument; they are $1 to $9"
        case .argumentNotGiven(let number, let given):
            return given == 0
                ? "'$\(number)' is a script argument, and none were given"
                : "'$\(number)' was not given; there \(given == 1 ? "is 1 argument" : "are \(given) arguments")"
        case .clauseNotAllowed(let keyword, let verb):
            return "'\(keyword.rawValue)' cannot be used with '\(verb.rawValue)'"
        case .cannotExplain(let word):
            return "'explain' cannot explain '\(word)'"
        case .duplicateClause(let keyword):
            return "'\(keyword.rawValue)' is given twice"
        case .emptyInList:
            return "an 'in' list needs at least one value"
        case .expectedCommaOrParenInList:
            return "expected ',' or ')' in the 'in' list"
        case .expectedCommand:
            return "expected a command"
        case .expectedCondition(let found):
            return "expected a condition, found \(found)"
        case .expectedFieldName(let after):
            return "expected a field name after '\(after)'"
        case .expectedItem:
            return "expected an item: an id, a row such as '@1', or 'slug:NAME'"
        case .expectedSlug:
            return "expected a slug after 'slug:' (slug:NAME)"
        case .emptySearch:
            return "'search' needs words to look for; without them every item matches"
        case .expectedLeftParenAfterIn:
            return "expected '(' after 'in'"
        case .expectedOperator(let after, let suggestion):
            return "expected an operator after '\(after)'" + DiagnosticMessage.didYouMean(suggestion)
        case .expectedRightParen:
            return "expected ')'"
        case .expectedEqualsAfterName(let name):
            return "expected '=' after '\(name)'"
        case .expectedSingleValue:
            return "expected one value; quote text that contains spaces"
        case .expectedStatementToExplain:
            return "expected a statement to explain"
        case .expectedValue(let after):
            return "expected a value after '\(after)'"
        case .expectedVariableName:
            return "expected a variable name after 'let'"
        case .expectedVariableNameAfterDollar:
            return "expected a variable name after '$'"
        case .expectedRowNumber:
            return "expected a row number after '@'"
        case .integerExpected(let keyword):
            return "'\(keyword.rawValue)' takes a whole number"
        case .invalidDate(let text, let reason):
            return "'\(text)' is not a valid date: \(reason); quote it to use it as text"
        case .invalidFieldName(let name):
            return "'\(name)' is not a valid field name"
        case .invalidVariableName(let name):
            return "'\(name)' is not a valid variable name"
        case .joinWithoutLeftOperand(let keyword):
            return "'\(keyword.rawValue)' needs a condition on its left"
        case .keywordAsField(let keyword):
            return "'\(keyword.rawValue)' is a keyword; write 'fields.\(keyword.rawValue)' for a field of that name"
        case .keywordAsValue(let keyword):
            return "'\(keyword.rawValue)' is a keyword; quote it to use it as a value"
        case .keywordTakesNoOperator(let keyword):
            return "'\(keyword.rawValue)' takes its value without an operator"
        case .letNameWithDollar(let name):
            return "write the variable name without '$'; did you mean '\(name)'?"
        case .limitOutOfRange(let text):
            return "'limit' must be between 1 and 500, not \(text)"
        case .missingCommand(let suggestion):
            return "a statement starts with a command; did you mean '\(suggestion)'?"
        case .nestingTooDeep(let limit):
            return "conditions are nested too deeply; the limit is \(limit)"
        case .noListing(let row):
            return "'@\(row)' refers to a row of the last listing, and there is none yet"
        case .offsetOutOfRange(let text):
            return "'offset' must be between 0 and \(ClauseRules.maximumOffset), not \(text)"
        case .rowNumberInvalid(let text):
            return "'\(text)' is not a row; rows are numbered from 1"
        case .rowOutOfRange(let row, let rows):
            return "'@\(row)' is out of range; the last listing has \(rows) row\(rows == 1 ? "" : "s")"
        case .sqlSelect(let word):
            return "unknown command '\(word)'; oceq selects with 'list', 'first' or 'count', "
                + "as in 'list type=Image name co ridge limit 5'"
        case .sqlWhere(let word):
            return "no '\(word)' needed: conditions follow the command directly, as in "
                + "'list type=Image name co ridge'"
        case .backslashCommand(let written, let instead):
            return "'\(written)' is psql's; oceq's commands are words: \(instead)"
                + (instead == "help" ? " lists them" : "")
        case .orderByPath(let path):
            return "cannot order by '\(path)': the API sorts on the items' own fields, not on those of the items "
                + "they refer to (and ignores such a key: the rows would come back unsorted)"
        case .orderNeedsOneType(let name, let types):
            return "cannot order by '\(name)' across types: OCM sorts on a user field within one type; "
                + DiagnosticMessage.addOneType(types)
        case .fieldsNeedOneType(let name, let types):
            return "'\(name)' would be empty: OCM leaves custom fields out of a search that does not name one "
                + "type; " + DiagnosticMessage.addOneType(types)
        case .pathInFieldList(let path, let clause):
            let first = path.split(separator: ".").first { $0 != "fields" }.map(String.init) ?? path
            return clause == "fields"
                ? "'\(path)' is a path; fields takes field names (a reference field such as '\(first)' shows the "
                    + "name of the item it points at; 'get' or 'field' reads the rest)"
                : "'\(path)' is a path; expand takes reference fields and goes one level deep ('\(first)')"
        case .pipeInStatement:
            return "'|' does not pipe in oceq: a statement ends at ';' or a line break; to filter what it prints, "
                + "pipe oceq in the shell (oceq -c 'list type=Image' | grep ridge)"
        case .statementTooLong(let bytes, let limit):
            return "statement is too long (\(bytes) bytes; the limit is \(limit))"
        case .unknownClause(let word, let suggestion):
            return "unknown clause '\(word)'" + DiagnosticMessage.didYouMean(suggestion)
        case .unknownCommand(let word, let suggestion):
            return "unknown command '\(word)'" + DiagnosticMessage.didYouMean(suggestion)
        case .unknownOption(let word, let suggestion):
            return "unknown option '\(word)'" + DiagnosticMessage.didYouMean(suggestion)
        case .unknownOperator(let text, let suggestion):
            return "unknown operator '\(text)'" + DiagnosticMessage.didYouMean(suggestion)
        case .unknownSortDirection(let word, let suggestion):
            return "unknown sort direction '\(word)'" + DiagnosticMessage.didYouMean(suggestion)
        case .unknownVariable(let name, let suggestion):
            return "unknown variable '$\(name)'" + DiagnosticMessage.didYouMean(suggestion.map { "$" + $0 })
        case .unexpected(let text):
            return "unexpected \(text)"
        case .unterminatedString:
            return "unterminated string"
        case .escapedQuote(.double):
            return
                "strings have no escapes, and a value cannot contain '\"' (a delivery api query has no way to write it)"
        case .escapedQuote(.single):
            return "strings have no escapes: put a value with ' in double quotes (\"it's\")"
        case .valueContainsDoubleQuote:
            return "the value contains '\"', which a delivery api query cannot express"
        case .variableNotAValue(let name, let holds):
            return "'$\(name)' holds \(holds), not a value"
        case .unknownType(let name, let suggestion):
            return "no type '\(name)' in this channel" + DiagnosticMessage.didYouMean(suggestion)
        case .unknownField(let name, let types, let suggestion):
            let scope =
                types.isEmpty
                ? "no type of this channel has a field '\(name)'"
                : "no field '\(name)' in \(types.count == 1 ? "type" : "types") \(DiagnosticMessage.list(types))"
            return scope + DiagnosticMessage.didYouMean(suggestion)
        case .fieldNotSortable(let name, let dataType, let sortable):
            return "cannot order by '\(name)' (\(dataType)); the API sorts on "
                + DiagnosticMessage.list(sortable, limit: 12)
        case .operatorNotForType(let op, let field, let dataType, let allowed):
            return "'\(op)' does not apply to '\(field)' (\(dataType)); use " + allowed.joined(separator: " ")
        case .valueNotOfType(let value, let field, let dataType, let hint):
            return "'\(value)' is not a \(dataType) for '\(field)'; \(hint)"
        case .noItemNamed(let name, let field, let types, let candidates, let suggestion):
            let kind = types.isEmpty ? "item" : DiagnosticMessage.list(types, quoted: false, conjunction: "or")
            let some =
                candidates.isEmpty ? "; there are none" : "; there are " + DiagnosticMessage.list(candidates, limit: 8)
            return "no \(kind) named '\(name)' for '\(field)'"
                + (suggestion.map { "; did you mean '\($0)'?" } ?? some)
        case .itemNameAmbiguous(let name, let field, let candidates):
            return "'\(name)' names more than one item for '\(field)': " + DiagnosticMessage.list(candidates, limit: 8)
                + "; write more of the name, or its id"
        case .referenceOfOtherType(let reference, let name, let type, let field, let types):
            return "'\(reference)' is \(name) (\(type)), but '\(field)' refers to "
                + DiagnosticMessage.list(types, quoted: false, conjunction: "or") + " items"
        case .argumentGivenTwice(let name):
            return "'\(name)' is given twice"
        case .argumentNotAValue(let command):
            return "'\(command)' takes values; bind a statement's result with 'let' and pass the variable"
        case .commandDefinedElsewhere(let name, let place):
            return "command '\(name)' is already defined \(place)"
        case .defaultNotLiteral(let name):
            return "the default of '\(name)' must be a literal value, not a reference"
        case .defineInsideDefine:
            return "'define' cannot appear inside another 'define'"
        case .duplicateDefine(let name):
            return "'\(name)' is defined twice"
        case .duplicateParameter(let name):
            return "parameter '\(name)' is declared twice"
        case .endWithoutDefine:
            return "'end' without a 'define' to close"
        case .expectedCommandNameAfterDefine:
            return "expected a command name after 'define'"
        case .expectedCommaOrParenInParameters:
            return "expected ',' or ')' in the parameter list"
        case .parametersWithoutParentheses(let header):
            return "a command's parameters go in parentheses: \(header)"
        case .expectedParameterName:
            return "expected a parameter name"
        case .extraArgument(let command, let maximum):
            return maximum == 0
                ? "'\(command)' takes no arguments"
                : "'\(command)' takes at most \(maximum) argument\(maximum == 1 ? "" : "s")"
        case .invalidCommandName(let name):
            return "'\(name)' is not a valid command name; use letters, digits, '-' and '_', starting with a letter"
        case .missingArgument(let command, let parameter, let usage):
            return "'\(command)' needs a value for '\(parameter)' (usage: \(usage))"
        case .positionalAfterNamed:
            return "a value without a name cannot follow a named one (NAME=VALUE)"
        case .pluginStatementNotDefine(let word):
            return "a plugin file holds only 'define' blocks, not '\(word)'"
        case .tooFewArguments(let command, let usage):
            return "'\(command)' needs more arguments (usage: \(usage))"
        case .requiredAfterDefault(let name):
            return "parameter '\(name)' needs a default, as a parameter before it has one"
        case .reservedCommandName(let name):
            return "'\(name)' is a word of the language and cannot be defined"
        case .recursiveCommand(let chain):
            return
                "'\(chain[0])' calls itself (\(chain.joined(separator: " -> "))); every call would fail at the depth limit"
        case .scriptArgumentInDefine(let text):
            return "'\(text)' is a script argument, which a 'define' body cannot use; declare a parameter"
        case .undeclaredVariable(let name, let command, let suggestion):
            return "'$\(name)' is neither a parameter of '\(command)' nor set by a 'let' above"
                + DiagnosticMessage.didYouMean(suggestion.map { "$" + $0 })
        case .unknownParameter(let name, let command, let suggestion):
            return "'\(command)' has no parameter '\(name)'" + DiagnosticMessage.didYouMean(suggestion)
        case .unterminatedDefine(let name):
            return "'define \(name)' has no 'end'"
        case .variableNotSet(let name):
            return "'$\(name)' is not set by a 'let' above"
        }
    }

    /// "add type=X", or "add one of type=X, type=Y" when several types have the field.
    static func addOneType(_ types: [String]) -> String {
        "add "
            + (types.count == 1 ? "type=\(types[0])" : "one of " + types.map { "type=\($0)" }.joined(separator: ", "))
    }

    /// `'a', 'b' and 'c'` (`quoted`), at most `limit` of them and then "and N more".
    package static func list(
        _ names: [String], quoted: Bool = true, conjunction: String = "and", limit: Int = 4
    )
        -> String
    {
        let shown = names.prefix(limit).map { quoted ? "'\($0)'" : $0 }
        let rest = names.count - shown.count
        if rest > 0 { return shown.joined(separator: ", ") + " and \(rest) more" }
        guard shown.count > 1 else { return shown.first ?? "" }
        return shown.dropLast().joined(separator: ", ") + " \(conjunction) " + shown.last!
    }

    static func didYouMean(_ suggestion: String?) -> String {
        guard let suggestion else { return "" }
        return "; did you mean '\(suggestion)'?"
    }
}
