import MockBinding
import XCTest
@testable import MockSupabase

/// The mock's own status mapping and GoTrue codes against the tables the judge reads
/// (`Contracts/shared/postgrest-errors.json`, `gotrue-errors.json`): a drift on either side fails.
final class ServiceErrorTableTests: XCTestCase {
    /// Every code where `mapping` and `table` disagree: each exact code (with and without a JWT,
    /// and each message case), a made-up code of each class, custom `PT` codes and codes of no
    /// listed class.
    static func drift(_ table: PostgRESTStatusTable, _ mapping: (String, Bool, String) -> Int) -> [String] {
        var probes: [(code: String, message: String)] = []
        for (code, e) in table.codes {
            probes.append((code, "some message"))
            for c in e.messageCases { probes.append((code, (c.prefix ?? "") + " x " + (c.suffix ?? ""))) }
        }
        // `ZZZ` is no SQLSTATE of any class: the class's own status applies.
        probes += table.classes.keys.map { ($0 + "ZZZ", "") }
        probes += ["PT402", "PT409", "PT503", "PTabc", "PT", "22P02", "ZZ000", "42P10"].map { ($0, "") }
        var out: [String] = []
        for p in probes.sorted(by: { $0.code < $1.code }) {
            for anonymous in [false, true] {
                let want = table.status(for: p.code, anonymous: anonymous, message: p.message)
                let got = mapping(p.code, anonymous, p.message)
                if want != got { out.append("\(p.code)\(anonymous ? " (anon)" : "") '\(p.message)': table \(want), mapping \(got)") }
            }
        }
        return out
    }

    func testTheMocksMappingIsPostgRESTsTable() throws {
        let table = try ContractsLocator.postgrestStatuses()
        XCTAssertGreaterThan(table.codes.count, 40)
        XCTAssertEqual(Self.drift(table) { postgrestStatus(for: $0, anonymous: $1, message: $2) }, [])
    }

    /// Mutants: the mock's mapping before the table existed (no `PT` codes, PGRST125 as 400), and
    /// a table with one entry changed, are both caught.
    func testMutantMappingsAreRejected() throws {
        let table = try ContractsLocator.postgrestStatuses()
        let old = Self.drift(table) { code, anon, message in
            if code.hasPrefix("PT") || code == "PGRST125" { return 400 }
            return postgrestStatus(for: code, anonymous: anon, message: message)
        }
        XCTAssertTrue(old.contains { $0.hasPrefix("PT402") }, "\(old)")
        XCTAssertTrue(old.contains { $0.hasPrefix("PGRST125") }, "\(old)")
        var changed = table
        changed.codes["23505"]?.status = 400
        XCTAssertEqual(
            Self.drift(changed) { postgrestStatus(for: $0, anonymous: $1, message: $2) },
            ["23505 'some message': table 400, mapping 409", "23505 (anon) 'some message': table 400, mapping 409"])
        var anonymousDropped = table
        anonymousDropped.codes["42501"]?.anonymousStatus = nil
        XCTAssertFalse(Self.drift(anonymousDropped) { postgrestStatus(for: $0, anonymous: $1, message: $2) }.isEmpty)
    }

    func testEveryGoTrueCodeTheMockKnowsIsInTheTable() throws {
        let table = try ContractsLocator.goTrueErrors()
        XCTAssertEqual(GoTrueError.knownCodes.subtracting(table.codes.keys).sorted(), [])
        XCTAssertTrue(table.allows(code: "invalid_credentials", status: 400))
        XCTAssertFalse(table.allows(code: "invalid_credentials", status: 401), "mutant status")
        XCTAssertFalse(table.allows(code: "invalid_credential", status: 400), "mutant code")
        XCTAssertTrue(table.allows(code: "weak_password", status: 422))
    }

    func testTablesAreStrictAndNameThePath() throws {
        func postgrest(_ text: String) throws -> PostgRESTStatusTable {
            try SpecNode(value: try JSONValue.parse(Data(text.utf8)), file: "postgrest-errors.json").decode(PostgRESTStatusTable.self)
        }
        let base = #""source": "s", "custom": {"prefix": "PT", "status": "digits", "fallback": 500, "source": "s"}, "classes": [], "otherwise": 400"#
        XCTAssertNoThrow(try postgrest(#"{"# + base + #", "codes": [{"code": "23505", "status": 409, "meaning": "m", "source": "s"}]}"#))
        XCTAssertThrowsError(try postgrest(#"{"# + base + #", "codes": [{"code": "23505", "status": 409, "meaning": "m", "source": "s", "stauts": 1}]}"#)) {
            XCTAssertEqual(($0 as? SpecError)?.path, "$.codes[0].stauts", "\($0)")
        }
        XCTAssertThrowsError(try postgrest(#"{"# + base + #", "codes": [{"code": "23505", "status": 409, "meaning": "m"}]}"#), "an entry without its source")
        XCTAssertThrowsError(try postgrest(#"{"# + base + #", "codes": [{"code": "1", "status": 9, "meaning": "m", "source": "s"}]}"#)) {
            XCTAssertEqual(($0 as? SpecError)?.path, "$.codes[0].status", "\($0)")
        }
        XCTAssertThrowsError(
            try postgrest(
                #"{"# + base
                    + #", "codes": [{"code": "1", "status": 400, "meaning": "m", "source": "s"}, {"code": "1", "status": 400, "meaning": "m", "source": "s"}]}"#
            ))
    }
}
