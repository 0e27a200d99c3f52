import XCTest
@testable import MockSupabase

/// Trigger timing as PostgreSQL runs it: AFTER ROW triggers are queued and fire when their
/// statement ends (trigger.c `AfterTriggerEndQuery`), and ON DELETE SET NULL is an UPDATE of the
/// child row that fires the child's row triggers (ri_triggers.c).
final class TriggerOrderTests: XCTestCase {
    static let schemaJSON = #"""
        {"tables": [
          {"name": "parents", "columns": [{"name": "id", "type": "integer", "primaryKey": true}]},
          {"name": "kids", "columns": [
            {"name": "id", "type": "integer", "primaryKey": true},
            {"name": "parent_id", "type": "integer"},
            {"name": "note", "type": "text"}],
           "foreignKeys": [{"columns": ["parent_id"], "references": {"table": "parents", "columns": ["id"]}, "onDelete": "set null"}]}]}
        """#

    static func database() throws -> Database {
        let schema = try DatabaseSchema.decode(SpecNode(value: try JSONValue.parse(schemaJSON), file: "inline"))
        let policies = try PolicySet.decode(
            SpecNode(value: try JSONValue.parse(#"{"tables": [{"table": "parents", "rls": false}, {"table": "kids", "rls": false}]}"#), file: "inline"),
            schema: schema)
        let db = Database(schema: schema, policies: policies, clock: ManualClock(), ids: SeededIDGenerator(seed: 1))
        try db.seed("parents", rows: [["id": 1]])
        return db
    }

    /// Rows a trigger of `timing` saw in `kids` each time a three-row INSERT fired it.
    static func countsSeen(_ timing: TriggerTiming) throws -> [Int] {
        let db = try database()
        let seen = Guarded<[Int]>([])
        db.registerTrigger("count_kids", on: "kids", timing: timing, events: [.insert]) { ctx in
            let n = ctx.database.count("kids")
            seen.withLock { $0.append(n) }
        }
        _ = try db.insert(into: "kids", rows: [["id": 1], ["id": 2], ["id": 3]], as: .serviceRole)
        return seen.withLock { $0 }
    }

    func testAfterRowTriggersSeeTheWholeStatement() throws {
        XCTAssertEqual(try Self.countsSeen(.after), [3, 3, 3])
    }

    /// Firing per row, as a BEFORE trigger does, is what the check rejects.
    func testTheCheckRejectsPerRowFiring() throws {
        XCTAssertNotEqual(try Self.countsSeen(.before), [3, 3, 3])
    }

    func testSetNullFiresTheChildsUpdateTriggers() throws {
        let db = try Self.database()
        try db.seed("kids", rows: [["id": 1, "parent_id": 1]])
        db.registerTrigger("mark_orphans", on: "kids", timing: .before, events: [.update]) { ctx in
            if ctx.new?["parent_id"]?.isNull == true { ctx.new?["note"] = "orphaned" }
        }
        XCTAssertEqual(try db.delete(from: "parents", as: .serviceRole, where: .eq("id", "1")).count, 1)
        let kid = try db.rows("kids").first
        XCTAssertEqual(kid?["parent_id"], .null)
        XCTAssertEqual(kid?["note"], "orphaned")
    }
}
