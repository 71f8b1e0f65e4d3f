// The catalogue: every message the language reports, in one place, in alphabetical order. Texts
// are lower-case, quote source tokens in single quotes and end without a full stop; a suggestion
// found by edit distance is appended as "; did you mean 'x'?". Tests match on the case (its `id`
// is the case name), so wording can change without touching them.

/// Every message of the lexer, parser and compiler.
public enum DiagnosticMessage: Sendable, Hashable {
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
    /// A value containing `"`, which the API cannot express.
    case valueContainsDoubleQuote
    /// `$x` bound to something that is not a single value.
    case variableNotAValue(String, holds: String)

    /// Always `.error` for now; the type leaves room for warnings.
    public var severity: Severity { .error }

    /// The stable identifier: the case name.
    public var id: String {
        let mirror = Mirror(reflecting: self)
        if let label = mirror.children.first?.label { return label }
        return String(describing: self)
    }

    /// The text shown to people.
    public var text: String {
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
        case .valueContainsDoubleQuote:
            return "the value contains '\"', which a delivery api query cannot express"
        case .variableNotAValue(let name, let holds):
            return "'$\(name)' holds \(holds), not a value"
        }
    }

    static func didYouMean(_ suggestion: String?) -> String {
        guard let suggestion else { return "" }
        return "; did you mean '\(suggestion)'?"
    }
}
