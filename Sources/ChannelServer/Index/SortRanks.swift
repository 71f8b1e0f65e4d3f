// Sorting by precomputed ranks.
//
// For each sort field the index computes, on first use, a dense rank per item (equal values
// share a rank; `missing` for items without a sortable value) and keeps it in memory. A search
// then orders its matches by the ranks of its keys and finally by ordinal, so ties and missing
// values keep the export order, and missing values come last in either direction.
//
// Orders: text by its lower-cased value (code point order), numbers numerically, datetimes by
// instant, booleans false before true. A user field holding values of several kinds sorts
// numbers, then datetimes, then booleans, then text. Multivalued values, references and JSON
// objects are not sortable (treated as missing).

/// Dense ranks of one sort field, indexed by ordinal.
struct SortRanks: Sendable {
    static let missing = Int32.max
    var ranks: [Int32]

    /// Ranks from rows already in sort order; `same` tells whether a row equals the previous one.
    init(count: Int, rows: (_ emit: (Int, Bool) -> Void) throws -> Void) rethrows {
        var ranks = [Int32](repeating: Self.missing, count: count)
        var rank: Int32 = -1
        try rows { ord, same in
            if !same || rank < 0 { rank += 1 }
            if ord >= 0, ord < count { ranks[ord] = rank }
        }
        self.ranks = ranks
    }

    /// The sort key of an ordinal: ascending rank, or reversed rank; missing last either way.
    @inline(__always)
    func key(_ ord: Int32, descending: Bool) -> UInt32 {
        let r = ranks[Int(ord)]
        if r == Self.missing { return UInt32.max }
        return descending ? UInt32(Int32.max - 1 - r) : UInt32(r)
    }

    /// Reads the ranks of a sort field, or nil when the field is unknown or not sortable.
    static func load(
        field: String, catalog: IndexCatalog, count: Int, connection db: SQLiteConnection
    ) throws
        -> SortRanks?
    {
        switch FieldPath(field) {
        case .standard(let standard):
            switch standard.kind {
            case .text:
                let column = "\(standard.rawValue)_f"
                let statement = try db.prepare(
                    "SELECT ord, \(column) FROM items WHERE \(column) <> '' ORDER BY \(column), ord")
                var previous: String?
                return try SortRanks(count: count) { emit in
                    while try statement.step() {
                        let value = statement.text(1)
                        emit(Int(statement.int64(0)), value == previous)
                        previous = value
                    }
                }
            case .datetime, .boolean:
                let column = standard.rawValue
                let statement = try db.prepare(
                    "SELECT ord, \(column) FROM items WHERE \(column) IS NOT NULL ORDER BY \(column), ord")
                var previous: Int64?
                return try SortRanks(count: count) { emit in
                    while try statement.step() {
                        let value = statement.int64(1)
                        emit(Int(statement.int64(0)), value == previous)
                        previous = value
                    }
                }
            case .multiReference:
                return nil
            }
        case .user(let name):
            guard let fieldInfo = catalog.fields["fields." + name] else { return nil }
            let statement = try db.prepare(
                """
                SELECT ord, kind, num, coalesce(full, fold) FROM vals
                WHERE fid = ?1 AND seq < 0 AND kind IN (1, 2, 3, 4)
                ORDER BY kind, num, coalesce(full, fold), ord
                """)
            try statement.bind([.int(fieldInfo.id)])
            var previous: (Int64, Double?, String?)?
            var any = false
            let ranks = try SortRanks(count: count) { emit in
                while try statement.step() {
                    any = true
                    let value = (
                        statement.int64(1), statement.isNull(2) ? nil : statement.double(2), statement.text(3)
                    )
                    emit(Int(statement.int64(0)), previous.map { $0 == value } ?? false)
                    previous = value
                }
            }
            return any ? ranks : nil
        case .referenced, nil:
            return nil
        }
    }
}

extension Array where Element == Int32 {
    /// The ordinals sorted by the keys, then by ordinal.
    func sorted(by keys: [(ranks: SortRanks, descending: Bool)]) -> [Int32] {
        if keys.count == 1 {
            let (ranks, descending) = keys[0]
            var packed = map { (UInt64(ranks.key($0, descending: descending)) << 32) | UInt64(UInt32($0)) }
            packed.sort()
            return packed.map { Int32(truncatingIfNeeded: $0 & 0xFFFF_FFFF) }
        }
        return sorted { a, b in
            for (ranks, descending) in keys {
                let ka = ranks.key(a, descending: descending)
                let kb = ranks.key(b, descending: descending)
                if ka != kb { return ka < kb }
            }
            return a < b
        }
    }
}
