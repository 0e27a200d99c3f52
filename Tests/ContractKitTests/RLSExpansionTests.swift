import XCTest
@testable import ContractKit
import MockBinding

/// The expansion of a small matrix: the cases it derives and the outcomes it expects, checked
/// against outcomes worked out by hand from the policies (never from the mock).
final class RLSExpansionTests: XCTestCase {
    typealias A = RLSTestApp

    func find(
        _ e: RLSExpansion, _ table: String, _ cmd: PolicyCommand, as actor: String, row: String? = nil,
        where extra: (RLSCase) -> Bool = { _ in true }
    ) throws -> RLSCase {
        try XCTUnwrap(
            e.cases.first { c in
                c.table == table && c.command == cmd && c.actor.name == actor && (row.map { c.detail.contains($0) } ?? true) && extra(c)
            }, "no \(table) \(cmd.rawValue) case as \(actor)\(row.map { " on \($0)" } ?? "")")
    }

    func testSelectSeesOwnAndSharedRowsOnly() throws {
        let (_, e) = try A.backend()
        XCTAssertTrue(try find(e, "notes", .select, as: "bo", row: A.amyNote).expected?.allowed == true, "bo is the note's shared_with")
        XCTAssertEqual(try find(e, "notes", .select, as: "cy", row: A.amyNote).expected, .rows(status: 200, rows: []))
        XCTAssertEqual(try find(e, "notes", .select, as: "anon", row: A.amyNote).expected, .rows(status: 200, rows: []))
        XCTAssertTrue(try find(e, "notes", .select, as: "service_role", row: A.amyNote).expected?.allowed == true)
        // profiles: own, or any profile when the caller is approved (looked up in the data).
        XCTAssertEqual(try find(e, "profiles", .select, as: "cy", row: A.amy).expected, .rows(status: 200, rows: []))
        XCTAssertTrue(try find(e, "profiles", .select, as: "cy", row: A.cy).expected?.allowed == true)
        XCTAssertTrue(try find(e, "profiles", .select, as: "bo", row: A.cy).expected?.allowed == true)
    }

    func testSelectExpectsTheFixtureValues() throws {
        let (_, e) = try A.backend()
        guard case .rows(200, let rows) = try find(e, "notes", .select, as: "amy", row: A.amyNote).expected else { return XCTFail("not rows") }
        XCTAssertEqual(rows.first?["body"], "amy's")
        XCTAssertEqual(rows.first?["shared_with"], .string(A.bo))
    }

    func testInsertOutcomes() throws {
        let (_, e) = try A.backend()
        XCTAssertEqual(
            try find(e, "notes", .insert, as: "anon").expected,
            .error(status: 401, code: "42501", message: "permission denied for table notes"), "anon's INSERT grant is revoked")
        let pending = try find(e, "notes", .insert, as: "cy", where: { $0.role == "own row" })
        XCTAssertEqual(pending.expected, .error(status: 403, code: "42501", message: "new row violates row-level security policy for table \"notes\""))
        let own = try find(e, "notes", .insert, as: "amy", where: { $0.role == "own row" })
        XCTAssertTrue(own.expected?.allowed == true)
        guard case .insert(let row, true) = own.operation else { return XCTFail("amy can read her new note back: RETURNING expected") }
        XCTAssertEqual(row["user_id"], .string(A.amy))
        XCTAssertNotEqual(row["id"], .string(A.amyNote), "a fresh primary key")
        XCTAssertNil(row["created_at"], "columns with defaults are not sent")
        let other = try find(e, "notes", .insert, as: "amy", where: { $0.role == "bo's row" })
        XCTAssertEqual(other.expected?.status, 403)
    }

    func testOneRowPerUserInsertMakesRoomFirst() throws {
        let (_, e) = try A.backend()
        let c = try find(e, "prefs", .insert, as: "amy", where: { $0.role == "own row" })
        XCTAssertEqual(c.setup, [RLSSetupStep.delete("prefs", key: ["id": "20000000-0000-4000-8000-000000000001"])])
        XCTAssertTrue(c.expected?.allowed == true)
        let bo = try find(e, "prefs", .insert, as: "bo", where: { $0.role == "own row" })
        XCTAssertEqual(bo.setup, [], "bo has no prefs row yet")
    }

    func testDeleteOutcomes() throws {
        let (_, e) = try A.backend()
        XCTAssertEqual(
            try find(e, "notes", .delete, as: "amy", row: A.amyNote).expected, .error(status: 409, code: "23503", message: nil),
            "a tag restricts the delete")
        XCTAssertEqual(try find(e, "notes", .delete, as: "bo", row: A.amyNote).expected, .rows(status: 200, rows: []), "shared, not owned")
        XCTAssertEqual(try find(e, "notes", .delete, as: "bo", row: A.boNote).expected, .rows(status: 200, rows: [["id": .string(A.boNote)]]))
    }

    func testUpdateOutcomes() throws {
        let (_, e) = try A.backend()
        XCTAssertTrue(
            try find(
                e, "notes", .update, as: "bo", row: A.amyNote,
                where: { c in
                    if case .update(_, let set, _) = c.operation { return set.keys.contains("body") }
                    return false
                }
            ).expected?.allowed == true, "shared_with reaches the note; the body is set to its own value")
        XCTAssertTrue(
            e.cases.contains { c in
                c.table == "notes" && c.command == .update && c.expected?.status == 403 && c.role?.contains("sets") == true
            }, "a WITH CHECK variant: moving the note away from the caller is refused")
    }

    func testTableWithRLSOffIsOpenToEveryone() throws {
        let (_, e) = try A.backend()
        XCTAssertTrue(try find(e, "tags", .select, as: "anon").expected?.allowed == true)
        XCTAssertTrue(try find(e, "tags", .insert, as: "anon").expected?.allowed == true)
    }

