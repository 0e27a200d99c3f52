import XCTest
import MockBinding
import NaarsCars

/// §8 "Database Security Tests" SEC-DB-001 … SEC-DB-010, each a check that returns its
/// violations, run over the wire against the mock (with the RLS matrix and triggers they depend
/// on). `NaarsCarsSecurityMutantTests` shows each check failing on a deliberately broken backend.
enum NaarsCarsSecurityChecks {
    typealias Check = (NaarsCarsFixture) throws -> [String]

    static func ids(_ r: HTTPResponse) -> [String] { r.rows().compactMap { $0["id"]?.stringValue }.sorted() }

    static func expectStatus(_ r: HTTPResponse, _ status: Int, _ label: String) -> [String] {
        r.status == status ? [] : ["\(label): expected HTTP \(status), got \(r.status): \(r.text)"]
    }

    /// SEC-DB-001: query profiles as unauthenticated → blocked by RLS (no rows).
    static func sec001(_ f: NaarsCarsFixture) throws -> [String] {
        let r = try f.get("profiles", as: "anon")
        var v = expectStatus(r, 200, "anon GET profiles")
        if !r.rows().isEmpty { v.append("anon sees \(r.rows().count) profiles") }
        return v
    }

    /// SEC-DB-002: query profiles as the unapproved user → only their own profile.
    static func sec002(_ f: NaarsCarsFixture) throws -> [String] {
        let r = try f.get("profiles", as: "eve")
        return expectStatus(r, 200, "eve GET profiles") + (ids(r) == [f.id("eve")] ? [] : ["eve sees \(ids(r)), expected only her own profile"])
    }

    /// SEC-DB-003: query profiles as an approved user → all approved profiles (and no pending one).
    static func sec003(_ f: NaarsCarsFixture) throws -> [String] {
        let r = try f.get("profiles", "select=id,approved", as: "bob")
        let expected = f.spec.fixtures.rows("profiles").filter { $0["approved"] == true }.compactMap { $0["id"]?.stringValue }.sorted()
        return expectStatus(r, 200, "bob GET profiles") + (ids(r) == expected ? [] : ["bob sees \(ids(r)), expected the approved \(expected)"])
    }

    /// SEC-DB-004: update another user's profile → blocked by RLS (0 rows, unchanged).
    static func sec004(_ f: NaarsCarsFixture) throws -> [String] {
        let carol = f.id("carol")
        let before = try f.row("profiles", carol)?["name"]
        let r = try f.patch("profiles", "id=eq.\(carol)", ["name": "Hacked"], as: "bob")
        var v = expectStatus(r, 200, "bob PATCH carol's profile")
        if !r.rows().isEmpty { v.append("bob updated carol's profile: \(r.text)") }
        if try f.row("profiles", carol)?["name"] != before { v.append("carol's name changed") }
        return v
    }

    /// SEC-DB-005: set own is_admin = true → blocked by the protect_admin_fields trigger.
    static func sec005(_ f: NaarsCarsFixture) throws -> [String] {
        let r = try f.patch("profiles", "id=eq.\(f.id("bob"))", ["is_admin": true], as: "bob")
        let message = try naarsRuleMessage("admin_fields")
        var v: [String] = []
        if r.status != 403 || r.json()["code"] != "42501" || r.json()["message"] != .string(message) {
            v.append("bob setting is_admin: expected 403 42501 \"\(message)\", got \(r.status) \(r.text)")
        }
        if try f.row("profiles", f.id("bob"))?["is_admin"] != false { v.append("bob became admin") }
        let e = try f.patch("profiles", "id=eq.\(f.id("eve"))", ["approved": true], as: "eve")
        if e.status != 403 { v.append("eve approving herself: expected 403, got \(e.status) \(e.text)") }
        return v
    }

    /// SEC-DB-006: an admin approves a user → succeeds (and the user then reads approved data).
    static func sec006(_ f: NaarsCarsFixture) throws -> [String] {
        let eve = f.id("eve")
        let r = try f.patch("profiles", "id=eq.\(eve)", ["approved": true], as: "alice")
        var v = expectStatus(r, 200, "alice approving eve")
        if r.rows().first?["approved"] != true { v.append("alice's update returned \(r.text)") }
        if try f.row("profiles", eve)?["approved"] != true { v.append("eve is not approved") }
        let rides = try f.get("rides", "select=id", as: "eve")
        if rides.rows().count != f.spec.fixtures.rows("rides").count { v.append("approved eve sees \(rides.rows().count) rides") }
        return v
    }

