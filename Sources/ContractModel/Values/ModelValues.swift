import Foundation

// The PostgreSQL value types every app's models share (the generated table models and the
// hand-written payloads): each decodes every text form PostgreSQL and PostgREST print and encodes
// the form PostgREST prints and accepts, so a row survives decode → encode byte for byte.

/// A `timestamptz`: microseconds since the Unix epoch, exact (a `Date` would round).
///
/// Decodes every form PostgreSQL and clients write (`2024-01-02T03:04:05.123456+00:00`, `+00`,
/// `+0530`, `Z`, no zone, no fraction, a space instead of `T`) and encodes as PostgREST prints it
/// in a UTC session (`2024-01-02T03:04:05.123456+00:00`, fraction trimmed), which PostgREST also
/// accepts on input.
public struct PGTimestamp: Codable, Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Microseconds since 1970-01-01T00:00:00Z.
    package var microseconds: Int64

    /// A timestamp from microseconds since the epoch.
    package init(microseconds: Int64) { self.microseconds = microseconds }

    /// A timestamp from a `Date` (rounded to the microsecond, PostgreSQL's precision).
    public init(_ date: Date) { microseconds = PGTime.micros(date) }

    /// Parses PostgreSQL or ISO 8601 text; nil when it is not a timestamp.
    public init?(_ text: String) {
        guard let us = PGTime.parseTimestamp(text, assumeUTC: true) else { return nil }
        microseconds = us
    }

    /// The instant as a `Date`.
    public var date: Date { PGTime.date(micros: microseconds) }

    /// PostgREST's JSON form in UTC: `2026-01-02T09:30:00.5+00:00`.
    public var description: String { PGTime.formatTimestamp(microseconds, withZone: true) }

    public init(from decoder: Decoder) throws { self = try PGText.decode(decoder, "timestamptz", PGTimestamp.init) }
    public func encode(to encoder: Encoder) throws { try PGText.encode(encoder, description) }
    public static func < (a: PGTimestamp, b: PGTimestamp) -> Bool { a.microseconds < b.microseconds }
}

/// A `timestamp` (without time zone): the wall-clock fields as written, no zone. PostgREST
/// prints it without an offset (`2024-01-02T03:04:05.5`); a zone on input is ignored, as
/// PostgreSQL's `timestamp_in` does.
public struct PGLocalTimestamp: Codable, Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Microseconds since 1970-01-01T00:00:00 (wall clock, no zone).
    package var microseconds: Int64

    /// A timestamp from microseconds since the epoch.
    package init(microseconds: Int64) { self.microseconds = microseconds }
    /// Parses PostgreSQL or ISO 8601 text; nil when it is not a timestamp.
    public init?(_ text: String) {
        var t = text.trimmingCharacters(in: .whitespaces)
        // Drop a zone: the wall-clock fields are kept as written.
        if let r = t.range(of: #"(Z|[+-]\d{2}(:?\d{2})?)$"#, options: .regularExpression), t[..<r.lowerBound].contains(":") { t = String(t[..<r.lowerBound]) }
        guard let us = PGTime.parseTimestamp(t, assumeUTC: true) else { return nil }
        microseconds = us
    }

    /// PostgREST's JSON form: `2026-01-02T09:30:00.5`.
    public var description: String { PGTime.formatTimestamp(microseconds, withZone: false) }

    public init(from decoder: Decoder) throws { self = try PGText.decode(decoder, "timestamp", PGLocalTimestamp.init) }
    public func encode(to encoder: Encoder) throws { try PGText.encode(encoder, description) }
    public static func < (a: PGLocalTimestamp, b: PGLocalTimestamp) -> Bool { a.microseconds < b.microseconds }
}

