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

import OCEQCore

/// Dense ranks of one sort field, indexed by ordinal.
struct SortRanks: Sendable {
    /// -1 for items without a sortable value.
    var ranks: [Int32]
    /// The number of distinct values.
    var distinct: Int
    /// The ordinals by rank, then ordinal; the items without a value last (by ordinal). With
    /// `ranks` (its inverse, in effect) and `groupStarts` about 8 bytes per item.
    var order: [Int32]
    /// The number of items with a value (the first `valued` of `order`).
    var valued: Int
    /// Bit p set where position p of `order` starts a run of equal values (1 bit per item), so a
    /// descending walk finds its groups without reading `ranks` at random.
    var groupStarts: OrdinalSet
    /// For user fields: the value of each numeric rank (numbers first, then datetimes as epoch
    /// milliseconds), and its `ValueKind`; ranks past these are booleans and text.
    var numbers: [Double] = []
    var numberKinds: [Int8] = []
    /// True when `numbers` holds the numeric ranks' values (user fields).
    var keepsNumbers = false

    /// Ranks from rows already in sort order; `same` tells whether a row equals the previous one.
    init(count: Int, rows: (_ emit: (Int, Bool) -> Void) throws -> Void) rethrows {
        var ranks = [Int32](repeating: -1, count: count)
        var rank: Int32 = -1
        try rows { ord, same in
            if !same || rank < 0 { rank += 1 }
            if ord >= 0, ord < count { ranks[ord] = rank }
        }
        self.ranks = ranks
        distinct = Int(rank) + 1
        (order, valued) = Self.permutation(ranks, distinct: distinct)
        var starts = OrdinalSet(capacity: count)
        var previous: Int32 = -1
        for p in 0..<valued {
            let rank = ranks[Int(order[p])]
            if rank != previous { starts.insert(p) }
            previous = rank
        }
        groupStarts = starts
    }

    /// The ordinals sorted by rank (a counting sort, stable so ties keep the ordinal order).
    private static func permutation(_ ranks: [Int32], distinct: Int) -> (order: [Int32], valued: Int) {
        var next = [Int32](repeating: 0, count: distinct + 2)
        for r in ranks { next[r < 0 ? distinct + 1 : Int(r) + 1] += 1 }
        for i in 1..<next.count { next[i] += next[i - 1] }
        let valued = Int(next[distinct])
        var order = [Int32](repeating: 0, count: ranks.count)
        for (ord, r) in ranks.enumerated() {
            let slot = r < 0 ? distinct : Int(r)
            order[Int(next[slot])] = Int32(ord)
            next[slot] += 1
        }
        return (order, valued)
    }

    /// Calls `visit` with the ordinals in this key's order: ascending or descending by value,
    /// ties by ordinal, items without a value last (by ordinal); stops when `visit` returns false.
    /// `span`: only the positions of `order` in it (a `span` from `positions`, whose ends are
    /// where runs of equal values start), in the same order; nil for all of them.
    @inline(__always)
    func walk(descending: Bool, within span: Range<Int>? = nil, _ visit: (Int32) -> Bool) {
        order.withUnsafeBufferPointer { order in
            let span = span?.clamped(to: 0..<order.count) ?? 0..<order.count
            guard descending else {
                for p in span where !visit(order[p]) { return }
                return
            }
            // Equal values from the last group back, each group in ordinal order.
            var end = min(valued, span.upperBound)
            while end > span.lowerBound {
                var start = end - 1
                while start > span.lowerBound, !groupStarts.contains(start) { start -= 1 }
                for p in start..<end where !visit(order[p]) { return }
                end = start
            }
            let missing = max(valued, span.lowerBound)
            guard missing < span.upperBound else { return }
            for p in missing..<span.upperBound where !visit(order[p]) { return }
        }
    }

    /// The sort key of an ordinal, in 0...distinct: the rank, or the reversed rank; missing
    /// values are `distinct`, last either way.
    @inline(__always)
    func key(_ ord: Int32, descending: Bool) -> UInt64 {
        let r = Int(ranks[Int(ord)])
        if r < 0 { return UInt64(distinct) }
        return UInt64(descending ? distinct - 1 - r : r)
    }

    /// Bits needed for a key.
    var keyBits: Int { Self.bits(distinct) }

    static func bits(_ value: Int) -> Int { value <= 0 ? 1 : Int.bitWidth - value.leadingZeroBitCount }

