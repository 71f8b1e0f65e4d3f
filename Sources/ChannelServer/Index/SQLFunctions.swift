import CSQLite

/// The SQL functions compiled searches call, registered on every connection. Text arguments are
/// field values (HTML is reduced to its text first); word lists are folded words separated by
/// spaces.
///
/// * `oceq_mt(value, pattern)`: 1 if the value contains the phrase `pattern` (`?`/`*` wildcards
///   inside words), else 0.
/// * `oceq_co(value, words)`: 1 if a word of the value is one of `words`.
/// * `oceq_sm(value, words)`: 1 if a word of the value is within a few edits of one of `words`.
/// * `oceq_near(term, word, edits)`: 1 if the vocabulary term is within `edits` edits of `word`.
enum SQLFunctions {
    static func register(on db: OpaquePointer) {
        let sqlite = CLibraries.sqlite
        let flags = SQLITE_UTF8 | SQLITE_DETERMINISTIC
        _ = sqlite.sqlite3_create_function_v2(
            db, "oceq_mt", 2, flags, nil,
            { context, _, arguments in
                SQLFunctions.answer(context, arguments) { text, pattern in
                    let words = pattern.split(separator: " ").map { Array($0.unicodeScalars) }
                    return TextFolding.phraseMatches(text, pattern: words)
                }
            }, nil, nil, nil)
        _ = sqlite.sqlite3_create_function_v2(
            db, "oceq_co", 2, flags, nil,
            { context, _, arguments in
                SQLFunctions.answer(context, arguments) { text, words in
                    TextFolding.containsAnyWord(text, Set(words.split(separator: " ").map(String.init)))
                }
            }, nil, nil, nil)
        _ = sqlite.sqlite3_create_function_v2(
            db, "oceq_sm", 2, flags, nil,
            { context, _, arguments in
                SQLFunctions.answer(context, arguments) { text, words in
                    TextFolding.containsSimilarWord(text, words.split(separator: " ").map(String.init))
                }
            }, nil, nil, nil)
        _ = sqlite.sqlite3_create_function_v2(
            db, "oceq_near", 3, flags, nil,
            { context, _, arguments in
                SQLFunctions.answer(context, arguments) { term, word in
                    let limit = Int(CLibraries.sqlite.sqlite3_value_int(arguments?[2]))
                    // The term comes from the index's vocabulary, folded by the same tokenizer as `word`.
                    let distance = TextFolding.editDistance(
                        Array(term.unicodeScalars), Array(word.unicodeScalars), limit: limit)
                    return distance <= limit
                }
            }, nil, nil, nil)
    }

    /// Sets the result of a call whose first two arguments are texts: 1 when `test` holds for them,
    /// 0 when it does not or either is NULL.
    private static func answer(
        _ context: OpaquePointer?, _ arguments: UnsafeMutablePointer<OpaquePointer?>?,
        _ test: (String, String) -> Bool
    ) {
        guard let arguments, let first = text(arguments[0]), let second = text(arguments[1]) else {
            return CLibraries.sqlite.sqlite3_result_int(context, 0)
        }
        CLibraries.sqlite.sqlite3_result_int(context, test(first, second) ? 1 : 0)
    }

    static func text(_ value: OpaquePointer?) -> String? {
        guard let pointer = CLibraries.sqlite.sqlite3_value_text(value) else { return nil }
        let count = Int(CLibraries.sqlite.sqlite3_value_bytes(value))
        return String(decoding: UnsafeBufferPointer(start: pointer, count: count), as: UTF8.self)
    }
}