    func testCasesNameTheirCell() throws {
        let (_, e) = try A.backend()
        XCTAssertEqual(try find(e, "notes", .select, as: "bo", row: A.amyNote).name, "notes · SELECT · as bo (shared with)")
        XCTAssertEqual(try find(e, "notes", .select, as: "cy", row: A.amyNote).name, "notes · SELECT · as cy (pending)")
        XCTAssertEqual(Expander.roleWord("claimed_by"), "claimer")
        XCTAssertEqual(Expander.roleWord("created_by"), "creator")
        XCTAssertEqual(Expander.roleWord("used_by"), "user")
        XCTAssertEqual(Expander.roleWord("user_id"), "owner")
        XCTAssertEqual(Expander.roleWord("reviewer_id"), "reviewer")
    }

    func testCellsCoverTheMatrix() throws {
        let (_, e) = try A.backend()
        XCTAssertEqual(e.cells.count, 16)
        XCTAssertEqual(e.cells.map(\.name).prefix(4), ["profiles · SELECT", "profiles · INSERT", "profiles · UPDATE", "profiles · DELETE"])
        XCTAssertEqual(e.cells.first { $0.name == "notes · INSERT" }?.revokedFor, ["anon"])
        for cell in e.cells { XCTAssertFalse(cell.cases.isEmpty, "\(cell.name) has no cases") }
    }

    /// The mock agrees with the oracle on every case, over each transport and on the engine.
    func testEveryCasePassesOnEveryTarget() throws {
        for kind in ["urlSession", "inProcess", "engine"] {
            let (backend, e) = try A.backend()
            let target: RLSTarget =
                kind == "engine"
                ? EngineTarget(database: backend.database)
                : MockTarget(backend: backend, transport: kind == "urlSession" ? .urlSession : .inProcess)
            for (c, s) in zip(e.cases, RLSSuite.run(e, on: target)) {
                if case .failed(let why) = s { XCTFail("\(kind): \(c.name) · \(why)") }
            }
        }
    }

    func testEveryFlipIsCaught() throws {
        let (backend, e) = try A.backend()
        let target = MockTarget(backend: backend, transport: .inProcess)
        let flips = try RLSSuite.flipTest(e, on: target, baseline: RLSSuite.run(e, on: target))
        XCTAssertGreaterThan(flips.count, 20)
        for f in flips where !f.caught { XCTFail(f.summary) }
        for f in flips { XCTAssertEqual(f.disagreements, [], f.flip.name) }
        XCTAssertEqual(backend.database.policies, e.policies, "the original matrix is reinstalled")
    }
}

/// An UPDATE's new row must stay visible under the SELECT policy; PostgreSQL refuses it with the
/// plain WITH CHECK message (the SELECT policies become WCO_RLS_UPDATE_CHECK options).
final class RLSNewRowVisibilityTests: XCTestCase {
    func testAnUpdateMovingARowOutOfSightIsRefusedWithTheWithCheckMessage() throws {
        var spec = try RLSTestApp.spec()
        let ti = try XCTUnwrap(spec.policies.tables.firstIndex { $0.table == "prefs" })
        spec.policies.tables[ti].cells[.update]?.check = .constant(true)
        let clock = ManualClock()
        let backend = try MockSupabase(configuration: MockConfiguration(spec: spec, clock: clock, ids: SeededIDGenerator(seed: 9)))
        let e = RLSExpansion(spec: spec, now: clock.now(), statuses: try ContractsLocator.postgrestStatuses())
        let moving = try XCTUnwrap(
            e.cases.first { c in
                guard c.table == "prefs", c.actor.name == "amy", case .update(_, let set, _) = c.operation else { return false }
                return set["user_id"] == .string(RLSTestApp.bo)
            }, "amy hands her prefs row to bo: WITH CHECK passes, the SELECT policy does not")
        XCTAssertEqual(moving.expected, .error(status: 403, code: "42501", message: "new row violates row-level security policy for table \"prefs\""))
        for (c, s) in zip(e.cases, RLSSuite.run(e, on: MockTarget(backend: backend, transport: .inProcess))) {
            if case .failed(let why) = s { XCTFail("\(c.name) · \(why)") }
        }
    }
}

/// The oracle's statuses come from PostgREST's table (Contracts/shared/postgrest-errors.json),
/// not from the mock: a table that changes 42501's anonymous status changes the expectations,
/// and the mock, unchanged, then fails those cases.
final class RLSOracleStatusTableTests: XCTestCase {
    func testExpectedStatusesFollowTheTable() throws {
        let spec = try RLSTestApp.spec()
        let clock = ManualClock()
        let table = try ContractsLocator.postgrestStatuses()
        var mutant = table
        mutant.codes["42501"]?.anonymousStatus = nil
        let real = RLSExpansion(spec: spec, now: clock.now(), statuses: table)
        let judged = RLSExpansion(spec: spec, now: clock.now(), statuses: mutant)
        let anonRefusals = real.cases.indices.filter { real.cases[$0].actor.role == "anon" && real.cases[$0].expected?.status == 401 }
        XCTAssertFalse(anonRefusals.isEmpty, "anon is refused somewhere in the test app")
        for i in anonRefusals { XCTAssertEqual(judged.cases[i].expected?.status, 403, real.cases[i].name) }
        let backend = try MockSupabase(configuration: MockConfiguration(spec: spec, clock: clock, ids: SeededIDGenerator(seed: 9)))
        let statuses = RLSSuite.run(judged, on: MockTarget(backend: backend, transport: .inProcess))
        XCTAssertTrue(anonRefusals.allSatisfy { statuses[$0].isFailure }, "the mock answers 401, the mutant table expects 403")
    }
}
