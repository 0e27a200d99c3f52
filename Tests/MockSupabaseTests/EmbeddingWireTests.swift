import XCTest
@testable import MockSupabase

/// Resource embedding as PostgREST answers it (Plan.hs `findRel`, QueryBuilder.hs), on the
/// fixture's clients → projects → tasks ↔ users tables: bodies compared byte for byte, since
/// embedded rows print as jsonb (`{"id": 1, "name": …}`, keys by length then bytes).
final class EmbeddingWireTests: XCTestCase {
    var f: RestSpecFixture!
    override func setUpWithError() throws { f = try RestSpecFixture() }

    func testOrderLimitOffsetOnAnEmbeddedResource() throws {
        XCTAssertEqual(
            try f.text("projects?select=id,tasks(id,name)&id=eq.1&tasks.order=name.asc"),
            #"[{"id":1,"tasks":[{"id": 2, "name": "Build rocket"}, {"id": 1, "name": "Design rocket"}, {"id": 5, "name": "Launch"}]}]"#)
        XCTAssertEqual(
            try f.text("projects?select=id,tasks(id)&id=eq.1&tasks.order=id.desc&tasks.limit=1&tasks.offset=1"),
            #"[{"id":1,"tasks":[{"id": 2}]}]"#)
        // Unknown embed in a range parameter: PGRST108.
        try f.send("GET", "projects?select=id&tasks.limit=1").assertPostgrestError(
            400, "PGRST108", "'tasks' is not an embedded resource in this request",
            hint: "Verify that 'tasks' is included in the 'select' query parameter.")
    }

    func testFiltersOnNestedEmbedsAtAnyDepth() throws {
        XCTAssertEqual(
            try f.text("clients?select=id,projects(id,tasks(id,name))&projects.tasks.name=like.Design*&order=id&projects.order=id"),
            #"[{"id":1,"projects":[{"id": 1, "tasks": [{"id": 1, "name": "Design rocket"}]}, {"id": 2, "tasks": [{"id": 3, "name": "Design anvil"}]}]}, "#
                + "\n " + #"{"id":2,"projects":[{"id": 3, "tasks": []}]}, "# + "\n " + #"{"id":3,"projects":[]}]"#)
        // Nested !inner removes the parents whose nested embeds come back empty.
        XCTAssertEqual(
            try f.json(f.text("clients?select=id,projects!inner(id,tasks!inner(id))&projects.tasks.name=like.Design*&order=id")),
            [["id": 1, "projects": [["id": 1, "tasks": [["id": 1]]], ["id": 2, "tasks": [["id": 3]]]]]])
    }

    func testManyToManyThroughAJunctionTable() throws {
        XCTAssertEqual(
            try f.text("tasks?select=id,users(name)&id=lt.3&order=id"),
            #"[{"id":1,"users":[{"name": "Ada"}, {"name": "Brian"}]}, "# + "\n " + #"{"id":2,"users":[{"name": "Ada"}]}]"#)
        XCTAssertEqual(
            try f.json(f.text("users?select=name,tasks!assignments(id)&order=id")),
            [["name": "Ada", "tasks": [["id": 1], ["id": 2]]], ["name": "Brian", "tasks": [["id": 1]]], ["name": "Cleo", "tasks": [["id": 4]]]])
    }

    func testEmbeddingByConstraintOrColumnAndHints() throws {
        XCTAssertEqual(try f.text("projects?select=id,client_id(name)&id=eq.1"), #"[{"id":1,"client_id":{"name": "Acme"}}]"#)
        XCTAssertEqual(
            try f.text("projects?select=id,projects_client_id_fkey(id,name)&id=eq.3"), #"[{"id":3,"projects_client_id_fkey":{"id": 2, "name": "Globex"}}]"#)
        XCTAssertEqual(try f.text("projects?select=id,client:clients!projects_client_id_fkey(name)&id=eq.4"), #"[{"id":4,"client":null}]"#)
        XCTAssertEqual(try f.text("projects?select=id,clients!client_id(name)&id=eq.2"), #"[{"id":2,"clients":{"name": "Acme"}}]"#)
        XCTAssertEqual(try f.text("projects?select=id,clients!left(name)&id=eq.2"), #"[{"id":2,"clients":{"name": "Acme"}}]"#)
    }

    func testSelfReferenceChildrenParentAndHint() throws {
        XCTAssertEqual(try f.json(f.text("people?select=name,people(name)&id=eq.1")), [["name": "Root", "people": [["name": "Kid A"], ["name": "Kid B"]]]])
        XCTAssertEqual(try f.json(f.text("people?select=name,parent(name)&id=eq.4")), [["name": "Grandkid", "parent": ["name": "Kid A"]]])
        XCTAssertEqual(try f.json(f.text("people?select=name,children:people!parent(name)&id=eq.2")), [["name": "Kid A", "children": [["name": "Grandkid"]]]])
    }

    func testEmptyEmbedsAndNullFilters() throws {
        XCTAssertEqual(try f.text("projects?select=id,tasks()&tasks=is.null&order=id"), #"[{"id":4}]"#)
        XCTAssertEqual(try f.text("projects?select=id,tasks()&tasks=not.is.null&order=id"), "[{\"id\":1}, \n {\"id\":2}, \n {\"id\":3}]")
        XCTAssertEqual(try f.text("clients?select=name,projects()&projects.name=eq.Dome&projects=not.is.null"), #"[{"name":"Globex"}]"#)
    }

    func testOrderByAToOneRelatedColumn() throws {
        XCTAssertEqual(
            try f.json(f.text("projects?select=id,clients(name)&order=clients(name).desc.nullsfirst,id")),
            [
                ["id": 4, "clients": nil], ["id": 3, "clients": ["name": "Globex"]], ["id": 1, "clients": ["name": "Acme"]],
                ["id": 2, "clients": ["name": "Acme"]]
            ])
        try f.send("GET", "clients?select=id,projects(name)&order=projects(name)")
            .assertPostgrestError(
                400, "PGRST118", "A related order on 'projects' is not possible",
                details: "'clients' and 'projects' do not form a many-to-one or one-to-one relationship")
    }

    func testSpreadOfAToOneEmbed() throws {
        XCTAssertEqual(
            try f.text("projects?select=id,...clients(client_name:name)&id=lt.3&order=id"),
            "[{\"id\":1,\"client_name\":\"Acme\"}, \n {\"id\":2,\"client_name\":\"Acme\"}]")
        XCTAssertEqual(try f.text("projects?select=id,...clients(name)&id=eq.4"), #"[{"id":4,"name":null}]"#)
    }

    func testNoRelationshipAndAmbiguity() throws {
        try f.send("GET", "clients?select=id,users(id)").assertPostgrestError(
            400, "PGRST200", "Could not find a relationship between 'clients' and 'users' in the schema cache",
            details: "Searched for a foreign key relationship between 'clients' and 'users' in the schema 'public', but no matches were found.")
        try f.send("GET", "projects?select=id,clients!nope(id)").assertPostgrestError(
            400, "PGRST200", "Could not find a relationship between 'projects' and 'clients' in the schema cache",
            details:
                "Searched for a foreign key relationship between 'projects' and 'clients' using the hint 'nope' in the schema 'public', but no matches were found."
        )
        let r = try f.send("GET", "clients?select=id,transfers(id)")
        XCTAssertEqual(r.status, 300)
        XCTAssertEqual(
            r.json(),
            [
                "code": "PGRST201",
                "details": [
                    [
                        "cardinality": "one-to-many", "embedding": "clients with transfers",
                        "relationship": "transfers_from_client_fkey using clients(id) and transfers(from_client)"
                    ],
                    [
                        "cardinality": "one-to-many", "embedding": "clients with transfers",
                        "relationship": "transfers_to_client_fkey using clients(id) and transfers(to_client)"
                    ]
                ],
                "hint":
                    "Try changing 'transfers' to one of the following: 'transfers!transfers_from_client_fkey', 'transfers!transfers_to_client_fkey'. Find the desired relationship in the 'details' key.",
                "message": "Could not embed because more than one relationship was found for 'clients' and 'transfers'"
            ])
        XCTAssertEqual(
            try f.json(f.text("clients?select=id,transfers!to_client(id)&order=id")),
            [["id": 1, "transfers": []], ["id": 2, "transfers": [["id": 1]]], ["id": 3, "transfers": []]])
    }

    func testJSONPathsInSelectFiltersAndOrder() throws {
        XCTAssertEqual(
            try f.text("items?select=id,doc->tags->0,last:doc->tags->-1,doc->inner->>k,leaf:doc->inner->deep->leaf::text&id=eq.1"),
            #"[{"id":1,"tags":"x","last":"z","k":"v","leaf":"1"}]"#)
        XCTAssertEqual(try f.text("items?select=id,doc->inner&id=eq.1"), #"[{"id":1,"inner":{"k": "v", "deep": {"leaf": 1}}}]"#)
        XCTAssertEqual(try f.json(f.text("items?select=id&doc->tags->>0=eq.y")), [["id": 2]])
        XCTAssertEqual(try f.json(f.text("items?select=id&doc->>n=eq.10")), [["id": 2]])
        XCTAssertEqual(try f.json(f.text("items?select=id&or=(doc->inner->>k.eq.v,doc->tags->>-1.eq.y)&order=id")), [["id": 1], ["id": 2]])
        XCTAssertEqual(try f.json(f.text("items?select=id&order=doc->inner->>k.desc.nullslast")), [["id": 2], ["id": 1], ["id": 3]])
    }

    /// The byte-level checks reject row_to_json framing inside embeds (a mutant printer).
    func testJSONBPrintingRejectsJSONFraming() {
        let pairs = [("name", "\"Ada\""), ("id", "1")]
        XCTAssertEqual(SelectPlan.object(pairs, jsonb: true), #"{"id": 1, "name": "Ada"}"#)
        XCTAssertNotEqual(SelectPlan.object(pairs, jsonb: false), #"{"id": 1, "name": "Ada"}"#)
        XCTAssertEqual(SelectPlan.object([("a", "1"), ("a", "2")], jsonb: true), #"{"a": 2}"#)
    }
}

extension RestSpecFixture {
    func json(_ text: String) throws -> JSONValue { try JSONValue.parse(text) }
}
