import XCTest
import MockBinding
import TeleportMe
import NaarsCars
import CivicForge
import Aura
import Shvil

/// Shared fixtures of the PostgreSQL gate: one cluster per test process and one seeded database
/// per app, opened on first use.
enum PostgresGate {
    static var apps: [any AppModule.Type] { [TeleportMeApp.self, NaarsCarsApp.self, CivicForgeApp.self, AuraApp.self, ShvilApp.self] }
    private static let lock = NSLock()
    nonisolated(unsafe) private static var targets: [String: TargetSlot] = [:]

    /// The cluster, or a skip naming the reason (a failure under SUPACONTRACTS_REQUIRE_POSTGRES=1).
    static func cluster() throws -> PostgresCluster {
        do { return try PostgresChecks.sharedCluster() } catch let e as PostgresUnavailable {
            if (ProcessInfo.processInfo.environment[PostgresChecks.requireVariable] == "1") {
                throw PostgresUnavailable("\(PostgresChecks.requireVariable)=1 but PostgreSQL is unavailable: \(e.reason)")
            }
            throw XCTSkip("PostgreSQL not available (\(e.reason)); set \(PostgresChecks.requireVariable)=1 to make this a failure")
        }
    }

    /// Apps that have `Contracts/<app>/sql/`; skips when none has.
    static func appsWithSQL() throws -> [any AppModule.Type] {
        let a = apps.filter { PostgresCluster.hasSQL(app: $0.name) }
        if a.isEmpty { throw XCTSkip("no app has Contracts/<app>/sql/") }
        return a
    }

    /// The seeded database of an app (`gate_<app>`; `copy` n > 0: `gate_<app>_n`, another
    /// database in the same state), created once. Each database is opened under a lock of its
    /// own: making one does not hold up the others' callers.
    static func target(_ app: any AppModule.Type, copy: Int = 0) throws -> PostgresTarget {
        let c = try cluster()
        let db = copy == 0 ? "gate_\(app.name)" : "gate_\(app.name)_\(copy)"
        let slot = lock.withLock {
            if let s = targets[db] { return s }
            let s = TargetSlot()
            targets[db] = s
            return s
        }
        return try slot.lock.withLock {
            if let t = slot.target { return t }
            let t = try PostgresTarget.open(cluster: c, spec: try app.spec(), database: db)
            slot.target = t
            return t
        }
    }

    /// One database's target, opened once.
    private final class TargetSlot: @unchecked Sendable {
        let lock = NSLock()
        var target: PostgresTarget?
    }

    /// A separate database of an app with extra SQL applied after the migrations (a mutant).
    static func mutantTarget(_ app: any AppModule.Type, name: String, sql: String) throws -> PostgresTarget {
        try PostgresTarget.open(cluster: try cluster(), spec: try app.spec(), database: "mutant_\(app.name)_\(name)", extraSQL: [sql])
    }

    static func failures(_ results: [CaseResult]) -> String {
        results.filter { !$0.passed }.map { "\($0)" }.joined(separator: "\n")
    }
}

/// The catalog of every app's PostgreSQL equals its schema.json, and RLS is on for every table.
final class PostgresCatalogGateTests: GateTestCase {
    func testCatalogEqualsSchemaForEveryAppWithSQL() throws {
        for app in try PostgresGate.appsWithSQL() {
            let spec = try app.spec()
            let results = try PostgresChecks.catalogResults(spec, try PostgresGate.target(app))
            XCTAssertFalse(results.isEmpty)
            XCTAssertTrue(results.allSatisfy(\.passed), "\(app.name):\n\(PostgresGate.failures(results))")
        }
    }

    func testRLSEnabledOnEveryTable() throws {
        for app in try PostgresGate.appsWithSQL() {
            let (relations, _) = try PostgresCatalog.read(try PostgresGate.target(app))
            let tables = relations.filter { $0.schema == "public" && $0.kind == "r" }
            XCTAssertFalse(tables.isEmpty, app.name)
            XCTAssertEqual(PostgresCatalog.tablesWithoutRLS(relations), [], "\(app.name): RLS off")
        }
    }

