import XCTest
import MockBinding
import NaarsCars
@testable import MockSupabase

/// The mock's `/__admin` routes (reset, inbox) and GoTrue's admin user list in page mode
/// (supabase/auth internal/api/pagination.go, `adminUsers` in internal/api/admin.go).
final class AdminRoutesTests: XCTestCase {
    func send(_ b: MockSupabase, _ method: String, _ target: String, key: String, json: JSONValue? = nil) throws -> HTTPResponse {
        try b.handle(
            HTTPRequest(
                method: method, target: target, headers: ["apikey": key, "Authorization": "Bearer \(key)", "Host": "127.0.0.1:54321"],
                body: json?.data() ?? Data()))
    }

    func testResetNeedsTheServiceRoleAndRestoresTheFixtures() throws {
        let b = try NaarsCarsApp.makeBackend(clock: ManualClock(), ids: SeededIDGenerator(seed: 3))
        let before = try b.database.rows("public.profiles", where: nil).count
        _ = try b.database.delete("public.messages", where: nil)
        XCTAssertEqual(try send(b, "POST", "/__admin/reset", key: b.anonKey).status, 403, "the anon key cannot reset")
        XCTAssertEqual(try send(b, "GET", "/__admin/reset", key: b.serviceRoleKey).status, 405)
        XCTAssertEqual(try b.handle(HTTPRequest(method: "POST", target: "/__admin/reset")).status, 401, "no apikey: the gateway's 401")
        _ = try b.database.delete("public.profiles", where: nil)
        let r = try send(b, "POST", "/__admin/reset", key: b.serviceRoleKey)
        XCTAssertEqual(r.status, 200, r.text)
        XCTAssertEqual(try b.database.rows("public.profiles", where: nil).count, before)
        XCTAssertFalse(try b.database.rows("public.messages", where: nil).isEmpty)
    }

    func testInboxListsTheEmailsNewestFirstWithLinksAndCodes() throws {
        let clock = ManualClock()
        let b = try NaarsCarsApp.makeBackend(clock: clock, ids: SeededIDGenerator(seed: 4))
        let email = b.configuration.spec.fixtures.personas[0].email
        XCTAssertEqual(try send(b, "POST", "/auth/v1/otp", key: b.anonKey, json: ["email": .string(email)]).status, 200)
        clock.advance(by: 3600)
        XCTAssertEqual(try send(b, "POST", "/auth/v1/recover", key: b.anonKey, json: ["email": .string(email)]).status, 200)
        XCTAssertEqual(try send(b, "GET", "/__admin/inbox?email=\(email)", key: b.anonKey).status, 403)
        XCTAssertEqual(try send(b, "GET", "/__admin/inbox", key: b.serviceRoleKey).status, 400)
        let r = try send(b, "GET", "/__admin/inbox?email=\(email.uppercased())", key: b.serviceRoleKey)
        XCTAssertEqual(r.status, 200, r.text)
        let mails = r.jsonBody?.arrayValue ?? []
        XCTAssertEqual(mails.map { $0["type"]?.stringValue }, ["recovery", "magiclink"], "newest first")
        let sent = b.sentEmails(to: email)
        XCTAssertEqual(mails.first?["otp"]?.stringValue, sent.last?.otp)
        XCTAssertEqual(mails.first?["token_hash"]?.stringValue, sent.last?.tokenHash)
        XCTAssertEqual(mails.first?["action_link"]?.stringValue, "http://127.0.0.1:54321" + (sent.last?.actionLink ?? "?"))
        XCTAssertEqual(try send(b, "GET", "/__admin/inbox?email=nobody@example.com", key: b.serviceRoleKey).jsonBody, [])
    }

    func testAdminUserListPagesAsGoTrue() throws {
        let b = try NaarsCarsApp.makeBackend(clock: ManualClock(), ids: SeededIDGenerator(seed: 5))
        let total = try b.database.rows("auth.users", where: nil).count
        XCTAssertGreaterThan(total, 2)
        let r = try send(b, "GET", "/auth/v1/admin/users?per_page=1&page=1", key: b.serviceRoleKey)
        XCTAssertEqual(r.status, 200, r.text)
        XCTAssertEqual(r.headers["X-Total-Count"], String(total))
        XCTAssertEqual(r.headers["Link"], "</admin/users?page=2&per_page=1>; rel=\"next\", </admin/users?page=\(total)&per_page=1>; rel=\"last\"")
        XCTAssertEqual(r.jsonBody?["users"]?.arrayValue?.count, 1)
        XCTAssertEqual(r.jsonBody?["aud"], "authenticated")
        let last = try send(b, "GET", "/auth/v1/admin/users?page=\(total)&per_page=1", key: b.serviceRoleKey)
        XCTAssertEqual(last.headers["Link"], "</admin/users?page=\(total)&per_page=1>; rel=\"last\"", "no next on the last page")
        let all = try send(b, "GET", "/auth/v1/admin/users", key: b.serviceRoleKey)
        XCTAssertEqual(all.headers["Link"], "</admin/users?page=1>; rel=\"last\"")
        XCTAssertEqual(all.jsonBody?["users"]?.arrayValue?.count, total)
        // Pages cover every user once, newest first.
        var ids: [String] = []
        for p in 1...total {
            ids += (try send(b, "GET", "/auth/v1/admin/users?page=\(p)&per_page=1", key: b.serviceRoleKey).jsonBody?["users"]?.arrayValue ?? []).compactMap {
                $0["id"]?.stringValue
            }
        }
        XCTAssertEqual(ids, (all.jsonBody?["users"]?.arrayValue ?? []).compactMap { $0["id"]?.stringValue })
        let bad = try send(b, "GET", "/auth/v1/admin/users?page=x", key: b.serviceRoleKey)
        XCTAssertEqual(bad.status, 400)
        XCTAssertEqual(bad.jsonBody?["msg"], "Bad Pagination Parameters: strconv.ParseUint: parsing \"x\": invalid syntax")
        XCTAssertEqual(try send(b, "GET", "/auth/v1/admin/users", key: b.anonKey).status, 403, "service role only")
        let filtered = try send(b, "GET", "/auth/v1/admin/users?filter=\(b.configuration.spec.fixtures.personas[0].email)", key: b.serviceRoleKey)
        XCTAssertEqual(filtered.headers["X-Total-Count"], "1")
    }
}
