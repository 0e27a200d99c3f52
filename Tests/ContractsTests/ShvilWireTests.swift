import XCTest
import MockBinding
import MockSupabase
@testable import Shvil

/// Shvil's documented interactions (replayed for every app by InteractionContractsTests) reject
/// mutant backends; the sync engine flushes through PostgREST; transport failures and HTTP
/// errors map to AppError.
final class ShvilWireTests: GateTestCase {
    static func backend() throws -> MockSupabase {
        try ShvilApp.makeBackend(clock: ManualClock(InteractionReplay.defaultStartTime), ids: SeededIDGenerator(seed: 0x1D_7E2A_C710))
    }

    /// Mutants: own-only adventures opened to everyone; no reorder function.
    func testInteractionsRejectMutantBackends() throws {
        InteractionTestSupport.assertRejected(
            try InteractionTestSupport.replay(ShvilApp.self, "adventures-own-only.json") { clock in
                let open = try ShvilApp.makeBackend(clock: clock, ids: SeededIDGenerator(seed: 1))
                var p = open.database.policies
                let i = p.tables.firstIndex { $0.table == "adventures" }!
                p.tables[i].cells[.select]!.using = .role("authenticated")
                open.database.policies = p
                return open
            }, "adventures readable by every user")
        InteractionTestSupport.assertRejected(
            try InteractionTestSupport.replay(ShvilApp.self, "stops-order-and-reorder.json") {
                try MockSupabase(contracts: ContractsLocator.app(ShvilApp.name), clock: $0, ids: SeededIDGenerator(seed: 1))
            }, "no reorder function")
    }

    /// The sync engine over PostgREST (every request through `backend.handle`), then through an
    /// injected network fault: nothing lost, and the fault maps to networkError.offline.
    func testSyncEngineOverPostgREST() throws {
        let b = try Self.backend()
        let rules = try SyncRules.load()
        let noa = try XCTUnwrap(b.accessToken(persona: "noa"))
        let server = PostgRESTSyncServer(apiKey: b.anonKey, accessToken: noa) { try b.handle($0) }
        let oldCity = "5a000000-0000-4000-8000-000000000001"
        var q = SyncQueue()
        let later = InteractionReplay.defaultStartTime.addingTimeInterval(-60)
        try q.enqueue(
            SyncChange(id: "1", table: "adventures", rowID: oldCity, operation: .update, values: ["status": "completed"], timestamp: later, deviceID: "ipad"),
            rules: rules)
        try q.enqueue(
            SyncChange(
                id: "2", table: "adventures", rowID: "5a000000-0000-4000-8000-000000000003", operation: .update, values: ["title": "x"], timestamp: later,
                deviceID: "ipad"), rules: rules)
        try q.enqueue(
            SyncChange(
                id: "3", table: "adventure_stops", rowID: "5c000000-0000-4000-8000-000000000009", operation: .insert,
                values: ["adventure_id": .string(oldCity), "place_id": "5b000000-0000-4000-8000-000000000004", "order_index": 1], timestamp: later,
                deviceID: "ipad"), rules: rules)

        b.inject(InjectedFault(pathPrefix: "/rest/v1/", kind: .networkError, remaining: 1))
        var report = SyncEngine(rules: rules).flush(&q, to: server)
        XCTAssertNotNil(report.stoppedBy)
        XCTAssertEqual(q.changes.count, 3, "a transport failure loses nothing")
        XCTAssertEqual(try ErrorCatalog.load().error(for: .offline), .networkError(.offline))

        report = SyncEngine(rules: rules).flush(&q, to: server)
        XCTAssertEqual(report.applied, ["1"])
        XCTAssertEqual(report.skipped, ["2": .deletedOnServer], "eli's adventure is out of noa's reach")
        XCTAssertEqual(report.rejected.keys.sorted(), ["3"])
        XCTAssertTrue(report.rejected["3"]!.contains("adventure_stops_adventure_id_order_index_key"), report.rejected["3"]!)
        let row = try b.database.rows("adventures", where: .eq("id", oldCity)).first!
        XCTAssertEqual(row["status"], "completed")
        XCTAssertEqual(row["updated_at"], .string(PGTime.timestamptz(later)))
    }

    /// AppError from real mock responses: an expired session, a wrong password.
    func testBackendErrorsMapToAppErrors() throws {
        let clock = ManualClock(InteractionReplay.defaultStartTime)
        let b = try ShvilApp.makeBackend(clock: clock, ids: SeededIDGenerator(seed: 9))
        let catalog = try ErrorCatalog.load()
        let wire = WireClient(b)
        let token = try XCTUnwrap(b.accessToken(persona: "noa"))
        clock.advance(by: Double(b.configuration.accessTokenLifetime + 1))
        let expired = try wire.send(
            method: "GET", path: "/rest/v1/adventures", query: "select=id", headers: ["apikey": b.anonKey, "Authorization": "Bearer \(token)"])
        XCTAssertEqual(
            catalog.error(status: expired.status, body: expired.body, expecting: [Adventure].self), .authenticationError(.sessionExpired), expired.text)
        let wrong = try wire.send(
            method: "POST", path: "/auth/v1/token", query: "grant_type=password", json: ["email": "noa@shvil.test", "password": "nope-nope"], as: "anon")
        XCTAssertEqual(catalog.error(status: wrong.status, body: wrong.body, expecting: JSONValue.self), .authenticationError(.invalidCredentials), wrong.text)
        let fine = try wire.send(
            method: "POST", path: "/auth/v1/token", query: "grant_type=password", json: ["email": "noa@shvil.test", "password": "noa-password-1"], as: "anon")
        XCTAssertNil(catalog.error(status: fine.status, body: fine.body, expecting: JSONValue.self))
    }
}
