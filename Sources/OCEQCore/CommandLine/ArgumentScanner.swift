// The one argument scanner of the package: `oceq`, `oceq serve`, `oceq mirror` and the benchmark
// client all split their command lines here, so they accept the same shapes:
//
// - long options `--name value` and `--name=value`; short options `-c value` (not bundled: `-kq`
//   is one unknown option, not two flags);
// - `--` ends the options: everything after it is an operand, even when it starts with `-`;
// - `-` alone is an operand (it usually means stdin);
// - an unknown option is a `UsageError` naming it, with a did-you-mean among the long names
//   (`Suggestions.closest`); a missing value and a value given to a flag are usage errors too.
//
// The scanner only splits; each command gives the options and operands their meaning.

/// Splits a command line into options and operands.
package struct ArgumentScanner {
    /// One option a command accepts: its spellings, and whether it takes a value.
    package struct Option: Sendable, Equatable {
        /// The spellings (`--port`, `-p`); the first is the name `next()` reports.
        package var names: [String]
        /// Whether the option takes a value (`--port 80`, `--port=80`).
        package var takesValue: Bool

        /// An option spelt `names` (the first is its name), taking a value or not.
        package init(_ names: [String], takesValue: Bool) {
            precondition(!names.isEmpty && names.allSatisfy { $0.hasPrefix("-") && $0.count > 1 })
            self.names = names
            self.takesValue = takesValue
        }

        /// An option without a value (`--strict`, `-q`).
        package static func flag(_ names: String...) -> Option { Option(names, takesValue: false) }

        /// An option with a value (`--port N`, `--port=N`).
        package static func value(_ names: String...) -> Option { Option(names, takesValue: true) }
    }

    /// What the scan found next.
    package enum Item: Equatable, Sendable {
        /// The option named `name` (its first spelling), with its value when it takes one.
        case option(String, value: String?)
        /// A word that is not an option.
        case operand(String)
    }

    private let arguments: [String]
    private let options: [Option]
    private let operandsEndOptions: Bool
    private var index = 0
    private var onlyOperands = false

    /// A scanner over `arguments` (without the program name) accepting `options`. With
    /// `operandsEndOptions`, the first operand ends the options as `--` does (`oceq FILE ARGS...`:
    /// the script's arguments are its own).
    package init(_ arguments: [String], options: [Option], operandsEndOptions: Bool = false) {
        self.arguments = arguments
        self.options = options
        self.operandsEndOptions = operandsEndOptions
    }

    /// The arguments not scanned yet.
    package var remaining: ArraySlice<String> { arguments[index...] }

    /// The next option or operand; nil at the end.
    package mutating func next() throws(UsageError) -> Item? {
        guard index < arguments.count else { return nil }
        let argument = arguments[index]
        index += 1
        if onlyOperands || argument == "-" || !argument.hasPrefix("-") {
            if operandsEndOptions { onlyOperands = true }
            return .operand(argument)
        }
        if argument == "--" {
            onlyOperands = true
            return try next()
        }
        var written = argument
        var inline: String?
        if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
            written = String(argument[..<equals])
            inline = String(argument[argument.index(after: equals)...])
        }
        guard let option = options.first(where: { $0.names.contains(written) }) else {
            throw unknown(written)
        }
        guard option.takesValue else {
            if inline != nil { throw UsageError("\(written) takes no value") }
            return .option(option.names[0], value: nil)
        }
        if let inline { return .option(option.names[0], value: inline) }
        guard index < arguments.count else { throw UsageError("\(written) needs a value") }
        index += 1
        return .option(option.names[0], value: arguments[index - 1])
    }

    /// Every item to the end.
    package mutating func all() throws(UsageError) -> [Item] {
        var items: [Item] = []
        while let item = try next() { items.append(item) }
        return items
    }

    /// `unknown option 'X'`, with the closest long name when one is close.
    private func unknown(_ written: String) -> UsageError {
        let long = options.flatMap(\.names).filter { $0.hasPrefix("--") }
        let hint = Suggestions.closest(to: written, among: long).map { "; did you mean '\($0)'?" } ?? ""
        return UsageError("unknown option '\(written)'\(hint)")
    }

    /// `text` as a whole number within `range`, or a usage error naming `option`.
    package static func integer(_ text: String, option: String, in range: ClosedRange<Int>) throws(UsageError) -> Int {
        guard let number = Int(text), range.contains(number) else {
            throw UsageError(
                "\(option) must be a number from \(range.lowerBound) to \(range.upperBound), got '\(text)'")
        }
        return number
    }
}
