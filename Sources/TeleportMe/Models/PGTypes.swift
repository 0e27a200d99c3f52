import Foundation
import ContractKit

/// A `timestamptz` as PostgreSQL and PostgREST print it: microseconds since the Unix epoch, exact.
///
/// Decodes every form PostgreSQL and clients write (`2026-01-01T00:00:00+00:00`,
/// `2026-01-01T09:30:00.5Z`, `2026-01-01 15:00:00+05:30`, with or without a fraction) and encodes
/// as PostgREST prints it in a UTC session (`2026-01-01T09:30:00.5+00:00`), which PostgREST also
/// accepts on input. Unlike `Date` it keeps microseconds exactly, so a row round-trips byte for byte.
public struct PGTimestamp: Codable, Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Microseconds since 1970-01-01T00:00:00Z.
    public var microseconds: Int64

    /// A timestamp from microseconds since the epoch.
    public init(microseconds: Int64) { self.microseconds = microseconds }

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

    public init(from decoder: Decoder) throws {
        let c = try decoder.singleValueContainer()
        let text = try c.decode(String.self)
        guard let v = PGTimestamp(text) else {
            throw DecodingError.dataCorruptedError(in: c, debugDescription: "not a timestamptz: \"\(text)\"")
        }
        self = v
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(description)
    }

    public static func < (a: PGTimestamp, b: PGTimestamp) -> Bool { a.microseconds < b.microseconds }
}

/// A `uuid` as PostgreSQL prints it: canonical, lower case, hyphenated.
///
/// Foundation's `UUID` encodes upper case, which would not round-trip a PostgREST body; this type
/// accepts every spelling PostgreSQL accepts and always writes the canonical one.
public struct PGUUID: Codable, Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The canonical text (`a11ce000-0000-4000-8000-000000000001`).
    public let rawValue: String

    /// Parses any PostgreSQL uuid spelling (upper case, braces, no hyphens); nil otherwise.
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

    public init(from decoder: Decoder) throws {
        let c = try decoder.singleValueContainer()
        let text = try c.decode(String.self)
        guard let v = PGUUID(text) else {
            throw DecodingError.dataCorruptedError(in: c, debugDescription: "not a uuid: \"\(text)\"")
        }
        self = v
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(rawValue)
    }

    public static func < (a: PGUUID, b: PGUUID) -> Bool { a.rawValue < b.rawValue }
}

/// JSON coding shared by the models: snake_case keys are spelled out in each model's `CodingKeys`,
/// so plain encoders and decoders are used (no key strategy that could disagree with the schema).
public enum ModelCoding {
    /// Decodes a model from JSON bytes.
    public static func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        try JSONDecoder().decode(type, from: data)
    }

    /// Decodes a model from a JSON value.
    public static func decode<T: Decodable>(_ type: T.Type, from json: JSONValue) throws -> T {
        try decode(type, from: json.data())
    }

    /// Encodes a model as a JSON value (numbers, keys and nulls as written by `encode(to:)`).
    public static func json<T: Encodable>(_ value: T) throws -> JSONValue {
        let enc = JSONEncoder()
        enc.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try JSONValue.parse(enc.encode(value))
    }
}
