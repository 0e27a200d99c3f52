import XCTest
import AppRegistry
import MockBinding

/// Gate: every app's contracts load, its fixtures read back over the wire as stored, and its
/// personas sign in.
final class FixtureContractsTests: GateTestCase {
    func testEveryAppsFixturesRoundTripAndPersonasSignIn() throws {
        var total = 0
        for app in allApps {
            let results = try FixtureSuite.run(app)
            total += results.count
            for r in results where !r.passed { XCTFail(r.description) }
        }
        XCTAssertGreaterThan(total, 990, "TeleportMe alone has 55 cities, 935 scores and 2 personas")
    }

    /// Mutant: a backend whose data drifted from the fixtures is caught.
    func testADriftedBackendIsRejected() throws {
        let backend = try TeleportMeAppShim.backend()
        _ = try backend.database.update("cities", set: ["population": 1], where: .eq("id", "berlin"))
        let failures = try FixtureSuite.run(backend: backend, app: "teleportme").filter { !$0.passed }
        XCTAssertEqual(failures.map(\.name), ["cities · berlin · reads back as stored"])
        XCTAssertTrue(failures.first?.message.contains("column population") == true)
    }
}

import TeleportMe
enum TeleportMeAppShim {
    static func backend() throws -> MockSupabase { try TeleportMeApp.makeBackend(clock: ManualClock(), ids: SeededIDGenerator(seed: 1)) }
}
