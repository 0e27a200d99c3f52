/// An enumeration spelled in contract files by its raw values; decoding an unknown value names
/// every allowed one, in declaration order, from `allCases` (never a second list).
public protocol ContractEnum: RawRepresentable, CaseIterable, Decodable where RawValue == String {}

extension ContractEnum {
    /// The allowed spellings, comma-separated.
    public static var spellings: String { allCases.map(\.rawValue).joined(separator: ", ") }

    public init(from decoder: Decoder) throws {
        let s = try decoder.singleValueContainer().decode(String.self)
        guard let v = Self(rawValue: s) else { throw decoder.fail("unknown value '\(s)' (expected one of: \(Self.spellings))") }
        self = v
    }
}
