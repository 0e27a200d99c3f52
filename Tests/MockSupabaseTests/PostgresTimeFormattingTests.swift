import XCTest
@testable import MockSupabase
import ContractModel

/// The byte writers behind `PGTime.formatTimestamp`, `formatDate` and `formatTime` print exactly
/// what composing PostgreSQL's fields as text prints (a plain reference below), for instants
/// across eras, fractions with and without trailing zeros, and session zones with minutes and
/// seconds; and `SQLValue.write` quotes them as the JSON string `json(as:)` holds.
final class PostgresTimeFormattingTests: XCTestCase {
    /// The text composed field by field (as the formatter once did).
    static func reference(_ us0: Int64, withZone: Bool, sqlStyle: Bool, offset: Int32) -> String {
        func pad(_ v: Int, _ w: Int) -> String {
            let s = String(v)
            return s.count >= w ? s : String(repeating: "0", count: w - s.count) + s
        }
        let us = us0 &+ Int64(withZone ? offset : 0) * 1_000_000
        var days = us / 86_400_000_000
        var rem = us % 86_400_000_000
        if rem < 0 { rem += 86_400_000_000; days -= 1 }
        let (y, m, d) = PGTime.civilFromDays(Int(days))
        let secs = Int(rem / 1_000_000)
        var frac = pad(Int(rem % 1_000_000), 6)
        while frac.hasSuffix("0") { frac.removeLast() }
        var s =
            "\(y > 0 ? pad(y, 4) : pad(1 - y, 4))-\(pad(m, 2))-\(pad(d, 2))\(sqlStyle ? " " : "T")"
            + "\(pad(secs / 3600, 2)):\(pad(secs / 60 % 60, 2)):\(pad(secs % 60, 2))" + (frac.isEmpty ? "" : "." + frac)
        if withZone {
            let mag = Int(offset.magnitude)
            s += (offset < 0 ? "-" : "+") + pad(mag / 3600, 2)
            if !sqlStyle || mag / 60 % 60 != 0 || mag % 60 != 0 { s += ":" + pad(mag / 60 % 60, 2) }
            if mag % 60 != 0 { s += ":" + pad(mag % 60, 2) }
        }
        if y <= 0 { s += " BC" }
        return s
    }

    func testTimestampsMatchTheFieldByFieldText() {
        var rng = SeededRandom(seed: 19)
        var instants: [Int64] = [
            0, 1, -1, 999_999, 1_000_000, 86_400_000_000 - 1, -62_135_596_800_000_000, -62_167_219_200_000_001,
            253_402_300_799_999_999, 1_767_225_600_123_400, -210_866_803_200_000_000
        ]
        for _ in 0..<2_000 { instants.append(Int64(rng.next() % 600_000_000_000_000_000) - 300_000_000_000_000_000) }
        for us in instants {
            for offset: Int32 in [0, 3600, -25_200, 19_800, -12_345, 50_400] {
                for (zone, sql) in [(true, false), (true, true), (false, false), (false, true)] {
                    let got = PGSessionZone.$current.withValue(offset == 0 ? nil : .fixed(offset)) {
                        PGTime.formatTimestamp(us, withZone: zone, sqlStyle: sql)
                    }
                    XCTAssertEqual(got, Self.reference(us, withZone: zone, sqlStyle: sql, offset: offset), "\(us) \(offset) \(zone) \(sql)")
                }
            }
        }
    }

    func testDatesAndTimesMatchTheFieldByFieldText() {
        for days: Int32 in [0, -1, 19_000, -719_528, -800_000, 2_000_000] {
            let (y, m, d) = PGTime.civilFromDays(Int(days))
            let pad = { (v: Int, w: Int) -> String in
                let s = String(v); return s.count >= w ? s : String(repeating: "0", count: w - s.count) + s
            }
            XCTAssertEqual(PGTime.formatDate(days), "\(pad(y, 4))-\(pad(m, 2))-\(pad(d, 2))")
        }
        XCTAssertEqual(PGTime.formatTime(0), "00:00:00")
        XCTAssertEqual(PGTime.formatTime(37_800_500_000), "10:30:00.5")
        XCTAssertEqual(PGTime.formatTime(86_399_000_001), "23:59:59.000001")
        XCTAssertEqual(PGTime.formatTime(86_400_000_000), "24:00:00")
    }

    func testWrittenValuesAreTheQuotedJSONText() {
        let cases: [(SQLValue, SQLType)] = [
            (.timestamp(1_767_225_600_123_400), .timestamptz), (.timestamp(-62_167_219_200_000_001), .timestamp),
            (.date(19_000), .date), (.time(37_800_500_000), .time)
        ]
        for (v, t) in cases {
            var out = ""
            v.write(to: &out, as: t)
            XCTAssertEqual(out, v.json(as: t).serialized(.compact), "\(v)")
        }
    }

    /// Mutant: a formatter keeping the fraction's trailing zeros is told apart by the comparison.
    func testTheComparisonRejectsAFormatterKeepingTrailingZeros() {
        let us: Int64 = 1_767_225_600_500_000
        let right = PGTime.formatTimestamp(us, withZone: true)
        let mutant = right.replacingOccurrences(of: ".5+", with: ".500000+")
        XCTAssertEqual(right, Self.reference(us, withZone: true, sqlStyle: false, offset: 0))
        XCTAssertNotEqual(mutant, Self.reference(us, withZone: true, sqlStyle: false, offset: 0))
    }
}
