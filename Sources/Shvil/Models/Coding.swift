import Foundation
import MockSupabase

/// JSON coding of Shvil rows as PostgREST prints them. The models carry their own coding
/// (timestamps as PostgreSQL text, NULL as `null`), so any `JSONDecoder`/`JSONEncoder` works,
/// a supabase-swift client's included; these helpers add sorted keys for stable output.
public enum ShvilCoding {
    /// A plain decoder (the models decode timestamps themselves).
    public static func decoder() -> JSONDecoder { JSONDecoder() }

    /// An encoder with sorted keys.
    public static func encoder() -> JSONEncoder {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return e
    }

    /// Decodes a value from a JSON value.
    public static func decode<T: Decodable>(_ type: T.Type, from json: JSONValue) throws -> T {
        try decoder().decode(T.self, from: json.data())
    }

    /// Encodes a value to a JSON value.
    public static func encode<T: Encodable>(_ value: T) throws -> JSONValue {
        try JSONValue.parse(encoder().encode(value))
    }

    /// `timestamptz` as PostgREST prints it in a UTC session: `2026-01-01T09:00:00.5+00:00`.
    public static func timestampText(_ date: Date) -> String { PGTime.formatTimestamp(PGTime.micros(date), withZone: true) }

    /// Parses PostgreSQL and ISO 8601 timestamps (`T` or space, fraction, `Z` or offset).
    public static func parseTimestamp(_ text: String) -> Date? { PGTime.parseTimestamp(text, assumeUTC: true).map { PGTime.date(micros: $0) } }
}

extension KeyedDecodingContainer {
    func decodeTimestamp(forKey key: Key) throws -> Date {
        let text = try decode(String.self, forKey: key)
        guard let d = ShvilCoding.parseTimestamp(text) else {
            throw DecodingError.dataCorruptedError(forKey: key, in: self, debugDescription: "not a timestamptz: \"\(text)\"")
        }
        return d
    }

    func decodeTimestampIfPresent(forKey key: Key) throws -> Date? {
        guard let text = try decodeIfPresent(String.self, forKey: key) else { return nil }
        guard let d = ShvilCoding.parseTimestamp(text) else {
            throw DecodingError.dataCorruptedError(forKey: key, in: self, debugDescription: "not a timestamptz: \"\(text)\"")
        }
        return d
    }
}

extension KeyedEncodingContainer {
    mutating func encodeTimestamp(_ date: Date?, forKey key: Key) throws {
        try encode(date.map(ShvilCoding.timestampText), forKey: key)
    }
}

/// A Codable model of one table: its name and its columns (the coding keys, in table order).
public protocol ShvilRow: Codable, Equatable, Sendable {
    /// The table (`adventures`).
    static var table: String { get }
    /// The columns the model reads and writes, as in schema.json.
    static var columns: [String] { get }
}

/// Every table model of Shvil.
public enum ShvilModels {
    /// One model per table of schema.json.
    public static var rows: [any ShvilRow.Type] {
        [ShvilUser.self, Adventure.self, Place.self, AdventureStop.self, FeatureFlagRow.self]
    }
}
