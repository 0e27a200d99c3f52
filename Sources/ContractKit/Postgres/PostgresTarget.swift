import Foundation

/// Runs cases against a real PostgreSQL with an app's SQL applied, through one long-lived psql
/// session: each case is a transaction that switches to the actor's role
/// (`set local role authenticated`), sets `request.jwt.claims` as PostgREST does, runs one
/// statement, reports its outcome and rolls back.
package final class PostgresTarget: RLSTarget {
    /// The psql session (connected as the superuser; cases switch role inside their transaction).
    package let session: PsqlSession
    /// The app's schema (for column types and names).
    package let schema: DatabaseSchema
    /// PostgREST's error statuses (`Contracts/shared/postgrest-errors.json`): how an error the
    /// database raises shows on the wire, the same table the RLS oracle judges with.
    package let statuses: PostgRESTStatusTable
    /// Superuser SQL run at the start of every case's transaction, before its setup and role
    /// switch (`--database`: the fixtures, loaded and rolled back with the case).
    package var casePrelude: [String] = []
    /// Cases run as savepoints of a transaction the caller opened (`begin` and, say, the fixtures
    /// loaded once), each rolled back to its savepoint, instead of as transactions of their own.
    package var casesAsSavepoints = false

    var caseBegin: String { casesAsSavepoints ? "savepoint supacontracts_case;\n" : "begin;\n" }
    var caseEnd: String { casesAsSavepoints ? "rollback to savepoint supacontracts_case;\n" : "rollback;\n" }

    /// A target over an open session.
    package init(session: PsqlSession, schema: DatabaseSchema, statuses: PostgRESTStatusTable) {
        self.session = session
        self.schema = schema
        self.statuses = statuses
    }

    /// Creates database `database` in the cluster, applies the shim and the app's migrations,
    /// then `extraSQL` (a mutant's change), loads the fixtures (unless `seed` is false) and
    /// connects. `statuses` nil: the package's `Contracts/shared/postgrest-errors.json`.
    package static func open(
        cluster: PostgresCluster, spec: AppSpec, database: String? = nil,
        extraSQL: [String] = [], seed: Bool = true, statuses: PostgRESTStatusTable? = nil
    ) throws -> PostgresTarget {
        let statuses = try statuses ?? ContractsLocator.postgrestStatuses()
        let db = database ?? spec.app
        let files = try PostgresCluster.migrationFiles(app: spec.app)
        try cluster.createDatabase(db, applying: files, extraSQL: extraSQL + (seed ? [PostgresFixtures.sql(spec.fixtures, schema: spec.schema)] : []))
        let session = try PsqlSession(installation: cluster.installation, host: cluster.host, database: db)
        return PostgresTarget(session: session, schema: spec.schema, statuses: statuses)
    }

    /// `"public"."cities"` for `cities`, `"auth"."users"` for `auth.users`.
    static func qualified(_ table: String) -> String {
        let parts = table.split(separator: ".", maxSplits: 1).map(String.init)
        return parts.count == 2 ? "\(parts[0].sqlIdentifier).\(parts[1].sqlIdentifier)" : "\"public\".\(table.sqlIdentifier)"
    }

    /// A JSON value as a SQL literal of unknown type (PostgreSQL coerces it to the column's type).
    static func literal(_ v: JSONValue) -> String {
        switch v {
        case .null: return "null"
        case .string(let s): return s.sqlLiteral
        case .array, .object: return v.serialized(.compact).sqlLiteral
        default: return v.serialized(.compact).sqlLiteral
        }
    }

    static func condition(_ key: [String: JSONValue], alias: String = "t") -> String {
        if key.isEmpty { return "" }
        return " where " + key.sorted { $0.key < $1.key }.map { "\(alias).\($0.key.sqlIdentifier) = \(literal($0.value))" }.joined(separator: " and ")
    }

    /// The role switch PostgREST performs for an actor, valid until the transaction ends.
    static func actAsStatements(_ auth: AuthContext) -> [String] {
        let claims = JSONValue.object(auth.claims.isEmpty ? ["role": .string(auth.role)] : auth.claims).serialized(.compact)
        return ["set local role \(auth.role.sqlIdentifier)", "set local request.jwt.claims to \(claims.sqlLiteral)"]
    }

    /// The role switch as script lines.
    static func actAs(_ auth: AuthContext) -> String {
        actAsStatements(auth).map { $0 + ";\n" }.joined()
    }

    /// How many cases go to the server at once, in one batch or down the session's pipeline
    /// (bounds the script held in memory).
    package static let pipelineChunk = 512

    /// Runs an RLS case: its setup steps as the superuser, then its statement as its actor, in
    /// one rolled-back transaction; the outcome as PostgREST shows it (SQLSTATE mapped to the
    /// HTTP status by `statuses`, PostgREST's table; a write with `returning` returns its rows,
    /// as PostgREST's `return=representation`). A setup step the database refuses makes its
    /// error the outcome, as on the mock's engine.
    package func execute(_ rlsCase: RLSCase) throws -> RLSOutcome {
        let (script, reading) = rlsScript(rlsCase)
        return try reading(try session.run(script))
    }

    /// Runs RLS cases, `pipelineChunk` at a time, each judged on its own outcome. A chunk goes
    /// to the server in one call of `caseBatchFunction` (`PostgresCaseBatch`: every case a
    /// subtransaction of its own, undone before the next) when there is no `casePrelude` and
    /// cases are not savepoints of the caller's transaction; otherwise, or when the call fails as
    /// a whole, through the session's pipeline (`executePipelined`).
    package func executeAll(_ cases: [RLSCase]) -> [Result<RLSOutcome, any Error>] {
        var out: [Result<RLSOutcome, any Error>] = []
        out.reserveCapacity(cases.count)
        for start in stride(from: 0, to: cases.count, by: PostgresTarget.pipelineChunk) {
            let chunk = Array(cases[start..<min(start + PostgresTarget.pipelineChunk, cases.count)])
            if let function = caseBatchFunction, casePrelude.isEmpty, !casesAsSavepoints, chunk.count > 1 {
                let sqls = chunk.map(RLSCaseSQL.init)
                let reply: [String]
                do { reply = try session.run(PostgresCaseBatch.script(sqls, function: function)) } catch {
                    out += chunk.map { _ in .failure(error) }
                    continue
                }
                do throws(PostgresCaseBatch.Failed) {
                    out += try PostgresCaseBatch.outcomes(reply, cases: sqls, statuses: statuses)
                    continue
                } catch {
                    // An error no case's block catches: the cases run one by one, each with its own verdict.
                }
            }
            out += executePipelined(chunk)
        }
        return out
    }

    /// The PL/pgSQL function `executeAll` sends its batches to (`PostgresCaseBatch.function`);
    /// nil: every case as a psql script of its own (`executePipelined`). A test installs a
    /// wrong one to show the checks catch a batch that loses or swaps a case.
    package var caseBatchFunction: String? = PostgresCaseBatch.function

    /// Runs RLS cases through the session's pipeline: each case is the
    /// same script and transaction (or savepoint) as `execute`, judged on its own reply. Every
    /// case but the last leaves its `rollback` in psql's query buffer (`\;`), so it goes
    /// to the server in one query string with the next case's `begin`: one round trip fewer per
    /// case, each case still rolled back before the next one starts.
    package func executePipelined(_ cases: [RLSCase]) -> [Result<RLSOutcome, any Error>] {
        let last = cases.count - 1
        let scripts = cases.indices.map { rlsScript(cases[$0], endPending: $0 != last) }
        do {
            let replies = try session.runPipelined(scripts.map(\.script))
            return zip(scripts, replies).map { s, lines in Result { try s.reading(lines) } }
        } catch {
            return cases.map { _ in .failure(error) }
        }
    }

    /// The psql script of an RLS case and how to read its reply. `endPending`: the closing
    /// `rollback` is left in psql's query buffer, sent with whatever the session runs next
    /// (which must follow at once: `executeAll` sends the next case).
    func rlsScript(_ rlsCase: RLSCase, endPending: Bool = false) -> (script: String, reading: ([String]) throws -> RLSOutcome) {
        let sql = RLSCaseSQL(rlsCase)
        // A case with no prelude and no setup sends its `begin` (or `savepoint`) in the same
        // query string as its role switch and statement (psql's `\;`): one round trip to the
        // server instead of two, the same statements in the same transaction.
        let foldBegin = casePrelude.isEmpty && rlsCase.setup.isEmpty
        var s = foldBegin ? "" : caseBegin
        for p in casePrelude { s += p.trimmingSemicolon + ";\n" }
        for step in sql.setup { s += step + ";\n" + PsqlSession.statusProbe }
        let statements = (foldBegin ? [caseBegin.trimmingSemicolon] : []) + sql.actAs + [sql.statement]
        s += statements.joined(separator: " \\;\n") + ";\n" + PsqlSession.statusProbe + (endPending ? caseEnd.trimmingSemicolon + " \\;\n" : caseEnd)
        let statuses = self.statuses
        let reading: ([String]) throws -> RLSOutcome = { reply in
            var lines = reply
            for _ in rlsCase.setup {
                guard let idx = lines.firstIndex(where: { $0.hasPrefix("@@supacontracts-") }) else { break }
                let (_, status) = PsqlSession.split(Array(lines[...idx]))
                lines.removeFirst(idx + 1)
                if case .failure(let e) = status { return try sql.outcome(.failure(e), statuses: statuses) }
            }
            let (out, status) = PsqlSession.split(lines)
            switch status {
            case .failure(let e): return try sql.outcome(.failure(e), statuses: statuses)
            case .success(let n):
                guard sql.returnsRows else { return try sql.outcome(.success((n, nil)), statuses: statuses) }
                guard let line = out.last else { throw RLSTargetError("unexpected reply to \(rlsCase.name): \(out)") }
                return try sql.outcome(.success((n, try JSONValue.parse(line))), statuses: statuses)
            }
        }
        return (s, reading)
    }

    /// Runs SQL in a transaction as an actor (or as the superuser when nil) after `prelude`
    /// (run as the superuser), returns the JSON rows of the final query, then rolls back.
    package func query(_ sql: String, as auth: AuthContext? = nil, prelude: [String] = [], steps: [String] = []) throws -> Result<[JSONValue], PostgresError> {
        var s = caseBegin
        for p in casePrelude + prelude { s += p.trimmingSemicolon + ";\n" + PsqlSession.statusProbe }
        if let auth { s += PostgresTarget.actAs(auth) }
        for st in steps { s += st.trimmingSemicolon + ";\n" + PsqlSession.statusProbe }
        s += "select coalesce(jsonb_agg(to_jsonb(q)), '[]'::jsonb) from (\(sql.trimmingSemicolon)) as q;\n" + PsqlSession.statusProbe + caseEnd
        var lines = try session.run(s)
        // Every statement reports; the first failure decides.
        var last: [String] = []
        while !lines.isEmpty {
            guard let idx = lines.firstIndex(where: { $0.hasPrefix("@@supacontracts-") }) else { break }
            let chunk = Array(lines[...idx])
            lines.removeFirst(idx + 1)
            let (rows, status) = PsqlSession.split(chunk)
            if case .failure(let e) = status {
                // A multi-line message's continuation lines were left in `lines`.
                return .failure(e)
            }
            last = rows
        }
        guard let line = last.last, case .array(let items) = try JSONValue.parse(line) else {
            throw PostgresUnavailable("unexpected reply to \(sql.prefix(120)): \(last)")
        }
        return .success(items)
    }
}

