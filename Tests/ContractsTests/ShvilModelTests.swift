import XCTest
import ContractKit
import MockSupabase
@testable import Shvil

/// The gate: Shvil's models match schema.json exactly and round-trip rows as PostgREST prints
/// them (jsonb objects and arrays, enums, timestamps); the feature_flags fixtures are flags.json.
final class ShvilModelTests: XCTestCase {
    func testEveryTableHasExactlyOneModelWithItsColumns() throws {
        let schema = try ShvilApp.spec().schema
        let tables = schema.tables.filter { $0.schema == "public" }
        var byTable: [String: [String]] = [:]
        for m in ShvilModels.rows {
            XCTAssertNil(byTable[m.table], "two models for \(m.table)")
            byTable[m.table] = m.columns
        }
        XCTAssertEqual(Set(byTable.keys), Set(tables.map(\.name)))
        for t in tables { XCTAssertEqual(byTable[t.name], t.columns.map(\.name), "columns of \(t.name)") }
    }

    func testFixtureRowsRoundTripThroughTheModels() throws {
        let backend = try ShvilApp.makeBackend(clock: ManualClock(), ids: SeededIDGenerator(seed: 4))
        func check<T: ShvilRow>(_ type: T.Type) throws -> [String] {
            let rows = try backend.database.rows(T.table)
            XCTAssertFalse(rows.isEmpty, "no fixture rows for \(T.table)")
            return civicShvilRoundTrip(T.self, rows, decode: { try ShvilCoding.decode(T.self, from: $0) }, encode: { try ShvilCoding.encode($0) })
        }
        var problems: [String] = []
        for m in ShvilModels.rows { problems += try check(m) }
        XCTAssertEqual(problems, [], problems.joined(separator: "\n"))
        // jsonb keeps nesting and number kinds.
        let a = try ShvilCoding.decode(Adventure.self, from: .object(try backend.database.rows("adventures").first { $0["status"] == "active" }!))
        XCTAssertEqual(a.routeData["waypoints"]?.arrayValue?.count, 3)
        XCTAssertEqual(a.routeData["distance_m"], 3200)
    }

    func testFeatureFlagFixturesAreTheResolvedFlagsFile() throws {
        let config = try FeatureFlagConfig.load()
        let backend = try ShvilApp.makeBackend(clock: ManualClock(), ids: SeededIDGenerator(seed: 4))
        let rows = try backend.database.rows("feature_flags").map { try ShvilCoding.decode(FeatureFlagRow.self, from: .object($0)) }
        let stamp = rows.first!.updatedAt
        XCTAssertEqual(Set(rows.map { "\($0.key)/\($0.environment.rawValue)=\($0.enabled)/\($0.stage.rawValue)" }),
                       Set(config.rows(updatedAt: stamp).map { "\($0.key)/\($0.environment.rawValue)=\($0.enabled)/\($0.stage.rawValue)" }),
                       "Contracts/shvil/fixtures.json feature_flags differ from flags.json: regenerate the rows from FeatureFlagConfig.rows")
    }
}
