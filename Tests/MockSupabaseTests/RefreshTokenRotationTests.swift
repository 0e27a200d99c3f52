import XCTest
import MockBinding
@testable import MockSupabase

/// Refresh-token rotation as GoTrue does it (supabase/auth internal/tokens/service.go,
/// RefreshTokenGrant, v1 tokens), over the wire, plus the store's indexes and pruning.
final class RefreshTokenRotationTests: XCTestCase {
    func post(_ b: MockSupabase, _ target: String, _ json: JSONValue, token: String? = nil) throws -> HTTPResponse {
        var h: HTTPHeaders = ["apikey": b.anonKey, "Content-Type": "application/json"]
        if let token { h["Authorization"] = "Bearer \(token)" }
        return try b.handle(HTTPRequest(method: "POST", target: target, headers: h, body: json.data()))
    }

    func signIn(_ b: MockSupabase) throws -> (access: String, refresh: String) {
        let j = try post(b, "/auth/v1/token?grant_type=password", ["email": "ana@teleportme.test", "password": "ana-password-1"]).jsonBody
        return (j?["access_token"]?.stringValue ?? "", j?["refresh_token"]?.stringValue ?? "")
    }

    func refresh(_ b: MockSupabase, _ rt: String) throws -> (status: Int, refresh: String?, access: String?, code: String?) {
        let r = try post(b, "/auth/v1/token?grant_type=refresh_token", ["refresh_token": .string(rt)])
        let j = r.jsonBody
        return (r.status, j?["refresh_token"]?.stringValue, j?["access_token"]?.stringValue, j?["error_code"]?.stringValue)
    }

    func user(_ b: MockSupabase, _ access: String) throws -> HTTPResponse {
        try b.handle(HTTPRequest(method: "GET", target: "/auth/v1/user", headers: ["apikey": b.anonKey, "Authorization": "Bearer \(access)"]))
    }

    /// The rotation scenario; returns what differs from GoTrue's behaviour.
    func rotationViolations(_ b: MockSupabase, _ clock: ManualClock) throws -> [String] {
        var out: [String] = []
        func expect(_ ok: Bool, _ what: String) { if !ok { out.append(what) } }
        let other = try signIn(b)
        let s0 = try signIn(b)
        let sid = JWT.unverifiedClaims(s0.access)?["session_id"]
        let r1 = try refresh(b, s0.refresh)
        expect(r1.status == 200 && r1.refresh != nil && r1.refresh != s0.refresh, "a live token is swapped for a new one")
        expect(r1.access.flatMap { JWT.unverifiedClaims($0)?["session_id"] } == sid, "a refresh stays in its session")
        let again = try refresh(b, s0.refresh)
        expect(again.status == 200 && again.refresh == r1.refresh, "the parent of the active token gets the active token back (\(again))")
        let r2 = try refresh(b, r1.refresh ?? "")
        expect(r2.status == 200 && r2.refresh != r1.refresh, "the active token is swapped")
        clock.advance(by: 5)
        let r3 = try refresh(b, s0.refresh)
        expect(r3.status == 200 && r3.refresh != r2.refresh && r3.refresh != r1.refresh, "a revoked token within the reuse interval gets a new child (\(r3))")
        clock.advance(by: 6)
        let reused = try refresh(b, r1.refresh ?? "")
        expect(reused.status == 400 && reused.code == "refresh_token_already_used", "reuse after the interval is refused (\(reused))")
        for t in [r2.refresh, r3.refresh, s0.refresh] {
            let after = try refresh(b, t ?? "")
            expect(after.status == 400 && after.code == "refresh_token_not_found", "the whole chain is gone after a reuse (\(after))")
        }
        let me = try user(b, r3.access ?? "")
        expect(me.status == 403 && me.jsonBody?["error_code"] == "session_not_found", "the session ended with its chain (\(me.status))")
        expect(try refresh(b, other.refresh).status == 200, "another session of the same user is untouched")
        return out
    }

    func makeBackend(_ clock: ManualClock, reuseInterval: Int = 10) throws -> MockSupabase {
        var c = MockConfiguration(spec: try AppSpec.load(folder: ContractsLocator.app("teleportme")), clock: clock, ids: SeededIDGenerator(seed: 5))
        c.refreshTokenReuseInterval = reuseInterval
        return try MockSupabase(configuration: c)
    }

    func testRotationReuseIntervalAndChainRevocation() throws {
        let clock = ManualClock()
        XCTAssertEqual(try rotationViolations(try makeBackend(clock), clock), [])
    }

