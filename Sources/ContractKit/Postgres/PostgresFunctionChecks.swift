import Foundation

/// One behaviour check of an app's SQL functions and triggers (`Contracts/<app>/sql/checks.json`):
/// setup as the superuser, steps and a query as an actor, the query's rows compared with the
/// document's expectation; all in one rolled-back transaction. An `rpc` check calls a database
/// function on PostgreSQL (`select * from f(arg => …)`) and through the mock's PostgREST
/// (`POST /rest/v1/rpc/f`) as the same actor, and the two answers must be equal row for row
/// (and equal `expect` when given).
package struct SQLBehaviourCheck: Sendable {
    /// What is checked.
    package var name: String
    /// Where the document says so.
    package var source: String
    /// SQL run first as the superuser (what GoTrue or an admin does).
    package var setup: [String]
    /// Who runs the steps and the query; nil is the superuser.
    package var actor: RLSActor?
    /// SQL run as the actor before the query.
    package var steps: [String]
    /// The query whose rows are compared (nil for an `rpc` check).
    package var query: String?
    /// A database function and its arguments, called on both backends.
    package var rpc: (name: String, arguments: [String: JSONValue])?
    /// The expected rows, in order (optional for an `rpc` check).
    package var expect: [JSONValue]?
    /// Rows inserted (as the service role, triggers on) before the check, on PostgreSQL and in
    /// the mock alike, so a function meets data large enough to reach its documented limits
    /// (`"rows": [{"table": "cities", "rows": [{…}, …]}]`; every row needs an `id`). PostgreSQL
    /// rolls them back; the mock's are deleted again after the check.
    package var rows: [(table: String, rows: [JSONValue])] = []

    /// Decodes `checks.json`, resolving `{{persona.NAME.id}}` / `{{persona.NAME.email}}`.
    package static func load(_ node: SpecNode, fixtures: Fixtures) throws -> [SQLBehaviourCheck] {
        func resolve(_ s: String, _ at: SpecNode) throws -> String {
            var out = s
            while let open = out.range(of: "{{persona."), let close = out.range(of: "}}", range: open.upperBound..<out.endIndex) {
                let ref = out[open.upperBound..<close.lowerBound].split(separator: ".")
                guard ref.count == 2, let p = fixtures.persona(String(ref[0])) else {
                    throw at.fail("unknown template {{persona.\(ref.joined(separator: "."))}}")
                }
                let v: String
                switch ref[1] {
                case "id": v = p.id
                case "email": v = p.email
                default: throw at.fail("unknown persona field '\(ref[1])' (id, email)")
                }
                out.replaceSubrange(open.lowerBound..<close.upperBound, with: v)
            }
            return out
        }
        return try node.object { o in
            _ = o.optional("app")
            _ = o.optional("source")
            _ = o.optional("decisions")
            return try o.required("checks").array().map { c in
                try c.object { co in
                    var actor: RLSActor?
                    if let a = co.optional("as") {
                        if case .object = a.value {
                            actor = try a.object { ao in
                                let id = try ao.required("id").string()
                                let email = try ao.optional("email")?.string()
                                return RLSActor.user(id: id, email: email)
                            }
                        } else {
                            let n = try a.string()
                            switch n {
                            case "anon": actor = .anon
                            case "service_role": actor = .serviceRole
                            default:
                                guard let p = fixtures.persona(n) else {
                                    throw a.fail("unknown persona '\(n)' (a persona of fixtures.json, anon, service_role, or {\"id\", \"email\"})")
                                }
                                actor = .persona(p)
                            }
                        }
                    }
                    _ = co.optional("decision")
                    var rpc: (String, [String: JSONValue])?
                    if let r = co.optional("rpc") {
                        var args: [String: JSONValue] = [:]
                        for (k, v) in try co.optional("args")?.map() ?? [] { args[k] = v.value }
                        rpc = (try r.string(), args)
                    }
                    if rpc == nil && co.optional("query") == nil { throw co.this.fail("a check needs 'query' or 'rpc'") }
                    if rpc == nil && co.optional("expect") == nil { throw co.this.fail("a 'query' check needs 'expect'") }
                    let rows: [(table: String, rows: [JSONValue])] = try (co.optional("rows")?.array() ?? []).map { r in
                        try r.object { ro in
                            let list = try ro.required("rows").array()
                            for row in list where row.value["id"] == nil { throw row.fail("a row needs an 'id' (the mock's copy is deleted by it)") }
                            return (try ro.required("table").string(), list.map(\.value))
                        }
                    }
                    var check = SQLBehaviourCheck(
                        name: try co.required("name").string(),
                        source: try co.optional("source")?.string() ?? "",
                        setup: try (co.optional("setup")?.array() ?? []).map { try resolve(try $0.string(), $0) },
                        actor: actor,
                        steps: try (co.optional("steps")?.array() ?? []).map { try resolve(try $0.string(), $0) },
                        query: try co.optional("query").map { try resolve(try $0.string(), $0) },
                        rpc: rpc,
                        expect: try co.optional("expect")?.array().map(\.value))
                    check.rows = rows
                    return check
                }
            }
        }
    }

    /// Loads `Contracts/<app>/sql/checks.json`; an app without one has no checks.
    package static func load(app spec: AppSpec) throws -> [SQLBehaviourCheck] {
        let url = spec.folder.appendingPathComponent("sql/checks.json")
        guard FileManager.default.fileExists(atPath: url.path) else { return [] }
        return try load(SpecNode.load(url, displayName: "Contracts/\(spec.app)/sql/checks.json"), fixtures: spec.fixtures)
    }

    /// Runs the check; `prelude` (superuser SQL in the same transaction) lets a test break the
    /// implementation first; `mock` answers `rpc` checks. Returns nil when it passes, else what
    /// went wrong.
    /// The SQL inserting `rows` (columns named by the rows' keys, values read from JSON).
    var rowsSQL: [String] {
        rows.map { t in
            let columns = Array(Set(t.rows.flatMap { $0.objectValue?.keys.map { $0 } ?? [] })).sorted()
            let list = columns.map(\.sqlIdentifier).joined(separator: ", ")
            let table = t.table.contains(".") ? t.table : "public.\(t.table)"
            return
                "insert into \(table) (\(list)) select \(list) from jsonb_populate_recordset(null::\(table), \(JSONValue.array(t.rows).serialized(.compact).sqlLiteral)::jsonb)"
        }
    }

    package func failure(on target: PostgresTarget, mock: (any BackendUnderTest)? = nil, prelude: [String] = []) throws -> String? {
        let setup = rowsSQL + self.setup
        if let rpc {
            let args = rpc.arguments.sorted { $0.key < $1.key }.map { "\($0.key.sqlIdentifier) => \(PostgresTarget.literal($0.value))" }.joined(separator: ", ")
            let sql = "select * from public.\(rpc.name.sqlIdentifier)(\(args))"
            let pg: [JSONValue]
            switch try target.query(sql, as: actor?.auth, prelude: prelude + setup, steps: steps) {
            case .failure(let e): return "PostgreSQL: error \(e.code): \(e.message)"
            case .success(let rows): pg = rows
            }
            if let expect, pg.map(DifferentialOutcome.normalizeValue) != expect.map(DifferentialOutcome.normalizeValue) {
                return "PostgreSQL: expected \(JSONValue.array(expect).serialized(.compact)), got \(JSONValue.array(pg).serialized(.compact))"
            }
            guard let mock else { return nil }
            let wire = WireClient(mock)
            for t in rows {
                let r = try wire.send(method: "POST", path: "/rest/v1/\(t.table)", json: .array(t.rows), as: "service_role")
                if r.status != 201 {
                    return "mock: inserting the check's \(t.table) rows answered \(r.status) \(String(decoding: r.body, as: UTF8.self).prefix(300))"
                }
            }
            defer {
                for t in rows {
                    let ids = t.rows.compactMap { $0["id"].map { $0.stringValue ?? $0.serialized() } }.joined(separator: ",")
                    _ = try? wire.send(method: "DELETE", path: "/rest/v1/\(t.table)", query: "id=in.(\(ids))", as: "service_role")
                }
            }
            let r = try wire.send(method: "POST", path: "/rest/v1/rpc/\(rpc.name)", json: .object(rpc.arguments), as: actor?.name ?? "service_role")
            guard r.status == 200, case .array(let rows) = try JSONValue.parse(r.body) else {
                return "mock: HTTP \(r.status) \(String(decoding: r.body, as: UTF8.self).prefix(300))"
            }
            let a = rows.map(DifferentialOutcome.normalizeValue), b = pg.map(DifferentialOutcome.normalizeValue)
            if a == b { return nil }
            func ids(_ xs: [JSONValue]) -> String { xs.map { $0["id"]?.plainText ?? $0.serialized(.compact) }.joined(separator: ",") }
            return "mock and PostgreSQL differ: mock [\(ids(rows))], PostgreSQL [\(ids(pg))]"
        }
        guard let query, let expect else { return "check has no query" }
        let r = try target.query(query, as: actor?.auth, prelude: prelude + setup, steps: steps)
        switch r {
        case .failure(let e): return "error \(e.code): \(e.message)"
        case .success(let rows):
            let got = rows.map(DifferentialOutcome.normalizeValue), want = expect.map(DifferentialOutcome.normalizeValue)
            if got == want { return nil }
            return "expected \(JSONValue.array(expect).serialized(.compact)), got \(JSONValue.array(rows).serialized(.compact))"
        }
    }
}
