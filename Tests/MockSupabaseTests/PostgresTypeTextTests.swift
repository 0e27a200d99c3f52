import XCTest
@testable import MockSupabase

/// Text input and output of the types beyond the basics, against what PostgreSQL 15 prints for
/// the same input (psql: `select '<input>'::<type>`). Each table also rejects a plausible wrong
/// implementation, so the expectations can fail.
final class PostgresTypeTextTests: XCTestCase {
    /// (input, numeric type, PostgreSQL's output or nil for an error).
    static let numeric: [(String, SQLType, String?)] = [
        ("150.00", .numeric(precision: nil, scale: 0), "150.00"),
        ("1.5e2", .numeric(precision: nil, scale: 0), "150"),
        ("1e-3", .numeric(precision: nil, scale: 0), "0.001"),
        ("-0.00", .numeric(precision: nil, scale: 0), "0.00"),
        (" 12 ", .numeric(precision: nil, scale: 0), "12"),
        ("nan", .numeric(precision: nil, scale: 0), "NaN"),
        ("-inf", .numeric(precision: nil, scale: 0), "-Infinity"),
        ("123.456", .numeric(precision: 5, scale: 2), "123.46"),
        ("0.5", .numeric(precision: 3, scale: 3), "0.500"),
        ("-2.5", .numeric(precision: 3, scale: 0), "-3"),
        ("999.995", .numeric(precision: 5, scale: 2), nil),
        ("inf", .numeric(precision: 5, scale: 2), nil),
        ("1.2.3", .numeric(precision: nil, scale: 0), nil)
    ]

    static let interval: [(String, String?)] = [
        ("1.5 days", "1 day 12:00:00"), ("1.5 months", "1 mon 15 days"), ("-1 days +02:00:00", "-1 days +02:00:00"),
        ("P1Y2M3DT4H5M6.5S", "1 year 2 mons 3 days 04:05:06.5"), ("@ 2 hours ago", "-02:00:00"), ("10", "00:00:10"),
        ("25:00", "25:00:00"), ("2 weeks", "14 days"), ("1 year 1 mon", "1 year 1 mon"), ("0", "00:00:00"), ("foo", nil)
    ]

    static let bytea: [(String, String?)] = [
        ("abc", "\\x616263"), ("\\x0aFF", "\\x0aff"), ("abc\\\\d", "\\x6162635c64"), ("a\\001b", "\\x610162"),
        ("x y", "\\x782079"), ("\\x1", nil), ("a\\9", nil)
    ]

    static let timetz: [(String, String?)] = [
        ("06:00:00", "06:00:00+00"), ("06:00:00+05:30", "06:00:00+05:30"), ("11:00-08", "11:00:00-08"),
        ("10:30:00.25Z", "10:30:00.25+00"), ("25:00", nil)
    ]

    func output(_ s: String, _ t: SQLType) -> String? { (try? SQLValue.parse(text: s, as: t))?.pgText(as: t) }

    func testNumericAsPostgreSQL() {
        for (input, type, want) in Self.numeric { XCTAssertEqual(output(input, type), want, "'\(input)'::\(type)") }
    }

    func testIntervalAsPostgreSQL() {
        for (input, want) in Self.interval { XCTAssertEqual(output(input, .interval), want, "'\(input)'::interval") }
        XCTAssertEqual(SQLValue.compare(try SQLValue.parse(text: "1 mon", as: .interval), try SQLValue.parse(text: "30 days", as: .interval)), 0)
    }

    func testByteaAsPostgreSQL() {
        for (input, want) in Self.bytea { XCTAssertEqual(output(input, .bytea), want, "'\(input)'::bytea") }
    }

    func testTimeTZAsPostgreSQL() {
        for (input, want) in Self.timetz { XCTAssertEqual(output(input, .timetz), want, "'\(input)'::timetz") }
        // timetz_cmp: the UTC instant first, so 06:00+01 is before 05:30+00.
        XCTAssertEqual(SQLValue.compare(try SQLValue.parse(text: "06:00+01", as: .timetz), try SQLValue.parse(text: "05:30+00", as: .timetz)), -1)
    }

    func testTSVectorAsPostgreSQL() throws {
        let v = try SQLValue.parse(text: "foo:1 'bar':2,1 baz 'it''s'", as: .tsvector)
        XCTAssertEqual(v.pgText(as: .tsvector), "'bar':1,2 'baz' 'foo':1 'it''s'")
    }

    /// A numeric kept as a `Double` (what the engine did before) prints `150` for `150.00` and
    /// loses the typmod's rounding: the table rejects it.
    func testTablesRejectADoubleBackedNumeric() {
        var wrong = 0
        for (input, type, want) in Self.numeric {
            let mutant = Double(input.trimmingCharacters(in: .whitespaces)).map(JSONValue.formatDouble)
            if mutant != want { wrong += 1 }
            _ = type
        }
        XCTAssertGreaterThan(wrong, 5)
    }

    /// An interval printed as a plain count of seconds (`129600`) is rejected.
    func testTablesRejectASecondsInterval() {
        let rejected = Self.interval.filter { input, want in
            guard let v = PGInterval.parse(input) else { return want != nil }
            let seconds = String(Int64(v.months) * 2_592_000 + Int64(v.days) * 86_400 + v.micros / 1_000_000)
            return seconds != want
        }
        XCTAssertEqual(rejected.count, Self.interval.count - 1) // only "foo" (nil) agrees
    }
}
