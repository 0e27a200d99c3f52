import XCTest
@testable import MockSupabase

/// JSON numbers as jsonb keeps them: PostgreSQL reads a JSON number as `numeric`, so the text it
/// prints back keeps the scale written (`1.50`), expands exponents (`1e2` is `100`, `1.5e-7` is
/// `0.00000015`) and keeps digits a double would lose.
final class JSONNumberTextTests: XCTestCase {
    /// Numbers in, their jsonb text out (what `SELECT '<in>'::jsonb` prints).
    static let expectations: [(String, String)] = [
        ("1.50", "1.50"), ("1e2", "100"), ("1.5e1", "15"), ("1.5e-7", "0.00000015"), ("0.1", "0.1"), ("2.0", "2.0"),
        ("-0.50", "-0.50"), ("12345678901234567890", "12345678901234567890"), ("0.10000000000000000555", "0.10000000000000000555"),
        ("7", "7"), ("1E+3", "1000"), ("3.14159", "3.14159")
    ]

    func jsonbText(_ input: String) throws -> String { try JSONValue.parse(input).serialized(.jsonb) }

    func testNumbersPrintAsNumericDoes() throws {
        for (input, want) in Self.expectations { XCTAssertEqual(try jsonbText(input), want, input) }
        XCTAssertEqual(try jsonbText(#"{"b": 1e2, "a": [1.50, 0.5]}"#), #"{"a": [1.50, 0.5], "b": 100}"#)
    }

    func testNumbersKeepTheirKindWhereADoubleSuffices() throws {
        XCTAssertEqual(try JSONValue.parse("0.5"), .double(0.5))
        XCTAssertEqual(try JSONValue.parse("1e2"), .int(100))
        XCTAssertEqual(try JSONValue.parse("1.50"), .number("1.50"))
        XCTAssertEqual(try JSONValue.parse("1.50").doubleValue, 1.5)
        XCTAssertTrue(JSONValue.sameValue(try JSONValue.parse("1.50"), .double(1.5)), "jsonb compares numbers by value")
        XCTAssertThrowsError(try JSONValue.parse("1e99999"))
    }

    /// A numeric column written from JSON keeps the scale the number was written with.
    func testNumericColumnKeepsTheWrittenScale() throws {
        let v = try SQLValue.coerce(json: try JSONValue.parse("1.50"), to: .numeric(precision: nil, scale: 0))
        var out = ""
        v.write(to: &out, as: .numeric(precision: nil, scale: 0))
        XCTAssertEqual(out, "1.50")
    }

    /// The suite rejects a parser that reads every non-integer as a double (the scale and the
    /// expanded exponents are lost).
    func testRejectsADoubleOnlyParser() throws {
        func doubleOnly(_ input: String) -> String {
            let d = Double(input)!
            if let i = Int64(input) { return String(i) }
            return JSONValue.double(d).serialized(.jsonb)
        }
        let wrong = Self.expectations.filter { doubleOnly($0.0) != $0.1 }
        XCTAssertGreaterThanOrEqual(wrong.count, 4)
    }
}
