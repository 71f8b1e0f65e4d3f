// A `q` value read as a number. (A value read as a datetime is core's `CivilDateTime.queryValue`.)

/// Reads a query value as a decimal number.
package enum QueryNumber {
    /// The number a query value spells (`"21.12"`, `"-3"`, `"1e3"`), or nil.
    package static func parse(_ text: String) -> Double? {
        let b = Array(text.utf8)
        var i = 0
        if i < b.count, b[i] == 0x2B || b[i] == 0x2D { i += 1 }
        var mantissa = 0
        while i < b.count, b[i] >= 0x30, b[i] <= 0x39 {
            i += 1
            mantissa += 1
        }
        if i < b.count, b[i] == 0x2E {
            i += 1
            while i < b.count, b[i] >= 0x30, b[i] <= 0x39 {
                i += 1
                mantissa += 1
            }
        }
        guard mantissa > 0 else { return nil }
        if i < b.count, b[i] == 0x65 || b[i] == 0x45 {
            i += 1
            if i < b.count, b[i] == 0x2B || b[i] == 0x2D { i += 1 }
            var exponent = 0
            while i < b.count, b[i] >= 0x30, b[i] <= 0x39 {
                i += 1
                exponent += 1
            }
            guard exponent > 0 else { return nil }
        }
        guard i == b.count, let value = Double(text), value.isFinite else { return nil }
        return value
    }
}
