import XCTest
@testable import MockSupabase

/// Date and time input as PostgreSQL's `date_in` and `time_in` read it: a whole timestamp is
/// accepted and its date (or time) part kept as written, without converting the zone.
final class PostgresDateInputTests: XCTestCase {
    func date(_ s: String) -> String? { PGTime.parseDate(s).map(PGTime.formatDate) }
    func time(_ s: String) -> String? { PGTime.parseTime(s).map(PGTime.formatTime) }

    func testDateTakesTheDatePartOfATimestamp() {
        XCTAssertEqual(date("1992-08-23"), "1992-08-23")
        XCTAssertEqual(date("1992-08-23T00:00:00Z"), "1992-08-23", "Aura §7.2: birthdate.ISO8601Format()")
        XCTAssertEqual(date("1992-08-23T23:30:00-05:00"), "1992-08-23", "no zone conversion")
        XCTAssertEqual(date("1992-08-23 10:00:00.123+02"), "1992-08-23")
        XCTAssertNil(date("1992-08-23T25:00:00Z"), "an invalid time still refuses the whole value")
        XCTAssertNil(date("1992-08-23Tnonsense"))
        XCTAssertNil(date("1992-02-30"))
    }

    /// ISO 8601's basic form: eight digits are year, month and day (`'20250101 00:00'::timestamp`,
    /// what PostgREST's QuerySpec filters with once the query's `+` is a space); nine are not.
    func testBasicDateForm() {
        XCTAssertEqual(date("20250101"), "2025-01-01")
        XCTAssertEqual(PGTime.parseTimestamp("20250101 00:00", assumeUTC: true), PGTime.parseTimestamp("2025-01-01T00:00:00Z", assumeUTC: true))
        XCTAssertNil(date("202501011"))
        XCTAssertNil(date("20251301"))
        XCTAssertNil(date("2025010"))
    }

    func testTimeTakesTheTimePartAndIgnoresTheZone() {
        XCTAssertEqual(time("10:30"), "10:30:00")
        XCTAssertEqual(time("10:30:00+02"), "10:30:00")
        XCTAssertEqual(time("2024-01-01T10:30:00Z"), "10:30:00")
        XCTAssertEqual(time("2024-01-01 10:30:00.5"), "10:30:00.5")
        XCTAssertNil(time("10:30:00+99"))
        XCTAssertNil(time("2024-01-01"))
    }

    /// Through PostgREST: the body of a JSON insert is read with the same rules (22007 for what
    /// PostgreSQL refuses).
    func testInsertedThroughTheColumnType() throws {
        XCTAssertEqual(try SQLValue.parse(text: "1992-08-23T00:00:00Z", as: .date), .date(PGTime.parseDate("1992-08-23")!))
        XCTAssertThrowsError(try SQLValue.parse(text: "23/08/1992", as: .date)) { e in
            XCTAssertEqual((e as? PostgresError)?.code, "22007")
        }
        // Mutant: a parser that only accepts bare dates refuses §7.2's body, which PostgreSQL accepts.
        let strict: (String) -> Int32? = { s in s.count == 10 ? PGTime.parseDate(s) : nil }
        XCTAssertNil(strict("1992-08-23T00:00:00Z"))
        XCTAssertNotNil(PGTime.parseDate("1992-08-23T00:00:00Z"))
    }
}