    /// Reads the ranks of a sort field, or nil when the field is unknown or not sortable.
    static func load(
        field: String, catalog: IndexCatalog, count: Int, connection db: SQLiteConnection
    ) throws
        -> SortRanks?
    {
        switch QueryFieldPath(field) {
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
            guard let field = catalog.fields["fields." + name] else { return nil }
            return try userRanks(field, count: count, connection: db)
        case .referenced, nil:
            return nil
        }
    }
}

extension SortRanks {
    /// Ranks of a user field: numbers, then datetimes (read in order from vals_num), then
    /// booleans, then text (from vals_fold, by the first `IndexSchema.foldLimit` characters).
    /// Values of multivalued items are left out.
    fileprivate static func userRanks(
        _ field: IndexCatalog.Field, count: Int, connection db: SQLiteConnection
    )
        throws -> SortRanks?
    {
        let multivalued = field.kinds & ValueKind.multivaluedBit != 0
        let single = multivalued ? " AND seq < 0" : ""
        let numeric = try db.prepare(
            """
            SELECT ord, kind, num FROM vals WHERE fid = ?1 AND num IS NOT NULL\(single)
            ORDER BY kind, num, ord
            """)
        try numeric.bind([.int(field.id)])
        let textual = try db.prepare(
            """
            SELECT ord, kind, fold FROM vals WHERE fid = ?1 AND fold IS NOT NULL AND kind IN (3, 4)\(single)
            ORDER BY fold, kind, ord
            """)
        try textual.bind([.int(field.id)])
        var texts: [(ord: Int, text: String?)] = []
        var booleans: [(ord: Int, text: String?)] = []
        while try textual.step() {
            let row = (Int(textual.int64(0)), textual.text(2))
            if textual.int64(1) == ValueKind.boolean.rawValue { booleans.append(row) } else { texts.append(row) }
        }
        var any = false
        var numbers: [Double] = []
        var numberKinds: [Int8] = []
        var ranks = try SortRanks(count: count) { emit in
            var previous: (Int64, Double)?
            while try numeric.step() {
                let value = (numeric.int64(1), numeric.double(2))
                let same = previous.map { $0 == value } ?? false
                emit(Int(numeric.int64(0)), same)
                if !same {
                    numbers.append(value.1)
                    numberKinds.append(Int8(truncatingIfNeeded: value.0))
                }
                previous = value
                any = true
            }
            for group in [booleans, texts] {
                var last: String??
                for row in group {
                    emit(row.ord, last == .some(row.text))
                    last = .some(row.text)
                    any = true
                }
            }
        }
        ranks.numbers = numbers
        ranks.numberKinds = numberKinds
        ranks.keepsNumbers = true
        return any ? ranks : nil
    }

    /// The items whose value is of `kind` (number or datetime) and passes every bound, from the
    /// values kept by rank: a slice of `order`, without SQLite. Nil when the ranks keep no values
    /// (standard fields).
    func ordinals(
        kind: ValueKind, within bounds: [(op: QueryOperator, bound: Double)], capacity: Int
    )
        -> OrdinalSet?
    {
        guard let positions = positions(kind: kind, within: bounds) else { return nil }
        let (start, end) = (positions.lowerBound, positions.upperBound)
        // A wide range (`published ge D` keeping 90 %) is every item less the rest.
        return order.withUnsafeBufferPointer { order in
            if end - start <= order.count / 2 {
                var set = OrdinalSet(capacity: capacity)
                for p in start..<end { set.insert(Int(order[p])) }
                return set
            }
            var set = OrdinalSet.all(capacity: capacity)
            for p in 0..<start { set.remove(Int(order[p])) }
            for p in end..<order.count { set.remove(Int(order[p])) }
            return set
        }
    }

    /// The positions of `order` holding the items whose value is of `kind` (number or datetime)
    /// and passes every bound (empty when none do). Nil when the ranks keep no values (standard
    /// fields).
    func positions(kind: ValueKind, within bounds: [(op: QueryOperator, bound: Double)]) -> Range<Int>? {
        guard keepsNumbers else { return nil }
        let code = Int8(truncatingIfNeeded: kind.rawValue)
        var low = Self.firstIndex(numbers.count) { numberKinds[$0] >= code }
        var high = Self.firstIndex(numbers.count) { numberKinds[$0] > code }
        let (kindStart, kindEnd) = (low, high)
        for (op, bound) in bounds {
            switch op {
            case .greaterThanOrEqual:
                low = max(low, kindStart + Self.firstIndex(kindEnd - kindStart) { numbers[kindStart + $0] >= bound })
            case .greaterThan:
                low = max(low, kindStart + Self.firstIndex(kindEnd - kindStart) { numbers[kindStart + $0] > bound })
            case .lessThan:
                high = min(high, kindStart + Self.firstIndex(kindEnd - kindStart) { numbers[kindStart + $0] >= bound })
            default:
                high = min(high, kindStart + Self.firstIndex(kindEnd - kindStart) { numbers[kindStart + $0] > bound })
            }
        }
        guard low < high else { return 0..<0 }
        return positions(ranks: low..<high)
    }

