import XCTest
@testable import MockSupabase

/// Simple views over an RLS table: a plain view runs with its owner's rights (RLS bypassed, the
/// Supabase advisor's "security definer view" warning), a `security_invoker` one with the caller's.
final class SimpleViewTests: XCTestCase {
    static func schemaJSON(invoker: Bool) -> String {
        #"""
        {"tables": [
          {"name": "notes", "columns": [
            {"name": "id", "type": "integer", "primaryKey": true},
            {"name": "owner", "type": "uuid"},
            {"name": "body", "type": "text"},
            {"name": "public", "type": "boolean", "nullable": false, "default": {"value": false}}]},
          {"name": "all_notes", "view": {"from": "notes"}, "columns": [
            {"name": "id", "type": "integer"}, {"name": "body", "type": "text"}]},
          {"name": "my_notes", "view": {"from": "notes", "securityInvoker": \#(invoker)}, "columns": [
            {"name": "id", "type": "integer"}, {"name": "body", "type": "text"}, {"name": "public", "type": "boolean"}]}]}
        """#
    }
    static let policiesJSON = #"""
        {"tables": [{"table": "notes",
          "select": {"doc": "public notes", "using": {"eq": [{"column": "public"}, true]}},
          "insert": {"doc": "public only", "check": {"eq": [{"column": "public"}, true]}},
          "update": {"doc": "none", "using": false},
          "delete": {"doc": "none", "using": false}}]}
        """#
    static let me = "0000000a-0000-4000-8000-000000000001"

    static func database(invoker: Bool = true) throws -> Database {
        let schema = try DatabaseSchema.decode(SpecNode(value: try JSONValue.parse(schemaJSON(invoker: invoker)), file: "inline"))
        let policies = try PolicySet.decode(SpecNode(value: try JSONValue.parse(policiesJSON), file: "inline"), schema: schema)
        let db = Database(schema: schema, policies: policies, clock: ManualClock(), ids: SeededIDGenerator(seed: 1))
        try db.seed(
            "notes",
            rows: [
                ["id": 1, "owner": .string(me), "body": "open", "public": true],
                ["id": 2, "owner": .string(me), "body": "secret", "public": false]
            ])
        return db
    }

    /// What a signed-in caller sees through `my_notes`, and whether a hidden row can be written.
    static func invokerFindings(_ db: Database) throws -> [String] {
        var wrong: [String] = []
        let seen = try db.select(from: "my_notes", as: .user(me)).rows.count
        if seen != 1 { wrong.append("my_notes shows \(seen) rows, the caller's policies allow 1") }
        do {
            _ = try db.insert(into: "my_notes", rows: [["id": 3, "body": "x", "public": false]], as: .user(me))
            wrong.append("a row the caller's INSERT policy refuses went in through the view")
        } catch let e as PostgresError where e.code == "42501" {}
        return wrong
    }

    func testInvokerViewAppliesTheCallersPolicies() throws {
        XCTAssertEqual(try Self.invokerFindings(try Self.database()), [])
    }

    /// The same view without `security_invoker` (a definer view) is rejected by the check.
    func testTheCheckRejectsADefinerView() throws {
        XCTAssertEqual(try Self.invokerFindings(try Self.database(invoker: false)).count, 2)
    }

    func testDefinerViewBypassesRLSAndProjects() throws {
        let db = try Self.database()
        let r = try db.select(from: "all_notes", as: .anon, order: [OrderTerm(column: "id")])
        XCTAssertEqual(r.rows, [[.int(1), .text("open")], [.int(2), .text("secret")]])
        XCTAssertEqual(try db.select(from: "notes", as: .anon).rows.count, 1, "the table itself keeps its policies")
    }

    func testWritesGoToTheBaseTable() throws {
        let db = try Self.database()
        _ = try db.insert(into: "all_notes", rows: [["id": 5, "body": "via view"]], as: .anon)
        XCTAssertEqual(try db.rows("notes", where: .eq("id", "5")).first?["public"], false, "the base default fills the column the view hides")
        XCTAssertEqual(try db.update("all_notes", set: ["body": "edited"], as: .anon, where: .eq("id", "2")).count, 1)
        XCTAssertThrowsError(try db.update("all_notes", set: ["public": true], as: .anon, where: .eq("id", "2"))) { e in
            XCTAssertEqual((e as? PostgresError)?.code, "PGRST204", "a column the view does not show")
        }
        XCTAssertEqual(try db.delete(from: "all_notes", as: .anon, where: .eq("id", "5")).count, 1)
        XCTAssertEqual(db.count("notes"), 2)
    }
}
