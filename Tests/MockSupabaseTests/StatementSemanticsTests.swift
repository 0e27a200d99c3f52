import XCTest
@testable import MockSupabase

/// Statement semantics where PostgreSQL's order and scope of checks are observable, each found by
/// the differential check against a real PostgreSQL.
final class StatementSemanticsTests: XCTestCase {
    let schemaJSON = #"""
        {"tables": [
          {"name": "parents", "columns": [{"name": "id", "type": "integer", "primaryKey": true}]},
          {"name": "notes", "columns": [
            {"name": "id", "type": "integer", "primaryKey": true},
            {"name": "owner", "type": "uuid"},
            {"name": "parent_id", "type": "integer"},
            {"name": "public", "type": "boolean", "nullable": false, "default": {"value": false}}],
           "foreignKeys": [{"columns": ["parent_id"], "references": {"table": "parents", "columns": ["id"]}}]}]}
        """#
    let policiesJSON = #"""
        {"tables": [{"table": "parents", "rls": false}, {"table": "notes",
          "select": {"doc": "public notes", "using": {"eq": [{"column": "public"}, true]}},
          "insert": {"doc": "anyone", "check": "public"},
          "update": {"doc": "owner", "using": {"owner": "owner"}, "check": {"owner": "owner"}},
          "delete": {"doc": "owner", "using": {"owner": "owner"}}}]}
        """#
    let me = "0000000a-0000-4000-8000-000000000001"

    func makeDatabase() throws -> Database {
        let schema = try DatabaseSchema.decode(SpecNode(value: try JSONValue.parse(schemaJSON), file: "inline"))
        let policies = try PolicySet.decode(SpecNode(value: try JSONValue.parse(policiesJSON), file: "inline"), schema: schema)
        let db = Database(schema: schema, policies: policies, clock: ManualClock(), ids: SeededIDGenerator(seed: 1))
        try db.seed("parents", rows: [["id": 1]])
        try db.seed("notes", rows: [["id": 1, "owner": .string(me), "public": true], ["id": 2, "owner": .string(me), "public": false]])
        return db
    }

    /// An UPDATE with a WHERE clause reads rows, so its new rows must stay visible under SELECT
    /// policies, RETURNING or not.
    func testUpdateWithWhereMustKeepTheNewRowVisible() throws {
        let db = try makeDatabase()
        XCTAssertThrowsError(try db.update("notes", set: ["public": false], as: .user(me), where: .eq("id", "1"))) { e in
            XCTAssertEqual(e as? PostgresError, PostgresError("42501", "new row violates row-level security policy for table \"notes\""))
        }
        XCTAssertEqual(try db.rows("notes", where: .eq("id", "1")).first?["public"], true, "nothing changed")
    }

    /// Without WHERE or RETURNING only the UPDATE/DELETE policy applies: rows the role cannot
    /// SELECT are still reached.
    func testUnfilteredUpdateAndDeleteApplyOnlyTheirOwnPolicy() throws {
        let db = try makeDatabase()
        XCTAssertEqual(try db.update("notes", set: ["parent_id": 1], as: .user(me)).count, 2, "the hidden note 2 is updated too")
        XCTAssertEqual(
            try db.update("notes", set: ["parent_id": nil], as: .user(me), where: .condition(column: "id", op: .gt, value: .text("0"), negated: false)).count,
            1,
            "with a WHERE clause the hidden note is out of reach")
        XCTAssertEqual(try db.delete(from: "notes", as: .user(me)).count, 2)
    }

    /// Unique keys are checked row by row, foreign keys once the statement's rows are written:
    /// a statement breaking both reports the unique violation.
    func testForeignKeysAreCheckedAfterUniqueKeys() throws {
        let db = try makeDatabase()
        XCTAssertThrowsError(try db.insert("notes", [["id": 3, "parent_id": 99, "public": true], ["id": 1, "public": true]], as: .serviceRole)) { e in
            XCTAssertEqual((e as? PostgresError)?.code, "23505")
        }
        XCTAssertThrowsError(try db.insert("notes", [["id": 3, "parent_id": 99, "public": true]], as: .serviceRole)) { e in
            XCTAssertEqual((e as? PostgresError)?.code, "23503")
        }
        XCTAssertEqual(db.count("notes"), 2)
    }
}