    // Mutants: a wrong database or a wrong schema.json is rejected with a readable difference.

    func testCatalogRejectsAChangedColumnType() throws {
        let app = TeleportMeApp.self
        guard PostgresCluster.hasSQL(app: app.name) else { throw XCTSkip("no TeleportMe SQL") }
        let results = try PostgresChecks.catalogResults(
            try app.spec(), try PostgresGate.target(app),
            prelude: ["alter table public.cities alter column population type bigint"])
        let cities = try XCTUnwrap(results.first { $0.name == "catalog · public.cities" })
        XCTAssertFalse(cities.passed)
        XCTAssertTrue(cities.message.contains("column population: type: schema.json integer, PostgreSQL bigint"), cities.message)
    }

    func testCatalogRejectsMissingUniqueNullabilityDefaultAndOnDelete() throws {
        let app = TeleportMeApp.self
        guard PostgresCluster.hasSQL(app: app.name) else { throw XCTSkip("no TeleportMe SQL") }
        let results = try PostgresChecks.catalogResults(
            try app.spec(), try PostgresGate.target(app),
            prelude: [
                "alter table public.saved_cities drop constraint saved_cities_user_id_city_id_key",
                "alter table public.saved_cities alter column city_id drop not null",
                "alter table public.user_preferences alter column start_type set default 'somewhere'",
                "alter table public.city_reports drop constraint city_reports_current_city_id_fkey",
                "alter table public.city_reports add constraint city_reports_current_city_id_fkey foreign key (current_city_id) references public.cities (id) on delete cascade"
            ])
        let saved = try XCTUnwrap(results.first { $0.name == "catalog · public.saved_cities" })
        XCTAssertTrue(saved.message.contains("unique saved_cities_user_id_city_id_key (user_id, city_id): missing in PostgreSQL"), saved.message)
        XCTAssertTrue(saved.message.contains("column city_id: schema.json says NOT NULL, PostgreSQL nullable"), saved.message)
        let prefs = try XCTUnwrap(results.first { $0.name == "catalog · public.user_preferences" })
        XCTAssertTrue(prefs.message.contains("column start_type: default: schema.json \"city_i_love\", PostgreSQL 'somewhere'::text"), prefs.message)
        let reports = try XCTUnwrap(results.first { $0.name == "catalog · public.city_reports" })
        XCTAssertTrue(reports.message.contains("ON DELETE schema.json set null, PostgreSQL cascade"), reports.message)
    }

    func testCatalogRejectsAWrongSchemaFile() throws {
        let app = TeleportMeApp.self
        guard PostgresCluster.hasSQL(app: app.name) else { throw XCTSkip("no TeleportMe SQL") }
        var spec = try app.spec()
        let i = try XCTUnwrap(spec.schema.tables.firstIndex { $0.name == "engagement_events" })
        var extra = spec.schema.tables[i].columns[0]
        extra.name = "session_id"
        extra.defaultValue = nil
        spec.schema.tables[i].columns.append(extra)
        let results = try PostgresChecks.catalogResults(spec, try PostgresGate.target(app))
        let ev = try XCTUnwrap(results.first { $0.name == "catalog · public.engagement_events" })
        XCTAssertTrue(ev.message.contains("column session_id: missing in PostgreSQL"), ev.message)
    }

    func testRLSCheckRejectsATableWithRLSOff() throws {
        let app = TeleportMeApp.self
        guard PostgresCluster.hasSQL(app: app.name) else { throw XCTSkip("no TeleportMe SQL") }
        let results = try PostgresChecks.catalogResults(
            try app.spec(), try PostgresGate.target(app),
            prelude: ["alter table public.saved_cities disable row level security"])
        let rls = try XCTUnwrap(results.first { $0.name.hasPrefix("rls enabled on") })
        XCTAssertFalse(rls.passed)
        XCTAssertTrue(rls.message.contains("saved_cities"), rls.message)
    }
}

