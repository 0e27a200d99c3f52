import XCTest
@testable import ContractKit

/// The oracle's evaluation of the expression language: SQL three-valued logic, typed
/// comparisons, lookups with `outer`, roles and claims.
final class RLSOracleTests: XCTestCase {
    static let schemaJSON = """
        { "enums": { "status": ["open", "pending", "done"] },
          "tables": [
            { "name": "items", "columns": [
                { "name": "id", "type": "uuid", "primaryKey": true },
                { "name": "owner", "type": "uuid" },
                { "name": "status", "type": "status" },
                { "name": "n", "type": "integer" },
                { "name": "due", "type": "timestamptz" },
                { "name": "label", "type": "text" } ] },
            { "name": "members", "columns": [
                { "name": "item_id", "type": "uuid", "nullable": false },
                { "name": "user_id", "type": "uuid", "nullable": false } ],
              "primaryKey": ["item_id", "user_id"] } ] }
        """
    static let me = "A0000000-0000-4000-8000-000000000001" // upper case on purpose
    static let item = "10000000-0000-4000-8000-000000000001"

    func oracle(members: [[String: JSONValue]] = []) throws -> (RLSOracle, TableSchema) {
        let schema = try DatabaseSchema.decode(SpecNode(value: try JSONValue.parse(RLSOracleTests.schemaJSON), file: "schema.json"))
        var state = RLSState(schema: schema, fixtures: .empty, now: Date(timeIntervalSince1970: 1_767_225_600))
        state.tables["public.members"] = members.map { RLSRow(values: $0) }
        return (RLSOracle(schema: schema, definitions: [:], state: state, now: Date(timeIntervalSince1970: 1_767_225_600)), schema.table("items")!)
    }

    func expr(_ json: String) throws -> Expr { try Expr.decode(SpecNode(value: try JSONValue.parse(json), file: "test")) }

    var persona: RLSActor { RLSActor(name: "me", kind: .persona(id: RLSOracleTests.me.lowercased(), email: "me@x.test"), label: "") }

    func row(_ values: [String: JSONValue]) -> RLSRow {
        var v: [String: JSONValue] = ["id": .string(RLSOracleTests.item), "owner": .null, "status": .null, "n": .null, "due": .null, "label": .null]
        for (k, x) in values { v[k] = x }
        return RLSRow(values: v)
    }

