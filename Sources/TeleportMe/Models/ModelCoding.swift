import Foundation
import ContractKit

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
