import XCTest
import MockBinding
import MockSupabase
@testable import Shvil

/// A resolver from a closure, for mutants.
struct ShvilResolverMutant: ConflictResolver {
    var body: (SyncChange, [String: JSONValue]?) -> SyncDecision
    func decide(_ change: SyncChange, serverRow: [String: JSONValue]?) -> SyncDecision { body(change, serverRow) }
}

/// The mock database as a sync server, acting as one user under RLS; can go offline.
final class ShvilDatabaseSyncServer: SyncServer {
    let db: Database
    let auth: AuthContext
    var offline = false
    var requests = 0
    init(db: Database, auth: AuthContext) { self.db = db; self.auth = auth }
    func gate() throws { requests += 1; if offline { throw SyncTransportError("offline") } }
    func fetch(table: String, id: String) throws -> [String: JSONValue]? { try gate(); return try db.rows(table, as: auth, where: .eq("id", id)).first }
    func insert(table: String, values: [String: JSONValue]) throws { try gate(); try db.insert(table, [values], as: auth) }
    func update(table: String, id: String, values: [String: JSONValue]) throws { try gate(); try db.update(table, set: values, where: .eq("id", id), as: auth) }
    func delete(table: String, id: String) throws { try gate(); try db.delete(table, where: .eq("id", id), as: auth) }
}

/// The gate: the offline sync queue with last-write-wins (§Data Synchronization).
final class ShvilSyncTests: GateTestCase {
    let t0 = Date(timeIntervalSince1970: 1_767_225_600) // 2026-01-01T00:00:00Z, after every fixture edit

    func change(
        _ id: String, _ op: SyncOperation, table: String = "adventures", row: String, _ values: [String: JSONValue] = [:], at: Date, device: String = "iphone"
    ) -> SyncChange {
        SyncChange(id: id, table: table, rowID: row, operation: op, values: values, timestamp: at, deviceID: device)
    }

    func testShippedResolverConforms() throws {
        let rules = try SyncRules.load()
        XCTAssertEqual(ShvilSyncConformance.violations(of: LastWriteWins(rules: rules), rules: rules), [])
        XCTAssertEqual(rules.tie, .server, "decision: equal timestamps keep the server's row")
    }

    /// Mutants: local always wins; ties go to the device; >= instead of >; an update resurrects
    /// a row deleted on the server; timestamps compared at second precision.
    func testMutantResolversAreRejected() throws {
        let rules = try SyncRules.load()
        let lww = LastWriteWins(rules: rules)
        let mutants: [(String, ShvilResolverMutant)] = [
            ("local always wins", ShvilResolverMutant { _, _ in .apply }),
            (
                "ties to the device",
                ShvilResolverMutant { c, r in
                    var local = rules; local.tie = .local
                    return LastWriteWins(rules: local).decide(c, serverRow: r)
                }
            ),
            ("update resurrects", ShvilResolverMutant { c, r in r == nil && c.operation == .update ? .apply : lww.decide(c, serverRow: r) }),
            (
                "second precision",
                ShvilResolverMutant { c, r in
                    var c2 = c; c2.timestamp = Date(timeIntervalSince1970: c.timestamp.timeIntervalSince1970.rounded(.down))
                    var r2 = r
                    if let s = r?["updated_at"]?.stringValue, let us = PGTime.parseTimestamp(s, assumeUTC: true) {
                        r2?["updated_at"] = .string(PGTime.formatTimestamp(us / 1_000_000 * 1_000_000, withZone: true))
                    }
                    return lww.decide(c2, serverRow: r2)
                }
            )
        ]
        for (name, m) in mutants {
            XCTAssertFalse(ShvilSyncConformance.violations(of: m, rules: rules).isEmpty, "mutant '\(name)' passed")
        }
    }

    func testQueueCoalescesPerRowAsSyncJsonSays() throws {
        let rules = try SyncRules.load()
        var q = SyncQueue()
        try q.enqueue(change("1", .insert, row: "a", ["title": "Draft", "status": "draft"], at: t0), rules: rules)
        try q.enqueue(change("2", .update, row: "a", ["title": "Hike"], at: t0 + 5), rules: rules)
        try q.enqueue(change("3", .update, row: "b", ["title": "B"], at: t0 + 1), rules: rules)
        XCTAssertEqual(q.changes.count, 2)
        XCTAssertEqual(q.changes[0].operation, .insert)
        XCTAssertEqual(q.changes[0].values, ["title": "Hike", "status": "draft"])
        XCTAssertEqual(q.changes[0].timestamp, t0 + 5)
        try q.enqueue(change("4", .delete, row: "a", at: t0 + 6), rules: rules)
        XCTAssertEqual(q.changes.map(\.rowID), ["b"], "insert then delete never reaches the server")
        try q.enqueue(change("5", .delete, row: "b", at: t0 + 7), rules: rules)
        XCTAssertEqual(q.changes.map(\.operation), [.delete])
        XCTAssertThrowsError(try q.enqueue(change("6", .update, row: "b", at: t0 + 8), rules: rules)) { e in
            XCTAssertEqual(e as? SyncError, .changeAfterDelete(table: "adventures", rowID: "b", operation: .update))
        }
        XCTAssertThrowsError(try q.enqueue(change("7", .insert, table: "places", row: "p", at: t0), rules: rules))
        XCTAssertEqual(q.changes.count, 1, "refused changes leave the queue as it was")
        let data = try JSONEncoder().encode(q)
        XCTAssertEqual(try JSONDecoder().decode(SyncQueue.self, from: data), q, "the queue persists")
    }