    func testOwnerComparesUUIDsCaseInsensitively() throws {
        let (o, t) = try oracle()
        let e = try expr(#"{"owner": "owner"}"#)
        XCTAssertEqual(o.evaluate(e, table: t, row: row(["owner": .string(RLSOracleTests.me)]), actor: persona), true)
        XCTAssertEqual(o.evaluate(e, table: t, row: row(["owner": "b0000000-0000-4000-8000-000000000002"]), actor: persona), false)
        XCTAssertNil(o.evaluate(e, table: t, row: row([:]), actor: persona), "NULL owner: unknown")
        XCTAssertNil(o.evaluate(e, table: t, row: row(["owner": .string(RLSOracleTests.me)]), actor: .anon), "anon: auth.uid() is NULL")
    }

    func testThreeValuedLogic() throws {
        let (o, t) = try oracle()
        let r = row([:]) // owner NULL: {"owner": "owner"} is unknown
        XCTAssertEqual(o.evaluate(try expr(#"{"any": [{"owner": "owner"}, true]}"#), table: t, row: r, actor: persona), true)
        XCTAssertNil(o.evaluate(try expr(#"{"any": [{"owner": "owner"}, false]}"#), table: t, row: r, actor: persona))
        XCTAssertEqual(o.evaluate(try expr(#"{"all": [{"owner": "owner"}, false]}"#), table: t, row: r, actor: persona), false)
        XCTAssertNil(o.evaluate(try expr(#"{"not": {"owner": "owner"}}"#), table: t, row: r, actor: persona), "NOT unknown is unknown")
        XCTAssertFalse(o.passes(try expr(#"{"not": {"owner": "owner"}}"#), table: t, row: r, actor: persona), "unknown does not pass a policy")
        XCTAssertEqual(o.evaluate(try expr(#"{"isNull": {"column": "owner"}}"#), table: t, row: r, actor: persona), true)
        XCTAssertNil(
            o.evaluate(try expr(#"{"in": [{"column": "label"}, ["a", null]]}"#), table: t, row: row(["label": "b"]), actor: persona),
            "x IN (a, NULL) is unknown")
        XCTAssertEqual(o.evaluate(try expr(#"{"in": [{"column": "label"}, ["a", null]]}"#), table: t, row: row(["label": "a"]), actor: persona), true)
    }

    func testTypedComparisons() throws {
        let (o, t) = try oracle()
        XCTAssertEqual(
            o.evaluate(try expr(#"{"lt": [{"column": "status"}, {"value": "done"}]}"#), table: t, row: row(["status": "pending"]), actor: persona), true,
            "enum order, not text order")
        XCTAssertEqual(o.evaluate(try expr(#"{"gt": [{"column": "n"}, 9]}"#), table: t, row: row(["n": 10]), actor: persona), true, "numbers, not text")
        XCTAssertEqual(
            o.evaluate(try expr(#"{"gt": [{"column": "due"}, "now"]}"#), table: t, row: row(["due": "2026-01-02 00:00:00+00"]), actor: persona), true)
        XCTAssertEqual(
            o.evaluate(try expr(#"{"gt": [{"column": "due"}, "now"]}"#), table: t, row: row(["due": "2026-01-01T02:00:00+03:00"]), actor: persona), false,
            "time zones")
        XCTAssertEqual(
            o.evaluate(try expr(#"{"lt": [{"column": "label"}, {"value": "a"}]}"#), table: t, row: row(["label": "Z"]), actor: persona), true,
            "C collation: bytes")
    }

    func testRolesAndClaims() throws {
        let (o, t) = try oracle()
        XCTAssertEqual(o.evaluate(try expr(#""authenticated""#), table: t, row: row([:]), actor: persona), true)
        XCTAssertEqual(o.evaluate(try expr(#""authenticated""#), table: t, row: row([:]), actor: .anon), false)
        XCTAssertEqual(o.evaluate(try expr(#"{"eq": ["auth.role", {"value": "anon"}]}"#), table: t, row: row([:]), actor: .anon), true)
        XCTAssertEqual(o.evaluate(try expr(#"{"eq": ["auth.email", {"value": "me@x.test"}]}"#), table: t, row: row([:]), actor: persona), true)
    }

    func testExistsWithOuter() throws {
        let (o, t) = try oracle(members: [["item_id": .string(RLSOracleTests.item), "user_id": .string(RLSOracleTests.me.lowercased())]])
        let e = try expr(#"{"exists": {"table": "members", "where": {"all": [{"eq": [{"column": "item_id"}, {"outer": "id"}]}, {"owner": "user_id"}]}}}"#)
        XCTAssertEqual(o.evaluate(e, table: t, row: row([:]), actor: persona), true)
        XCTAssertEqual(o.evaluate(e, table: t, row: row(["id": "20000000-0000-4000-8000-000000000002"]), actor: persona), false)
        XCTAssertEqual(o.evaluate(e, table: t, row: row([:]), actor: .anon), false, "exists is never unknown")
    }

    func testGeneratedValuesAreNotNullButUnknown() throws {
        let (o, t) = try oracle()
        var r = row([:])
        r.generated = ["owner"]
        XCTAssertEqual(o.evaluate(try expr(#"{"notNull": {"column": "owner"}}"#), table: t, row: r, actor: persona), true)
        XCTAssertNil(o.evaluate(try expr(#"{"owner": "owner"}"#), table: t, row: r, actor: persona))
    }

    func testDeleteSimulationFollowsForeignKeyActions() throws {
        let schema = try DatabaseSchema.decode(
            SpecNode(
                value: try JSONValue.parse(
                    """
                    { "tables": [
                      { "name": "p", "columns": [{ "name": "id", "type": "text", "primaryKey": true }] },
                      { "name": "c", "columns": [{ "name": "id", "type": "text", "primaryKey": true }, { "name": "p_id", "type": "text" }],
                        "foreignKeys": [{ "columns": ["p_id"], "references": { "table": "p", "columns": ["id"] }, "onDelete": "cascade" }] },
                      { "name": "g", "columns": [{ "name": "id", "type": "text", "primaryKey": true }, { "name": "c_id", "type": "text", "nullable": false }],
                        "foreignKeys": [{ "columns": ["c_id"], "references": { "table": "c", "columns": ["id"] } }] } ] }
                    """), file: "schema.json"))
        var state = RLSState(schema: schema, fixtures: .empty, now: Date())
        state.tables["public.p"] = [RLSRow(values: ["id": "p1"]), RLSRow(values: ["id": "p2"])]
        state.tables["public.c"] = [RLSRow(values: ["id": "c1", "p_id": "p1"]), RLSRow(values: ["id": "c2", "p_id": "p2"])]
        state.tables["public.g"] = [RLSRow(values: ["id": "g1", "c_id": "c1"])]
        let o = RLSOracle(schema: schema, definitions: [:], state: state, now: Date())
        XCTAssertEqual(o.deleteError(schema.table("p")!, index: 0), "23503", "p1 cascades to c1, which g1 restricts")
        let after = try XCTUnwrap(o.simulateDelete(schema.table("p")!, index: 1).state)
        XCTAssertEqual(after.tables["public.c"]?.map { $0["id"] }, ["c1"], "p2 cascades to c2")
    }
}

/// The oracle's uuid comparison without keys (`asciiUUIDBits`) answers as comparing the keys
/// does, for every pair of a set of uuid spellings, valid and not.
final class RLSOracleUUIDComparisonTests: XCTestCase {
    static let spellings = [
        "00000000-0000-4000-8000-000000000001", "00000000-0000-4000-8000-00000000000A", "00000000-0000-4000-8000-00000000000a",
        "{00000000-0000-4000-8000-00000000000b}", "0000000000004000800000000000000f", "f0000000-0000-4000-8000-000000000000",
        "a0000000-0000-4000-8000-000000000000", "90000000-0000-4000-8000-000000000000", "10000000-0000-4000-8000-00000000000",
        "10000000-0000-4000-8000-0000000000000", "g0000000-0000-4000-8000-000000000000", "", "ünicode-0000-4000-8000-000000000000"
    ]

    func testComparisonIsTheKeysComparison() {
        func byKeys(_ a: String, _ b: String) -> Int? {
            guard let x = RLSOracle.key(.string(a), .uuid), let y = RLSOracle.key(.string(b), .uuid) else { return nil }
            return RLSOracle.compareKeys(x, y)
        }
        var decided = 0
        for a in Self.spellings {
            for b in Self.spellings {
                XCTAssertEqual(RLSOracle.compare(.string(a), .string(b), type: .uuid), byKeys(a, b), "\(a) vs \(b)")
                if byKeys(a, b) != nil { decided += 1 }
            }
        }
        XCTAssertEqual(decided, 64, "the eight valid spellings compare with each other")
        // A comparison that ignored the digits' order would differ from the keys'.
        XCTAssertEqual(RLSOracle.compare(.string(Self.spellings[6]), .string(Self.spellings[5]), type: .uuid), -1)
        XCTAssertEqual(RLSOracle.compare(.string(Self.spellings[1]), .string(Self.spellings[2]), type: .uuid), 0)
    }
}
