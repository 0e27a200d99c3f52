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
        try node.decode(ChecksFile.self, values: [ChecksFile.fixtures: fixtures]).checks
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

/// `sql/checks.json`: `checks`, plus the file's `app`, `source` and `decisions` notes.
private struct ChecksFile: Decodable {
    /// Where the decoder's values hold the app's `Fixtures` (persona templates and names).
    static let fixtures = "sql-checks.fixtures"
    var checks: [SQLBehaviourCheck]
    enum CodingKeys: String, CodingKey, CaseIterable { case app, source, decisions, checks }
    init(from decoder: Decoder) throws {
        checks = try decoder.container(keyedBy: CodingKeys.self).decode([SQLBehaviourCheck].self, forKey: .checks)
    }
}

extension SQLBehaviourCheck: Decodable {
    enum CodingKeys: String, CodingKey, CaseIterable { case name, source, decision, setup, `as`, steps, query, rpc, args, expect, rows }

    /// One check; persona templates in `setup`, `steps` and `query` resolved, `as` named.
    package init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let fixtures = decoder.contractState?.values[ChecksFile.fixtures] as? Fixtures ?? .empty
        actor = try c.decodeIfPresent(ActorSpelling.self, forKey: .as)?.actor
        if let name = try c.decodeIfPresent(String.self, forKey: .rpc) {
            rpc = (name, try c.decodeIfPresent([String: JSONValue].self, forKey: .args) ?? [:])
        } else if c.contains(.args) {
            throw c.fail(.args, "'args' goes with 'rpc'")
        }
        let query = try c.decodeIfPresent(String.self, forKey: .query)
        expect = try c.decodeIfPresent([JSONValue].self, forKey: .expect)
        if rpc == nil && query == nil { throw c.fail("a check needs 'query' or 'rpc'") }
        if rpc == nil && expect == nil { throw c.fail("a 'query' check needs 'expect'") }
        rows = try (c.decodeIfPresent([SeedRows].self, forKey: .rows) ?? []).map { ($0.table, $0.rows) }
        name = try c.decode(String.self, forKey: .name)
        source = try c.decodeIfPresent(String.self, forKey: .source) ?? ""
        func resolved(_ key: CodingKeys) throws -> [String] {
            try (c.decodeIfPresent([String].self, forKey: key) ?? []).enumerated().map { i, s in
                try Self.resolve(s, fixtures) { c.fail([key, AnyKey(intValue: i)!], $0) }
            }
        }
        setup = try resolved(.setup)
        steps = try resolved(.steps)
        self.query = try query.map { try Self.resolve($0, fixtures) { c.fail(.query, $0) } }
    }

    /// `s` with every `{{persona.NAME.id}}` / `{{persona.NAME.email}}` replaced.
    static func resolve(_ s: String, _ fixtures: Fixtures, fail: (String) -> SpecError) throws -> String {
        var out = s
        while let open = out.range(of: "{{persona."), let close = out.range(of: "}}", range: open.upperBound..<out.endIndex) {
            let ref = out[open.upperBound..<close.lowerBound].split(separator: ".")
            guard ref.count == 2, let p = fixtures.persona(String(ref[0])) else {
                throw fail("unknown template {{persona.\(ref.joined(separator: "."))}}")
            }
            let v: String
            switch ref[1] {
            case "id": v = p.id
            case "email": v = p.email
            default: throw fail("unknown persona field '\(ref[1])' (id, email)")
            }
            out.replaceSubrange(open.lowerBound..<close.upperBound, with: v)
        }
        return out
    }

    /// `as`: a persona of fixtures.json, `anon`, `service_role`, or `{"id", "email"}`.
    private struct ActorSpelling: Decodable {
        var actor: RLSActor
        enum CodingKeys: String, CodingKey, CaseIterable { case id, email }
        init(from decoder: Decoder) throws {
            if case .object = try decoder.singleValueContainer().decode(JSONValue.self) {
                let c = try decoder.container(keyedBy: CodingKeys.self)
                actor = .user(id: try c.decode(String.self, forKey: .id), email: try c.decodeIfPresent(String.self, forKey: .email))
                return
            }
            let n = try decoder.singleValueContainer().decode(String.self)
            switch n {
            case "anon": actor = .anon
            case "service_role": actor = .serviceRole
            default:
                guard let p = (decoder.contractState?.values[ChecksFile.fixtures] as? Fixtures)?.persona(n) else {
                    throw decoder.fail("unknown persona '\(n)' (a persona of fixtures.json, anon, service_role, or {\"id\", \"email\"})")
                }
                actor = .persona(p)
            }
        }
    }

    /// `{"table", "rows"}`: rows inserted before the check; each needs an `id`.
    private struct SeedRows: Decodable, ContractChecked {
        var table: String
        var rows: [JSONValue]
        func validate(_ decoder: Decoder) throws {
            for (i, row) in rows.enumerated() where row["id"] == nil {
                throw decoder.fail([AnyKey("rows"), AnyKey(intValue: i)!], "a row needs an 'id' (the mock's copy is deleted by it)")
            }
        }
    }
}
