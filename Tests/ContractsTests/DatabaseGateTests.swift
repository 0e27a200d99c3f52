import XCTest
import MockBinding
import TeleportMe
import NaarsCars
import CivicForge
import Aura
import Shvil

/// `contracts verify --database URL` against `scripts/postgres`'s kind of cluster: every app's
/// SQL, freshly migrated and empty, passes and is left empty; a database with a policy replaced by
/// a permissive one, or with a trigger dropped, fails with the rule named.
final class DatabaseGateTests: GateTestCase {
    /// A migrated, unseeded database of an app (`dbverify_<app>_<name>`) with `extraSQL`
    /// applied, and its URL. The migrations run once per cluster into a template database, which
    /// every database of the same SQL is copied from (`create database … template`, with its
    /// settings), a fraction of the time.
    static func database(_ app: any AppModule.Type, _ name: String, extraSQL: [String] = []) throws -> (URL: String, PostgresCluster) {
        let cluster = try PostgresGate.cluster()
        let db = "dbverify_\(app.name)_\(name)"
        try cluster.createDatabase(db, applying: try PostgresCluster.migrationFiles(app: app.name), extraSQL: extraSQL)
        return (cluster.connectionString(database: db), cluster)
    }

    /// Rows in the app's public tables and auth.users.
    static func rowCount(_ app: any AppModule.Type, _ url: String, _ cluster: PostgresCluster) throws -> Int {
        let s = try PsqlSession(installation: cluster.installation, connectionString: url, name: app.name)
        defer { s.close() }
        var n = Int(try s.query("select count(*) from auth.users").first ?? "") ?? -1
        for t in try app.spec().schema.tables where t.schema == "public" && !t.isView {
            n += Int(try s.query("select count(*) from public.\"\(t.name)\"").first ?? "") ?? -1000
        }
        return n
    }

    /// A verify run against a database: its rows before, the outcome, its rows after.
    struct Run {
        var before: Int
        var outcome: VerifyOutcome
        var after: Int
    }

    /// Every app's clean database verified (computed once per process: by the PostgreSQL
    /// warm-up, `PostgresGate.startWarmUp`, when it gets there first).
    static func cleanRuns() throws -> [Run] {
        try PostgresGate.memo.value("dbverify clean") {
            // The apps' databases are prepared and verified side by side; the checks after, in order.
            let apps = PostgresGate.apps.filter { PostgresCluster.hasSQL(app: $0.name) }
            return try Concurrently<Run>.map(apps, width: apps.count) { app in
                let (url, cluster) = try database(app, "clean")
                let before = try rowCount(app, url, cluster)
                let outcome = DatabaseVerify.outcome(apps: [app], url: url, installation: cluster.installation)
                return Run(before: before, outcome: outcome, after: try rowCount(app, url, cluster))
            }
        }
    }

    func testEveryAppsSQLPassesOnAnEmptyDatabaseAndStaysEmpty() throws {
        let apps = PostgresGate.apps.filter { PostgresCluster.hasSQL(app: $0.name) }
        let runs = try Self.cleanRuns()
        XCTAssertEqual(runs.count, apps.count)
        for (app, run) in zip(apps, runs) {
            let outcome = run.outcome
            XCTAssertEqual(run.before, 0)
            XCTAssertEqual(ServedMocks.failures(outcome.rows), "", app.name)
            XCTAssertTrue(outcome.passed, app.name)
            XCTAssertGreaterThan(outcome.rows.first { $0.kind == "rls" }?.cases.count ?? 0, 100, app.name)
            XCTAssertTrue(outcome.rows.contains { $0.kind == "catalog" && $0.cases.contains { $0.name.hasPrefix("rls enabled on") } }, app.name)
            XCTAssertEqual(run.after, 0, "\(app.name): the run left rows behind")
        }
    }

    /// A database that already holds the fixtures (a team that seeds its own) passes too, and
    /// keeps exactly its rows.
    func testADatabaseHoldingTheFixturesAlreadyPassesAndKeepsThem() throws {
        let run = try Self.seededRun()
        XCTAssertGreaterThan(run.before, 0)
        XCTAssertEqual(ServedMocks.failures(run.outcome.rows), "")
        XCTAssertTrue(run.outcome.passed)
        XCTAssertEqual(run.after, run.before)
    }

    /// Shvil's database holding its fixtures, verified (once per process).
    static func seededRun() throws -> Run {
        try PostgresGate.memo.value("dbverify seeded") {
            let app = ShvilApp.self
            let spec = try app.spec()
            let (url, cluster) = try database(app, "seeded", extraSQL: [PostgresFixtures.sql(spec.fixtures, schema: spec.schema)])
            let before = try rowCount(app, url, cluster)
            let outcome = DatabaseVerify.outcome(apps: [app], url: url, installation: cluster.installation)
            return Run(before: before, outcome: outcome, after: try rowCount(app, url, cluster))
        }
    }

