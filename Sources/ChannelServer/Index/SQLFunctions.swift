import CSQLite

/// The SQL functions compiled searches call, registered on every connection.
///
/// * `oceq_mt(text, pattern)`: 1 if `text` (values separated by U+2029) contains the phrase
///   `pattern` (folded words separated by spaces, `?`/`*` wildcards inside words), else 0.
/// * `oceq_near(term, word, edits)`: 1 if `term` is within `edits` edits of `word`, else 0.
enum SQLFunctions {
    static func register(on db: OpaquePointer) {
        let flags = SQLITE_UTF8 | SQLITE_DETERMINISTIC
        sqlite3_create_function_v2(
            db, "oceq_mt", 2, flags, nil,
            { context, _, arguments in
                guard let arguments, let text = SQLFunctions.text(arguments[0]),
                    let pattern = SQLFunctions.text(arguments[1])
                else {
                    sqlite3_result_int(context, 0)
                    return
                }
                let words = pattern.split(separator: " ").map { Array($0.unicodeScalars) }
                sqlite3_result_int(context, TextFolding.phraseMatches(text, pattern: words) ? 1 : 0)
            }, nil, nil, nil)
        sqlite3_create_function_v2(
            db, "oceq_near", 3, flags, nil,
            { context, _, arguments in
                guard let arguments, let term = SQLFunctions.text(arguments[0]),
                    let word = SQLFunctions.text(arguments[1])
                else {
                    sqlite3_result_int(context, 0)
                    return
                }
                let limit = Int(sqlite3_value_int(arguments[2]))
                let d = TextFolding.editDistance(Array(term.unicodeScalars), Array(word.unicodeScalars), limit: limit)
                sqlite3_result_int(context, d <= limit ? 1 : 0)
            }, nil, nil, nil)
    }

    static func text(_ value: OpaquePointer?) -> String? {
        guard let pointer = sqlite3_value_text(value) else { return nil }
        let count = Int(sqlite3_value_bytes(value))
        return String(decoding: UnsafeBufferPointer(start: pointer, count: count), as: UTF8.self)
    }
}