/// The mock and PostgreSQL agree on every RLS case of every app with SQL: each table × command ×
/// persona (and anon) × fixture row, and seeded random cases.
final class PostgresDifferentialGateTests: GateTestCase {
    func testMockAgreesWithPostgresOnEveryCase() throws {
        // The apps run side by side (each its own database and session); the checks after.
        // PostgreSQL's answers come from the warm-up (`PostgresGate.differentialAnswers`, the
        // largest app's cases shared by two copies of its database), computed while the suites
        // before this one ran; the mock runs its cases here.
        let apps = try PostgresGate.appsWithSQL()
        let runs = try Concurrently<(cases: Int, results: [CaseResult])>.map(apps, width: apps.count) { app in
            let spec = try app.spec()
            let cases = DifferentialExpansion.cases(spec)
            let mock = EngineTarget(database: try PostgresChecks.mockBackend(app).mock.database)
            let postgres = try PostgresGate.differentialAnswers(app).target { try PostgresGate.target(app) }
            return (cases.count, try RLSDifferential.compare(cases, mock: mock, postgres: postgres, schema: spec.schema, app: app.name))
        }
        for (app, run) in zip(apps, runs) {
            XCTAssertFalse(run.cases == 0, "\(app.name): no cases (fixtures without rows?)")
            XCTAssertTrue(run.results.allSatisfy(\.passed), "\(app.name):\n\(PostgresGate.failures(run.results))")
        }
    }

    func testSharedRLSMatrixHoldsOnPostgres() throws {
        let apps = try PostgresGate.appsWithSQL().filter { RLSSuite.hasMatrix($0.name) }
        let runs = try Concurrently<[CaseResult]>.map(apps, width: apps.count) { app in try PostgresGate.matrixResults(app) }
        for (app, results) in zip(apps, runs) {
            XCTAssertFalse(results.isEmpty, app.name)
            XCTAssertTrue(results.allSatisfy(\.passed), "\(app.name):\n\(PostgresGate.failures(results))")
        }
    }

    func testSharedRLSMatrixRejectsSQLWithAMissingPolicy() throws {
        let app = TeleportMeApp.self
        guard PostgresCluster.hasSQL(app: app.name) else { throw XCTSkip("no TeleportMe SQL") }
        let pg = try PostgresGate.mutantTarget(app, name: "no_delete", sql: "drop policy \"saved_cities: delete own\" on public.saved_cities;")
        defer { pg.session.close() }
        let results = PostgresChecks.matrixResults(try app.spec(), pg)
        let failed = results.filter { !$0.passed }.map(\.name)
        XCTAssertEqual(failed.count, 1, "\(failed)")
        XCTAssertTrue(failed.first?.hasPrefix("rls matrix on PostgreSQL · saved_cities · DELETE") == true, "\(failed)")
    }

    func testRandomizedDifferential() throws {
        let seed = PostgresChecks.seed
        let apps = try PostgresGate.appsWithSQL()
        let runs = try Concurrently<[Disagreement]>.map(apps, width: apps.count) { app in
            let spec = try app.spec()
            let cases = RandomizedCases.generate(spec, seed: seed, count: 500)
            let mock = EngineTarget(database: try PostgresChecks.mockBackend(app).mock.database)
            let postgres = try PostgresGate.randomAnswers(app, count: 500).target { try PostgresGate.target(app) }
            return try RLSDifferential.disagreements(cases, mock: mock, postgres: postgres, schema: spec.schema)
        }
        for (app, d) in zip(apps, runs) {
            XCTAssertEqual(
                d.count, 0,
                "\(app.name), seed \(seed) (rerun with \(PostgresChecks.seedVariable)=\(seed)):\n" + d.prefix(10).map { "\($0)" }.joined(separator: "\n"))
        }
    }

    func testRandomCasesAreReproducibleFromTheSeed() throws {
        let spec = try TeleportMeApp.spec()
        XCTAssertEqual(RandomizedCases.generate(spec, seed: 7, count: 50), RandomizedCases.generate(spec, seed: 7, count: 50))
        XCTAssertNotEqual(RandomizedCases.generate(spec, seed: 7, count: 50), RandomizedCases.generate(spec, seed: 8, count: 50))
    }

