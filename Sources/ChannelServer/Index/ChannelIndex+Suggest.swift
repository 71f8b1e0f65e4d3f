// Word completion over the full-text vocabulary (`terms`), for `GET /items/suggest`.

extension ChannelIndex {
    /// The distinct indexed words starting with `stem` (already folded), alphabetically, at most `limit`.
    func completions(of stem: String, limit: Int) throws -> [String] {
        guard limit > 0, !stem.isEmpty else { return [] }
        return try pool.withConnection { db in
            let statement = try db.cached(
                "SELECT DISTINCT term FROM terms WHERE substr(term, 1, length(?1)) = ?1 ORDER BY term LIMIT ?2")
            try statement.bind([.text(stem), .int(Int64(limit))])
            var words: [String] = []
            while try statement.step() {
                if let word = statement.text(0) { words.append(word) }
            }
            statement.reset()
            return words
        }
    }
}