/// A `date` (no time, no zone): days since 1970-01-01, printed `YYYY-MM-DD`.
public struct PGDate: Codable, Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Days since 1970-01-01.
    package var daysSinceEpoch: Int32

    /// A date from its day count.
    package init(daysSinceEpoch: Int32) { self.daysSinceEpoch = daysSinceEpoch }
    /// A date from year, month, day; nil when it does not exist (PostgreSQL rejects 2026-02-30).
    public init?(year: Int, month: Int, day: Int) {
        guard (1...12).contains(month), day >= 1, day <= PGDate.daysInMonth(month, leap: PGDate.isLeap(year)) else { return nil }
        daysSinceEpoch = Int32(PGTime.daysFromCivil(year, month, day))
    }
    /// The UTC calendar date of an instant (the server's `CURRENT_DATE` in a UTC session).
    public init(utc date: Date) {
        let us = PGTime.micros(date)
        var days = us / 86_400_000_000
        if us % 86_400_000_000 < 0 { days -= 1 }
        daysSinceEpoch = Int32(days)
    }
    /// Parses `YYYY-MM-DD` (or a timestamp, whose date part PostgreSQL's `date_in` keeps as written).
    public init?(_ text: String) {
        guard let d = PGTime.parseDate(text) else { return nil }
        daysSinceEpoch = d
    }

    public var year: Int { PGTime.civilFromDays(Int(daysSinceEpoch)).0 }
    /// The month, 1…12.
    public var month: Int { PGTime.civilFromDays(Int(daysSinceEpoch)).1 }
    /// The day of the month, 1…31.
    public var day: Int { PGTime.civilFromDays(Int(daysSinceEpoch)).2 }
    package var next: PGDate { PGDate(daysSinceEpoch: daysSinceEpoch + 1) }

    /// Leap year in the proleptic Gregorian calendar.
    package static func isLeap(_ y: Int) -> Bool { (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 }
    package static func daysInMonth(_ m: Int, leap: Bool) -> Int {
        switch m {
        case 2: return leap ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
    /// `2026-01-05`.
    public var description: String { PGTime.formatDate(daysSinceEpoch) }

    public init(from decoder: Decoder) throws { self = try PGText.decode(decoder, "date", PGDate.init) }
    public func encode(to encoder: Encoder) throws { try PGText.encode(encoder, description) }
    public static func < (a: PGDate, b: PGDate) -> Bool { a.daysSinceEpoch < b.daysSinceEpoch }
}

/// A `time` (without time zone): microseconds since midnight, printed `08:30:00[.5]`.
public struct PGTimeOfDay: Codable, Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Microseconds since midnight.
    package var microseconds: Int64

    /// A time from microseconds since midnight.
    package init(microseconds: Int64) { self.microseconds = microseconds }
    public init(hour: Int, minute: Int, second: Int = 0) { microseconds = Int64((hour * 60 + minute) * 60 + second) * 1_000_000 }
    /// Parses `HH:MM[:SS[.ffffff]]` (a zone is ignored, as `time_in` does).
    public init?(_ text: String) {
        guard let t = PGTime.parseTime(text) else { return nil }
        microseconds = t
    }

    /// `08:30:00`.
    public var description: String { PGTime.formatTime(microseconds) }

    public init(from decoder: Decoder) throws { self = try PGText.decode(decoder, "time", PGTimeOfDay.init) }
    public func encode(to encoder: Encoder) throws { try PGText.encode(encoder, description) }
    public static func < (a: PGTimeOfDay, b: PGTimeOfDay) -> Bool { a.microseconds < b.microseconds }
}

/// A `uuid` as PostgreSQL prints it: canonical, lower case, hyphenated.
///
/// Accepts every spelling PostgreSQL's `uuid_in` accepts (upper case, braces, hyphens after any
/// group of four) and always writes the canonical one, so a row PostgREST printed round-trips
/// exactly and an upper-case spelling comes back as PostgreSQL would print it (Foundation's
/// `UUID` encodes upper case).
public struct PGUUID: Codable, Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The canonical text (`a11ce000-0000-4000-8000-000000000001`).
    public let rawValue: String

    /// Parses any PostgreSQL uuid spelling; nil otherwise.
    public init?(_ text: String) {
        guard let c = SQLValue.canonicalUUID(text) else { return nil }
        rawValue = c
    }

    /// From a Foundation `UUID`.
    public init(_ uuid: UUID) { rawValue = uuid.uuidString.lowercased() }

    /// As a Foundation `UUID`.
    public var uuid: UUID { UUID(uuidString: rawValue)! }
    /// The canonical text.
    public var description: String { rawValue }

    public init(from decoder: Decoder) throws { self = try PGText.decode(decoder, "uuid", PGUUID.init) }
    public func encode(to encoder: Encoder) throws { try PGText.encode(encoder, rawValue) }
    public static func < (a: PGUUID, b: PGUUID) -> Bool { a.rawValue < b.rawValue }
}

/// Reads and writes the text forms above.
enum PGText {
    static func decode<T>(_ decoder: Decoder, _ what: String, _ parse: (String) -> T?) throws -> T {
        let c = try decoder.singleValueContainer()
        let s = try c.decode(String.self)
        guard let v = parse(s) else { throw DecodingError.dataCorruptedError(in: c, debugDescription: "'\(s)' is not a PostgreSQL \(what)") }
        return v
    }

    static func encode(_ encoder: Encoder, _ text: String) throws {
        var c = encoder.singleValueContainer()
        try c.encode(text)
    }
}
