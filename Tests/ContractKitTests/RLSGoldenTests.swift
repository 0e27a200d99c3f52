import XCTest
@testable import ContractKit

/// The RLS pages' golden files: record modes and mismatch reports.
final class RLSGoldenTests: XCTestCase {
    func testModes() throws {
        XCTAssertEqual(try RLSGolden.mode([:]), .never)
        XCTAssertEqual(try RLSGolden.mode(["SUPACONTRACTS_RECORD": "Failed"]), .failed)
        XCTAssertThrowsError(try RLSGolden.mode(["SUPACONTRACTS_RECORD": "yes"]))
    }

    func testRecordCompareAndReport() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("rls-golden-\(UUID().uuidString)")
        let golden = root.appendingPathComponent("Golden"), artifacts = root.appendingPathComponent("artifacts")
        func check(_ text: String, _ mode: RLSGolden.Mode) throws -> RLSGolden.Result {
            try RLSGolden.check(app: "demo", name: "matrix.md", actual: text, mode: mode, root: golden, artifacts: artifacts)
        }
        XCTAssertEqual(try check("a\nb\n", .never).status, .missing)
        XCTAssertEqual(try check("a\nb\n", .missing).status, .recorded)
        XCTAssertEqual(try check("a\nb\n", .never).status, .matched)
        let m = try check("a\nc\n", .never)
        XCTAssertEqual(m.status, .mismatch)
        XCTAssertTrue(m.message.contains("-b") && m.message.contains("+c"), m.message)
        XCTAssertEqual(try String(contentsOf: artifacts.appendingPathComponent("demo/rls/matrix.md"), encoding: .utf8), "a\nc\n")
        XCTAssertEqual(try check("a\nc\n", .missing).status, .mismatch, "missing does not overwrite")
        XCTAssertEqual(try check("a\nc\n", .failed).status, .updated)
        XCTAssertEqual(try check("a\nc\n", .never).status, .matched)
    }
}
