/// A small deterministic generator (SplitMix64), so that a generated test reproduces from its seed.
public struct SeededGenerator: RandomNumberGenerator {
    /// The state; the next value is derived from it.
    public var state: UInt64

    /// A generator starting at `seed`.
    public init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<n` (`n` > 0; the modulo's slight bias does not matter to tests).
    public mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
}
