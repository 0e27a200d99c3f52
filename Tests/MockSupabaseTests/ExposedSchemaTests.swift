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
          {"name": "old_notes", "schema": "archive", "columns": [{"name": "id", "type": "integer", "primaryKey": true}]},
          {"name": "parents", "columns": [{"name": "id", "type": "integer", "primaryKey": true}, {"name": "name", "type": "text"}]},
          {"name": "children", "columns": [
            {"name": "id", "type": "integer", "primaryKey": true}, {"name": "name", "type": "text"}, {"name": "parent_id", "type": "integer"}],
           "foreignKeys": [{"name": "parent", "columns": ["parent_id"], "references": {"table": "parents", "columns": ["id"]}}]},
          {"name": "parents", "schema": "archive", "columns": [{"name": "id", "type": "integer", "primaryKey": true}, {"name": "name", "type": "text"}]},
          {"name": "children", "schema": "archive", "columns": [
            {"name": "id", "type": "integer", "primaryKey": true}, {"name": "name", "type": "text"}, {"name": "parent_id", "type": "integer"}],
           "foreignKeys": [{"name": "parent", "columns": ["parent_id"], "references": {"table": "archive.parents", "columns": ["id"]}}]}]}
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
        // MultipleSchemaSpec.hs's `v1`/`v2` pair: the same names in both schemas, other rows.
        try backend.database.seed("parents", rows: [["id": 1, "name": "parent api-1"], ["id": 2, "name": "parent api-2"]])
        try backend.database.seed("children", rows: [["id": 1, "name": "child api-1", "parent_id": 1]])
        try backend.database.seed("archive.parents", rows: [["id": 3, "name": "parent archive-3"], ["id": 4, "name": "parent archive-4"]])
        try backend.database.seed("archive.children", rows: [["id": 1, "name": "child archive-3", "parent_id": 3]])
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

    /// MultipleSchemaSpec.hs: embedding under a profile resolves among that schema's tables, on
    /// reads and on a write's representation, in both directions of a foreign key.
    func testEmbeddingWithinALaterSchema() throws {
        let read = try send("GET", "children?select=id,parent(*)", ["Accept-Profile": "archive"])
        XCTAssertEqual(read.status, 200, read.text)
        XCTAssertEqual(read.text, #"[{"id":1,"parent":{"id": 3, "name": "parent archive-3"}}]"#)
        XCTAssertEqual(read.headers["Content-Profile"], "archive")
        let children = try send("GET", "parents?select=id,children(name)&order=id", ["Accept-Profile": "archive"])
        XCTAssertEqual(children.status, 200, children.text)
        XCTAssertEqual(try JSONValue.parse(children.text), try JSONValue.parse(#"[{"id":3,"children":[{"name":"child archive-3"}]},{"id":4,"children":[]}]"#))
        let write = try send(
            "POST", "children?select=id,parent(*)", ["Content-Profile": "archive", "Prefer": "return=representation"],
            body: #"{"id":2,"name":"child archive-4","parent_id":4}"#)
        XCTAssertEqual(write.status, 201, write.text)
        XCTAssertEqual(write.text, #"[{"id":2,"parent":{"id": 4, "name": "parent archive-4"}}]"#)
        XCTAssertEqual(write.headers["Content-Profile"], "archive")
        // The first schema keeps its own tables.
        let first = try send("GET", "children?select=id,parent(*)")
        XCTAssertEqual(first.text, #"[{"id":1,"parent":{"id": 1, "name": "parent api-1"}}]"#)
    }

    /// The check can fail: planned with the contract's schema unchanged (the first schema's view),
    /// the later schema's embed resolves nothing.
    func testEmbeddingWithoutTheProfileViewFails() throws {
        let schema = backend.database.schema
        let children = try XCTUnwrap(schema.table("archive.children"))
        XCTAssertThrowsError(
            try SelectPlan.build(
                [.embed(relation: "parent", alias: nil, hint: nil, inner: false, items: [.star])], table: children, schema: schema, embeddedFilters: [:]))
        XCTAssertNoThrow(
            try SelectPlan.build(
                [.embed(relation: "parent", alias: nil, hint: nil, inner: false, items: [.star])], table: children, schema: schema.seen(from: "archive"),
                embeddedFilters: [:]))
    }
}
