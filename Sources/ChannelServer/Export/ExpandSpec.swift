import OCEQCore

/// Which reference fields of an item read are replaced by the referenced items (`expand=`).
///
/// Expansion is one level deep: an expanded item's own references stay stubs.
public enum ExpandSpec: Sendable, Hashable {
    /// No `expand` parameter: references are stubs.
    case none
    /// `expand=all`: every reference field (and the `taxonomies` block).
    case all
    /// `expand=fields.a,fields.b`: the named fields.
    case fields(Set<String>)

    /// Parses an `expand` value: empty or nil is `.none`; `all` (any case) anywhere in the list
    /// wins; otherwise each comma-separated term must be `fields.NAME` (or a bare `NAME`) naming a
    /// field of `type` (unchecked when `type` is nil). A deeper path such as `fields.a.b` or an
    /// unknown field is an error (the server's 400).
    public static func parse(_ text: String?, for type: ContentTypeDefinition?) throws(ExpandError) -> ExpandSpec {
        guard let text else { return .none }
        var names: Set<String> = []
        for rawTerm in text.split(separator: ",", omittingEmptySubsequences: true) {
            let term = rawTerm.trimmingSpaces()
            if term.isEmpty { continue }
            if term.lowercased() == "all" { return .all }
            var name = Substring(term)
            if name.hasPrefix("fields.") { name = name.dropFirst("fields.".count) }
            if name.isEmpty { throw ExpandError.invalid(term: term) }
            if name.contains(".") { throw ExpandError.tooDeep(path: term) }
            if let type, type.field(named: String(name)) == nil {
                throw ExpandError.unknownField(name: String(name), type: type.name)
            }
            names.insert(String(name))
        }
        return names.isEmpty ? .none : .fields(names)
    }

    /// True when the field `name` is to be expanded.
    public func includes(_ name: String) -> Bool {
        switch self {
        case .none: return false
        case .all: return true
        case .fields(let names): return names.contains(name)
        }
    }

    /// The value to echo as `expand=` in self links: `all`, `fields.a,fields.b` (sorted), or nil.
    public var queryValue: String? {
        switch self {
        case .none: return nil
        case .all: return "all"
        case .fields(let names):
            return names.sorted().map { "fields." + URLEncoding.component($0) }.joined(separator: ",")
        }
    }
}

/// An `expand` value the server refuses (HTTP 400).
public enum ExpandError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A name that is not a field of the item's type.
    case unknownField(name: String, type: String)
    /// A path below the first level, e.g. `fields.author.avatar`.
    case tooDeep(path: String)
    /// A term that names no field (`fields.`).
    case invalid(term: String)

    public var description: String {
        switch self {
        case .unknownField(let name, let type):
            return "expand: '\(name)' is not a field of type '\(type)'"
        case .tooDeep(let path):
            return "expand: '\(path)' goes deeper than one level; only fields.NAME can be expanded"
        case .invalid(let term):
            return "expand: '\(term)' names no field; use 'all' or fields.NAME"
        }
    }
}

extension Substring {
    fileprivate func trimmingSpaces() -> String {
        var text = self
        while let first = text.first, first == " " || first == "\t" { text.removeFirst() }
        while let last = text.last, last == " " || last == "\t" { text.removeLast() }
        return String(text)
    }
}
