import XCTest
import MockBinding
import MockSupabase
@testable import Shvil

/// Shvil's models beyond the generic `models` kind (ModelContractsTests): jsonb keeps its
/// nesting and number kinds; the feature_flags fixtures are flags.json.
final class ShvilModelTests: GateTestCase {
    func testJSONBKeepsNestingAndNumbers() throws {
        let backend = try ShvilApp.makeBackend(clock: ManualClock(), ids: SeededIDGenerator(seed: 4))
        let a = try PostgresRowCoding.decode(
            Adventure.self, from: .object(try XCTUnwrap(try backend.database.rows("adventures").first { $0["status"] == "active" })))
        XCTAssertEqual(a.routeData["waypoints"]?.arrayValue?.count, 3)
        XCTAssertEqual(a.routeData["distance_m"], 3200)
    }

    func testFeatureFlagFixturesAreTheResolvedFlagsFile() throws {
        let config = try FeatureFlagConfig.load()
        let backend = try ShvilApp.makeBackend(clock: ManualClock(), ids: SeededIDGenerator(seed: 4))
        let rows = try backend.database.rows("feature_flags").map { try PostgresRowCoding.decode(FeatureFlagRow.self, from: .object($0)) }
        let stamp = rows.first!.updatedAt
        XCTAssertEqual(
            Set(rows.map { "\($0.key)/\($0.environment.rawValue)=\($0.enabled)/\($0.stage.rawValue)" }),
            Set(config.rows(updatedAt: stamp.date).map { "\($0.key)/\($0.environment.rawValue)=\($0.enabled)/\($0.stage.rawValue)" }),
            "Contracts/shvil/fixtures.json feature_flags differ from flags.json: regenerate the rows from FeatureFlagConfig.rows")
    }
}
