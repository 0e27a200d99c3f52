import XCTest
import MockBinding

/// The gate for every app's RLS matrix: each cell expanded into cases (every persona, anon and
/// the service role against witness rows), run over the wire against the mock, and the flip
/// test (each cell flipped in turn must be noticed by some case).
final class RLSMatrixTests: GateTestCase {
    func testAtLeastTheFirstAppHasAMatrix() {
        XCTAssertTrue(RLSGate.appsWithMatrix().contains("teleportme"), "Contracts/teleportme/policies.json is missing")
    }

    func testEveryCellOfEveryAppBehavesAsItsMatrixSays() throws {
        for app in RLSGate.appsWithMatrix() {
            let report = try RLSGate.report(app)
            XCTAssertFalse(report.expansion.cases.isEmpty, "\(app): no cases")
            let failed = zip(report.expansion.cases, report.statuses).filter { $0.1.isFailure }
            for (c, s) in failed.prefix(40) {
                if case .failed(let why) = s { XCTFail("\(app) · \(c.name) · \(why)") }
            }
            if failed.count > 40 { XCTFail("\(app): … and \(failed.count - 40) more failed cases") }
            print("RLS \(app): \(RLSMatrixPage.summary(report))")
        }
    }

    func testEveryFlippedCellIsNoticed() throws {
        for app in RLSGate.appsWithMatrix() {
            let report = try RLSGate.report(app)
            let flips = try XCTUnwrap(report.flips)
            XCTAssertFalse(flips.isEmpty, "\(app): no flips")
            for f in flips where !f.verdict.acceptable { XCTFail("\(app) · \(f.summary)") }
            for f in flips { for d in f.disagreements { XCTFail("\(app) · under flip \(f.flip.name) the mock disagrees with the oracle: \(d)") } }
        }
    }
}
