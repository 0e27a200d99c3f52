import XCTest
@testable import ContractKit

/// The RLS pages' golden files: record modes, mismatch reports with a diff and an artifact.
final class RLSGoldenTests: XCTestCase {
    func testRecordCompareAndReport() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("rls-golden-\(UUID().uuidString)")
        let store = GoldenStore(root: root.appendingPathComponent("Golden"), artifacts: root.appendingPathComponent("artifacts"), displayBase: root)
        func check(_ text: String, _ mode: GoldenRecordMode) throws -> GoldenResult {
            try RLSGolden.check(app: "demo", name: "matrix.md", actual: text, mode: mode, store: store)
        }
        XCTAssertEqual(try check("a\nb\n", .never).status, .missing)
        XCTAssertTrue(RLSGolden.message(try check("a\nb\n", .never), store: store).contains("missing golden file Golden/demo/rls/matrix.md"))
        XCTAssertEqual(try check("a\nb\n", .missing).status, .recorded)
        XCTAssertEqual(try check("a\nb\n", .never).status, .matched)
        let m = try check("a\nc\n", .never)
        XCTAssertEqual(m.status, .mismatch)
        XCTAssertTrue(m.diff.contains("-b") && m.diff.contains("+c"), m.diff)
        XCTAssertTrue(RLSGolden.message(m, store: store).contains("artifacts/demo/rls/matrix.md"))
        XCTAssertEqual(try String(contentsOf: root.appendingPathComponent("artifacts/demo/rls/matrix.md"), encoding: .utf8), "a\nc\n")
        XCTAssertEqual(try check("a\nc\n", .missing).status, .mismatch, "missing does not overwrite")
        XCTAssertEqual(try check("a\nc\n", .failed).status, .updated)
        XCTAssertEqual(try check("a\nc\n", .never).status, .matched)
    }
}
