import MockBinding
import Foundation
import XCTest
@testable import MockSupabase

/// A filter value on a uuid column is compared as a uuid: Realtime casts both sides to the
/// column's type (priv/repo/tenant_schema/realtime/functions/check_equality_op.sql), and
/// supabase-swift writes a `UUID` filter value upper-case (`UUID.uuidString`).
final class RealtimeUUIDFilterTests: XCTestCase {
    func testUpperCaseUUIDFilterMatchesTheRow() throws {
        let backend = try MockSupabase(contracts: ContractsLocator.app("civicforge"), clock: ManualClock(), ids: SeededIDGenerator(seed: 9))
        let server = HTTPServer(backend: backend, configuration: .init(threads: 2))
        try server.start()
        defer { server.stop() }
        let north = "c1000000-0000-4000-8000-000000000001"
        let client = try RealtimeClient(port: server.port, apikey: backend.anonKey)
        let filter = "neighborhood_id=eq.\(north.uppercased())"
        let reply = try client.join(
            "f", accessToken: backend.accessToken(persona: "ana"),
            postgresChanges: [["event": "INSERT", "schema": "public", "table": "posts", "filter": .string(filter)]])
        XCTAssertEqual(reply?.payload["response"]?["postgres_changes"]?.arrayValue?.first?["filter"], .string(filter), "echoed as written")
        XCTAssertEqual(try client.next { $0.event == "system" }?.payload["status"], "ok")
        var row = backend.configuration.spec.fixtures.rows("posts").first?.objectValue ?? [:]
        row["created_at"] = nil
        row["updated_at"] = nil
        row["id"] = "c2000000-0000-4000-8000-0000000000f3"
        row["neighborhood_id"] = .string(north)
        try backend.database.insert("posts", [row])
        let changes = try client.changes(on: "f", timeout: 2)
        XCTAssertEqual(changes.map { $0["record"]?["id"] }, ["c2000000-0000-4000-8000-0000000000f3"])
    }

    func testTheCastIsWhatMatchesAndAMutantWithoutItFails() throws {
        let backend = try MockSupabase(contracts: ContractsLocator.app("civicforge"), clock: ManualClock(), ids: SeededIDGenerator(seed: 9))
        guard let posts = backend.database.schema.tables.first(where: { $0.name == "posts" }) else { return XCTFail("no posts") }
        let row: [String: JSONValue] = ["neighborhood_id": "c1000000-0000-4000-8000-000000000001", "title": "Couch"]
        let parsed = try RealtimeFilter.parse("neighborhood_id=eq.C1000000-0000-4000-8000-000000000001").get()
        XCTAssertTrue(parsed.castingUUIDs(in: posts).matches(row))
        // Mutant: comparing the text as written, which Realtime does not do.
        XCTAssertFalse(parsed.matches(row))
        // A text column is not cast: `title=eq.COUCH` stays a case-sensitive text comparison.
        XCTAssertFalse(try RealtimeFilter.parse("title=eq.COUCH").get().castingUUIDs(in: posts).matches(row))
    }
}