    /// The positions of `order` holding the items whose rank is in `range` (valued items only).
    func positions(ranks range: Range<Int>) -> Range<Int> {
        let start = Self.firstIndex(valued) { ranks[Int(order[$0])] >= range.lowerBound }
        let end = Self.firstIndex(valued) { ranks[Int(order[$0])] >= range.upperBound }
        return start..<max(start, end)
    }

    /// The first position of `order` among the valued items whose item passes `test`, for a
    /// `test` that is false, then true along the order (`valued` if it never holds).
    func firstPosition(where test: (Int32) throws -> Bool) rethrows -> Int {
        try Self.firstIndex(valued) { try test(order[$0]) }
    }

    /// The first index of `0..<count` where `test` holds (`count` if none), for a `test` false
    /// then true.
    private static func firstIndex(_ count: Int, _ test: (Int) throws -> Bool) rethrows -> Int {
        var (low, high) = (0, count)
        while low < high {
            let middle = (low + high) / 2
            if try test(middle) { high = middle } else { low = middle + 1 }
        }
        return low
    }
}

extension Array where Element == Int32 {
    /// The first `count` ordinals in order of the keys, then of ordinal (all of them when `count`
    /// is at least the array's size).
    ///
    /// The keys and the ordinal are packed into one UInt64 when they fit (they do for any export
    /// of fewer than a few million items with two or three keys), then the smallest `count` are
    /// selected with a bounded heap or, for large pages, a full sort.
    func ordered(by keys: [(ranks: SortRanks, descending: Bool)], first count: Int) -> [Int32] {
        let ordBits = SortRanks.bits(Int(self.max() ?? 0))
        let keyBits = keys.map(\.ranks.keyBits)
        guard keyBits.reduce(ordBits, +) <= 64 else {
            let all = sorted { a, b in
                for (ranks, descending) in keys {
                    let ka = ranks.key(a, descending: descending)
                    let kb = ranks.key(b, descending: descending)
                    if ka != kb { return ka < kb }
                }
                return a < b
            }
            return [Int32](all.prefix(count))
        }
        var packed = [UInt64]()
        packed.reserveCapacity(self.count)
        for ord in self {
            var value: UInt64 = 0
            for (k, key) in keys.enumerated() {
                value = (value << UInt64(keyBits[k])) | key.ranks.key(ord, descending: key.descending)
            }
            packed.append((value << UInt64(ordBits)) | UInt64(UInt32(ord)))
        }
        let mask = (UInt64(1) << UInt64(ordBits)) &- 1
        let chosen: [UInt64]
        if count >= packed.count / 4 {
            packed.sort()
            chosen = [UInt64](packed.prefix(count))
        } else {
            chosen = packed.smallest(count)
        }
        return chosen.map { Int32(truncatingIfNeeded: $0 & mask) }
    }
}

extension Array where Element == UInt64 {
    /// The `k` smallest elements in ascending order, by a bounded max-heap.
    func smallest(_ k: Int) -> [UInt64] {
        guard k > 0 else { return [] }
        var heap: [UInt64] = []
        heap.reserveCapacity(k)
        for value in self {
            if heap.count < k {
                heap.append(value)
                var child = heap.count - 1
                while child > 0 {
                    let parent = (child - 1) / 2
                    if heap[parent] >= heap[child] { break }
                    heap.swapAt(parent, child)
                    child = parent
                }
            } else if value < heap[0] {
                heap[0] = value
                var parent = 0
                while true {
                    let left = 2 * parent + 1
                    if left >= k { break }
                    let right = left + 1
                    let larger = right < k && heap[right] > heap[left] ? right : left
                    if heap[parent] >= heap[larger] { break }
                    heap.swapAt(parent, larger)
                    parent = larger
                }
            }
        }
        return heap.sorted()
    }
}
