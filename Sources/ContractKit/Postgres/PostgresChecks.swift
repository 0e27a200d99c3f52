import Foundation

/// The checks that run an app's contracts against a real PostgreSQL, for any app with
/// `Contracts/<app>/sql/`: the catalog equals schema.json, RLS is enabled on every table, the
/// mock and PostgreSQL agree on every RLS case and on seeded random cases, and the app's SQL
/// functions and triggers behave as `sql/checks.json` says.
package enum PostgresChecks {
    /// Set to `1` to make a missing PostgreSQL a failure instead of a skip.
    package static let requireVariable = "SUPACONTRACTS_REQUIRE_POSTGRES"
    /// Overrides the randomized test's seed.
    package static let seedVariable = "SUPACONTRACTS_SEED"
    /// The randomized test's seed unless overridden.
    package static let defaultSeed: UInt64 = 20_260_101

    /// The randomized test's seed for the current task (the CLI binds `$SUPACONTRACTS_SEED`;
    /// the library reads no environment variable).
    @TaskLocal package static var seed: UInt64 = defaultSeed

    private static let lock = NSLock()
    nonisolated(unsafe) private static var cluster: Result<PostgresCluster, PostgresUnavailable>?

    /// One cluster for the whole process, started on first use (stopped at exit).
    package static func sharedCluster() throws -> PostgresCluster {
        lock.lock(); defer { lock.unlock() }
        if cluster == nil {
            do { cluster = .success(try PostgresCluster.start()) } catch let e as PostgresUnavailable {
                cluster = .failure(e)
            } catch { cluster = .failure(PostgresUnavailable("\(error)")) }
        }
        return try cluster!.get()
    }

    /// A seeded mock backend of the app (fixed clock and ids), as the differential check uses.
    package static func mockBackend(_ app: any AppModule.Type) throws -> any BackendUnderTest {
        try app.makeBackendUnderTest(clock: ManualClock(), ids: SeededIDGenerator(seed: 1), folder: nil)
    }

    /// Catalog results: one per relation (and one for enums), one per function schema.json
    /// declares and one for the functions it does not, failing with the differences.
    package static func catalogResults(_ spec: AppSpec, _ target: PostgresTarget, prelude: [String] = []) throws -> [CaseResult] {
        let (relations, enums) = try PostgresCatalog.read(target, prelude: prelude)
        var out = PostgresCatalog.compare(spec.schema, relations: relations, enums: enums).map { rel, diffs in
            CaseResult(
                app: spec.app, kind: "postgres", name: "catalog · \(rel)", passed: diffs.isEmpty,
                message: diffs.isEmpty ? "" : "schema.json and PostgreSQL differ:\n" + diffs.map { "  - \($0)" }.joined(separator: "\n"))
        }
        if let declared = spec.schema.functions {
            let have = try CatalogFunction.read(target, schemas: CatalogFunction.schemas(declared), prelude: prelude)
            out += CatalogFunction.compare(declared, have).map { name, diffs in
                CaseResult(
                    app: spec.app, kind: "postgres", name: name == "undeclared" ? "catalog · functions not in schema.json" : "catalog · function \(name)",
                    passed: diffs.isEmpty,
                    message: diffs.isEmpty ? "" : "schema.json and PostgreSQL differ:\n" + diffs.map { "  - \($0)" }.joined(separator: "\n"))
            }
        }
        let tables = relations.filter { $0.schema == "public" && ($0.kind == "r" || $0.kind == "p") }
        let without = PostgresCatalog.tablesWithoutRLS(relations)
        out.append(
            CaseResult(
                app: spec.app, kind: "postgres", name: "rls enabled on \(tables.count - without.count)/\(tables.count) tables",
                passed: without.isEmpty && !tables.isEmpty,
                message: tables.isEmpty ? "no tables in schema public" : "row-level security is off on: \(without.joined(separator: ", "))"))
        return out
    }

    /// The shared RLS matrix expansion (`RLSExpansion`, the cases `contracts verify --kind rls`
    /// runs on the mock, with the oracle's expected answers) run on PostgreSQL: one result per
    /// table × command. Cases the app's own code refuses (a trigger's error) are inconclusive,
    /// as on the mock.
    /// `now` nil: the process's current expansion of the app (`RLSExpansion.current`);
    /// `expansion`: one made elsewhere (`sharedMatrixExpansion`).
    package static func matrixResults(_ spec: AppSpec, _ target: PostgresTarget, now: Date? = nil, expansion given: RLSExpansion? = nil) -> [CaseResult] {
        let expansion =
            given ?? now.map { RLSExpansion(spec: spec, now: $0, statuses: target.statuses) } ?? RLSExpansion.current(spec, statuses: target.statuses)
        let statuses = RLSSuite.run(expansion, on: target)
        var out: [CaseResult] = []
        for cell in expansion.cells where !cell.cases.isEmpty {
            var failed: [String] = []
            var inconclusive = 0
            for i in cell.cases {
                let c = expansion.cases[i]
                switch statuses[i] {
                case .passed: break
                case .inconclusive: inconclusive += 1
                case .failed(let why): failed.append("\(c.name) · \(why)")
                }
            }
            let note = inconclusive > 0 ? ", \(inconclusive) inconclusive" : ""
            out.append(
                CaseResult(
                    app: spec.app, kind: "postgres",
                    name: "rls matrix on PostgreSQL · \(cell.table) · \(cell.command.rawValue) (\(cell.cases.count) cases\(note))",
                    passed: failed.isEmpty,
                    message: failed.isEmpty
                        ? "" : "\(failed.count) cases differ from the matrix:\n" + failed.prefix(5).map { "  \($0)" }.joined(separator: "\n")))
        }
        return out
    }

    /// The expansion the matrix runs on PostgreSQL: `verify --kind rls`'s own, made at its fixed
    /// clock (`RLSSuite.sharedExpansion`), when no decision of it reads the clock
    /// (`RLSExpansionClock`) and it was judged with the same statuses; else the app's expansion
    /// at the real clock (`RLSExpansion.current`), as PostgreSQL's `now()` is.
    static func sharedMatrixExpansion(_ app: any AppModule.Type, _ spec: AppSpec, statuses: PostgRESTStatusTable) throws -> RLSExpansion {
        if !RLSExpansionClock.readsClock(spec) {
            let shared = try RLSSuite.sharedExpansion(app)
            if shared.statuses == statuses { return shared }
        }
        return RLSExpansion.current(spec, statuses: statuses)
    }

    /// Function and trigger results of `sql/checks.json`.
    package static func functionResults(_ spec: AppSpec, _ target: PostgresTarget, mock: (any BackendUnderTest)? = nil, prelude: [String] = []) throws
        -> [CaseResult]
    {
        try SQLBehaviourCheck.load(app: spec).map { c in
            let f = try c.failure(on: target, mock: mock, prelude: prelude)
            return CaseResult(app: spec.app, kind: "postgres", name: "function · \(c.name)", passed: f == nil, message: f ?? "")
        }
    }

    /// The app's own psql check scripts, `Contracts/<app>/sql/verify/*.sql`, in name order.
    package static func verifyScripts(app: String, contracts: URL = ContractsLocator.contracts) -> [URL] {
        let dir = contracts.appendingPathComponent(app).appendingPathComponent("sql/verify")
        return ((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []).filter { $0.hasSuffix(".sql") }.sorted()
            .map { dir.appendingPathComponent($0) }
    }

    /// Runs each `sql/verify/*.sql` script with `ON_ERROR_STOP=1` against a freshly migrated and
    /// seeded database of its own (`database`, by default `script_<app>`); a script passes when
    /// psql exits 0.
    package static func verifyScriptResults(_ spec: AppSpec, cluster: PostgresCluster, scripts given: [URL]? = nil, database: String? = nil) throws
        -> [CaseResult]
    {
        let scripts = given ?? verifyScripts(app: spec.app)
        guard !scripts.isEmpty else { return [] }
        let files = try PostgresCluster.migrationFiles(app: spec.app)
        let fixtures = PostgresFixtures.sql(spec.fixtures, schema: spec.schema)
        return try scripts.map { script in
            let db = database ?? "script_\(spec.app)"
            try cluster.createDatabase(db, applying: files, extraSQL: [fixtures])
            do {
                try cluster.psql(database: db, file: script)
                return CaseResult(app: spec.app, kind: "postgres", name: "sql script · verify/\(script.lastPathComponent)", passed: true)
            } catch let e as PostgresUnavailable {
                return CaseResult(app: spec.app, kind: "postgres", name: "sql script · verify/\(script.lastPathComponent)", passed: false, message: e.reason)
            }
        }
    }

    /// From how many differential cases `run` shares them between two copies of the app's
    /// database: eight batches of `PostgresTarget.pipelineChunk` (TeleportMe's 12,132 cases
    /// are; the other apps' few thousand finish on one session before a copy would be ready).
    static let shardedCases = 8 * PostgresTarget.pipelineChunk

    /// Every PostgreSQL check of an app; empty when it has no SQL. `randomCases` seeded cases
    /// run after the full expansion.
    package static func run(_ app: any AppModule.Type, randomCases: Int = 400, seed: UInt64 = PostgresChecks.seed) throws -> [CaseResult] {
        guard PostgresCluster.hasSQL(app: app.name) else { return [] }
        let spec = try app.spec()
        let cluster = try sharedCluster()
        let target = try PostgresTarget.open(cluster: cluster, spec: spec, database: "verify_\(app.name)")
        defer { target.session.close() }
        let cases = DifferentialExpansion.cases(spec)
        // Many cases: they are shared with a second copy of the database (`ShardedRLSTarget`),
        // made by the shard that uses it while the first shard already runs cases. (Not made
        // ahead with `Concurrently`: verify's cells occupy Dispatch's worker threads, and a
        // cell waiting for work queued behind them would wait for ever.)
        let copy = cases.count >= shardedCases ? OpenedOnce { try PostgresTarget.open(cluster: cluster, spec: spec, database: "verify_\(app.name)_1") } : nil
        defer { copy?.close() }
        let mock = try mockBackend(app).served.engine()
        var results = try catalogResults(spec, target)
        if RLSSuite.hasMatrix(spec.app) { results += matrixResults(spec, target, expansion: try sharedMatrixExpansion(app, spec, statuses: target.statuses)) }
        let postgres: any RLSTarget = copy.map { c in ShardedRLSTarget([{ target }, { try c.target() }]) } ?? target
        results += try RLSDifferential.compare(cases, mock: mock, postgres: postgres, schema: spec.schema, app: spec.app)
        let random = RandomizedCases.generate(spec, seed: seed, count: randomCases)
        let d = try RLSDifferential.disagreements(random, mock: mock, postgres: target, schema: spec.schema)
        results.append(
            CaseResult(
                app: spec.app, kind: "postgres", name: "randomized differential · seed \(seed) · \(random.count) cases",
                passed: d.isEmpty,
                message: d.isEmpty
                    ? "" : "\(d.count) disagreements (rerun with \(seedVariable)=\(seed)):\n" + d.prefix(8).map { "  \($0)" }.joined(separator: "\n")))
        results += try functionResults(spec, target, mock: try mockBackend(app))
        results += try verifyScriptResults(spec, cluster: cluster)
        return results
    }

    /// `contracts verify --kind postgres`: throws `VerifySkip` with the reason and the fix when
    /// PostgreSQL is not installed (`contracts verify --require postgres` makes that a failure).
    package static let suite = VerifySuite(kind: "postgres") { app in
        guard PostgresCluster.hasSQL(app: app.name) else { return [] }
        do { _ = try sharedCluster() } catch let e as PostgresUnavailable {
            throw VerifySkip(e.reason)
        }
        return try run(app)
    }
}

/// A target opened by its first user and closed by its owner.
final class OpenedOnce: @unchecked Sendable {
    private let lock = NSLock()
    private let open: () throws -> PostgresTarget
    private var opened: PostgresTarget?

    init(_ open: @escaping () throws -> PostgresTarget) { self.open = open }

    /// The target, opened on the first call.
    func target() throws -> PostgresTarget {
        try lock.withLock {
            if let t = opened { return t }
            let t = try open()
            opened = t
            return t
        }
    }

    /// Closes the target's session if it was opened.
    func close() { lock.withLock { opened?.session.close() } }
}