    /// SEC-DB-007: a non-admin approves a user → blocked by RLS (0 rows, still pending).
    static func sec007(_ f: NaarsCarsFixture) throws -> [String] {
        let eve = f.id("eve")
        let r = try f.patch("profiles", "id=eq.\(eve)", ["approved": true], as: "bob")
        var v = expectStatus(r, 200, "bob approving eve")
        if !r.rows().isEmpty { v.append("bob's update reached eve: \(r.text)") }
        if try f.row("profiles", eve)?["approved"] != false { v.append("eve got approved by bob") }
        let c = try f.patch("profiles", "id=eq.\(f.id("carol"))", ["approved": false], as: "dave")
        let carolApproved = try f.row("profiles", f.id("carol"))?["approved"]
        if !c.rows().isEmpty || carolApproved != true { v.append("dave un-approved carol: \(c.text)") }
        return v
    }

    /// SEC-DB-008: query messages of a conversation one is not in → blocked by RLS.
    static func sec008(_ f: NaarsCarsFixture) throws -> [String] {
        let conv = f.fixtureID("conversations", 0)
        let dave = try f.get("messages", "select=id&conversation_id=eq.\(conv)", as: "dave")
        var v = expectStatus(dave, 200, "dave GET messages")
        if !dave.rows().isEmpty { v.append("dave (not a participant) sees \(dave.rows().count) messages") }
        let bob = try f.get("messages", "select=id,conversation_id", as: "bob")
        let expected = f.spec.fixtures.rows("messages").filter { $0["conversation_id"]?.stringValue == conv }.compactMap { $0["id"]?.stringValue }.sorted()
        if ids(bob) != expected { v.append("bob (participant of one conversation) sees \(ids(bob)), expected \(expected)") }
        return v
    }

    /// SEC-DB-009: insert a ride with another user's user_id → blocked by RLS (42501).
    static func sec009(_ f: NaarsCarsFixture) throws -> [String] {
        let before = f.backend.database.count("rides")
        let r = try f.post("rides", ["user_id": .string(f.id("alice")), "date": "2026-02-01", "time": "09:00", "pickup": "A", "destination": "B"], as: "bob")
        var v: [String] = []
        if r.status != 403 || r.json()["code"] != "42501" || r.json()["message"] != "new row violates row-level security policy for table \"rides\"" {
            v.append("bob inserting alice's ride: expected 403 42501 RLS violation, got \(r.status) \(r.text)")
        }
        if f.backend.database.count("rides") != before { v.append("a ride was inserted") }
        return v
    }

    /// SEC-DB-010: claim one's own ride → blocked by the CHECK constraint rides_claimed_by_not_owner.
    static func sec010(_ f: NaarsCarsFixture) throws -> [String] {
        let ride = f.fixtureID("rides", 0) // bob's open ride
        let r = try f.patch("rides", "id=eq.\(ride)", ["status": "pending", "claimed_by": .string(f.id("bob"))], as: "bob")
        var v: [String] = []
        if r.status != 400 || r.json()["code"] != "23514"
            || r.json()["message"] != "new row for relation \"rides\" violates check constraint \"rides_claimed_by_not_owner\""
        {
            v.append("bob claiming his own ride: expected 400 23514 rides_claimed_by_not_owner, got \(r.status) \(r.text)")
        }
        let row = try f.row("rides", ride)
        if row?["status"] != "open" || row?["claimed_by"] != .null { v.append("bob's ride changed: \(row ?? [:])") }
        let favor = f.fixtureID("favors", 0) // bob's open favor
        let fr = try f.patch("favors", "id=eq.\(favor)", ["status": "pending", "claimed_by": .string(f.id("bob"))], as: "bob")
        if fr.status != 400 || fr.json()["code"] != "23514" { v.append("bob claiming his own favor: expected 400 23514, got \(fr.status) \(fr.text)") }
        return v
    }
}

final class NaarsCarsSecurityTests: GateTestCase {
    func run(_ check: NaarsCarsSecurityChecks.Check, file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertEqual(try check(NaarsCarsFixture()), [], file: file, line: line)
    }

