import Foundation
import MockBinding
import TeleportMe

/// Goal: the mock at least this many times PostgreSQL's rate on the same cases (issue 19).
let mockToPostgresTarget = 20.0

/// RLS cases per second on the mock's engine and on PostgreSQL, measured in one run on the same
/// cases (TeleportMe's full expansion: table × command × persona and anon × fixture row), with
/// their ratio. Call from main.swift: `runPostgresBenchmark()`.
func runPostgresBenchmark() {
    do {
        let spec = try TeleportMeApp.spec()
        let cases = DifferentialExpansion.cases(spec)
        let cluster = try PostgresCluster.start()
        defer { cluster.stop() }
        let pg = try PostgresTarget.open(cluster: cluster, spec: spec, database: "bench_teleportme")
        defer { pg.session.close() }
        let mock = EngineTarget(database: try TeleportMeApp.makeBackend(clock: ManualClock(), ids: SeededIDGenerator(seed: 1)).database)
        func measure(_ target: RLSTarget) throws -> Double {
            for c in cases.prefix(200) { _ = try target.execute(c) } // warm-up
            let start = DispatchTime.now().uptimeNanoseconds
            for c in cases { _ = try target.execute(c) }
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            return Double(cases.count) / seconds
        }
        let m = try measure(mock)
        let p = try measure(pg)
        print("postgres-bench teleportme: \(cases.count) RLS cases on each backend")
        print(String(format: "  mock engine : %10.0f cases/s  (%.3f ms/case)", m, 1000 / m))
        print(String(format: "  PostgreSQL  : %10.0f cases/s  (%.3f ms/case, one psql session, a rolled-back transaction per case)", p, 1000 / p))
        print(
            String(
                format: "  ratio       : mock is %.1f× PostgreSQL (target >= %.0f×: %@)", m / p, mockToPostgresTarget,
                m / p >= mockToPostgresTarget ? "met" : "NOT met"))
    } catch {
        print("postgres-bench: \(error)")
    }
}