    /// The first `create policy "…" on public.T for select` of the app's SQL, replaced by a
    /// policy that lets everyone read T.
    static func permissiveSelect(_ app: any AppModule.Type) throws -> (table: String, sql: String) {
        let text = try PostgresCluster.migrationFiles(app: app.name).dropFirst().map { try String(contentsOf: $0, encoding: .utf8) }.joined(separator: "\n")
        // `create policy NAME on public.T for select … ;` whose condition is not already `true`.
        let regex = try NSRegularExpression(
            pattern: #"create policy\s+("[^"]+"|\w+)\s+on\s+(?:public\.)?(\w+)\s+for\s+select([^;]*);"#, options: [.caseInsensitive])
        let matches = regex.matches(in: text, range: NSRange(text.startIndex..., in: text))
        let m = try XCTUnwrap(
            matches.first { !String(text[Range($0.range(at: 3), in: text)!]).contains("using (true)") }, "\(app.name): no restricted select policy in its SQL")
        let policy = String(text[Range(m.range(at: 1), in: text)!]), table = String(text[Range(m.range(at: 2), in: text)!])
        return (table, "drop policy \(policy) on public.\(table); create policy \"everyone reads\" on public.\(table) for select using (true);")
    }

    /// Every app's database with a permissive select policy, verified on that table (once per process).
    static func permissiveOutcomes() throws -> [VerifyOutcome] {
        try PostgresGate.memo.value("dbverify permissive") {
            let apps = PostgresGate.apps.filter { PostgresCluster.hasSQL(app: $0.name) }
            let mutants = try apps.map { try permissiveSelect($0) }
            return try Concurrently<VerifyOutcome>.map(Array(zip(apps, mutants)), width: apps.count) { app, mutant in
                let (url, cluster) = try database(app, "permissive", extraSQL: [mutant.sql])
                return DatabaseVerify.outcome(apps: [app], url: url, installation: cluster.installation, tables: [mutant.table])
            }
        }
    }

    func testAPolicyReplacedByAPermissiveOneFailsNamingTheTable() throws {
        let apps = PostgresGate.apps.filter { PostgresCluster.hasSQL(app: $0.name) }
        let mutants = try apps.map { try Self.permissiveSelect($0) }
        let outcomes = try Self.permissiveOutcomes()
        XCTAssertEqual(outcomes.count, apps.count)
        for ((app, (table, _)), outcome) in zip(zip(apps, mutants), outcomes) {
            let failures = outcome.rows.flatMap(\.failures)
            XCTAssertFalse(failures.isEmpty, "\(app.name): a permissive select policy on \(table) went unnoticed")
            XCTAssertTrue(failures.contains { $0.kind == "rls" && $0.name.hasPrefix("\(table) · SELECT") }, "\(app.name): \(failures.map(\.name))")
        }
    }

    /// Each app's trigger and the check that names it (Aura's SQL has no triggers).
    static var triggerMutants: [(any AppModule.Type, String, String)] {
        [
            (TeleportMeApp.self, "drop trigger on_auth_user_created on auth.users", "function · "),
            (NaarsCarsApp.self, "drop trigger on_message_created on public.messages", "sql script · verify/checks.sql"),
            (CivicForgeApp.self, "drop trigger post_flags_auto_hide on public.post_flags", "sql script · verify/domain_rules.sql")
        ]
    }

    /// Every trigger mutant's database, verified (once per process).
    static func droppedTriggerOutcomes() throws -> [VerifyOutcome] {
        try PostgresGate.memo.value("dbverify notrigger") {
            // The apps run side by side (each its own database and session; the server computes
            // for one while another waits).
            try Concurrently<VerifyOutcome>.map(triggerMutants, width: triggerMutants.count) { mutant in
                let (url, cluster) = try database(mutant.0, "notrigger", extraSQL: [mutant.1])
                return DatabaseVerify.outcome(apps: [mutant.0], url: url, installation: cluster.installation, tables: [])
            }
        }
    }

    func testADroppedTriggerFailsNamingTheCheck() throws {
        let runs = try Self.droppedTriggerOutcomes()
        XCTAssertEqual(runs.count, Self.triggerMutants.count)
        for ((app, sql, name), outcome) in zip(Self.triggerMutants, runs) {
            let failures = outcome.rows.flatMap(\.failures)
            XCTAssertTrue(failures.contains { $0.name.hasPrefix(name) }, "\(app.name): \(sql) went unnoticed: \(failures.map(\.description))")
        }
    }
}
