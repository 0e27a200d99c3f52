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

    /// A cell with an inconclusive case is amber ("partly checked"), distinct from green, and the
    /// legend says so; a red failure still wins. Rules read as text, not JSON.
    func testPartlyCheckedCellsHaveTheirOwnColourAndRulesReadAsText() throws {
        var r = try report()
        let cell = r.expansion.cells.first { $0.name == "notes · UPDATE" }!
        r.statuses[cell.cases[0]] = .inconclusive("refused by a trigger before RLS decided")
        let page = RLSMatrixPage.html(r, title: "Demo")
        XCTAssertEqual(page.components(separatedBy: "<td class=\"partial\">").count - 1, 1, "exactly notes · UPDATE is amber")
        XCTAssertTrue(page.contains("partly checked: no failure, but some cases inconclusive or flips masked"), "legend")
        XCTAssertTrue(page.contains("td.partial{background:#fef7e0"), "its own colour")
        XCTAssertTrue(RLSMatrixPage.markdown(r, title: "Demo").contains("🟡"))
        let summary = r.cells.first { $0.cell.name == "notes · UPDATE" }!
        XCTAssertEqual(summary.status, .partial)
        var masked = summary
        masked.inconclusive = 0
        masked.flips = 3; masked.flipsCaught = 3; masked.flipsMasked = 1
        XCTAssertEqual(masked.status, .partial, "a masked flip is partly checked too")
        masked.failed = 1
        XCTAssertEqual(masked.status, .failed, "a failure wins")
        XCTAssertFalse(page.contains("{&quot;"), "no raw JSON in the rules")
        XCTAssertTrue(page.contains("<b>USING</b>"), page)
        XCTAssertTrue(page.contains("auth.uid()"))
        XCTAssertTrue(page.contains("table-layout:fixed"), "columns share the page width: no sideways overflow")
    }

    func testRuleTextReadsLikeSQL() throws {
        func text(_ json: String) throws -> String { RLSRuleText.describe(try SpecNode(value: try JSONValue.parse(json), file: "t").decode(Expr.self)) }
        XCTAssertEqual(try text(#"{"owner":"user_id"}"#), "user_id = auth.uid()")
        XCTAssertEqual(
            try text(#"{"any":[{"owner":"user_id"},{"all":[{"isNull":{"column":"claimed_by"}},{"eq":[{"column":"status"},{"value":"open"}]}]}]}"#),
            "user_id = auth.uid() OR (claimed_by IS NULL AND status = 'open')")
        XCTAssertEqual(
            try text(#"{"exists":{"table":"profiles","where":{"eq":[{"column":"id"},{"outer":"user_id"}]}}}"#),
            "EXISTS (a row of profiles WHERE id = outer.user_id)")
        XCTAssertEqual(try text("\"nobody\""), "false (nobody)")
        XCTAssertEqual(try text(#"{"in":["auth.role",["authenticated","anon"]]}"#), "auth.role() IN ('authenticated', 'anon')")
    }

    func testRenderingIsDeterministic() throws {
        XCTAssertEqual(RLSMatrixPage.html(try report(), title: "Demo"), RLSMatrixPage.html(try report(), title: "Demo"))
        XCTAssertEqual(RLSMatrixPage.markdown(try report(), title: "Demo"), RLSMatrixPage.markdown(try report(), title: "Demo"))
    }

    func testMarkdownEscapesPipes() {
        XCTAssertEqual(RLSMatrixPage.mdEscape("a | b\nc"), "a \\| b c")
    }
}