    /// End to end on the mock: noa edits offline; her other device wrote later; a tie; a row
    /// deleted elsewhere; a new adventure; eli's row out of reach.
    func testFlushAppliesLastWriteWinsAgainstTheBackend() throws {
        let rules = try SyncRules.load()
        let backend = try ShvilApp.makeBackend(clock: ManualClock(), ids: SeededIDGenerator(seed: 6))
        let db = backend.database
        let noa = backend.configuration.spec.fixtures.persona("noa")!
        let server = ShvilDatabaseSyncServer(db: db, auth: .user(noa.id, email: noa.email))
        let adv = try db.rows("adventures", as: server.auth).sorted { ($0["title"]?.stringValue ?? "") < ($1["title"]?.stringValue ?? "") }
        let oldCity = adv[0]["id"]!.stringValue!, beaches = adv[1]["id"]!.stringValue!
        let eliAdventure = try db.rows("adventures").first { $0["user_id"] != .string(noa.id) }!["id"]!.stringValue!
        let serverStamp = PGTime.parseTimestamp(try db.rows("adventures", where: .eq("id", oldCity)).first!["updated_at"]!.stringValue!, assumeUTC: true)!
        let serverTime = PGTime.date(micros: serverStamp)

        var q = SyncQueue()
        try q.enqueue(change("stale", .update, row: oldCity, ["title": "Old edit"], at: serverTime - 60), rules: rules)
        try q.enqueue(
            change(
                "tie", .update, row: beaches, ["title": "Tie edit"],
                at: PGTime.date(micros: PGTime.parseTimestamp(adv[1]["updated_at"]!.stringValue!, assumeUTC: true)!)), rules: rules)
        try q.enqueue(
            change("new", .insert, row: "5a000000-0000-4000-8000-0000000000ff", ["user_id": .string(noa.id), "title": "Offline plan"], at: t0), rules: rules)
        try q.enqueue(change("gone", .update, row: "5a000000-0000-4000-8000-0000000000ee", ["title": "Deleted elsewhere"], at: t0), rules: rules)
        try q.enqueue(change("eli", .update, row: eliAdventure, ["title": "Not mine"], at: t0), rules: rules)
        try q.enqueue(
            change(
                "fresh", .update, table: "adventure_stops", row: "5c000000-0000-4000-8000-000000000001", ["custom_data": ["note": "Meet at the clock"]], at: t0),
            rules: rules)

        let report = SyncEngine(rules: rules).flush(&q, to: server)
        XCTAssertEqual(report.applied, ["new", "fresh"])
        XCTAssertEqual(report.skipped, ["stale": .serverNewer, "tie": .tie, "gone": .deletedOnServer, "eli": .deletedOnServer])
        XCTAssertEqual(report.rejected, [:])
        XCTAssertNil(report.stoppedBy)
        XCTAssertTrue(q.changes.isEmpty)
        XCTAssertEqual(try db.rows("adventures", where: .eq("id", oldCity)).first!["title"], "Old City walk", "the newer server row stays")
        XCTAssertEqual(try db.rows("adventures", where: .eq("id", beaches)).first!["title"], "Tel Aviv beaches ride", "tie: the server wins")
        XCTAssertEqual(try db.rows("adventures", where: .eq("id", eliAdventure)).first!["title"], "Ramon Crater stargazing")
        let created = try db.rows("adventures", where: .eq("title", "Offline plan")).first
        XCTAssertEqual(created?["updated_at"], "2026-01-01T00:00:00+00:00", "the edit time is the row's updated_at")
        XCTAssertEqual(
            try db.rows("adventure_stops", where: .eq("id", "5c000000-0000-4000-8000-000000000001")).first!["custom_data"], ["note": "Meet at the clock"])
    }

    func testFlushStopsOnTransportFailureAndLosesNothing() throws {
        let rules = try SyncRules.load()
        let backend = try ShvilApp.makeBackend(clock: ManualClock(), ids: SeededIDGenerator(seed: 7))
        let noa = backend.configuration.spec.fixtures.persona("noa")!
        let server = ShvilDatabaseSyncServer(db: backend.database, auth: .user(noa.id, email: noa.email))
        var q = SyncQueue()
        try q.enqueue(change("a", .insert, row: "5a000000-0000-4000-8000-0000000000a1", ["user_id": .string(noa.id), "title": "One"], at: t0), rules: rules)
        try q.enqueue(change("b", .insert, row: "5a000000-0000-4000-8000-0000000000a2", ["user_id": .string(noa.id), "title": "Two"], at: t0 + 1), rules: rules)
        try q.enqueue(
            change(
                "c", .insert, row: "5a000000-0000-4000-8000-0000000000a3", ["user_id": "5f000000-0000-4000-8000-000000000002", "title": "As eli"], at: t0 + 2),
            rules: rules)
        server.offline = true
        var report = SyncEngine(rules: rules).flush(&q, to: server)
        XCTAssertEqual(report.stoppedBy, "transport failure: offline")
        XCTAssertEqual(q.changes.map(\.id), ["a", "b", "c"])
        server.offline = false
        report = SyncEngine(rules: rules).flush(&q, to: server)
        XCTAssertEqual(report.applied, ["a", "b"])
        XCTAssertEqual(report.rejected.keys.sorted(), ["c"], "RLS refuses a row for another user; it is reported, not silently dropped")
        XCTAssertTrue(report.rejected["c"]!.contains("42501"))
        XCTAssertTrue(q.changes.isEmpty)
    }
}
