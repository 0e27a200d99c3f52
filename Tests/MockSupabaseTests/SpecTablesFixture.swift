import XCTest
@testable import MockSupabase

/// Plain tables shaped like those PostgREST's hspec suites query (test/spec/fixtures/schema.sql
/// and data.sql: `items`, `simple_pk`, `no_pk`, `chores`, the clients → projects → tasks ↔ users
/// chain with its renamed foreign keys `client` and `project`, `complex_items` with a `json`
/// column and an integer array, `entities` → `child_entities` → `grandchild_entities`,
/// `users_projects`, `comments`, `files` and `touched_files` with their composite foreign keys,
/// `arrays` with a two-dimensional integer array, and the write suites' `tiobe_pls`, `employees`
/// (a `money` column), `single_unique`, `compound_unique`, `only_pk`, the surrogate-key upsert
/// tables, `UnitTest`, `web_content`, `artists` → `albums` (cascading), `students` ↔ `students_info`,
/// `organizations`, `timestamps`),
/// written in the contract format. The rows are the suite's data, so a request the specs send
/// gets the rows PostgREST's own answer holds.
final class SpecTablesFixture {
    static let schemaJSON = #"""
        {"enums": {"enum_menagerie_type": ["foo", "bar"]},
         "tables": [
          {"name": "items", "columns": [{"name": "id", "type": "bigserial", "primaryKey": true}]},
          {"name": "simple_pk", "columns": [
            {"name": "k", "type": "character varying", "primaryKey": true},
            {"name": "extra", "type": "character varying", "nullable": false}]},
          {"name": "no_pk", "columns": [
            {"name": "a", "type": "character varying"},
            {"name": "b", "type": "character varying"}]},
          {"name": "nullable_integer", "columns": [{"name": "a", "type": "integer"}]},
          {"name": "chores", "columns": [
            {"name": "id", "type": "integer", "primaryKey": true},
            {"name": "name", "type": "text"},
            {"name": "done", "type": "boolean"}]},
          {"name": "clients", "columns": [
            {"name": "id", "type": "integer", "primaryKey": true},
            {"name": "name", "type": "text", "nullable": false}]},
          {"name": "projects", "columns": [
            {"name": "id", "type": "integer", "primaryKey": true},
            {"name": "name", "type": "text", "nullable": false},
            {"name": "client_id", "type": "integer"}],
           "foreignKeys": [{"name": "client", "columns": ["client_id"], "references": {"table": "clients", "columns": ["id"]}}]},
          {"name": "tasks", "columns": [
            {"name": "id", "type": "integer", "primaryKey": true},
            {"name": "name", "type": "text", "nullable": false},
            {"name": "project_id", "type": "integer"}],
           "foreignKeys": [{"name": "project", "columns": ["project_id"], "references": {"table": "projects", "columns": ["id"]}}]},
          {"name": "users", "columns": [
            {"name": "id", "type": "integer", "primaryKey": true},
            {"name": "name", "type": "text", "nullable": false}]},
          {"name": "users_tasks", "columns": [
            {"name": "user_id", "type": "integer", "primaryKey": true},
            {"name": "task_id", "type": "integer", "primaryKey": true}],
           "foreignKeys": [
            {"name": "users_tasks_user_id_fkey", "columns": ["user_id"], "references": {"table": "users", "columns": ["id"]}},
            {"name": "users_tasks_task_id_fkey", "columns": ["task_id"], "references": {"table": "tasks", "columns": ["id"]}}]},
          {"name": "users_projects", "columns": [
            {"name": "user_id", "type": "integer", "primaryKey": true},
            {"name": "project_id", "type": "integer", "primaryKey": true}],
           "foreignKeys": [
            {"name": "users_projects_user_id_fkey", "columns": ["user_id"], "references": {"table": "users", "columns": ["id"]}},
            {"name": "users_projects_project_id_fkey", "columns": ["project_id"], "references": {"table": "projects", "columns": ["id"]}}]},
          {"name": "comments", "columns": [
            {"name": "id", "type": "integer", "primaryKey": true},
            {"name": "commenter_id", "type": "integer", "nullable": false},
            {"name": "user_id", "type": "integer", "nullable": false},
            {"name": "task_id", "type": "integer", "nullable": false},
            {"name": "content", "type": "text", "nullable": false}],
           "foreignKeys": [
            {"name": "user", "columns": ["commenter_id"], "references": {"table": "users", "columns": ["id"]}},
            {"name": "comments_task_id_fkey", "columns": ["task_id", "user_id"], "references": {"table": "users_tasks", "columns": ["task_id", "user_id"]}}]},
          {"name": "files", "columns": [
            {"name": "project_id", "type": "integer", "primaryKey": true},
            {"name": "filename", "type": "text", "primaryKey": true},
            {"name": "content", "type": "text", "nullable": false}]},
          {"name": "touched_files", "columns": [
            {"name": "user_id", "type": "integer", "primaryKey": true},
            {"name": "task_id", "type": "integer", "primaryKey": true},
            {"name": "project_id", "type": "integer", "primaryKey": true},
            {"name": "filename", "type": "text", "primaryKey": true}],
           "foreignKeys": [
            {"name": "fk_users_tasks", "columns": ["user_id", "task_id"], "references": {"table": "users_tasks", "columns": ["user_id", "task_id"]}},
            {"name": "fk_upload", "columns": ["project_id", "filename"], "references": {"table": "files", "columns": ["project_id", "filename"]}}]},
          {"name": "complex_items", "columns": [
            {"name": "id", "type": "bigint", "nullable": false},
            {"name": "name", "type": "text"},
            {"name": "settings", "type": "json"},
            {"name": "arr_data", "type": "integer[]"},
            {"name": "field-with_sep", "type": "integer", "nullable": false, "default": {"value": 1}}]},
          {"name": "w_or_wo_comma_names", "columns": [{"name": "name", "type": "text"}]},
          {"name": "articles", "columns": [
            {"name": "id", "type": "integer", "primaryKey": true},
            {"name": "body", "type": "text"},
            {"name": "owner", "type": "text", "nullable": false, "default": {"value": "postgrest_test_anonymous"}}]},
          {"name": "entities", "columns": [
            {"name": "id", "type": "integer", "primaryKey": true},
            {"name": "name", "type": "text"},
            {"name": "arr", "type": "integer[]"},
            {"name": "text_search_vector", "type": "tsvector"}]},
          {"name": "child_entities", "columns": [
            {"name": "id", "type": "integer", "primaryKey": true},
            {"name": "name", "type": "text"},
            {"name": "parent_id", "type": "integer"}],
           "foreignKeys": [{"name": "child_entities_parent_id_fkey", "columns": ["parent_id"], "references": {"table": "entities", "columns": ["id"]}}]},
          {"name": "grandchild_entities", "columns": [
            {"name": "id", "type": "integer", "primaryKey": true},
            {"name": "name", "type": "text"},
            {"name": "parent_id", "type": "integer"},
            {"name": "or_starting_col", "type": "text"},
            {"name": "and_starting_col", "type": "text"},
            {"name": "jsonb_col", "type": "jsonb"}],
           "foreignKeys": [{"name": "grandchild_entities_parent_id_fkey", "columns": ["parent_id"], "references": {"table": "child_entities", "columns": ["id"]}}]},
          {"name": "json_arr", "columns": [
            {"name": "id", "type": "integer", "primaryKey": true},
            {"name": "data", "type": "json"}]},
          {"name": "jsonb_test", "columns": [
            {"name": "id", "type": "integer", "primaryKey": true},
            {"name": "data", "type": "jsonb"}]},
          {"name": "json_table", "columns": [{"name": "data", "type": "json"}]},
          {"name": "arrays", "columns": [
            {"name": "id", "type": "integer", "primaryKey": true},
            {"name": "numbers", "type": "integer[]"},
            {"name": "numbers_mult", "type": "integer[][]"}]},
          {"name": "empty_string", "columns": [
            {"name": "id", "type": "integer", "primaryKey": true},
            {"name": "string", "type": "text"}]},
          {"name": "tiobe_pls", "columns": [
            {"name": "name", "type": "text", "primaryKey": true},
            {"name": "rank", "type": "smallint"}]},
          {"name": "employees", "columns": [
            {"name": "first_name", "type": "text", "primaryKey": true},
            {"name": "last_name", "type": "text", "primaryKey": true},
            {"name": "salary", "type": "money"},
            {"name": "company", "type": "text"},
            {"name": "occupation", "type": "text"}]},
          {"name": "single_unique", "columns": [
            {"name": "unique_key", "type": "integer", "nullable": false},
            {"name": "value", "type": "text"}], "unique": [["unique_key"]]},
          {"name": "compound_unique", "columns": [
            {"name": "key1", "type": "integer", "nullable": false},
            {"name": "key2", "type": "integer", "nullable": false},
            {"name": "value", "type": "text"}], "unique": [["key1", "key2"]]},
          {"name": "only_pk", "columns": [{"name": "id", "type": "integer", "primaryKey": true}]},
          {"name": "surr_serial_upsert", "columns": [
            {"name": "id", "type": "serial", "primaryKey": true},
            {"name": "name", "type": "text"},
            {"name": "extra", "type": "text"}]},
          {"name": "surr_gen_default_upsert", "columns": [
            {"name": "id", "type": "integer", "primaryKey": true, "identity": "by default"},
            {"name": "name", "type": "text"},
            {"name": "extra", "type": "text"}]},
          {"name": "Surr_Gen_Default_Upsert", "columns": [
            {"name": "id", "type": "integer", "primaryKey": true, "identity": "by default"},
            {"name": "name", "type": "text"},
            {"name": "extra", "type": "text"}]},
          {"name": "UnitTest", "columns": [
            {"name": "idUnitTest", "type": "integer", "primaryKey": true},
            {"name": "nameUnitTest", "type": "text"}]},
          {"name": "web_content", "columns": [
            {"name": "id", "type": "integer", "primaryKey": true},
            {"name": "name", "type": "text"},
            {"name": "p_web_id", "type": "integer"}],
           "foreignKeys": [{"columns": ["p_web_id"], "references": {"table": "web_content", "columns": ["id"]}}]},
          {"name": "artists", "columns": [
            {"name": "id", "type": "integer", "primaryKey": true},
            {"name": "name", "type": "text"}]},
          {"name": "albums", "columns": [
            {"name": "id", "type": "integer", "primaryKey": true},
            {"name": "title", "type": "text"},
            {"name": "artist_id", "type": "integer"}],
           "foreignKeys": [{"name": "fk_artist", "columns": ["artist_id"], "references": {"table": "artists", "columns": ["id"]}, "onDelete": "cascade"}]},
          {"name": "students", "columns": [
            {"name": "id", "type": "integer", "primaryKey": true},
            {"name": "code", "type": "text", "primaryKey": true},
            {"name": "name", "type": "text"}]},
          {"name": "students_info", "columns": [
            {"name": "id", "type": "integer", "primaryKey": true},
            {"name": "code", "type": "text", "primaryKey": true},
            {"name": "address", "type": "text"}],
           "foreignKeys": [{"columns": ["code", "id"], "references": {"table": "students", "columns": ["code", "id"]}, "onDelete": "cascade"}]},
          {"name": "organizations", "columns": [
            {"name": "id", "type": "integer", "primaryKey": true},
            {"name": "name", "type": "text"},
            {"name": "referee", "type": "integer"},
            {"name": "auditor", "type": "integer"},
            {"name": "manager_id", "type": "integer"}],
           "foreignKeys": [
            {"columns": ["referee"], "references": {"table": "organizations", "columns": ["id"]}},
            {"columns": ["auditor"], "references": {"table": "organizations", "columns": ["id"]}}]},
          {"name": "menagerie", "columns": [
            {"name": "integer", "type": "integer", "nullable": false},
            {"name": "double", "type": "double precision", "nullable": false},
            {"name": "varchar", "type": "character varying", "nullable": false},
            {"name": "boolean", "type": "boolean", "nullable": false},
            {"name": "date", "type": "date", "nullable": false},
            {"name": "money", "type": "money", "nullable": false},
            {"name": "enum", "type": "enum_menagerie_type", "nullable": false}]},
          {"name": "compound_pk", "columns": [
            {"name": "k1", "type": "integer", "primaryKey": true},
            {"name": "k2", "type": "text", "primaryKey": true},
            {"name": "extra", "type": "integer"}]},
          {"name": "tbl_w_json", "columns": [
            {"name": "id", "type": "integer"},
            {"name": "data", "type": "json"}]},
          {"name": "addresses", "columns": [
            {"name": "id", "type": "integer", "nullable": false},
            {"name": "address", "type": "text", "nullable": false}], "unique": [["id"]]},
          {"name": "projects_view", "view": {"from": "projects"}, "columns": [
            {"name": "id", "type": "integer"},
            {"name": "name", "type": "text"},
            {"name": "client_id", "type": "integer"}]},
          {"name": "project_invoices", "columns": [
            {"name": "id", "type": "integer", "primaryKey": true},
            {"name": "invoice_total", "type": "numeric"},
            {"name": "project_id", "type": "integer"}],
           "foreignKeys": [{"columns": ["project_id"], "references": {"table": "projects", "columns": ["id"]}}]},
          {"name": "timestamps", "columns": [{"name": "t", "type": "timestamptz"}]},
          {"name": "unsafe_update_items", "columns": [
            {"name": "id", "type": "integer", "primaryKey": true},
            {"name": "name", "type": "text"},
            {"name": "observation", "type": "text"}]}
        ]}
        """#

    let backend: MockSupabase

    init() throws {
        let schema = try DatabaseSchema.decode(SpecNode(value: try JSONValue.parse(Self.schemaJSON), file: "inline"))
        let spec = AppSpec(
            app: "spectables", folder: URL(fileURLWithPath: "/nonexistent"), schema: schema,
            policies: PolicySet(definitions: [:], definitionDocs: [:], tables: []), fixtures: .empty)
        backend = try MockSupabase(configuration: MockConfiguration(spec: spec, clock: ManualClock(), ids: SeededIDGenerator(seed: 7)))
        let db = backend.database
        try db.seed("items", rows: (1...15).map { JSONValue.object(["id": .int(Int64($0))]) })
        try db.seed("simple_pk", rows: [["k": "xyyx", "extra": "u"], ["k": "xYYx", "extra": "v"]])
        try db.seed("no_pk", rows: [["a": nil, "b": nil], ["a": "1", "b": "0"], ["a": "2", "b": "0"]])
        try db.seed("nullable_integer", rows: [["a": nil]])
        try db.seed(
            "chores",
            rows: [
                ["id": 1, "name": "take out the garbage", "done": true], ["id": 2, "name": "do the laundry", "done": false],
                ["id": 3, "name": "wash the dishes", "done": nil]
            ])
        try db.seed("clients", rows: [["id": 1, "name": "Microsoft"], ["id": 2, "name": "Apple"]])
        try db.seed(
            "projects",
            rows: [
                ["id": 1, "name": "Windows 7", "client_id": 1], ["id": 2, "name": "Windows 10", "client_id": 1],
                ["id": 3, "name": "IOS", "client_id": 2], ["id": 4, "name": "OSX", "client_id": 2], ["id": 5, "name": "Orphan", "client_id": nil]
            ])
        try db.seed(
            "tasks",
            rows: [
                ["id": 1, "name": "Design w7", "project_id": 1], ["id": 2, "name": "Code w7", "project_id": 1],
                ["id": 3, "name": "Design w10", "project_id": 2], ["id": 4, "name": "Code w10", "project_id": 2],
                ["id": 5, "name": "Design IOS", "project_id": 3], ["id": 6, "name": "Code IOS", "project_id": 3],
                ["id": 7, "name": "Design OSX", "project_id": 4], ["id": 8, "name": "Code OSX", "project_id": 4]
            ])
        try db.seed("users", rows: [["id": 1, "name": "Angela Martin"], ["id": 2, "name": "Michael Scott"], ["id": 3, "name": "Dwight Schrute"]])
        try db.seed(
            "users_tasks",
            rows: [[1, 1], [1, 2], [1, 3], [1, 4], [2, 5], [2, 6], [2, 7], [3, 1], [3, 5]].map { (p: [Int64]) in
                JSONValue.object(["user_id": .int(p[0]), "task_id": .int(p[1])])
            })
        try db.seed(
            "users_projects",
            rows: [[1, 1], [1, 2], [2, 3], [2, 4], [3, 1], [3, 3]].map { (p: [Int64]) in
                JSONValue.object(["user_id": .int(p[0]), "project_id": .int(p[1])])
            })
        try db.seed("comments", rows: [["id": 1, "commenter_id": 1, "user_id": 2, "task_id": 6, "content": "Needs to be delivered ASAP"]])
        try db.seed(
            "files",
            rows: [
                (1, "command.com", "#include <unix.h>"), (1, "autoexec.bat", "@ECHO OFF"), (1, "io.sys", "TODO"), (2, "README.md", "# make $$$!"),
                (2, "marketing.key", "$-$")
            ].map { (p: (Int64, String, String)) in JSONValue.object(["project_id": .int(p.0), "filename": .string(p.1), "content": .string(p.2)]) })
        try db.seed(
            "touched_files",
            rows: [(1, 1, 1, "command.com"), (1, 1, 1, "autoexec.bat"), (1, 1, 2, "README.md"), (3, 1, 1, "autoexec.bat")].map {
                (p: (Int64, Int64, Int64, String)) in
                JSONValue.object(["user_id": .int(p.0), "task_id": .int(p.1), "project_id": .int(p.2), "filename": .string(p.3)])
            })
        try db.seed(
            "complex_items",
            rows: [
                ["id": 1, "name": "One", "settings": ["foo": ["int": 1, "bar": "baz"]], "arr_data": [1], "field-with_sep": 1],
                ["id": 2, "name": "Two", "settings": ["foo": ["int": 1, "bar": "baz"]], "arr_data": [1, 2], "field-with_sep": 1],
                ["id": 3, "name": "Three", "settings": ["foo": ["int": 1, "bar": "baz"]], "arr_data": [1, 2, 3], "field-with_sep": 3]
            ])
        try db.seed(
            "w_or_wo_comma_names",
            rows: [
                "Hebdon, John", "Williams, Mary", "Smith, Joseph", "David White", "Larry Thompson", "Double O Seven(007)",
                "\"", "Double\"Quote\"McGraw\"", "\\", "/\\Slash/\\Beast/\\"
            ].map { JSONValue.object(["name": .string($0)]) })
        try db.seed(
            "articles",
            rows: [
                ["id": 1, "body": "No… It's a thing; it's like a plan, but with more greatness.", "owner": "diogo"],
                ["id": 2, "body": "Stop talking, brain thinking. Hush.", "owner": "diogo"],
                ["id": 3, "body": "It's a fez. I wear a fez now. Fezes are cool.", "owner": "diogo"]
            ])
        try db.seed(
            "entities",
            rows: [
                ["id": 1, "name": "entity 1", "arr": [1], "text_search_vector": "'bar':2 'foo':1"],
                ["id": 2, "name": "entity 2", "arr": [1, 2], "text_search_vector": "'baz':1 'qux':2"],
                ["id": 3, "name": "entity 3", "arr": [1, 2, 3], "text_search_vector": nil],
                ["id": 4, "name": nil, "arr": nil, "text_search_vector": nil]
            ])
        try db.seed(
            "child_entities",
            rows: [(1, 1), (2, 1), (3, 2), (4, 1), (5, 1), (6, 2)].map { (p: (Int64, Int64)) in
                JSONValue.object(["id": .int(p.0), "name": .string("child entity \(p.0)"), "parent_id": .int(p.1)])
            })
        try db.seed(
            "grandchild_entities",
            rows: [
                ["id": 1, "name": "grandchild entity 1", "parent_id": 1, "jsonb_col": nil],
                ["id": 2, "name": "grandchild entity 2", "parent_id": 1, "jsonb_col": nil],
                ["id": 3, "name": "grandchild entity 3", "parent_id": 2, "jsonb_col": nil],
                ["id": 4, "name": "(grandchild,entity,4)", "parent_id": 2, "jsonb_col": ["a": ["b": "foo"]]],
                ["id": 5, "name": "(grandchild,entity,5)", "parent_id": 2, "jsonb_col": ["b": "bar"]]
            ])
        func parsed(_ text: String) throws -> JSONValue { try JSONValue.parse(text) }
        try db.seed(
            "json_arr",
            rows: try [
                (1, "[1, 2, 3]"), (2, "[4, 5, 6]"), (3, "[[9, 8, 7], [11, 12, 13]]"), (4, "[[[5, 6], 7, 8]]"),
                (5, #"[{"a": "A"}, {"b": "B"}]"#), (6, #"[{"a": [1,2,3]}, {"b": [4,5]}]"#), (7, #"{"c": [1,2,3], "d": [4,5]}"#),
                (8, #"{"c": [{"d": [4,5,6,7,8]}]}"#), (9, #"[{"0xy1": [1,{"23-xy-45": [2, {"xy-6": [3]}]}]}]"#),
                (10, #"{"!@#$%^&*_a": [{"!@#$%^&*_b": 1}, {"!@#$%^&*_c": [2]}], "!@#$%^&*_d": {"!@#$%^&*_e": 3}}"#)
            ]
            .map { (p: (Int64, String)) in JSONValue.object(["id": .int(p.0), "data": try parsed(p.1)]) })
        try db.seed(
            "jsonb_test",
            rows: try [(1, #"{ "a": {"b": 2} }"#), (2, #"{ "c": [1,2,3] }"#), (3, #"[{ "d": "test" }]"#), (4, #"{ "e": 1 }"#)]
                .map { (p: (Int64, String)) in JSONValue.object(["id": .int(p.0), "data": try parsed(p.1)]) })
        try db.seed(
            "json_table", rows: try [#"{"id": 1, "foo": {"bar": "baz"}}"#, #"{"id": 3}"#, #"{"id": 0}"#].map { JSONValue.object(["data": try parsed($0)]) })
        try db.seed(
            "arrays",
            rows: [
                ["id": 0, "numbers": [1, 2, 3], "numbers_mult": [[1, 2, 3], [4, 5, 6], [7, 8, 9]]],
                ["id": 1, "numbers": [11, 12, 13], "numbers_mult": [[11, 12, 13], [14, 15, 16], [17, 18, 19]]]
            ])
        try db.seed("empty_string", rows: [["id": 1, "string": ""], ["id": 2, "string": "X"]])
        try db.seed("tiobe_pls", rows: [["name": "Java", "rank": 1], ["name": "C", "rank": 2], ["name": "Python", "rank": 4]])
        try db.seed(
            "employees",
            rows: [
                ("Frances M.", "Roe", "24000", "One-Up Realty", "Author"), ("Daniel B.", "Lyon", "36000", "Dubrow's Cafeteria", "Packer"),
                ("Edwin S.", "Smith", "48000", "Pro Garden Management", "Marine biologist")
            ].map { (p: (String, String, String, String, String)) in
                JSONValue.object(
                    ["first_name": .string(p.0), "last_name": .string(p.1), "salary": .string(p.2), "company": .string(p.3), "occupation": .string(p.4)])
            })
        try db.seed("single_unique", rows: [["unique_key": 1, "value": "A"]])
        try db.seed("compound_unique", rows: [["key1": 1, "key2": 1, "value": "A"]])
        try db.seed("only_pk", rows: [["id": 1], ["id": 2]])
        try db.seed("surr_serial_upsert", rows: [["id": 1, "name": "value", "extra": "existing value"]])
        try db.seed("surr_gen_default_upsert", rows: [["id": 1, "name": "value", "extra": "existing value"]])
        try db.seed("Surr_Gen_Default_Upsert", rows: [["id": 1, "name": "value", "extra": "existing value cs"]])
        try db.seed("UnitTest", rows: [["idUnitTest": 1, "nameUnitTest": "name of unittest 1"]])
        try db.seed(
            "web_content",
            rows: [
                ["id": 5, "name": "wat", "p_web_id": nil], ["id": 0, "name": "tardis", "p_web_id": 5], ["id": 1, "name": "fezz", "p_web_id": 0],
                ["id": 2, "name": "foo", "p_web_id": 0], ["id": 3, "name": "bar", "p_web_id": 0], ["id": 4, "name": "wut", "p_web_id": 1]
            ])
        try db.seed("artists", rows: [["id": 1, "name": "duster"], ["id": 2, "name": "black country, new road"], ["id": 3, "name": "bjork"]])
        try db.seed(
            "albums",
            rows: [
                ["id": 1, "title": "stratosphere", "artist_id": 1], ["id": 2, "title": "ants from up above", "artist_id": 2],
                ["id": 3, "title": "vespertine", "artist_id": 3], ["id": 4, "title": "contemporary movement", "artist_id": 1]
            ])
        try db.seed("students", rows: [["id": 1, "code": "0001", "name": "John Doe"], ["id": 2, "code": "0002", "name": "Jane Doe"]])
        try db.seed("students_info", rows: [["id": 1, "code": "0001", "address": "Street 1"], ["id": 2, "code": "0002", "address": "Street 2"]])
        try db.seed(
            "organizations",
            rows: [
                (1, "Referee Org", nil, nil, 1), (2, "Auditor Org", nil, nil, 2), (3, "Acme", 1, 2, 3), (4, "Umbrella", 1, 2, 4), (5, "Cyberdyne", 3, 4, 5),
                (6, "Oscorp", 3, 4, 6)
            ].map { (p: (Int64, String, Int64?, Int64?, Int64)) in
                JSONValue.object([
                    "id": .int(p.0), "name": .string(p.1), "referee": p.2.map { .int($0) } ?? .null, "auditor": p.3.map { .int($0) } ?? .null,
                    "manager_id": .int(p.4)
                ])
            })
        try db.seed(
            "project_invoices",
            rows: [(1, 100, 1), (2, 200, 1), (3, 500, 2), (4, 700, 2)].map { (p: (Int64, Int64, Int64)) in
                JSONValue.object(["id": .int(p.0), "invoice_total": .int(p.1), "project_id": .int(p.2)])
            })
        try db.seed("addresses", rows: (1...4).map { JSONValue.object(["id": .int(Int64($0)), "address": .string("address \($0)")]) })
        try db.seed(
            "timestamps",
            rows: ["2023-10-18 12:37:59.611000+0000", "2023-10-18 14:37:59.611000+0000", "2023-10-18 16:37:59.611000+0000"].map {
                JSONValue.object(["t": .string($0)])
            })
        try db.seed(
            "unsafe_update_items",
            rows: (1...3).map { JSONValue.object(["id": .int(Int64($0)), "name": .string("item-\($0)"), "observation": .null]) })
    }

    /// Sends `method path?query` as the service role, as `RestSpecFixture.send` does.
    @discardableResult
    func send(_ method: String, _ pathAndQuery: String, headers: HTTPHeaders = [:], body: String? = nil) throws -> HTTPResponse {
        var h = headers
        h["apikey"] = backend.serviceRoleKey
        h["Authorization"] = "Bearer \(backend.serviceRoleKey)"
        if body != nil && h["Content-Type"] == nil { h["Content-Type"] = "application/json" }
        return try backend.handle(HTTPRequest(method: method, target: "/rest/v1/" + pathAndQuery, headers: h, body: Data((body ?? "").utf8)))
    }
}
