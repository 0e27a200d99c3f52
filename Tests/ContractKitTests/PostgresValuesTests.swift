import XCTest
import MockBinding

/// The shared PostgreSQL value types: every printed form decodes, the encoded form is PostgREST's.
final class PostgresValuesTests: XCTestCase {
    func decode<T: Decodable>(_ type: T.Type, _ json: String) throws -> T { try JSONDecoder().decode(T.self, from: Data(json.utf8)) }
    func encode<T: Encodable>(_ v: T) throws -> String { String(decoding: try JSONEncoder().encode(v), as: UTF8.self) }

    func testTimestamptzDecodesEveryPrintedForm() throws {
        let expected = try decode(PGTimestamp.self, #""2024-01-02T03:04:05.123456+00:00""#)
        for form in [
            "2024-01-02T03:04:05.123456+00", "2024-01-02T03:04:05.123456Z", "2024-01-02 03:04:05.123456+00",
            "2024-01-02T05:04:05.123456+02:00", "2024-01-02T03:04:05.123456"
        ] {
            XCTAssertEqual(try decode(PGTimestamp.self, "\"\(form)\""), expected, form)
        }
        XCTAssertEqual(try encode(expected), #""2024-01-02T03:04:05.123456+00:00""#)
        let whole = try decode(PGTimestamp.self, #""2024-01-02 03:04:05+00""#)
        XCTAssertEqual(try encode(whole), #""2024-01-02T03:04:05+00:00""#)
        XCTAssertEqual(whole.microseconds + 123_456, expected.microseconds)
        XCTAssertThrowsError(try decode(PGTimestamp.self, #""yesterday""#))
        XCTAssertThrowsError(try decode(PGTimestamp.self, "1704164645"))
    }

    func testDateTimeUUIDNumeric() throws {
        XCTAssertEqual(try encode(try decode(PGDate.self, #""2026-02-28""#)), #""2026-02-28""#)
        XCTAssertThrowsError(try decode(PGDate.self, #""2026-02-30""#))
        XCTAssertEqual(try encode(try decode(PGTimeOfDay.self, #""08:30:00.5""#)), #""08:30:00.5""#)
        XCTAssertEqual(try encode(try decode(PGTimeOfDay.self, #""08:30""#)), #""08:30:00""#)
        let upper = try decode(PGUUID.self, #""A11CE000-0000-4000-8000-000000000001""#)
        XCTAssertEqual(try encode(upper), #""a11ce000-0000-4000-8000-000000000001""#)
        XCTAssertEqual(upper, try decode(PGUUID.self, #""{a11ce000000040008000000000000001}""#))
        XCTAssertThrowsError(try decode(PGUUID.self, #""a11ce000""#))
        let n = try decode(PGNumeric.self, #""12345678901234567890.125""#)
        XCTAssertEqual(try encode(n), "12345678901234567890.125")
        XCTAssertEqual(try decode(PGNumeric.self, "4.5"), PGNumeric(Decimal(string: "4.5")!))
        XCTAssertEqual(try encode(try decode(PGNumeric.self, "12345678901234567890.125")), "12345678901234567890.125", "a JSON number keeps its digits")
        let local = try decode(PGLocalTimestamp.self, #""2024-01-02 03:04:05.5""#)
        XCTAssertEqual(try encode(local), #""2024-01-02T03:04:05.5""#)
        XCTAssertEqual(try decode(PGLocalTimestamp.self, #""2024-01-02T03:04:05.5+02:00""#), local, "timestamp_in ignores a zone")
        XCTAssertThrowsError(try decode(PGNumeric.self, #""4,5""#))
        XCTAssertEqual(try encode(try decode([PGUUID].self, #"["A11CE000-0000-4000-8000-000000000001"]"#)), #"["a11ce000-0000-4000-8000-000000000001"]"#)
    }
}