    /// A GoTrue that never detects reuse (an unbounded reuse interval) fails the scenario.
    func testRotationCheckRejectsABackendThatAllowsReuseForever() throws {
        let clock = ManualClock()
        let violations = try rotationViolations(try makeBackend(clock, reuseInterval: 1_000_000_000), clock)
        XCTAssertTrue(violations.contains { $0.hasPrefix("reuse after the interval is refused") }, "\(violations)")
    }

    func testMalformedRefreshTokensAreRefusedBeforeLookup() throws {
        let b = try makeBackend(ManualClock())
        for bad in ["", "nope", "ABCDEFGHIJKL", "abcdefghijk!", "abcdefghijklm"] {
            let r = try refresh(b, bad)
            XCTAssertEqual(r.status, 400, bad)
            XCTAssertEqual(r.code, "validation_failed", bad)
        }
        XCTAssertEqual(try refresh(b, "abcdefghijkl").code, "refresh_token_not_found")
        let issued = try signIn(b).refresh
        XCTAssertTrue(MockSupabase.wellFormedRefreshToken(issued), issued)
    }

    func testLogoutDeletesTheSessionsRefreshTokens() throws {
        let b = try makeBackend(ManualClock())
        let a = try signIn(b), other = try signIn(b)
        XCTAssertEqual(try post(b, "/auth/v1/logout?scope=local", [:], token: a.access).status, 204)
        XCTAssertEqual(try refresh(b, a.refresh).code, "refresh_token_not_found")
        XCTAssertEqual(try refresh(b, other.refresh).status, 200, "scope=local leaves the other session")
        XCTAssertEqual(try user(b, a.access).status, 403)
    }

    // MARK: The store

    func store(retention: TimeInterval = 86_400, cap: Int = 100_000, ended: TimeInterval = 3600) -> SessionStore {
        SessionStore(settings: .init(reuseInterval: 10, revokedRetention: retention, revokedCap: cap, endedRetention: ended))
    }

    func testRevokedTokensArePrunedAfterTheRetention() {
        var s = store(retention: 100)
        let t0 = Date(timeIntervalSince1970: 1_000_000)
        s.startSession(id: "s", userID: "u", token: "t0", now: t0)
        var current = "t0"
        for i in 1...50 {
            guard case .issue(_, _, let next) = s.refresh(current, fresh: "t\(i)", now: t0) else { return XCTFail("refresh \(i)") }
            current = next
        }
        XCTAssertEqual(s.revokedTokens, 50)
        XCTAssertEqual(s.tokens.count, 51)
        _ = s.refresh(current, fresh: "late", now: t0 + 101)
        XCTAssertEqual(s.revokedTokens, 1, "the 50 old revoked tokens pruned; the one just revoked kept")
        XCTAssertEqual(Set(s.tokens.keys), [current, "late"])
        XCTAssertEqual(s.sessions["s"]?.tokens, [current, "late"], "the session's own index pruned too")
        XCTAssertEqual(s.refresh("t3", fresh: "x", now: t0 + 102), .notFound, "a pruned token is not found, as after GoTrue's cleanup")
    }

    func testRevokedTokensStayUnderTheCap() {
        var s = store(cap: 10)
        let t0 = Date(timeIntervalSince1970: 1_000_000)
        s.startSession(id: "s", userID: "u", token: "t0", now: t0)
        var current = "t0"
        for i in 1...500 {
            guard case .issue(_, _, let next) = s.refresh(current, fresh: "t\(i)", now: t0) else { return XCTFail("refresh \(i)") }
            current = next
            XCTAssertLessThanOrEqual(s.revokedTokens, 11)
        }
        XCTAssertLessThanOrEqual(s.tokens.count, 12)
    }

    func testEndedSessionsAreForgottenOnceTheirAccessTokensExpired() {
        var s = store(ended: 3600)
        let t0 = Date(timeIntervalSince1970: 1_000_000)
        s.startSession(id: "s", userID: "u", token: "t0", now: t0)
        s.startSession(id: "s2", userID: "u", token: "u0", now: t0)
        s.endSessions(ofUser: "u", now: t0) { $0 == "s" }
        XCTAssertTrue(s.hasEnded("s"))
        XCTAssertFalse(s.hasEnded("s2"))
        XCTAssertFalse(s.hasEnded("never-issued"))
        XCTAssertNil(s.tokens["t0"], "its tokens went with it")
        s.prune(now: t0 + 3601)
        XCTAssertFalse(s.hasEnded("s"))
        XCTAssertNotNil(s.sessions["s2"])
    }
}
