import Foundation

/// JSON coding of rows as PostgREST prints them, shared by the apps' models. The models carry
/// their own coding (timestamps as PostgreSQL text, NULL as `null`), so any
/// `JSONDecoder`/`JSONEncoder` works, a supabase-swift client's included; these helpers add
/// sorted keys for stable output.
package enum PostgresRowCoding {
    /// A plain decoder (the models decode timestamps themselves).
    package static func decoder() -> JSONDecoder { JSONDecoder() }

    /// An encoder with sorted keys.
    package static func encoder() -> JSONEncoder {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return e
    }

    /// Decodes a value from a JSON value.
    package static func decode<T: Decodable>(_ type: T.Type, from json: JSONValue) throws -> T {
        try decoder().decode(T.self, from: json.data())
    }

    /// Decodes a value from JSON bytes.
    package static func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        try decoder().decode(T.self, from: data)
    }

    /// Encodes a value to a JSON value: what parsing `encoder()`'s text gives, without the text
    /// (`JSONValueEncoder`; key order is the value's own concern once it is a `JSONValue`).
    package static func encode<T: Encodable>(_ value: T) throws -> JSONValue {
        try JSONValueEncoder.encode(value)
    }

    /// Parses PostgreSQL and ISO 8601 timestamps (`T` or space, fraction, `Z` or offset).
    package static func parseTimestamp(_ text: String) -> Date? { PGTime.parseTimestamp(text, assumeUTC: true).map { PGTime.date(micros: $0) } }
}

extension KeyedDecodingContainer {
    /// A NOT NULL `jsonb` column: any JSON value but null (`JSONValue` alone accepts null).
    package func decodeJSONNotNull(forKey key: Key) throws -> JSONValue {
        let v = try decode(JSONValue.self, forKey: key)
        if v == .null {
            throw DecodingError.valueNotFound(JSONValue.self, .init(codingPath: codingPath + [key], debugDescription: "NULL in a NOT NULL jsonb column"))
        }
        return v
    }
}
