import XCTest
import MockBinding
import MockSupabase
@testable import CivicForge

/// CivicForge's documented interactions (replayed for every app by InteractionContractsTests)
/// reject mutant backends, and the emailed sign-in code is six digits and single use.
final class CivicForgeWireTests: GateTestCase {
    /// A backend with CivicForge installed under explicit rules (default: the files'), on the
    /// replay engine's clock and ids.
    static func backend(
        clock: ManualClock = ManualClock(InteractionReplay.defaultStartTime), rules: CivicForgeRules? = nil,
        notifications: NotificationRules? = nil
    ) throws -> MockSupabase {
        let b = try MockSupabase(contracts: ContractsLocator.app(CivicForgeApp.name), clock: clock, ids: SeededIDGenerator(seed: 0x1D_7E2A_C710))
        try CivicForgeApp.install(on: b, rules: rules ?? CivicForgeRules.load(), notifications: notifications ?? NotificationRules.load())
        return b
    }

    func replay(_ file: String, on make: (ManualClock) throws -> MockSupabase) throws -> InteractionResult {
        try InteractionTestSupport.replay(CivicForgeApp.self, file, on: make)
    }

    /// Mutants: the interactions fail on a backend whose tier gate, auto-hide or tier guard is wrong.
    func testInteractionsRejectMutantBackends() throws {
        XCTAssertTrue(try replay("flags-third-flag-hides.json") { try Self.backend(clock: $0) }.passed, "the real rules pass")
        InteractionTestSupport.assertRejected(
            try replay("posts-tier1-refused.json") { clock in
                let b = try Self.backend(clock: clock)
                var p = b.database.policies
                let i = p.tables.firstIndex { $0.table == "posts" }!
                p.tables[i].cells[.insert]!.check = .compare(.eq, .column("author_id"), .claim("sub"))
                b.database.policies = p
                return b
            }, "posts open to tier 1")
        var rules = try CivicForgeRules.load()
        rules.flagThresholdHide = 4
        InteractionTestSupport.assertRejected(
            try replay("flags-third-flag-hides.json") { try Self.backend(clock: $0, rules: rules) }, "hidden at the fourth flag")
        rules = try CivicForgeRules.load()
        rules.serverManaged = []
        InteractionTestSupport.assertRejected(
            try replay("profile-trust-tier-guard.json") { try Self.backend(clock: $0, rules: rules) }, "no server-managed columns")
    }

    /// Mutants of the push function: notifying the responder of a new response; ignoring
    /// notification preferences; one priority for every event.
    func testPushInteractionsRejectMutantRules() throws {
        let real = try NotificationRules.load()
        var wrongRecipient = real
        wrongRecipient.events[0].recipient = .responder
        var noPreferences = real
        noPreferences.events = noPreferences.events.map {
            var e = $0; e.preference = "ignored"; return e
        }
        var flat = real
        flat.apnsPriority = flat.apnsPriority.mapValues { _ in 10 }
        for (name, rules) in [("recipient", wrongRecipient), ("preferences", noPreferences), ("priority", flat)] {
            InteractionTestSupport.assertRejected(try replay("push-notifications.json") { try Self.backend(clock: $0, notifications: rules) }, name)
        }
    }

    /// §3 step 6: the emailed code (the mock's outbox stands in for email) has six digits and
    /// signs in once. The rest of the magic-link flow is magic-link-otp.json.
    func testMagicLinkCodeIsSixDigitsAndSingleUse() throws {
        let b = try Self.backend()
        let wire = WireClient(b)
        let email = "zoe@civicforge.test"
        let sent = try wire.send(
            method: "POST", path: "/auth/v1/otp", query: "redirect_to=https://civicforge.org/auth/callback",
            json: try PostgresRowCoding.encode(OTPRequest(email: email)), as: "anon")
        XCTAssertEqual(sent.status, 200, sent.text)
        let code = try XCTUnwrap(b.lastOTP(for: email))
        XCTAssertEqual(code.count, 6)
        XCTAssertTrue(code.allSatisfy(\.isNumber), code)
        let verify = try PostgresRowCoding.encode(VerifyOTPRequest(email: email, token: code))
        let verified = try wire.send(method: "POST", path: "/auth/v1/verify", json: verify, as: "anon")
        XCTAssertEqual(verified.status, 200, verified.text)
        let again = try wire.send(method: "POST", path: "/auth/v1/verify", json: verify, as: "anon")
        XCTAssertEqual(again.status, 403)
        XCTAssertEqual(again.jsonBody?["error_code"], "otp_expired")
    }
}

/// The gate: the magic link's redirect allow-list (auth.json) on the wire, and a GoTrue that
/// trusts any redirect_to rejected.
final class CivicForgeRedirectTests: GateTestCase {
    func testMagicLinkRedirectsOnlyToTheAllowList() throws {
        let b = try CivicForgeApp.makeBackend(clock: ManualClock(InteractionReplay.defaultStartTime), ids: SeededIDGenerator(seed: 11))
        let auth = b.configuration.spec.auth
        XCTAssertEqual(auth.siteURL, "https://civicforge.org")
        XCTAssertEqual(auth.redirectURLs, ["https://civicforge.org/auth/callback"], "§3 Magic Link step 3")
        let probes = CivicForgeRedirectConformance.probes(siteURL: auth.siteURL, redirectURLs: auth.redirectURLs)
        XCTAssertEqual(probes.filter { $0.expected == auth.siteURL }.count, 4)
        XCTAssertEqual(
            CivicForgeRedirectConformance.violations(probes: probes, apiKey: b.anonKey, send: { try b.handle($0) }, inbox: { b.lastEmail(to: $0) }), [])
    }

    /// Mutant: an allow list of `**` (any URL) sends the session to a foreign host.
    func testAnOpenAllowListIsRejected() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("redirect-\(UUID().uuidString)")
        let dir = root.appendingPathComponent("civicforge")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: ContractsLocator.app("civicforge"), to: dir)
        addTeardownBlock { try? FileManager.default.removeItem(at: root) }
        let url = dir.appendingPathComponent("auth.json")
        let text = try String(contentsOf: url, encoding: .utf8)
        let from = "\"value\": [\"https://civicforge.org/auth/callback\"]"
        XCTAssertTrue(text.contains(from))
        try text.replacingOccurrences(of: from, with: "\"value\": [\"https://civicforge.org/auth/callback\", \"**\"]").write(
            to: url, atomically: true, encoding: .utf8)
        let b = try CivicForgeApp.makeBackend(clock: ManualClock(InteractionReplay.defaultStartTime), ids: SeededIDGenerator(seed: 11), folder: dir)
        let documented = CivicForgeRedirectConformance.probes(siteURL: "https://civicforge.org", redirectURLs: ["https://civicforge.org/auth/callback"])
        let v = CivicForgeRedirectConformance.violations(probes: documented, apiKey: b.anonKey, send: { try b.handle($0) }, inbox: { b.lastEmail(to: $0) })
        XCTAssertTrue(
            v.contains("a foreign host: the e-mailed link redirects to https://attacker.example/auth/callback, expected https://civicforge.org"), "\(v)")
        XCTAssertTrue(v.contains { $0.hasPrefix("a look-alike host: opening the link answered 303 to https://civicforge.org.attacker.example") }, "\(v)")
    }
}
