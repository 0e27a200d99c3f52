import XCTest
import MockBinding
import MockSupabase
@testable import Shvil

/// The gate: Shvil's decided RLS matrix, the stop order constraint and its reorder function,
/// and the users row created with the account.
final class ShvilServerTests: GateTestCase {
    func world() throws -> (MockSupabase, AuthContext, AuthContext) {
        let b = try ShvilApp.makeBackend(clock: ManualClock(), ids: SeededIDGenerator(seed: 8))
        let f = b.configuration.spec.fixtures
        return (b, .user(f.persona("noa")!.id, email: "noa@shvil.test"), .user(f.persona("eli")!.id, email: "eli@shvil.test"))
    }

    func testOwnOnlyAdventuresAndStops() throws {
        let (b, noa, eli) = try world()
        let db = b.database
        XCTAssertEqual(Set(try db.rows("adventures", as: noa).compactMap { $0["title"]?.stringValue }), ["Old City walk", "Tel Aviv beaches ride"])
        XCTAssertEqual(try db.rows("adventures", as: eli).count, 1)
        XCTAssertEqual(try db.rows("adventure_stops", as: eli).count, 1)
        XCTAssertEqual(try db.rows("adventure_stops", as: noa).count, 4)
        XCTAssertEqual(try db.rows("users", as: eli).map { $0["display_name"] }, ["Eli"])
        XCTAssertEqual(try db.rows("adventures", as: .anon).count, 0)
        let oldCity = try db.rows("adventures", as: noa).first { $0["title"] == "Old City walk" }!["id"]!
        let place = try db.rows("places", as: eli).first!["id"]!
        XCTAssertThrowsError(try db.insert("adventure_stops", [["adventure_id": oldCity, "place_id": place, "order_index": 7]], as: eli)) { e in
            XCTAssertEqual((e as? PostgresError)?.code, "42501")
        }
        XCTAssertEqual(try db.update("adventures", set: ["title": "Mine now"], where: .eq("id", oldCity.stringValue!), as: eli), [], "silently untouched")
        XCTAssertThrowsError(try db.update("adventures", set: ["user_id": eli.userID.map(JSONValue.string)!], where: .eq("id", oldCity.stringValue!), as: noa))
    }

    func testPlacesAreSharedAndImmutable() throws {
        let (b, noa, eli) = try world()
        let db = b.database
        XCTAssertEqual(try db.rows("places", as: noa).count, try db.rows("places").count)
        XCTAssertEqual(try db.rows("places", as: .anon).count, 0)
        let p = try db.insert("places", [["name": "Ein Gedi", "latitude": 31.46, "longitude": 35.39]], as: eli).first!
        XCTAssertEqual(p["created_by"], eli.userID.map(JSONValue.string))
        XCTAssertEqual(try db.update("places", set: ["name": "x"], where: .eq("id", p["id"]!.stringValue!), as: eli), [])
        XCTAssertThrowsError(try db.insert("places", [["name": "Nowhere", "latitude": 91, "longitude": 0]], as: noa)) { e in
            XCTAssertEqual((e as? PostgresError)?.message, "new row for relation \"places\" violates check constraint \"places_latitude_check\"")
        }
        let used = try db.rows("adventure_stops").first!["place_id"]!.stringValue!
        XCTAssertThrowsError(try db.delete("places", where: .eq("id", used))) { e in XCTAssertEqual((e as? PostgresError)?.code, "23503") }
    }

    func testStopPositionsAreUniqueAndReorderIsAtomic() throws {
        let (b, noa, eli) = try world()
        let db = b.database
        let rules = try ShvilRules.load()
        let oldCity = try db.rows("adventures", as: noa).first { $0["title"] == "Old City walk" }!["id"]!.stringValue!
        let stops = try db.rows("adventure_stops", as: noa, where: .eq("adventure_id", oldCity), order: [OrderTerm(column: "order_index")])
        let ids = stops.map { $0["id"]!.stringValue! }
        // A naive swap collides on UNIQUE(adventure_id, order_index).
        XCTAssertThrowsError(try db.update("adventure_stops", set: ["order_index": 1], where: .eq("id", ids[0]), as: noa)) { e in
            XCTAssertEqual((e as? PostgresError)?.message, "duplicate key value violates unique constraint \"adventure_stops_adventure_id_order_index_key\"")
        }
        let reversed = try ShvilServer.reorder(adventureID: oldCity, stopIDs: ids.reversed(), auth: noa, database: db, rules: rules)
        XCTAssertEqual(reversed.map { $0["id"]!.stringValue! }, ids.reversed())
        XCTAssertEqual(reversed.map { $0["order_index"]! }, [0, 1, 2])
        XCTAssertThrowsError(try ShvilServer.reorder(adventureID: oldCity, stopIDs: ids, auth: eli, database: db, rules: rules)) { e in
            XCTAssertEqual(e as? PostgresError, rules.notFound)
        }
        XCTAssertThrowsError(try ShvilServer.reorder(adventureID: oldCity, stopIDs: [ids[0], ids[0], ids[1]], auth: noa, database: db, rules: rules)) { e in
            XCTAssertEqual(e as? PostgresError, rules.notPermutation)
        }
        XCTAssertEqual(
            try db.rows("adventure_stops", where: .eq("adventure_id", oldCity), order: [OrderTerm(column: "order_index")]).map { $0["id"]!.stringValue! },
            ids.reversed(), "failed calls change nothing")
    }

    /// Mutant: a reorder that writes final positions directly hits the constraint on a swap.
    func testMutantSinglePassReorderFails() throws {
        let (b, noa, _) = try world()
        let db = b.database
        let oldCity = try db.rows("adventures", as: noa).first { $0["title"] == "Old City walk" }!["id"]!.stringValue!
        let ids = try db.rows("adventure_stops", where: .eq("adventure_id", oldCity), order: [OrderTerm(column: "order_index")]).map { $0["id"]!.stringValue! }
        XCTAssertThrowsError(
            try db.atomically {
                for (i, id) in ids.reversed().enumerated() {
                    try db.update("adventure_stops", set: ["order_index": .int(Int64(i))], where: .eq("id", id), as: .serviceRole)
                }
            })
    }

    func testNewAccountGetsItsUsersRow() throws {
        let (b, _, _) = try world()
        let id = "5f000000-0000-4000-8000-0000000000aa"
        try b.database.insert("auth.users", [["id": .string(id), "email": "dan@shvil.test", "raw_user_meta_data": ["display_name": "Dan"]]], as: .serviceRole)
        let row = try b.database.rows("users", as: .user(id), where: .eq("id", id)).first
        XCTAssertEqual(row?["display_name"], "Dan")
        XCTAssertEqual(row?["email"], "dan@shvil.test")
    }
}
