import Foundation

/// A row whose stored properties are its columns, declared in `columns` order: its
/// `encode(to:)` writes every one under its column name, nil as `null`, as PostgREST prints a
/// row (Foundation's synthesized encoding leaves nil out). The generated table models and the
/// generated payloads that write NULL adopt it; their synthesized decoding is unchanged.
public protocol ColumnEncodable: Encodable {
    /// The column names, one per stored property, in declaration order.
    static var columns: [String] { get }
}

extension ColumnEncodable {
    public func encode(to encoder: Encoder) throws {
        let values = Mirror(reflecting: self).children.map(\.value)
        var c = encoder.container(keyedBy: ColumnKey.self)
        guard values.count == Self.columns.count else {
            throw EncodingError.invalidValue(
                self, .init(codingPath: c.codingPath, debugDescription: "\(Self.self) stores \(values.count) values for \(Self.columns.count) columns"))
        }
        for (column, value) in zip(Self.columns, values) {
            // An optional's nil casts to `Optional<Wrapped>`, which encodes as `null`.
            guard let value = value as? any Encodable else {
                throw EncodingError.invalidValue(value, .init(codingPath: c.codingPath, debugDescription: "\(Self.self).\(column) is not Encodable"))
            }
            try c.encode(value, forKey: ColumnKey(stringValue: column))
        }
    }
}

private struct ColumnKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
