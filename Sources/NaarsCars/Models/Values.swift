import Foundation
import ContractKit

/// Reads and writes PostgreSQL's text forms through the mock's `PGTime`, so a value survives a
/// round trip exactly as PostgREST prints it.
enum PGText {
    static func decode<T>(_ decoder: Decoder, _ what: String, _ parse: (String) -> T?) throws -> T {
        let c = try decoder.singleValueContainer()
        let s = try c.decode(String.self)
        guard let v = parse(s) else {
            throw DecodingError.dataCorruptedError(in: c, debugDescription: "'\(s)' is not a PostgreSQL \(what)")
        }
        return v
    }
}

/// A `timestamptz` with PostgreSQL's microsecond precision (a `Date` would round).
public struct Timestamp: Codable, Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Microseconds since 1970-01-01T00:00:00Z.
    public var microseconds: Int64

    /// A timestamp from microseconds since the epoch.
    public init(microseconds: Int64) { self.microseconds = microseconds }
    /// A timestamp from a `Date` (rounded to the microsecond).
    public init(_ date: Date) { microseconds = PGTime.micros(date) }
    /// Parses ISO 8601 or PostgreSQL text (`2026-01-01T00:00:00+00:00`, `2026-01-01 00:00:00Z`).
    public init?(_ text: String) {
        guard let us = PGTime.parseTimestamp(text, assumeUTC: true) else { return nil }
        microseconds = us
    }

    /// The instant as a `Date`.
    public var date: Date { PGTime.date(micros: microseconds) }
    /// As PostgREST prints it: `2026-01-01T00:00:00+00:00`.
    public var description: String { PGTime.formatTimestamp(microseconds, withZone: true) }

    public static func < (a: Timestamp, b: Timestamp) -> Bool { a.microseconds < b.microseconds }
    public init(from decoder: Decoder) throws { self = try PGText.decode(decoder, "timestamptz") { Timestamp($0) } }
    public func encode(to encoder: Encoder) throws { var c = encoder.singleValueContainer(); try c.encode(description) }
}

/// A `date` (no time, no zone).
public struct CalendarDate: Codable, Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Days since 1970-01-01.
    public var daysSinceEpoch: Int32

    /// A date from its day count.
    public init(daysSinceEpoch: Int32) { self.daysSinceEpoch = daysSinceEpoch }
    /// A date from year, month, day.
    public init(year: Int, month: Int, day: Int) { daysSinceEpoch = Int32(PGTime.daysFromCivil(year, month, day)) }
    /// Parses `YYYY-MM-DD`.
    public init?(_ text: String) {
        guard let d = PGTime.parseDate(text) else { return nil }
        daysSinceEpoch = d
    }

    /// `2026-01-05`.
    public var description: String { PGTime.formatDate(daysSinceEpoch) }

    public static func < (a: CalendarDate, b: CalendarDate) -> Bool { a.daysSinceEpoch < b.daysSinceEpoch }
    public init(from decoder: Decoder) throws { self = try PGText.decode(decoder, "date") { CalendarDate($0) } }
    public func encode(to encoder: Encoder) throws { var c = encoder.singleValueContainer(); try c.encode(description) }
}

/// A `time` (without time zone).
public struct TimeOfDay: Codable, Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Microseconds since midnight.
    public var microseconds: Int64

    /// A time from microseconds since midnight.
    public init(microseconds: Int64) { self.microseconds = microseconds }
    /// A time from hours, minutes, seconds.
    public init(hour: Int, minute: Int, second: Int = 0) { microseconds = Int64((hour * 60 + minute) * 60 + second) * 1_000_000 }
    /// Parses `HH:MM[:SS[.ffffff]]`.
    public init?(_ text: String) {
        guard let t = PGTime.parseTime(text) else { return nil }
        microseconds = t
    }

    /// `08:30:00`.
    public var description: String { PGTime.formatTime(microseconds) }

    public static func < (a: TimeOfDay, b: TimeOfDay) -> Bool { a.microseconds < b.microseconds }
    public init(from decoder: Decoder) throws { self = try PGText.decode(decoder, "time") { TimeOfDay($0) } }
    public func encode(to encoder: Encoder) throws { var c = encoder.singleValueContainer(); try c.encode(description) }
}

extension KeyedEncodingContainer {
    /// Encodes a value, or `null` for nil (PostgREST prints every column of a row).
    mutating func encodeColumn<T: Encodable>(_ value: T?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
    }

    /// Encodes a uuid as PostgreSQL prints it (lower case), or `null`.
    mutating func encodeUUID(_ value: UUID?, forKey key: Key) throws {
        if let value { try encode(value.uuidString.lowercased(), forKey: key) } else { try encodeNil(forKey: key) }
    }

    /// Encodes a `uuid[]` in lower case.
    mutating func encodeUUIDs(_ value: [UUID], forKey key: Key) throws {
        try encode(value.map { $0.uuidString.lowercased() }, forKey: key)
    }

    /// Encodes a uuid in lower case when present (request bodies omit absent fields).
    mutating func encodeUUIDIfPresent(_ value: UUID?, forKey key: Key) throws {
        if let value { try encode(value.uuidString.lowercased(), forKey: key) }
    }
}
