import XCTest
import ContractKit
import MockSupabase
@testable import CivicForge

/// The gate: CivicForge's documented interactions replay over the wire, and the magic-link
/// sign-in completes end to end.
final class CivicForgeWireTests: XCTestCase {
    static var replayer: CivicForgeInteractionReplayer {
        var r = CivicForgeInteractionReplayer()
        r.register(Neighborhood.self); r.register(Profile.self); r.register(Reputation.self); r.register(NotificationPreferences.self)
        r.register(Post.self); r.register(PostPhoto.self); r.register(Response.self); r.register(Thanks.self); r.register(PostFlag.self)
        r.register(AIMatch.self); r.register(Invitation.self); r.register(DeviceToken.self); r.register(AuthSession.self)
        r.register(PushDispatch.self); r.register(WebhookPayload.self)
        return r
    }

    static func backend() throws -> MockSupabase {
        try CivicForgeApp.makeBackend(clock: ManualClock(civicShvilReplayTime), ids: SeededIDGenerator(seed: 0x1D_7E2A_C710))
    }

    func testDocumentedInteractionsReplay() throws {
        let (files, problems) = try Self.replayer.replayAll(app: CivicForgeApp.name, makeBackend: Self.backend)
        XCTAssertGreaterThanOrEqual(files, 15)
        XCTAssertEqual(problems, [], problems.joined(separator: "\n"))
    }

    /// Mutants: the interactions fail on a backend whose tier gate, auto-hide or tier guard is wrong.
    func testInteractionsRejectMutantBackends() throws {
        let r = Self.replayer
        let folder = ContractsLocator.app(CivicForgeApp.name).appendingPathComponent("interactions")
        func replay(_ file: String, _ mutate: (MockSupabase) throws -> Void) throws -> [String] {
            let b = try Self.backend()
            try mutate(b)
            return r.replay(folder.appendingPathComponent(file), display: file, on: b)
        }
        XCTAssertFalse(try replay("posts-tier1-refused.json") { b in
            var p = b.database.policies
            let i = p.tables.firstIndex { $0.table == "posts" }!
            p.tables[i].cells[.insert]!.check = .compare(.eq, .column("author_id"), .claim("sub"))
            b.database.policies = p
        }.isEmpty)
        var rules = try CivicForgeRules.load()
        rules.flagThresholdHide = 4
        let mutant = try MockSupabase(contracts: ContractsLocator.app(CivicForgeApp.name), clock: ManualClock(civicShvilReplayTime), ids: SeededIDGenerator(seed: 1))
        try CivicForgeApp.install(on: mutant, rules: rules)
        XCTAssertFalse(r.replay(folder.appendingPathComponent("flags-third-flag-hides.json"), display: "flags", on: mutant).isEmpty)
        rules = try CivicForgeRules.load()
        rules.serverManaged = []
        let unguarded = try MockSupabase(contracts: ContractsLocator.app(CivicForgeApp.name), clock: ManualClock(civicShvilReplayTime), ids: SeededIDGenerator(seed: 1))
        try CivicForgeApp.install(on: unguarded, rules: rules)
        XCTAssertFalse(r.replay(folder.appendingPathComponent("profile-trust-tier-guard.json"), display: "guard", on: unguarded).isEmpty)
    }

    /// Mutants of the push function: notifying the responder of a new response; ignoring
    /// notification preferences; one priority for every event.
    func testPushInteractionsRejectMutantRules() throws {
        let r = Self.replayer
        let file = ContractsLocator.app(CivicForgeApp.name).appendingPathComponent("interactions/push-notifications.json")
        let real = try NotificationRules.load()
        var wrongRecipient = real
        wrongRecipient.events[0].recipient = .responder
        var noPreferences = real
        noPreferences.events = noPreferences.events.map { var e = $0; e.preference = "ignored"; return e }
        var flat = real
        flat.apnsPriority = flat.apnsPriority.mapValues { _ in 10 }
        for (name, rules) in [("recipient", wrongRecipient), ("preferences", noPreferences), ("priority", flat)] {
            let b = try MockSupabase(contracts: ContractsLocator.app(CivicForgeApp.name), clock: ManualClock(civicShvilReplayTime), ids: SeededIDGenerator(seed: 1))
            try CivicForgeApp.install(on: b, rules: try CivicForgeRules.load(), notifications: rules)
            XCTAssertFalse(r.replay(file, display: name, on: b).isEmpty, "mutant '\(name)' passed")
        }
    }

    /// §3 Magic Link: request a code, verify it (the mock's inbox stands in for email), then act
    /// with the session: onboarding is next, so nothing is readable and posting is refused.
    func testMagicLinkSignInEndToEnd() throws {
        let b = try Self.backend()
        let wire = WireClient(b)
        let email = "zoe@civicforge.test"
        let sent = try wire.send(method: "POST", path: "/auth/v1/otp", query: "redirect_to=https://civicforge.org/auth/callback",
                                 json: try CivicForgeCoding.encode(OTPRequest(email: email)), as: "anon")
        XCTAssertEqual(sent.status, 200, sent.text)
        let code = try XCTUnwrap(b.lastOTP(for: email))
        XCTAssertEqual(code.count, 6)
        let verified = try wire.send(method: "POST", path: "/auth/v1/verify", json: try CivicForgeCoding.encode(VerifyOTPRequest(email: email, token: code)), as: "anon")
        XCTAssertEqual(verified.status, 200, verified.text)
        let body = try XCTUnwrap(verified.jsonBody)
        let session = try CivicForgeCoding.decode(AuthSession.self, from: body)
        XCTAssertTrue(civicShvilJSONEquivalent(try CivicForgeCoding.encode(session), body), "AuthSession round trip")
        XCTAssertEqual(session.user.email, email)
        XCTAssertNotNil(session.user.emailConfirmedAt)
        // The code is single-use.
        let again = try wire.send(method: "POST", path: "/auth/v1/verify", json: try CivicForgeCoding.encode(VerifyOTPRequest(email: email, token: code)), as: "anon")
        XCTAssertEqual(again.status, 403)
        let auth: HTTPHeaders = ["Authorization": "Bearer \(session.accessToken)"]
        let posts = try wire.send(method: "GET", path: "/rest/v1/posts", query: "select=id", headers: auth, as: "anon")
        XCTAssertEqual(posts.jsonBody, [], "no profile, no neighbourhood: nothing to read")
        let post = try wire.send(method: "POST", path: "/rest/v1/posts", headers: auth,
                                 json: try CivicForgeCoding.encode(NewPost(type: .need, title: "x", description: "x", category: "x")), as: "anon")
        XCTAssertEqual(post.status, 403)
        XCTAssertEqual(post.jsonBody?["code"], "42501")
        let profile = try wire.send(method: "POST", path: "/rest/v1/profiles", query: "select=trust_tier", headers: ["Authorization": "Bearer \(session.accessToken)", "Prefer": "return=representation"],
                                    json: try CivicForgeCoding.encode(NewProfile(id: session.user.id, displayName: "Zoe", neighborhoodId: "c1000000-0000-4000-8000-000000000001")), as: "anon")
        XCTAssertEqual(profile.status, 201, profile.text)
        XCTAssertEqual(profile.jsonBody, [["trust_tier": 1]])
    }
}
