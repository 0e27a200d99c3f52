import Foundation

/// `contracts verify --database URL` and `--migrations DIR`: the PostgreSQL rule kind against a
/// team's own database (their migrations, not the bundled SQL). Rows: `catalog` (every relation
/// equals schema.json; row-level security on every table), `rls` (every case of the matrix under
/// its persona's role and JWT claims), `functions` (the trigger and function checks of
/// `Contracts/<app>/sql/checks.json`), and the kinds that need the mock or a URL as not
/// applicable. The fixtures are loaded inside the transaction the cases run in (`on conflict do
/// nothing`: rows already there stay), each case is a savepoint rolled back after it, and the
/// transaction is rolled back at the end, never committed: an empty, freshly migrated database
/// works and nothing is left behind. (Loading the fixtures once per run instead of once per case
/// keeps TeleportMe's thousand reference rows from costing seconds per app; the isolation is the
/// same.)
package enum DatabaseVerify {
    /// Kinds that do not run against a database, with the reason shown in their row.
    package static let notApplicable: [(kind: String, reason: String)] = [
        ("interactions", "not applicable to --database: documented interactions need the HTTP APIs (use --target URL)"),
        ("storage", "not applicable to --database: bucket rules are Storage's (use --target URL)"),
        ("randomized differential", "not applicable to --database: compares the bundled mock with the bundled SQL (contracts verify --kind postgres)")
    ]

    /// The rows of one app against a connected session.
    /// - Parameter connect: runs a psql script (stdin) against the same database in a process of
    ///   its own, for the app's `sql/verify/*.sql` scripts (nil: they are not run).
    /// - Parameter tables: only the RLS cases of these tables (nil: all).
    package static func run(
        _ app: any AppModule.Type, session: PsqlSession,
        connect: ((_ stdin: String) throws -> (status: Int32, output: String))? = nil, tables: Set<String>? = nil,
        progress: (_ app: String, _ kind: String, _ row: VerifyRow?) -> Void = { _, _, _ in }
    ) -> [VerifyRow] {
        var rows: [VerifyRow] = []
        func timed(_ kind: String, _ body: () throws -> VerifyRow.Status) {
            rows.append(VerifyRow.timed(app: app.name, kind: kind, progress: progress, body))
        }
        let spec: AppSpec, statuses: PostgRESTStatusTable
        do { (spec, statuses) = (try app.spec(), try ContractsLocator.postgrestStatuses()) } catch {
            timed("catalog") { .error("the \(app.title) contracts do not load: \(error)") }
            return rows
        }
        let target = PostgresTarget(session: session, schema: spec.schema, statuses: statuses)
        let fixtures = PostgresFixtures.statements(spec.fixtures, schema: spec.schema, skipExisting: true)
        timed("catalog") { .ran(try PostgresChecks.catalogResults(spec, target)) }
        // The fixtures must load at all before cases can mean anything.
        var loads = true
        timed("fixtures") {
            switch try target.query("select 1 as ok", prelude: fixtures) {
            case .success:
                return .ran([CaseResult(app: spec.app, kind: "fixtures", name: "fixtures load inside a case's transaction (rolled back)", passed: true)])
            case .failure(let e):
                loads = false
                return .ran([
                    CaseResult(
                        app: spec.app, kind: "fixtures", name: "fixtures load inside a case's transaction (rolled back)", passed: false,
                        message: "the database refuses the fixtures: \(e.code) \(e.message)")
                ])
            }
        }
        if loads {
            do {
                _ = try session.run("begin;\n" + fixtures.map { $0 + ";\n" }.joined())
                target.casesAsSavepoints = true
            } catch { loads = false }
        }
        // Ends the transaction holding the fixtures (and their table locks).
        func endCases() {
            if target.casesAsSavepoints { _ = try? session.run("rollback;\n"); target.casesAsSavepoints = false }
        }
        defer { endCases() }
        if loads && RLSSuite.hasMatrix(spec.app) {
            timed(RLSSuite.kind) {
                let expansion = RLSExpansion.current(spec, statuses: statuses)
                guard let tables else { return .ran(RLSReport(expansion: expansion, statuses: RLSSuite.run(expansion, on: target), flips: nil).caseResults) }
                let cases = expansion.cases.filter { tables.contains($0.table) }
                return .ran(
                    zip(cases, RLSSuite.run(cases, on: target)).map { c, status in
                        switch status {
                        case .passed: return CaseResult(app: c.app, kind: RLSSuite.kind, name: c.name, passed: true)
                        case .failed(let m): return CaseResult(app: c.app, kind: RLSSuite.kind, name: c.name, passed: false, message: m)
                        case .inconclusive(let m): return CaseResult(app: c.app, kind: RLSSuite.kind, name: c.name, passed: true, message: "inconclusive: \(m)")
                        }
                    })
            }
        }
        if loads {
            timed("functions") {
                let r = try PostgresChecks.functionResults(spec, target)
                return r.isEmpty ? .notApplicable("no trigger or function checks: Contracts/\(spec.app)/sql/checks.json lists none") : .ran(r)
            }
        }
        endCases()
        let scripts = PostgresChecks.verifyScripts(app: spec.app)
        if loads && !scripts.isEmpty, let connect {
            timed("sql scripts") { .ran(try scriptResults(spec, scripts: scripts, fixtures: fixtures, connect: connect)) }
        }
        for (kind, reason) in notApplicable { timed(kind) { .notApplicable(reason) } }
        return rows
    }

    /// Runs each `Contracts/<app>/sql/verify/*.sql` script (psql, `ON_ERROR_STOP=1`) in one
    /// transaction that first loads the fixtures and is rolled back at the end: the script's own
    /// `begin;` … `rollback;` blocks become savepoints (the scripts are written one case per such
    /// block), so every case sees the fixtures and nothing is committed. A script passes when psql
    /// exits 0; a failure carries its `FAIL: …` message, which names the rule.
    static func scriptResults(_ spec: AppSpec, scripts: [URL], fixtures: [String], connect: (_ stdin: String) throws -> (status: Int32, output: String)) throws
        -> [CaseResult]
    {
        try scripts.map { script in
            let name = "sql script · verify/\(script.lastPathComponent)"
            let text = try String(contentsOf: script, encoding: .utf8)
            let body = "begin;\n" + fixtures.map { $0 + ";\n" }.joined() + savepoints(text) + "\nrollback;\n"
            let r = try connect(body)
            if r.status == 0 { return CaseResult(app: spec.app, kind: "sql scripts", name: name, passed: true) }
            let lines = r.output.split(separator: "\n").map(String.init)
            let fail = lines.first { $0.contains("FAIL") } ?? lines.first { $0.contains("ERROR") } ?? "psql exited \(r.status)"
            return CaseResult(app: spec.app, kind: "sql scripts", name: name, passed: false, message: fail.trimmingCharacters(in: .whitespaces))
        }
    }

    /// A verify script with its statement-level `begin;` and `rollback;` turned into a savepoint
    /// and a rollback to it (inside PL/pgSQL, `begin` is never followed by `;`).
    static func savepoints(_ script: String) -> String {
        script.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            var l = String(line)
            for (word, replacement) in [("begin;", "savepoint supacontracts_script;"), ("rollback;", "rollback to savepoint supacontracts_script;")] {
                var out = "", rest = Substring(l)
                while let r = rest.range(of: word) {
                    let before = rest[..<r.lowerBound]
                    let atStatementStart =
                        (out + before).trimmingCharacters(in: .whitespaces).isEmpty || (out + before).trimmingCharacters(in: .whitespaces).hasSuffix(";")
                    out += before + (atStatementStart ? replacement : word)
                    rest = rest[r.upperBound...]
                }
                l = out + rest
            }
            return l
        }.joined(separator: "\n")
    }

    /// Every app against the database at `url` (a libpq URL or connection string).
    package static func outcome(
        apps: [any AppModule.Type], url: String, installation: PostgresInstallation? = nil, tables: Set<String>? = nil,
        progress: (_ app: String, _ kind: String, _ row: VerifyRow?) -> Void = { _, _, _ in }
    ) -> VerifyOutcome {
        var out = VerifyOutcome()
        for app in apps {
            do {
                let inst = try installation ?? PostgresInstallation.find()
                let session = try PsqlSession(installation: inst, connectionString: url, name: redacted(url))
                defer { session.close() }
                let connect: (String) throws -> (status: Int32, output: String) = { stdin in
                    var env = ProcessInfo.processInfo.environment
                    env["PGTZ"] = "UTC"
                    env["PGOPTIONS"] = PsqlSession.sessionOptions
                    let r = try runProgram(inst.psql.path, ["-X", "-q", "-v", "ON_ERROR_STOP=1", "-d", url], environment: env, stdin: stdin)
                    return (r.status, r.output)
                }
                out.rows += run(app, session: session, connect: connect, tables: tables, progress: progress)
            } catch {
                out.rows.append(VerifyRow(app: app.name, kind: "catalog", status: .error("cannot connect to \(redacted(url)): \(error)"), seconds: 0))
            }
        }
        return out
    }

    /// The SQL files of a migrations folder, in name order (the order `supabase db reset` applies
    /// `supabase/migrations/`), after the Supabase shim (`Contracts/shared/sql/`).
    package static func migrationFiles(_ folder: URL, contracts: URL = ContractsLocator.contracts) throws -> [URL] {
        func sqlFiles(_ dir: URL) -> [URL] {
            ((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []).filter { $0.hasSuffix(".sql") }.sorted()
                .map { dir.appendingPathComponent($0) }
        }
        let own = sqlFiles(folder)
        guard !own.isEmpty else { throw PostgresUnavailable("\(folder.path) holds no .sql files") }
        return sqlFiles(contracts.appendingPathComponent("shared/sql")) + own
    }

    /// Every app against a throwaway database built from a migrations folder in `cluster`.
    package static func outcome(
        apps: [any AppModule.Type], migrations: URL, cluster: PostgresCluster,
        progress: (_ app: String, _ kind: String, _ row: VerifyRow?) -> Void = { _, _, _ in }
    ) -> VerifyOutcome {
        var out = VerifyOutcome()
        for app in apps {
            let db = "migrations_\(app.name)"
            do {
                try cluster.createDatabase(db, applying: try migrationFiles(migrations))
                out.rows += outcome(apps: [app], url: cluster.connectionString(database: db), installation: cluster.installation, progress: progress).rows
            } catch {
                out.rows.append(
                    VerifyRow(app: app.name, kind: "catalog", status: .error("the migrations in \(migrations.path) do not apply: \(error)"), seconds: 0))
            }
        }
        return out
    }

    /// A URL with its password replaced by `***`, for messages.
    package static func redacted(_ url: String) -> String {
        guard var c = URLComponents(string: url), c.password != nil else { return url }
        c.password = "***"
        return c.string ?? url
    }
}
