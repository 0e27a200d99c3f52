import Foundation

/// A row model of one table of an app's `schema.json`.
///
/// Every column is a coding key, in the schema's order (`columns`); optional properties are
/// exactly the nullable columns; `encode(to:)` writes every column, NULL as `null`, as PostgREST
/// prints a row. The `models` rule kind (`ModelSuite`) checks all three for every model an app
/// lists in `AppModule.tableModels`.
public protocol TableModel: Codable, Sendable, Equatable {
    /// The table (`saved_cities`).
    static var table: String { get }
    /// The column names the model codes, in the schema's order.
    static var columns: [String] { get }
}

/// How an app's client turns JSON into models and back: its `JSONDecoder` and `JSONEncoder`
/// configuration (date strategies, for instance). The default is Foundation's plain coders, for
/// models that code their values themselves.
package struct ModelCoder: Sendable {
    package var makeDecoder: @Sendable () -> JSONDecoder
    package var makeEncoder: @Sendable () -> JSONEncoder

    /// A coder from decoder and encoder factories.
    package init(
        decoder: @escaping @Sendable () -> JSONDecoder = { JSONDecoder() },
        encoder: @escaping @Sendable () -> JSONEncoder = { JSONEncoder() }
    ) {
        makeDecoder = decoder
        makeEncoder = encoder
    }

    /// Decodes a model from a JSON value.
    package func decode<T: Decodable>(_ type: T.Type, from json: JSONValue) throws -> T {
        try makeDecoder().decode(T.self, from: json.data())
    }

    package func json<T: Encodable>(_ value: T) throws -> JSONValue {
        try JSONValue.parse(makeEncoder().encode(value))
    }

    /// Decodes `json` as `T` and encodes the result.
    package func reencode<T: Codable>(_ type: T.Type, _ json: JSONValue) throws -> JSONValue {
        try self.json(decode(T.self, from: json))
    }
}
