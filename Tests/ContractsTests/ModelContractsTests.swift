import XCTest
import AppRegistry
import MockBinding

/// The gate for models: for every app with contracts, every public table has exactly one model
/// that covers its columns (names, order, nullability), every row the mock prints round-trips,
/// and every body an interaction step names a model for round-trips through it.
final class ModelContractsTests: GateTestCase {
    func testEveryAppsModelsCoverTheirTablesAndRoundTrip() throws {
        for app in allApps {
            let results = try ModelSuite.run(app: app)
            for r in results where !r.passed { XCTFail("\(r)") }
            guard let spec = try? app.spec() else { continue }
            let tables = spec.schema.tables.filter { $0.schema == "public" }.count
            XCTAssertGreaterThanOrEqual(results.count, 2 * tables, "\(app.name): too few model cases ran")
        }
    }
}
