/// An enumeration spelled in contract files by its raw values; decoding an unknown value names
/// every allowed one, in declaration order, from `allCases` (never a second list).
public protocol ContractEnum: RawRepresentable, CaseIterable, Decodable where RawValue == String {
    /// The words before the list in the error (`expected one of`; a file's own wording may differ).
    static var choicesLabel: String { get }
}

extension ContractEnum {
    public static var choicesLabel: String { "expected one of" }

    /// The allowed spellings, comma-separated.
    package static var spellings: String { allCases.map(\.rawValue).joined(separator: ", ") }

    public init(from decoder: Decoder) throws {
        let s = try decoder.singleValueContainer().decode(String.self)
        guard let v = Self(rawValue: s) else { throw decoder.fail("unknown value '\(s)' (\(Self.choicesLabel): \(Self.spellings))") }
        self = v
    }
}