    // Mutants: a wrong mock and a wrong SQL policy are both caught, with both outcomes printed.

    func testDifferentialRejectsAMockWithAFlippedPolicy() throws {
        let app = TeleportMeApp.self
        guard PostgresCluster.hasSQL(app: app.name) else { throw XCTSkip("no TeleportMe SQL") }
        let spec = try app.spec()
        let backend = try PostgresChecks.mockBackend(app).mock
        var policies = backend.database.policies
        let i = try XCTUnwrap(policies.tables.firstIndex { $0.table == "saved_cities" })
        policies.tables[i].cells[.select]?.using = .constant(true)
        backend.database.policies = policies
        let cases = DifferentialExpansion.cases(spec).filter { $0.table == "saved_cities" }
        let live = { try PostgresGate.target(app) as any RLSTarget }
        let d = try RLSDifferential.disagreements(
            cases, mock: EngineTarget(database: backend.database),
            postgres: try PostgresGate.differentialAnswers(app).filter { $0.table == "saved_cities" }.target(live: live), schema: spec.schema)
        XCTAssertFalse(d.isEmpty)
        let ben = try XCTUnwrap(d.first { $0.testCase.actor.name == "ben" && $0.testCase.operation.command == .select })
        XCTAssertEqual(ben.mock.count, 1)
        XCTAssertEqual(ben.postgres.count, 0)
        XCTAssertTrue(ben.description.contains("mock ok, 1 row, PostgreSQL ok, 0 rows"), ben.description)
        let random = RandomizedCases.generate(spec, seed: PostgresChecks.seed, count: 500)
        XCTAssertFalse(
            try RLSDifferential.disagreements(
                random, mock: EngineTarget(database: backend.database), postgres: try PostgresGate.randomAnswers(app, count: 500).target(live: live),
                schema: spec.schema
            ).isEmpty,
            "the randomized test misses a flipped SELECT policy")
    }

    func testDifferentialRejectsSQLWithAWrongPolicy() throws {
        let app = TeleportMeApp.self
        guard PostgresCluster.hasSQL(app: app.name) else { throw XCTSkip("no TeleportMe SQL") }
        let spec = try app.spec()
        let pg = try PostgresGate.mutantTarget(
            app, name: "insert_any",
            sql: """
                drop policy "engagement_events: insert own" on public.engagement_events;
                create policy "engagement_events: insert any" on public.engagement_events for insert to authenticated with check (true);
                """)
        defer { pg.session.close() }
        let mock = EngineTarget(database: try PostgresChecks.mockBackend(app).mock.database)
        let cases = DifferentialExpansion.cases(spec).filter { $0.table == "engagement_events" }
        let d = try RLSDifferential.disagreements(cases, mock: mock, postgres: pg, schema: spec.schema)
        let wrong = try XCTUnwrap(d.first { $0.testCase.operation.command == .insert })
        XCTAssertEqual(wrong.mock.error?.code, "42501")
        XCTAssertNil(wrong.postgres.error)
        // anon is not covered by the wrong policy: both still refuse it.
        XCTAssertFalse(d.contains { $0.testCase.actor.name == "anon" })
    }
}

/// TeleportMe's functions and triggers (§4.4) behave as documented in PostgreSQL.
final class PostgresFunctionGateTests: GateTestCase {
    func testEveryAppsSQLBehaviourChecks() throws {
        var ran = 0
        for app in try PostgresGate.appsWithSQL() {
            let results = try PostgresGate.functionResults(app)
            ran += results.count
            XCTAssertTrue(results.allSatisfy(\.passed), "\(app.name):\n\(PostgresGate.failures(results))")
        }
        XCTAssertGreaterThan(ran, 0)
    }

    func testEveryAppsSQLVerifyScripts() throws {
        for app in try PostgresGate.appsWithSQL() {
            let results = try PostgresGate.verifyScriptResults(app)
            XCTAssertTrue(results.allSatisfy(\.passed), "\(app.name):\n\(PostgresGate.failures(results))")
        }
    }

