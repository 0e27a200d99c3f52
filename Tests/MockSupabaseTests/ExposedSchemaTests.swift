import XCTest
@testable import MockSupabase

/// A contract's `exposedSchemas` as PostgREST's `db-schemas` (ApiRequest.hs `getSchema`,
/// Response.hs `profileHeader`): the first schema is served without a header, a later one by
/// its profile, and with several exposed every answer with a body names its schema.
final class ExposedSchemaTests: XCTestCase {
    static let schemaJSON = #"""
        {"exposedSchemas": ["api", "archive"],
         "tables": [
          {"name": "notes", "columns": [{"name": "id", "type": "integer", "primaryKey": true}, {"name": "body", "type": "text"}]},
          {"name": "old_notes", "schema": "archive", "columns": [{"name": "id", "type": "integer", "primaryKey": true}]}]}
        """#

    var backend: MockSupabase!

    override func setUpWithError() throws {
        let schema = try DatabaseSchema.decode(SpecNode(value: try JSONValue.parse(Self.schemaJSON), file: "inline"))
        let spec = AppSpec(
            app: "exposed", folder: URL(fileURLWithPath: "/nonexistent"), schema: schema,
            policies: PolicySet(definitions: [:], definitionDocs: [:], tables: []), fixtures: .empty)
        backend = try MockSupabase(configuration: MockConfiguration(spec: spec, clock: ManualClock(), ids: SeededIDGenerator(seed: 7)))
        try backend.database.seed("notes", rows: [["id": 1, "body": "a"]])
        try backend.database.seed("archive.old_notes", rows: [["id": 9]])
    }

    func send(_ method: String, _ target: String, _ headers: HTTPHeaders = [:], body: String? = nil) throws -> HTTPResponse {
        var h = headers
        h["apikey"] = backend.serviceRoleKey
        h["Authorization"] = "Bearer \(backend.serviceRoleKey)"
        if body != nil { h["Content-Type"] = "application/json" }
        return try backend.handle(HTTPRequest(method: method, target: "/rest/v1/" + target, headers: h, body: Data((body ?? "").utf8)))
    }

    func testTheFirstSchemaIsTheDefault() throws {
        let r = try send("GET", "notes?select=id")
        XCTAssertEqual(r.status, 200)
        XCTAssertEqual(r.text, #"[{"id":1}]"#)
        XCTAssertEqual(r.headers["Content-Profile"], "api", "several schemas: the default one counts as negotiated")
        let missing = try send("GET", "old_notes")
        XCTAssertEqual(missing.status, 404)
        XCTAssertEqual(try missing.json()["message"], "Could not find the table 'api.old_notes' in the schema cache")
    }

    func testALaterSchemaByItsProfile() throws {
        let r = try send("GET", "old_notes", ["Accept-Profile": "archive"])
        XCTAssertEqual(r.status, 200, r.text)
        XCTAssertEqual(r.text, #"[{"id":9}]"#)
        XCTAssertEqual(r.headers["Content-Profile"], "archive")
        let w = try send("POST", "old_notes", ["Content-Profile": "archive", "Prefer": "return=representation"], body: #"{"id":10}"#)
        XCTAssertEqual(w.status, 201, w.text)
        XCTAssertEqual(backend.database.count("archive.old_notes"), 2)
        let wrong = try send("GET", "notes", ["Accept-Profile": "archive"])
        XCTAssertEqual(wrong.status, 404)
        XCTAssertEqual(try wrong.json()["message"], "Could not find the table 'archive.notes' in the schema cache")
        let bad = try send("GET", "notes", ["Accept-Profile": "public"])
        XCTAssertEqual(bad.status, 406)
        XCTAssertEqual(try bad.json()["hint"], "Only the following schemas are exposed: api, archive")
    }
}
