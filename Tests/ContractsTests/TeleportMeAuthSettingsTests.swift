import XCTest
import MockBinding
import MockSupabase
import TeleportMe

/// The gate: TeleportMe's GoTrue settings (§4.1 "JWT, 1h token expiry", §6.1 "Min 6 chars")
/// are auth.json's, the mock's GoTrue follows them, and the interaction that shows them fails
/// on a GoTrue configured otherwise.
final class TeleportMeAuthSettingsTests: GateTestCase {
    func replay(_ change: (inout AuthSettings) -> Void) throws -> InteractionResult {
        var spec = try TeleportMeApp.spec()
        change(&spec.auth)
        let file = try XCTUnwrap(try InteractionReplay.load(app: TeleportMeApp.self).first { $0.name.hasPrefix("sign-up: the password policy") })
        let clock = ManualClock(try XCTUnwrap(file.startTime))
        let backend = try MockSupabase(configuration: MockConfiguration(spec: spec, clock: clock, ids: SeededIDGenerator(seed: 5)))
        TeleportMeApp.register(on: backend)
        return InteractionReplay.replay(file, over: InteractionReplay.transport(for: backend), clock: clock)
    }

    func testSettingsAreTheDocumentsAndTheMockFollowsThem() throws {
        let auth = try TeleportMeApp.spec().auth
        XCTAssertEqual([auth.jwtExpirySeconds, auth.minimumPasswordLength], [3600, 6])
        let backend = try TeleportMeApp.makeBackend(clock: ManualClock(), ids: SeededIDGenerator(seed: 5))
        XCTAssertEqual([backend.configuration.accessTokenLifetime, backend.configuration.minimumPasswordLength], [3600, 6])
        let r = try replay { _ in }
        XCTAssertTrue(r.passed, r.failures.joined(separator: "\n"))
    }

    func testAnotherPolicyOrLifetimeFails() throws {
        let stricter = try replay { $0.minimumPasswordLength = 8 }
        XCTAssertFalse(stricter.passed)
        XCTAssertTrue(
            stricter.failures.joined().contains("expected \"Password should be at least 6 characters.\", got \"Password should be at least 8 characters.\""),
            stricter.failures.joined(separator: "\n"))
        let longer = try replay { $0.jwtExpirySeconds = 7200 }
        XCTAssertFalse(longer.passed)
        XCTAssertTrue(longer.failures.joined().contains("expires_in"), longer.failures.joined(separator: "\n"))
    }
}
