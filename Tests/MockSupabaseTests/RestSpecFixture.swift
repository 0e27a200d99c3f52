import XCTest
@testable import MockSupabase

/// A PostgREST test schema of plain tables (no RLS), in the contract format: clients own
/// projects, projects hold tasks, users work on tasks through the `assignments` junction,
/// `people` point at themselves (`parent`), and `items` carry JSON documents. Requests are sent
/// straight to `MockSupabase.handle` as the service role.
final class RestSpecFixture {
    static let schemaJSON = #"""
        {"enums": {"enum_menagerie_type": ["foo", "bar"]},
         "domains": [
          {"name": "one_nine", "type": "integer", "checkSQL": "value >= 1 and value <= 9",
           "check": {"all": [{"gte": [{"column": "value"}, 1]}, {"lte": [{"column": "value"}, 9]}]}},
          {"name": "short_code", "type": "varchar(3)", "notNull": true}],
         "tables": [
          {"name": "clients", "columns": [
            {"name": "id", "type": "integer", "primaryKey": true},
            {"name": "name", "type": "text", "nullable": false}]},
          {"name": "projects", "columns": [
            {"name": "id", "type": "integer", "primaryKey": true},
            {"name": "name", "type": "text", "nullable": false},
            {"name": "client_id", "type": "integer"}],
           "foreignKeys": [{"name": "projects_client_id_fkey", "columns": ["client_id"], "references": {"table": "clients", "columns": ["id"]}}]},
          {"name": "tasks", "columns": [
            {"name": "id", "type": "integer", "primaryKey": true},
            {"name": "name", "type": "text", "nullable": false},
            {"name": "project_id", "type": "integer"}],
           "foreignKeys": [{"name": "tasks_project_id_fkey", "columns": ["project_id"], "references": {"table": "projects", "columns": ["id"]}}]},
          {"name": "users", "columns": [
            {"name": "id", "type": "integer", "primaryKey": true},
            {"name": "name", "type": "text", "nullable": false}]},
          {"name": "assignments", "columns": [
            {"name": "user_id", "type": "integer", "primaryKey": true},
            {"name": "task_id", "type": "integer", "primaryKey": true}],
           "foreignKeys": [
            {"name": "assignments_user_id_fkey", "columns": ["user_id"], "references": {"table": "users", "columns": ["id"]}},
            {"name": "assignments_task_id_fkey", "columns": ["task_id"], "references": {"table": "tasks", "columns": ["id"]}}]},
          {"name": "people", "columns": [
            {"name": "id", "type": "integer", "primaryKey": true},
            {"name": "name", "type": "text", "nullable": false},
            {"name": "parent", "type": "integer"}],
           "foreignKeys": [{"name": "people_parent_fkey", "columns": ["parent"], "references": {"table": "people", "columns": ["id"]}}]},
          {"name": "transfers", "columns": [
            {"name": "id", "type": "integer", "primaryKey": true},
            {"name": "from_client", "type": "integer"},
            {"name": "to_client", "type": "integer"}],
           "foreignKeys": [
            {"name": "transfers_from_client_fkey", "columns": ["from_client"], "references": {"table": "clients", "columns": ["id"]}},
            {"name": "transfers_to_client_fkey", "columns": ["to_client"], "references": {"table": "clients", "columns": ["id"]}}]},
          {"name": "labels", "columns": [
            {"name": "id", "type": "integer", "primaryKey": true},
            {"name": "name", "type": "text"},
            {"name": "item_id", "type": "integer"}],
           "foreignKeys": [{"name": "labels_item_id_fkey", "columns": ["item_id"], "references": {"table": "items", "columns": ["id"]}, "onDelete": "cascade"}]},
          {"name": "tickets", "columns": [
            {"name": "id", "type": "bigint", "primaryKey": true, "identity": "always"},
            {"name": "title", "type": "text"},
            {"name": "code", "type": "varchar(4)"},
            {"name": "grade", "type": "char(3)"}]},
          {"name": "logs", "columns": [
            {"name": "id", "type": "serial", "primaryKey": true},
            {"name": "msg", "type": "text"}]},
          {"name": "items", "columns": [
            {"name": "id", "type": "integer", "primaryKey": true},
            {"name": "label", "type": "text"},
            {"name": "doc", "type": "jsonb"}]},
          {"name": "rocket_tasks", "view": {"from": "tasks", "where": {"eq": [{"column": "project_id"}, 1]}}, "columns": [
            {"name": "id", "type": "integer"},
            {"name": "name", "type": "text"},
            {"name": "project_id", "type": "integer"}]},
          {"name": "task_refs", "view": {"from": "tasks", "renamed": {"key": "id", "project": "project_id"}}, "columns": [
            {"name": "key", "type": "integer"},
            {"name": "name", "type": "text"},
            {"name": "project", "type": "integer"}]},
          {"name": "tasks_per_project", "view": {"from": "tasks", "groupBy": ["project_id"], "counts": {"n": "id"}}, "columns": [
            {"name": "project_id", "type": "integer"},
            {"name": "n", "type": "bigint"}]},
          {"name": "early_rocket_tasks", "view": {"from": "rocket_tasks", "where": {"lt": [{"column": "id"}, 10]}, "checkOption": "cascaded"}, "columns": [
            {"name": "id", "type": "integer"},
            {"name": "name", "type": "text"},
            {"name": "project_id", "type": "integer"}]},
          {"name": "checked_tasks", "view": {"from": "tasks", "where": {"eq": [{"column": "project_id"}, 1]}, "checkOption": "local"}, "columns": [
            {"name": "id", "type": "integer"},
            {"name": "name", "type": "text"},
            {"name": "project_id", "type": "integer"}]},
          {"name": "early_checked_tasks", "view": {"from": "checked_tasks", "where": {"lt": [{"column": "id"}, 10]}, "checkOption": "local"}, "columns": [
            {"name": "id", "type": "integer"},
            {"name": "name", "type": "text"}]},
          {"name": "quotes", "columns": [
            {"name": "id", "type": "integer", "primaryKey": true},
            {"name": "body", "type": "text"},
            {"name": "meta", "type": "jsonb"},
            {"name": "n", "type": "integer"}]},
          {"name": "process_costs", "columns": [
            {"name": "process_id", "type": "integer", "primaryKey": true},
            {"name": "cost", "type": "numeric"}]},
          {"name": "prices", "columns": [
            {"name": "id", "type": "integer", "primaryKey": true},
            {"name": "amount", "type": "numeric(5,2)"},
            {"name": "rating", "type": "one_nine"},
            {"name": "code", "type": "short_code"}]},
          {"name": "schedules", "columns": [
            {"name": "id", "type": "integer", "primaryKey": true},
            {"name": "name", "type": "text"},
            {"name": "start_at", "type": "timetz"},
            {"name": "end_at", "type": "time with time zone"}]},
          {"name": "timestamps", "columns": [
            {"name": "t", "type": "timestamptz"}]},
          {"name": "blobs", "columns": [
            {"name": "id", "type": "integer", "primaryKey": true},
            {"name": "bin", "type": "bytea"},
            {"name": "span", "type": "interval"}]},
          {"name": "ranges", "columns": [
            {"name": "id", "type": "integer", "primaryKey": true},
            {"name": "range", "type": "numrange"},
            {"name": "slots", "type": "int4range"},
            {"name": "during", "type": "tstzrange"}]},
          {"name": "menagerie", "columns": [
            {"name": "integer", "type": "integer", "nullable": false},
            {"name": "double", "type": "double precision", "nullable": false},
            {"name": "varchar", "type": "character varying", "nullable": false},
            {"name": "boolean", "type": "boolean", "nullable": false},
            {"name": "date", "type": "date", "nullable": false},
            {"name": "money", "type": "money", "nullable": false},
            {"name": "enum", "type": "enum_menagerie_type", "nullable": false}]},
          {"name": "tsearch", "columns": [
            {"name": "text_search_vector", "type": "tsvector"}]}
        ]}
        """#

    let backend: MockSupabase

    /// The fixture on `schemaJSON` (a variant with other PostgREST settings, `"aggregatesEnabled"`).
    init(schemaJSON: String = RestSpecFixture.schemaJSON) throws {
        let schema = try DatabaseSchema.decode(SpecNode(value: try JSONValue.parse(schemaJSON), file: "inline"))
        let spec = AppSpec(
            app: "restspec", folder: URL(fileURLWithPath: "/nonexistent"), schema: schema,
            policies: PolicySet(definitions: [:], definitionDocs: [:], tables: []), fixtures: .empty)
        backend = try MockSupabase(configuration: MockConfiguration(spec: spec, clock: ManualClock(), ids: SeededIDGenerator(seed: 7)))
        let db = backend.database
        try db.seed("clients", rows: [["id": 1, "name": "Acme"], ["id": 2, "name": "Globex"], ["id": 3, "name": "Initech"]])
        try db.seed(
            "projects",
            rows: [
                ["id": 1, "name": "Rocket", "client_id": 1], ["id": 2, "name": "Anvil", "client_id": 1],
                ["id": 3, "name": "Dome", "client_id": 2], ["id": 4, "name": "Orphan", "client_id": nil]
            ])
        try db.seed(
            "tasks",
            rows: [
                ["id": 1, "name": "Design rocket", "project_id": 1], ["id": 2, "name": "Build rocket", "project_id": 1],
                ["id": 3, "name": "Design anvil", "project_id": 2], ["id": 4, "name": "Paint dome", "project_id": 3],
                ["id": 5, "name": "Launch", "project_id": 1]
            ])
        try db.seed("users", rows: [["id": 1, "name": "Ada"], ["id": 2, "name": "Brian"], ["id": 3, "name": "Cleo"]])
        try db.seed(
            "assignments", rows: [["user_id": 1, "task_id": 1], ["user_id": 1, "task_id": 2], ["user_id": 2, "task_id": 1], ["user_id": 3, "task_id": 4]])
        try db.seed(
            "people",
            rows: [
                ["id": 1, "name": "Root", "parent": nil], ["id": 2, "name": "Kid A", "parent": 1], ["id": 3, "name": "Kid B", "parent": 1],
                ["id": 4, "name": "Grandkid", "parent": 2]
            ])
        try db.seed("logs", rows: [["id": 1, "msg": "seeded"]])
        try db.seed("transfers", rows: [["id": 1, "from_client": 1, "to_client": 2]])
        try db.seed(
            "items",
            rows: [
                ["id": 1, "label": "a", "doc": ["tags": ["x", "y", "z"], "n": 3, "inner": ["k": "v", "deep": ["leaf": 1]]]],
                ["id": 2, "label": "b", "doc": ["tags": ["y"], "n": 10, "inner": ["k": "w"]]],
                ["id": 3, "label": nil, "doc": nil]
            ])
        try db.seed(
            "quotes",
            rows: [
                ["id": 1, "body": "The rockets were launched quickly at dawn", "meta": ["title": "The rockets were launched quickly at dawn"], "n": 1],
                [
                    "id": 2, "body": "Designing better rockets is possibly impossible", "meta": ["title": "Designing better rockets is possibly impossible"],
                    "n": 2
                ],
                [
                    "id": 3, "body": "Cats and dogs enjoyed running through the park", "meta": ["title": "Cats and dogs enjoyed running through the park"],
                    "n": 3
                ],
                ["id": 4, "body": "Un chat très amusant dans le jardin", "meta": nil, "n": 4],
                ["id": 5, "body": "Self-driving cars park themselves", "meta": nil, "n": 5]
            ])
        // PostgREST's test data (test/spec/fixtures/data.sql) for the typed tables.
        try db.seed(
            "process_costs",
            rows: [
                ["process_id": 1, "cost": "150.00"], ["process_id": 2, "cost": "200.00"], ["process_id": 3, "cost": "180.00"],
                ["process_id": 4, "cost": "70.00"], ["process_id": 5, "cost": "40.00"], ["process_id": 6, "cost": "70.00"]
            ])
        try db.seed(
            "schedules",
            rows: [
                ["id": 1, "name": "morning", "start_at": "06:00:00", "end_at": "11:59:00"],
                ["id": 2, "name": "afternoon", "start_at": "12:00:00", "end_at": "17:59:00"],
                ["id": 3, "name": "night", "start_at": "18:00:00", "end_at": "23:59:00"]
            ])
        try db.seed(
            "timestamps", rows: [["t": "2023-10-18 12:37:59.611000+0000"], ["t": "2023-10-18 14:37:59.611000+0000"], ["t": "2023-10-18 16:37:59.611000+0000"]])
        try db.seed("blobs", rows: [["id": 1, "bin": "abc", "span": "1 day 02:00:00"], ["id": 2, "bin": "\\x00ff", "span": "36 hours"]])
        try db.seed(
            "ranges",
            rows: [
                ["id": 1, "range": "[1,3]", "slots": "[1,3]", "during": "[2024-01-01 10:00+00,2024-01-01 12:00+00)"],
                ["id": 2, "range": "[3,6]"], ["id": 3, "range": "[6,9]"], ["id": 4, "range": "[9,12]"], ["id": 5, "range": nil]
            ])
        try db.seed(
            "menagerie",
            rows: [
                ["integer": 1, "double": 1.5, "varchar": "a", "boolean": true, "date": "2000-01-01", "money": "$1,000.50", "enum": "foo"],
                ["integer": 2, "double": 0.1, "varchar": "b", "boolean": false, "date": "2000-01-02", "money": "(5)", "enum": "bar"]
            ])
        // `to_tsvector` of the sentences in data.sql, as PostgreSQL prints them.
        try db.seed(
            "tsearch",
            rows: [
                ["text_search_vector": "'fun':5 'imposs':9 'kind':3"], ["text_search_vector": "'also':2 'fun':3 'possibl':8"],
                ["text_search_vector": "'ate':3 'cat':2 'fat':1 'rat':4"], ["text_search_vector": "'amus':5 'fair':7 'impossibl':9 'peu':4"],
                ["text_search_vector": "'art':4 'spass':5 'unmog':7"]
            ])
        try db.seed("labels", rows: [["id": 1, "name": "red", "item_id": 1], ["id": 2, "name": "blue", "item_id": 1]])
    }

    /// Sends `method path?query` (query already percent-encoded or plain) as the service role.
    @discardableResult
    func send(_ method: String, _ pathAndQuery: String, headers: HTTPHeaders = [:], body: String? = nil) throws -> HTTPResponse {
        var h = headers
        h["apikey"] = backend.serviceRoleKey
        h["Authorization"] = "Bearer \(backend.serviceRoleKey)"
        if body != nil && h["Content-Type"] == nil { h["Content-Type"] = "application/json" }
        return try backend.handle(HTTPRequest(method: method, target: "/rest/v1/" + pathAndQuery, headers: h, body: Data((body ?? "").utf8)))
    }

    /// `GET`, asserting 200, and the body's text.
    func text(_ pathAndQuery: String, headers: HTTPHeaders = [:], file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let r = try send("GET", pathAndQuery, headers: headers)
        XCTAssertEqual(r.status, 200, "GET \(pathAndQuery): \(r.text)", file: file, line: line)
        return r.text
    }

    /// `GET` and the body's JSON.
    func get(_ pathAndQuery: String, headers: HTTPHeaders = [:], file: StaticString = #filePath, line: UInt = #line) throws -> JSONValue {
        let r = try send("GET", pathAndQuery, headers: headers)
        XCTAssertEqual(r.status, 200, "GET \(pathAndQuery): \(r.text)", file: file, line: line)
        return r.json(file: file, line: line)
    }
}
