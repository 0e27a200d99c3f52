/// The package's one seeded generator: SplitMix64 (Steele, Lea and Flood, "Fast splittable
/// pseudorandom number generators", 2014), so every randomized run — ids, generated cases,
/// synthetic fixtures, fuzz splits — is reproducible from its seed. Not for secrets.
package struct SeededRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// A generator whose stream is fixed by `seed`.
    package init(seed: UInt64) { state = seed }

    /// The next 64 bits of the stream.
    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A draw in `range` by plain modulo (slightly biased; kept where recorded outputs depend on it).
    package mutating func modulo(in range: ClosedRange<Int>) -> Int {
        range.lowerBound + Int(next() % (UInt64(range.upperBound - range.lowerBound) + 1))
    }

    /// The 64-bit FNV-1a hash of `bytes`: a stable, seedable digest of text (not for secrets).
    package static func fnv1a<S: Sequence<UInt8>>(_ bytes: S) -> UInt64 {
        bytes.reduce(0xcbf2_9ce4_8422_2325) { ($0 ^ UInt64($1)) &* 0x0000_0100_0000_01b3 }
    }
}
