import Foundation
import MockBinding

/// A small app written for the RLS machinery's own tests: an approval flag read through a
/// definition, owner and sharing columns, a one-row-per-user table, a revoked grant, a table with
/// RLS off, and a child row whose foreign key restricts deletes.
enum RLSTestApp {
    static let amy = "a0000000-0000-4000-8000-000000000001" // approved
    static let bo = "b0000000-0000-4000-8000-000000000002" // approved
    static let cy = "c0000000-0000-4000-8000-000000000003" // pending
    static let amyNote = "10000000-0000-4000-8000-000000000001" // shared with bo, tagged (restricts delete)
    static let boNote = "10000000-0000-4000-8000-000000000002"

    static let schema = """
        { "tables": [
          { "name": "profiles", "columns": [
              { "name": "id", "type": "uuid", "primaryKey": true },
              { "name": "approved", "type": "boolean", "nullable": false, "default": { "value": false } },
              { "name": "bio", "type": "text" } ],
            "foreignKeys": [{ "columns": ["id"], "references": { "table": "auth.users", "columns": ["id"] }, "onDelete": "cascade" }] },
          { "name": "notes", "columns": [
              { "name": "id", "type": "uuid", "primaryKey": true, "default": { "fn": "gen_random_uuid()" } },
              { "name": "user_id", "type": "uuid", "nullable": false },
              { "name": "shared_with", "type": "uuid" },
              { "name": "body", "type": "text", "nullable": false },
              { "name": "created_at", "type": "timestamptz", "nullable": false, "default": { "fn": "now()" } } ],
            "foreignKeys": [
              { "columns": ["user_id"], "references": { "table": "profiles", "columns": ["id"] }, "onDelete": "cascade" },
              { "columns": ["shared_with"], "references": { "table": "profiles", "columns": ["id"] }, "onDelete": "set null" } ] },
          { "name": "prefs", "columns": [
              { "name": "id", "type": "uuid", "primaryKey": true, "default": { "fn": "gen_random_uuid()" } },
              { "name": "user_id", "type": "uuid", "nullable": false },
              { "name": "theme", "type": "text" } ],
            "unique": [["user_id"]],
            "foreignKeys": [{ "columns": ["user_id"], "references": { "table": "profiles", "columns": ["id"] }, "onDelete": "cascade" }] },
          { "name": "tags", "columns": [
              { "name": "id", "type": "text", "primaryKey": true },
              { "name": "note_id", "type": "uuid", "nullable": false } ],
            "foreignKeys": [{ "columns": ["note_id"], "references": { "table": "notes", "columns": ["id"] } }] }
        ] }
        """

    static let policies = """
        { "definitions": {
            "approved_user": { "doc": "approved caller", "expr": { "exists": { "table": "profiles", "where": { "all": [
              { "eq": [{ "column": "id" }, "auth.uid"] }, { "eq": [{ "column": "approved" }, true] } ] } } } } },
          "tables": [
            { "table": "profiles",
              "select": { "doc": "Own + approved users", "using": { "any": [{ "owner": "id" }, { "ref": "approved_user" }] } },
              "insert": { "doc": "Own only", "check": { "owner": "id" } },
              "update": { "doc": "Own only", "using": { "owner": "id" } },
              "delete": { "doc": "-", "using": "nobody" } },
            { "table": "notes",
              "select": { "doc": "Owner or shared", "using": { "any": [{ "owner": "user_id" }, { "owner": "shared_with" }] } },
              "insert": { "doc": "Approved users, own", "check": { "all": [{ "ref": "approved_user" }, { "owner": "user_id" }] } },
              "update": { "doc": "Owner or shared", "using": { "any": [{ "owner": "user_id" }, { "owner": "shared_with" }] } },
              "delete": { "doc": "Owner", "using": { "owner": "user_id" } },
              "revoke": { "anon": ["INSERT"] } },
            { "table": "prefs",
              "select": { "doc": "Own", "using": { "owner": "user_id" } },
              "insert": { "doc": "Own", "check": { "owner": "user_id" } },
              "update": { "doc": "Own", "using": { "owner": "user_id" } },
              "delete": { "doc": "Own", "using": { "owner": "user_id" } } },
            { "table": "tags", "rls": false,
              "select": { "doc": "Everyone", "using": "public" },
              "insert": { "doc": "Everyone", "check": "public" },
              "update": { "doc": "Everyone", "using": "public" },
              "delete": { "doc": "Everyone", "using": "public" } }
          ] }
        """

    static let fixtures = """
        { "personas": [
            { "name": "amy", "id": "\(amy)", "email": "amy@test.example", "password": "amy-password", "label": "approved" },
            { "name": "bo", "id": "\(bo)", "email": "bo@test.example", "password": "bo-password", "label": "approved" },
            { "name": "cy", "id": "\(cy)", "email": "cy@test.example", "password": "cy-password", "label": "pending" } ],
          "tables": [
            { "table": "profiles", "rows": [
              { "id": "\(amy)", "approved": true, "bio": "amy" }, { "id": "\(bo)", "approved": true, "bio": "bo" },
              { "id": "\(cy)", "approved": false, "bio": "cy" } ] },
            { "table": "notes", "rows": [
              { "id": "\(amyNote)", "user_id": "\(amy)", "shared_with": "\(bo)", "body": "amy's", "created_at": "2026-01-01T00:00:00+00:00" },
              { "id": "\(boNote)", "user_id": "\(bo)", "body": "bo's", "created_at": "2026-01-01T00:00:00+00:00" } ] },
            { "table": "prefs", "rows": [
              { "id": "20000000-0000-4000-8000-000000000001", "user_id": "\(amy)", "theme": "dark" } ] },
            { "table": "tags", "rows": [{ "id": "urgent", "note_id": "\(amyNote)" }] }
          ] }
        """

    /// Writes the contracts to a fresh temporary folder and loads them.
    static func spec() throws -> AppSpec {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rls-test-app-\(UUID().uuidString)/rlstest")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for (name, text) in [("schema.json", schema), ("policies.json", policies), ("fixtures.json", fixtures)] {
            try Data(text.utf8).write(to: folder.appendingPathComponent(name))
        }
        return try AppSpec.load(folder: folder)
    }

    /// A backend for the app at the suite's fixed time.
    static func backend() throws -> (MockSupabase, RLSExpansion) {
        let clock = ManualClock()
        let spec = try spec()
        let backend = try MockSupabase(configuration: MockConfiguration(spec: spec, clock: clock, ids: SeededIDGenerator(seed: 9)))
        return (backend, RLSExpansion(spec: spec, now: clock.now(), statuses: try ContractsLocator.postgrestStatuses()))
    }
}