    func testSEC_DB_001_unauthenticatedCannotQueryProfiles() throws { try run(NaarsCarsSecurityChecks.sec001) }
    func testSEC_DB_002_unapprovedUserSeesOnlyOwnProfile() throws { try run(NaarsCarsSecurityChecks.sec002) }
    func testSEC_DB_003_approvedUserSeesAllApprovedProfiles() throws { try run(NaarsCarsSecurityChecks.sec003) }
    func testSEC_DB_004_updatingAnotherUsersProfileIsBlocked() throws { try run(NaarsCarsSecurityChecks.sec004) }
    func testSEC_DB_005_settingOwnIsAdminIsBlockedByTrigger() throws { try run(NaarsCarsSecurityChecks.sec005) }
    func testSEC_DB_006_adminApprovesUser() throws { try run(NaarsCarsSecurityChecks.sec006) }
    func testSEC_DB_007_nonAdminCannotApproveUser() throws { try run(NaarsCarsSecurityChecks.sec007) }
    func testSEC_DB_008_messagesOfOthersConversationsAreHidden() throws { try run(NaarsCarsSecurityChecks.sec008) }
    func testSEC_DB_009_insertingRideAsAnotherUserIsBlocked() throws { try run(NaarsCarsSecurityChecks.sec009) }
    func testSEC_DB_010_claimingOwnRideIsBlocked() throws { try run(NaarsCarsSecurityChecks.sec010) }
}

/// Each SEC-DB check rejects a backend broken in exactly the place it guards.
final class NaarsCarsSecurityMutantTests: GateTestCase {
    /// A fixture whose RLS matrix has one cell replaced.
    func mutated(_ table: String, _ command: PolicyCommand, using: Expr? = nil, check: Expr? = nil, also: [PolicyCommand] = []) throws -> NaarsCarsFixture {
        let f = try NaarsCarsFixture()
        var policies = f.backend.database.policies
        let i = try XCTUnwrap(policies.tables.firstIndex { $0.table == table })
        for cmd in [command] + also {
            var cell = policies.tables[i].cell(cmd)
            if let using { cell.using = using }
            if let check, cmd != .select { cell.check = check }
            policies.tables[i].cells[cmd] = cell
        }
        f.backend.database.policies = policies
        return f
    }

    func assertRejects(_ id: String, _ check: NaarsCarsSecurityChecks.Check, _ f: NaarsCarsFixture, file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertFalse(try check(f).isEmpty, "\(id) accepted a broken backend", file: file, line: line)
    }

    func testEachCheckRejectsItsMutant() throws {
        let c = NaarsCarsSecurityChecks.self
        try assertRejects("SEC-DB-001", c.sec001, mutated("profiles", .select, using: .constant(true)))
        try assertRejects("SEC-DB-002", c.sec002, mutated("profiles", .select, using: .role("authenticated")))
        try assertRejects("SEC-DB-003", c.sec003, mutated("profiles", .select, using: .role("authenticated")))
        try assertRejects("SEC-DB-004", c.sec004, mutated("profiles", .update, using: .role("authenticated"), check: .role("authenticated")))
        // No app module registered: the protect_admin_fields trigger is missing.
        let clock = ManualClock()
        let noTriggers = try MockSupabase(contracts: ContractsLocator.app("naarscars"), clock: clock, ids: SeededIDGenerator(seed: 1))
        try assertRejects("SEC-DB-005", c.sec005, NaarsCarsFixture(backend: noTriggers, clock: clock))
        try assertRejects("SEC-DB-006", c.sec006, mutated("profiles", .update, using: .compare(.eq, .column("id"), .claim("sub"))))
        try assertRejects("SEC-DB-007", c.sec007, mutated("profiles", .update, using: .role("authenticated"), check: .role("authenticated"), also: [.select]))
        try assertRejects("SEC-DB-008", c.sec008, mutated("messages", .select, using: .role("authenticated")))
        try assertRejects("SEC-DB-009", c.sec009, mutated("rides", .insert, check: .role("authenticated")))
        // The CHECK constraints dropped from the schema.
        var spec = try AppSpec.load(folder: ContractsLocator.app("naarscars"))
        spec.schema.tables = spec.schema.tables.map { t in
            var t = t; t.checks = []; return t
        }
        let noChecks = try MockSupabase(configuration: MockConfiguration(spec: spec, clock: clock, ids: SeededIDGenerator(seed: 2)))
        NaarsCarsApp.register(on: noChecks)
        try assertRejects("SEC-DB-010", c.sec010, NaarsCarsFixture(backend: noChecks, clock: clock))
    }
}
