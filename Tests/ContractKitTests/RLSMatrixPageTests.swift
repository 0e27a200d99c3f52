import XCTest
@testable import ContractKit

/// The rendered matrix: colours follow results, words are escaped, output is deterministic.
final class RLSMatrixPageTests: XCTestCase {
    func report(failing: Int? = nil) throws -> RLSReport {
        let (backend, e) = try RLSTestApp.backend()
        var statuses = RLSSuite.run(e, on: MockTarget(backend: backend, transport: .inProcess))
        if let failing { statuses[failing] = .failed("expected allowed, got 0 rows") }
        return RLSReport(expansion: e, statuses: statuses, flips: nil)
    }

    func testCellsAreColouredByTheirCases() throws {
        let ok = try report()
        let html = RLSMatrixPage.html(ok, title: "Demo <app>")
        XCTAssertTrue(html.contains("<title>Demo &lt;app&gt; — RLS matrix</title>"))
        XCTAssertFalse(html.contains("class=\"failed\""))
        XCTAssertFalse(html.contains("http"), "self-contained: no external assets")
        let broken = try report(failing: ok.expansion.cells.first { $0.name == "notes · DELETE" }!.cases[0])
        let page = RLSMatrixPage.html(broken, title: "Demo")
        XCTAssertEqual(page.components(separatedBy: "<td class=\"failed\">").count - 1, 1, "exactly the notes · DELETE cell is red")
        XCTAssertTrue(RLSMatrixPage.markdown(broken, title: "Demo").contains("| notes | ✅ Owner or shared<br>"))
        XCTAssertTrue(RLSMatrixPage.markdown(broken, title: "Demo").contains("❌ Owner<br>"))
        XCTAssertTrue(RLSMatrixPage.markdown(broken, title: "Demo").contains("FAIL notes · DELETE"))
    }

    func testRenderingIsDeterministic() throws {
        XCTAssertEqual(RLSMatrixPage.html(try report(), title: "Demo"), RLSMatrixPage.html(try report(), title: "Demo"))
        XCTAssertEqual(RLSMatrixPage.markdown(try report(), title: "Demo"), RLSMatrixPage.markdown(try report(), title: "Demo"))
    }

    func testMarkdownEscapesPipes() {
        XCTAssertEqual(RLSMatrixPage.mdEscape("a | b\nc"), "a \\| b c")
    }
}