extension String {
    var trimmingSemicolon: String {
        var s = trimmingCharacters(in: .whitespacesAndNewlines)
        while s.hasSuffix(";") { s.removeLast(); s = s.trimmingCharacters(in: .whitespacesAndNewlines) }
        return s
    }
}

/// The SQL that loads an app's fixtures: personas as `auth.users` rows, then each table's rows
/// in order, with user triggers disabled and constraints (foreign keys included) enforced — the
/// same SQL `scripts/postgres seed-sql APP` prints.
package enum PostgresFixtures {
    /// The loading script (one transaction).
    package static func sql(_ fixtures: Fixtures, schema: DatabaseSchema) -> String {
        "begin;\n" + statements(fixtures, schema: schema).map { $0 + ";\n" }.joined() + "commit;\n"
    }

    /// The loading statements without the transaction around them. With `skipExisting`, a row
    /// whose key is already there is left alone (`on conflict do nothing`): loading into a
    /// database that holds some of the fixtures already.
    package static func statements(_ fixtures: Fixtures, schema: DatabaseSchema, skipExisting: Bool = false) -> [String] {
        var tables: [String] = []
        var groups: [(table: String, cols: [String], rows: [JSONValue])] = []
        if !fixtures.personas.isEmpty {
            tables.append("auth.users")
            let rows: [JSONValue] = fixtures.personas.map { p in
                [
                    "id": .string(p.id), "email": .string(p.email.lowercased()), "email_confirmed_at": "2026-01-01T00:00:00+00:00",
                    "raw_app_meta_data": ["provider": "email", "providers": ["email"]], "raw_user_meta_data": p.metadata
                ]
            }
            groups.append(("auth.users", ["email", "email_confirmed_at", "id", "raw_app_meta_data", "raw_user_meta_data"], rows))
        }
        for (table, rows) in fixtures.tables {
            let name = table.contains(".") ? table : "public.\(table)"
            if !tables.contains(name) { tables.append(name) }
            for r in rows {
                let cols = (r.objectValue ?? [:]).keys.sorted()
                if let lastG = groups.last, lastG.table == name, lastG.cols == cols {
                    groups[groups.count - 1].rows.append(r)
                } else {
                    groups.append((name, cols, [r]))
                }
            }
        }
        var s: [String] = []
        for t in tables { s.append("alter table \(t) disable trigger user") }
        for g in groups {
            let cl = g.cols.map(\.sqlIdentifier).joined(separator: ", ")
            let json = JSONValue.array(g.rows).serialized(.compact)
            s.append(
                "insert into \(g.table) (\(cl)) select \(cl) from jsonb_populate_recordset(null::\(g.table), \(json.sqlLiteral)::jsonb)"
                    + (skipExisting ? " on conflict do nothing" : ""))
        }
        for t in tables { s.append("alter table \(t) enable trigger user") }
        return s
    }
}
