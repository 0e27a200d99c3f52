import Foundation
import MockSupabase

/// JSON coding of Shvil rows as PostgREST prints them: timestamps in PostgreSQL's JSON form
/// (`2026-01-01T09:00:00.5+00:00`), enums as their labels, `text[]` as arrays, NULL as `null`.
public enum ShvilCoding {
    /// A decoder accepting PostgreSQL and ISO 8601 timestamps (`T` or space, fraction, `Z`/offset).
    public static func decoder() -> JSONDecoder {
        let d = JSONDecoder()
        d.dateDecodingStrategy = .custom { dec in
            let c = try dec.singleValueContainer()
            let s = try c.decode(String.self)
            guard let us = PGTime.parseTimestamp(s, assumeUTC: true) else {
                throw DecodingError.dataCorruptedError(in: c, debugDescription: "not a PostgreSQL timestamp: \(s)")
            }
            return PGTime.date(micros: us)
        }
        return d
    }

    /// An encoder writing timestamps as PostgREST prints `timestamptz` (UTC, `+00:00`, microseconds).
    public static func encoder() -> JSONEncoder {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys]
        e.dateEncodingStrategy = .custom { date, enc in
            var c = enc.singleValueContainer()
            try c.encode(PGTime.formatTimestamp(PGTime.micros(date), withZone: true))
        }
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
