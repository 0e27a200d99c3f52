import XCTest
import ContractKit

/// `ColumnEncodable` writes every stored property under its column, nil as `null`, and refuses a
/// type whose stored properties and columns do not pair up.
final class ColumnEncodableTests: XCTestCase {
    struct Row: ColumnEncodable {
        static var columns: [String] { ["id", "the_note", "tags"] }
        var id: String
        var note: String?
        var tags: [String]?
    }

    /// Synthesised encoding, the mutant: leaves nil out.
    struct SynthesisedRow: Encodable {
        var id: String
        var note: String?
        var tags: [String]?
    }

    /// One column too few for its stored properties.
    struct ShortRow: ColumnEncodable {
        static var columns: [String] { ["id"] }
        var id: String
        var note: String?
    }

    func testEveryColumnIsWrittenNilAsNull() throws {
        let json = try JSONValue.parse(JSONEncoder().encode(Row(id: "a", note: nil, tags: ["x"])))
        XCTAssertEqual(json, ["id": "a", "the_note": .null, "tags": ["x"]])
        XCTAssertEqual(try JSONValueEncoder.encode(Row(id: "b", note: "n", tags: nil)), ["id": "b", "the_note": "n", "tags": .null])
        let mutant = try JSONValue.parse(JSONEncoder().encode(SynthesisedRow(id: "a", note: nil, tags: ["x"])))
        XCTAssertNotEqual(mutant, json)
    }

    func testPropertiesAndColumnsMustPairUp() {
        XCTAssertThrowsError(try JSONEncoder().encode(ShortRow(id: "a", note: nil)))
    }
}
