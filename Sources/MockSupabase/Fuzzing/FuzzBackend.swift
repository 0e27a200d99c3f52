import Foundation

/// The small backend the query, JSON-body and JWT fuzz targets send requests to: two related
/// tables holding a few rows of every column type (so filters, casts and embeds run on real
/// values), a `sink` table whose CHECK can never hold (so a write decodes and coerces the whole
/// body, then is refused and nothing accumulates), and an RPC that takes typed arguments and
/// returns rows. Built once per fuzzing process; no request the targets send changes its state.
package enum FuzzBackend {
    /// The JWT secret of the fuzzing backend (seed tokens in Tests/Fuzz/jwt-corpus are signed with it).
    package static let jwtSecret = "fuzz-secret-with-at-least-32-characters-long"

    /// The fixed "now" of the fuzzing backend and of the JWT checks: 2026-01-01T00:00:00Z.
    package static let now = Date(timeIntervalSince1970: 1_767_225_600)

    static let schemaJSON = #"""
        {"enums": {"ride_status": ["open", "pending", "confirmed", "completed"]},
         "tables": [
          {"name": "owners", "columns": [
            {"name": "id", "type": "uuid", "primaryKey": true},
            {"name": "name", "type": "text"},
            {"name": "score", "type": "numeric"},
            {"name": "born", "type": "date"}]},
          {"name": "rides", "columns": [
            {"name": "id", "type": "uuid", "primaryKey": true, "default": {"fn": "gen_random_uuid()"}},
            {"name": "owner_id", "type": "uuid"},
            {"name": "status", "type": "ride_status", "nullable": false, "default": {"value": "open"}},
            {"name": "date", "type": "date", "nullable": false},
            {"name": "time", "type": "time"},
            {"name": "seats", "type": "integer", "default": {"value": 1}},
            {"name": "big", "type": "bigint"},
            {"name": "ratio", "type": "double"},
            {"name": "paid", "type": "boolean"},
            {"name": "tags", "type": "text[]"},
            {"name": "meta", "type": "jsonb"},
            {"name": "note", "type": "text"},
            {"name": "at", "type": "timestamptz"}],
           "foreignKeys": [{"columns": ["owner_id"], "references": {"table": "owners", "columns": ["id"]}, "onDelete": "set null"}]},
          {"name": "sink", "columns": [
            {"name": "id", "type": "uuid", "primaryKey": true, "default": {"fn": "gen_random_uuid()"}},
            {"name": "owner_id", "type": "uuid"},
            {"name": "status", "type": "ride_status"},
            {"name": "n", "type": "integer"},
            {"name": "s", "type": "smallint"},
            {"name": "big", "type": "bigint"},
            {"name": "r", "type": "real"},
            {"name": "d", "type": "double"},
            {"name": "num", "type": "numeric"},
            {"name": "b", "type": "boolean"},
            {"name": "t", "type": "text"},
            {"name": "day", "type": "date"},
            {"name": "clock", "type": "time"},
            {"name": "at", "type": "timestamptz"},
            {"name": "local", "type": "timestamp"},
            {"name": "tags", "type": "text[]"},
            {"name": "nums", "type": "integer[]"},
            {"name": "doc", "type": "jsonb"},
            {"name": "raw", "type": "json"}],
           "checks": [{"name": "sink_never", "expr": {"isNull": {"column": "id"}}}],
           "foreignKeys": [{"columns": ["owner_id"], "references": {"table": "owners", "columns": ["id"]}}]}
         ]}
        """#

    static let ownerA = "0000000a-0000-4000-8000-000000000001"
    static let ownerB = "0000000a-0000-4000-8000-000000000002"

    /// A fresh fuzzing backend.
    package static func make() throws -> MockSupabase {
        let schema = try DatabaseSchema.decode(SpecNode(value: try JSONValue.parse(schemaJSON), file: "fuzz-schema"))
        let owners: [JSONValue] = [
            ["id": .string(ownerA), "name": "Ada \"the\" first, ünïcode", "score": 12.5, "born": "1990-02-28"],
            ["id": .string(ownerB), "name": nil, "score": -3, "born": nil]
        ]
        let rides: [JSONValue] = [
            [
                "id": "0000000b-0000-4000-8000-000000000001", "owner_id": .string(ownerA), "status": "open", "date": "2026-01-01",
                "time": "07:05", "seats": 3, "big": 9_007_199_254_740_993, "ratio": 0.1, "paid": true, "tags": ["a", "b c", "ü"],
                "meta": ["k": [1, 2.5, nil], "s": "x"], "note": "hello, world", "at": "2026-01-01T10:30:00.123+05:30"
            ],
            [
                "id": "0000000b-0000-4000-8000-000000000002", "owner_id": .string(ownerB), "status": "confirmed", "date": "2025-12-31",
                "time": nil, "seats": 8, "big": -1, "ratio": 1e300, "paid": false, "tags": [], "meta": [], "note": "%_\\*", "at": nil
            ],
            [
                "id": "0000000b-0000-4000-8000-000000000003", "owner_id": nil, "status": "pending", "date": "2024-02-29",
                "time": "23:59:59.999999", "seats": 1, "big": nil, "ratio": nil, "paid": nil, "tags": nil, "meta": nil, "note": nil,
                "at": "1970-01-01T00:00:00Z"
            ]
        ]
        let spec = AppSpec(
            app: "fuzz", folder: URL(fileURLWithPath: "/"), schema: schema, policies: .empty,
            fixtures: Fixtures(personas: [], tables: [("owners", owners), ("rides", rides)]))
        let backend = try MockSupabase(configuration: MockConfiguration(spec: spec, jwtSecret: jwtSecret, clock: FuzzClock(), ids: SeededIDGenerator(seed: 11)))
        let params = [
            RPCParameter("n", .integer, hasDefault: true), RPCParameter("t", .text, hasDefault: true),
            RPCParameter("day", .date, hasDefault: true), RPCParameter("doc", .jsonb, hasDefault: true),
            RPCParameter("tags", .array(.text), hasDefault: true)
        ]
        let columns = [
            ColumnSchema(name: "n", type: .integer, nullable: true, defaultValue: nil, check: nil, checkSQL: nil, note: nil),
            ColumnSchema(name: "t", type: .text, nullable: true, defaultValue: nil, check: nil, checkSQL: nil, note: nil)
        ]
        backend.registerRPC(
            RPCFunction(name: "fuzz_rows", parameters: params, returns: .rows(columns)) { call in
                let n = call.arguments["n"] ?? .null, t = call.arguments["t"] ?? .null
                return .array([["n": n, "t": t], ["n": 1, "t": "one"], ["n": nil, "t": nil]])
            })
        return backend
    }

    /// The service-role key of `backend`, as `apikey` and bearer token.
    static func serviceHeaders(_ backend: MockSupabase) -> HTTPHeaders {
        ["apikey": backend.serviceRoleKey, "Authorization": "Bearer \(backend.serviceRoleKey)"]
    }

    /// Problems with a response every request must avoid: a 5xx answer, a JSON body that does
    /// not parse, or an error body not in PostgREST's `{code, message, details, hint}` shape.
    static func responseProblems(_ r: HTTPResponse, label: String) -> [String] {
        var problems: [String] = []
        if r.status >= 500 { problems.append("\(label): status \(r.status): \(String(decoding: r.body.prefix(300), as: UTF8.self))") }
        let type = r.headers["Content-Type"] ?? ""
        if type.contains("json"), !r.body.isEmpty {
            guard let body = try? JSONValue.parse(r.body) else {
                problems.append("\(label): the \(type) body is not JSON: \(String(decoding: r.body.prefix(300), as: UTF8.self))")
                return problems
            }
            if r.status >= 400 {
                let keys = Set(body.objectValue?.keys.map { $0 } ?? [])
                if keys != ["code", "message", "details", "hint"] {
                    problems.append("\(label): error body \(body.serialized().prefix(300)) is not {code, message, details, hint}")
                }
            }
        }
        return problems
    }
}

/// The fuzzing backend's clock: always `FuzzBackend.now`, so every input replays identically.
struct FuzzClock: WallClock {
    func now() -> Date { FuzzBackend.now }
}
