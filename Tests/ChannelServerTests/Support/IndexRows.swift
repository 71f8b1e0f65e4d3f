@testable import ChannelServer

extension ChannelIndex {
    /// Every row of `sql` (over the main and side files) as text, its `columns` joined by `|`.
    func textRows(_ sql: String, columns: Int32) throws -> [String] {
        try pool.withConnection { connection in
            let statement = try connection.prepare(sql)
            var out: [String] = []
            while try statement.step() {
                out.append((0..<columns).map { statement.text($0) ?? "null" }.joined(separator: "|"))
            }
            return out
        }
    }
}
