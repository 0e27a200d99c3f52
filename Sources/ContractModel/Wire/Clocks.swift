import Foundation

/// A source of wall-clock time (`Date`s). Inject a `ManualClock` to test TTLs and JWT expiry
/// without sleeping. Not named `Clock`, which would shadow the standard library's `Clock`
/// protocol (and its `Duration`) in every file that imports this module.
public protocol WallClock: Sendable {
    /// The current time.
    func now() -> Date
}

public struct SystemClock: WallClock {
    public init() {}
    public func now() -> Date { Date() }
}

/// A clock that moves only when told to.
public final class ManualClock: WallClock, Sendable {
    private let current: Guarded<Date>

    /// A clock standing at `start`.
    public init(_ start: Date = Date(timeIntervalSince1970: 1_767_225_600)) { current = Guarded(start) } // 2026-01-01T00:00:00Z

    public func now() -> Date { current.withLock { $0 } }
    /// Moves the clock forward.
    public func advance(by seconds: TimeInterval) { current.withLock { $0 += seconds } }
    public func set(_ date: Date) { current.withLock { $0 = date } }
}

/// A source of ids (uuids, tokens). Inject a seeded one for reproducible runs.
public protocol IDGenerator: Sendable {
    /// A new random (version 4) uuid in canonical lower-case form.
    func uuid() -> String
    /// `count` random bytes.
    func bytes(_ count: Int) -> [UInt8]
}

/// Random ids from the system generator.
public struct SystemIDGenerator: IDGenerator {
    public init() {}
    public func uuid() -> String { UUID().uuidString.lowercased() }
    public func bytes(_ count: Int) -> [UInt8] {
        var g = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: 0...255, using: &g) }
    }
}

/// Reproducible ids from a seed (SplitMix64).
public final class SeededIDGenerator: IDGenerator, Sendable {
    private let state: Guarded<SeededRandom>

    public init(seed: UInt64) { state = Guarded(SeededRandom(seed: seed)) }

    public func bytes(_ count: Int) -> [UInt8] {
        state.withLock { s in
            var out: [UInt8] = []
            out.reserveCapacity(count)
            while out.count < count {
                var v = s.next()
                for _ in 0..<8 where out.count < count { out.append(UInt8(v & 0xFF)); v >>= 8 }
            }
            return out
        }
    }

    public func uuid() -> String {
        var b = bytes(16)
        b[6] = (b[6] & 0x0F) | 0x40
        b[8] = (b[8] & 0x3F) | 0x80
        // The 36 bytes of the canonical form (lower-case hex, 8-4-4-4-12) written directly: every
        // row a mock inserts with a `gen_random_uuid()` default draws one, and `String(format:)`
        // per byte cost about 14,000 instructions each on Linux.
        func digit(_ nibble: UInt8) -> UInt8 { nibble < 10 ? 0x30 + nibble : 0x57 + nibble }
        return String(unsafeUninitializedCapacity: 36) { out in
            var i = 0
            for (k, byte) in b.enumerated() {
                if k == 4 || k == 6 || k == 8 || k == 10 {
                    out[i] = 0x2D // '-'
                    i += 1
                }
                out[i] = digit(byte >> 4)
                out[i + 1] = digit(byte & 0x0F)
                i += 2
            }
            return i
        }
    }
}
