// Finding the item a user names: the one matcher behind `articles Recipes`, `author "Hana Kim"` and a
// reference field compared with a name in a condition (`topic=Recipes`). The rules, in order: the name
// exactly; the name without regard to case; the one name that starts with the text (case-insensitive);
// the one name that contains it. More than one at the first rule that finds any is ambiguous; none at
// all is a miss, with the closest name by edit distance.

/// The outcome of matching a text against a list of names.
package enum NameMatch: Sendable, Hashable {
    /// The name at this index.
    case found(Int)
    /// These names (indices, in list order) all fit equally well.
    case ambiguous([Int])
    /// No name fits; the closest one by edit distance, if any is close.
    case none(suggestion: String?)

    /// Matches `text` against `names` by the rules above.
    package static func find(_ text: String, in names: [String]) -> NameMatch {
        if let index = names.firstIndex(of: text) { return .found(index) }
        let wanted = text.lowercased()
        let lowered = names.map { $0.lowercased() }
        let rules: [(String) -> Bool] = [{ $0 == wanted }, { $0.hasPrefix(wanted) }, { $0.contains(wanted) }]
        for rule in rules where !wanted.isEmpty {
            let hits = lowered.indices.filter { rule(lowered[$0]) }
            // Several names equal but for case are the same name written twice: the first one wins.
            if hits.count == 1 || (hits.count > 1 && hits.allSatisfy({ lowered[$0] == wanted })) {
                return .found(hits[0])
            }
            if hits.count > 1 { return .ambiguous(hits) }
        }
        return .none(suggestion: Suggestions.closest(to: text, among: names))
    }
}
