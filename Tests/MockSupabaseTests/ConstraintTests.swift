import XCTest
@testable import MockSupabase

/// Column types, enums, CHECK constraints and ON DELETE actions as PostgreSQL enforces them,
/// on an inline schema that uses every kind.
final class ConstraintTests: XCTestCase {
    let schemaJSON = #"""
        {"enums": {"ride_status": ["open", "pending", "confirmed", "completed"]},
         "tables": [
          {"name": "owners", "columns": [{"name": "id", "type": "uuid", "primaryKey": true}]},
          {"name": "rides", "columns": [
            {"name": "id", "type": "uuid", "primaryKey": true, "default": {"fn": "gen_random_uuid()"}},
            {"name": "owner_id", "type": "uuid"},
            {"name": "status", "type": "ride_status", "nullable": false, "default": {"value": "open"}},
            {"name": "date", "type": "date", "nullable": false},
            {"name": "time", "type": "time"},
            {"name": "seats", "type": "integer", "default": {"value": 1}, "check": {"all": [{"gte": [{"column": "seats"}, 1]}, {"lte": [{"column": "seats"}, 8]}]}},
            {"name": "tier", "type": "text", "check": {"in": [{"column": "tier"}, ["free", "premium"]]}},
            {"name": "tags", "type": "text[]"},
            {"name": "meta", "type": "jsonb"},
            {"name": "at", "type": "timestamptz"}],
           "checks": [{"name": "rides_time_needs_date", "expr": {"any": [{"isNull": {"column": "time"}}, {"notNull": {"column": "date"}}]}}],
           "foreignKeys": [{"columns": ["owner_id"], "references": {"table": "owners", "columns": ["id"]}, "onDelete": "set null"}]}
         ]}
        """#
    let owner = "0000000a-0000-4000-8000-000000000001"

    func makeBackend() throws -> MockSupabase {
        let schema = try DatabaseSchema.decode(SpecNode(value: try JSONValue.parse(schemaJSON), file: "inline"))
        let spec = AppSpec(
            app: "inline", folder: URL(fileURLWithPath: "/"), schema: schema, policies: .empty,
            fixtures: Fixtures(personas: [], tables: [("owners", [["id": .string(owner)]])]))
        return try MockSupabase(configuration: MockConfiguration(spec: spec, clock: ManualClock(), ids: SeededIDGenerator(seed: 3)))
    }

    func post(_ b: MockSupabase, _ body: JSONValue) throws -> HTTPResponse {
        try b.handle(
            HTTPRequest(
                method: "POST", target: "/rest/v1/rides",
                headers: ["apikey": b.serviceRoleKey, "Authorization": "Bearer \(b.serviceRoleKey)", "Prefer": "return=representation"], body: body.data()))
    }

    func testTypesRoundTripAsPostgreSQLPrintsThem() throws {
        let b = try makeBackend()
        let r = try post(
            b,
            [
                "owner_id": .string(owner.uppercased()), "date": "2026-02-28", "time": "07:05", "tags": ["a", "b c"],
                "meta": ["z": 1, "aa": [true, nil], "b": 2.50], "at": "2026-01-01T10:30:00.123+05:30"
            ])
        XCTAssertEqual(r.status, 201, r.text)
        let row = try XCTUnwrap(r.jsonBody?.arrayValue?.first)
        XCTAssertEqual(row["owner_id"], .string(owner), "uuids are printed lower-case")
        XCTAssertEqual(row["status"], "open")
        XCTAssertEqual(row["date"], "2026-02-28")
        XCTAssertEqual(row["time"], "07:05:00")
        XCTAssertEqual(row["seats"], 1)
        XCTAssertEqual(row["tags"], ["a", "b c"])
        XCTAssertEqual(row["at"], "2026-01-01T05:00:00.123+00:00", "timestamptz is normalised to UTC")
        XCTAssertTrue(r.text.contains(#""meta":{"b": 2.5, "z": 1, "aa": [true, null]}"#), "jsonb spacing and key order: \(r.text)")
    }

    func testEnumAndCheckViolations() throws {
        let b = try makeBackend()
        let e = try post(b, ["date": "2026-01-01", "status": "cancelled"])
        XCTAssertEqual(e.status, 400)
        XCTAssertEqual(e.jsonBody?["code"], "22P02")
        XCTAssertEqual(e.jsonBody?["message"], "invalid input value for enum ride_status: \"cancelled\"")
        let c = try post(b, ["date": "2026-01-01", "seats": 9])
        XCTAssertEqual(c.status, 400)
        XCTAssertEqual(c.jsonBody?["code"], "23514")
        XCTAssertEqual(c.jsonBody?["message"], "new row for relation \"rides\" violates check constraint \"rides_seats_check\"")
        XCTAssertEqual(
            try post(b, ["date": "2026-01-01", "tier": "gold"]).jsonBody?["message"],
            "new row for relation \"rides\" violates check constraint \"rides_tier_check\"")
        XCTAssertEqual(try post(b, ["date": "2026-01-01", "tier": nil]).status, 201, "a NULL makes a CHECK unknown, which passes")
        XCTAssertEqual(try post(b, ["date": "2026-02-30"]).jsonBody?["code"], "22007")
        XCTAssertEqual(try post(b, ["date": "2026-01-01", "seats": 2147483648]).jsonBody?["code"], "22003")
        XCTAssertEqual(try post(b, ["date": "2026-01-01", "tags": "not-an-array"]).jsonBody?["message"], "malformed array literal: \"not-an-array\"")
        XCTAssertEqual(b.database.count("rides"), 1)
    }

    func testOnDeleteSetNullAndEnumOrdering() throws {
        let b = try makeBackend()
        for s in ["completed", "open", "pending"] {
            XCTAssertEqual(try post(b, ["date": "2026-01-01", "status": .string(s), "owner_id": .string(owner)]).status, 201)
        }
        let ordered = try b.handle(HTTPRequest(method: "GET", target: "/rest/v1/rides?select=status&order=status", headers: ["apikey": b.serviceRoleKey]))
        XCTAssertEqual(ordered.jsonBody, [["status": "open"], ["status": "pending"], ["status": "completed"]], "enums sort in declaration order")
        _ = try b.database.delete("owners", where: .eq("id", owner))
        XCTAssertEqual(try b.database.rows("rides").compactMap { $0["owner_id"] }, [.null, .null, .null])
    }
}
