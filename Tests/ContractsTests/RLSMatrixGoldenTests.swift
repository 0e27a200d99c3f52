import XCTest
import MockBinding

/// The rendered matrices (Markdown and HTML) are golden files: `Golden/<app>/rls/matrix.md` and
/// `matrix.html`. Re-record with `swift run contracts goldens --update` (or `SUPACONTRACTS_RECORD=failed swift test --filter RLSMatrixGoldenTests`).
final class RLSMatrixGoldenTests: GateTestCase {
    func testRenderedMatricesMatchTheirGoldenFiles() throws {
        let mode = try GoldenRecordMode.from(environment: ProcessInfo.processInfo.environment)
        // The apps' reports are computed side by side (once per process), then compared in order.
        let apps = RLSGate.appsWithMatrix()
        let reports = try Concurrently<RLSReport>.map(apps, width: apps.count) { try RLSGate.report($0) }
        for (app, report) in zip(apps, reports) {
            let title = RLSGate.module(app)?.title ?? app
            for (name, text) in [("matrix.md", RLSMatrixPage.markdown(report, title: title)), ("matrix.html", RLSMatrixPage.html(report, title: title))] {
                let r = try RLSGolden.check(app: app, name: name, actual: text, mode: mode)
                XCTAssertTrue(r.status.passed, RLSGolden.message(r))
            }
        }
    }
}
