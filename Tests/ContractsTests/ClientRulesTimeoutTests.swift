import XCTest
import MockBinding

/// The gate: TeleportMe's client timeouts (§3.7, §4.6, §5.1) as a conformance suite of a
/// client's `withTimeout` policy, with mutants.
final class ClientRulesTimeoutTests: GateTestCase {
    func rules() throws -> ClientRules { try XCTUnwrap(try ClientRules.load(app: "teleportme")) }

    func testReferencePolicyConforms() throws {
        let rules = try rules()
        XCTAssertEqual(rules.timeout("timeout.authSession"), 10)
        XCTAssertEqual(rules.timeout("timeout.generateReport"), 30)
        XCTAssertEqual(TimeoutSuite.violations(.reference(rules), rules: rules), [])
    }

    func testMutantPoliciesAreRejected() throws {
        let rules = try rules()
        // One 30 s deadline for everything: the session restore waits 30 s, not 10.
        let flat = TimeoutPolicy(deadline: { _ in 30 }, timedOut: { $0 >= $1 })
        XCTAssertTrue(
            TimeoutSuite.violations(flat, rules: rules).contains(
                "timeout.authSession (supabase.auth.session): deadline 30.0 s, Contracts/teleportme/client-rules.json gives 10.0 s"),
            "\(TimeoutSuite.violations(flat, rules: rules))")
        // The report's call without a deadline.
        let none = TimeoutPolicy(deadline: { $0 == "timeout.generateReport" ? nil : rules.timeout($0) }, timedOut: { $0 >= $1 })
        XCTAssertEqual(
            TimeoutSuite.violations(none, rules: rules),
            ["timeout.generateReport (functions.invoke(generate-report)): no deadline, Contracts/teleportme/client-rules.json gives 30.0 s"])
        // Milliseconds for seconds: everything is cancelled at once.
        let millis = TimeoutPolicy(deadline: { rules.timeout($0).map { $0 / 1000 } }, timedOut: { $0 >= $1 })
        XCTAssertEqual(TimeoutSuite.violations(millis, rules: rules).count, 2 * rules.timeouts.count)
        // Never cancelling.
        let never = TimeoutPolicy(deadline: { rules.timeout($0) }, timedOut: { _, _ in false })
        XCTAssertEqual(TimeoutSuite.violations(never, rules: rules).count, rules.timeouts.count)
    }
}
