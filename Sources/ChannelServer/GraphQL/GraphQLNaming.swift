// GraphQLNaming: GraphQL names for OCM type and field names (README "GraphQL").
//
// OCM's documented rule: a type's GraphQL name is its name with the first letter lower-cased
// (`PressRelease` → `pressRelease`, `Image` → `image`), its user fields live in `<name>Fields`, its
// single-item query is `get<Name>`, and a user field named like a standard field gets `field` in
// front (`type` → `fieldType`). GraphQL names allow only `[_A-Za-z][_0-9A-Za-z]*`; for the names
// OCM's rule does not cover, one rule: the name is cut into words at every character other than
// A–Z, a–z and 0–9 (dashes, underscores, spaces, dots …), and the words are joined in camel case
// (`Starter-Blog-Post` → `starterBlogPost`, `starter-blog-post_title` → `starterBlogPostTitle`);
// a name that would start with a digit gets `_` in front; an empty one becomes `unnamed`. When two
// names come out equal (or equal to a built-in name), the later one in sorted order of the original
// names gets `_2`, `_3`, … — so no two names are ever equal.

/// Turns OCM names into GraphQL names.
enum GraphQLNaming {
    /// `name` in camel case; `lowerFirst` lower-cases the first letter (type names).
    static func convert(_ name: String, lowerFirst: Bool) -> String {
        var words: [String] = []
        var current = ""
        for scalar in name.unicodeScalars {
            if scalar.isASCII, scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) {
                current.unicodeScalars.append(scalar)
            } else if !current.isEmpty {
                words.append(current)
                current = ""
            }
        }
        if !current.isEmpty { words.append(current) }
        guard var result = words.first else { return "unnamed" }
        for word in words.dropFirst() { result += upperFirst(word) }
        if lowerFirst { result = lowerFirstLetter(result) }
        if let first = result.unicodeScalars.first, ("0"..."9").contains(first) { result = "_" + result }
        return result
    }

    static func upperFirst(_ word: String) -> String {
        word.prefix(1).uppercased() + word.dropFirst()
    }

    static func lowerFirstLetter(_ word: String) -> String {
        word.prefix(1).lowercased() + word.dropFirst()
    }

    /// `candidate`, or `candidate_2`, `candidate_3`, … the first for which `free` holds.
    static func unique(_ candidate: String, free: (String) -> Bool) -> String {
        if free(candidate) { return candidate }
        var n = 2
        while !free("\(candidate)_\(n)") { n += 1 }
        return "\(candidate)_\(n)"
    }

    /// Whether `name` is a valid GraphQL name.
    static func isValid(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, GraphQLLexer.isNameStart(first) else { return false }
        return name.unicodeScalars.allSatisfy { GraphQLLexer.isNameStart($0) || ("0"..."9").contains($0) }
    }
}