    func testVerifyScriptFailureIsReported() throws {
        let app = TeleportMeApp.self
        guard PostgresCluster.hasSQL(app: app.name) else { throw XCTSkip("no TeleportMe SQL") }
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("postgres-gate-\(UUID().uuidString).sql")
        try Data(
            "do $$ begin if (select count(*) from public.cities) <> 56 then raise exception 'FAIL: % cities', (select count(*) from public.cities); end if; end $$;\n"
                .utf8
        ).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let r = try PostgresChecks.verifyScriptResults(try app.spec(), cluster: try PostgresGate.cluster(), scripts: [url])
        XCTAssertEqual(r.count, 1)
        XCTAssertFalse(r[0].passed)
        XCTAssertTrue(r[0].message.contains("FAIL: 55 cities"), r[0].message)
    }

    func testTeleportMeChecksCoverTheDocumentedFunctions() throws {
        guard PostgresCluster.hasSQL(app: TeleportMeApp.name) else { throw XCTSkip("no TeleportMe SQL") }
        let names = try SQLBehaviourCheck.load(app: try TeleportMeApp.spec()).map(\.name)
        for f in ["handle_new_user", "search_cities", "update_updated_at"] {
            XCTAssertTrue(names.contains { $0.contains(f) }, "no check for \(f)")
        }
    }

    private func failing(_ prelude: String) throws -> [String] {
        let app = TeleportMeApp.self
        guard PostgresCluster.hasSQL(app: app.name) else { throw XCTSkip("no TeleportMe SQL") }
        return try PostgresChecks.functionResults(
            try app.spec(), try PostgresGate.target(app), mock: try PostgresChecks.mockBackend(app),
            prelude: [prelude]
        ).filter { !$0.passed }.map(\.name)
    }

    func testRPCComparisonRejectsADifferentTieBreak() throws {
        let f = try failing(
            """
            create or replace function public.search_cities(search_term text) returns setof public.cities language sql stable
            set search_path = public, extensions as $$
              select c.* from public.cities c
              where similarity(c.name, search_term) > 0.15 or similarity(c.full_name, search_term) > 0.15 or similarity(c.country, search_term) > 0.15
              order by greatest(similarity(c.name, search_term), similarity(c.full_name, search_term), similarity(c.country, search_term)) desc, c.id desc
              limit 20 $$
            """)
        XCTAssertTrue(f.contains("function · search_cities('germany'): mock and PostgreSQL return the same cities in the same order"), "\(f)")
        XCTAssertFalse(f.contains("function · search_cities('qxzvqxzv'): mock and PostgreSQL return the same cities in the same order"), "\(f)")
    }

    func testChecksRejectANoOpUpdatedAtTrigger() throws {
        let f = try failing("create or replace function public.update_updated_at() returns trigger language plpgsql as $$ begin return new; end $$")
        XCTAssertTrue(f.contains("function · update_updated_at: updating a profile refreshes updated_at"), "\(f)")
        XCTAssertTrue(f.contains("function · update_updated_at: updating a city refreshes updated_at"), "\(f)")
    }

    func testChecksRejectAMissingNewUserTrigger() throws {
        let f = try failing("drop trigger on_auth_user_created on auth.users")
        XCTAssertTrue(f.contains("function · handle_new_user: a new auth user gets a profile"), "\(f)")
    }

    func testChecksRejectAStricterSearchThreshold() throws {
        let f = try failing(
            """
            create or replace function public.search_cities(search_term text) returns setof public.cities language sql stable
            set search_path = public, extensions as $$
              select c.* from public.cities c where similarity(c.name, search_term) >= 0.5
              order by similarity(c.name, search_term) desc limit 20 $$
            """)
        XCTAssertTrue(f.contains("function · search_cities('berln') finds Berlin first"), "\(f)")
        XCTAssertTrue(f.contains("function · search_cities matches on the country"), "\(f)")
    }
}
