import Foundation
import MockBinding
import XCTest

/// The gate's PostgreSQL work, started ahead of its suites: XCTest runs the suites one after
/// another, mostly on one core, so the cluster, the seeded databases and PostgreSQL's answers to
/// the differential cases are computed on a thread of their own from the first gate test on,
/// while the suites before the PostgreSQL ones run. Each value is computed once per process
/// (`PostgresGate.Memo`); a suite asking for one still being computed waits for it, and one
/// not started yet is computed by the suite itself. The checks themselves (mock against
/// PostgreSQL, the matrix's verdicts) stay in the suites.
extension PostgresGate {
    /// Starts the warm-up, once per process, for the PostgreSQL suites the process runs (the
    /// tests named on its command line, as `swift test --filter` names them; none named: all).
    static func startWarmUp(specs: LoadedSpecs) {
        let named = CommandLine.arguments.dropFirst().filter { !$0.hasPrefix("-") && !$0.hasSuffix(".xctest") }
            .flatMap { $0.split(separator: ",") }.map { String($0.split(separator: "/")[0].split(separator: ".").last ?? "") }
        let runs: (String) -> Bool = { suite in named.isEmpty || named.contains(suite) }
        let plan = WarmUpPlan(
            databaseGate: runs("DatabaseGateTests"), differential: runs("PostgresDifferentialGateTests"), functions: runs("PostgresFunctionGateTests"),
            targets: named.isEmpty || named.contains { $0.hasPrefix("Postgres") })
        guard plan.targets || plan.databaseGate, warmUpStarted.claim() else { return }
        Thread.detachNewThread {
            LoadedSpecs.$current.withValue(specs) { warmUp(plan) }
        }
    }

    /// What the warm-up makes, only what the process's suites use: the seeded databases (any
    /// `Postgres…` suite), `DatabaseGateTests`' runs, the differential's answers, the function
    /// and verify-script checks' results.
    struct WarmUpPlan {
        var databaseGate: Bool
        var differential: Bool
        var functions: Bool
        var targets: Bool
    }

    /// Once the warm-up has been claimed.
    private static let warmUpStarted = OnceFlag()

    /// The work, in the order the suites run: the cluster and every app's seeded database
    /// (which builds each app's migrated template, from which `DatabaseGateTests` copies its
    /// databases too), `DatabaseGateTests`' verify runs, PostgreSQL's answers to the
    /// differential, randomized and matrix cases, then the function and verify-script checks.
    /// Failures are left for the suites to meet and report.
    private static func warmUp(_ plan: WarmUpPlan) {
        guard (try? cluster()) != nil, let apps = try? appsWithSQL() else { return }
        if plan.targets { for app in apps { _ = try? target(app) } }
        if plan.databaseGate {
            _ = try? DatabaseGateTests.cleanRuns()
            _ = try? DatabaseGateTests.seededRun()
            _ = try? DatabaseGateTests.permissiveOutcomes()
            _ = try? DatabaseGateTests.droppedTriggerOutcomes()
        }
        if plan.differential {
            for app in apps { _ = try? differentialAnswers(app) }
            for app in apps { _ = try? randomAnswers(app) }
            for app in apps where RLSSuite.hasMatrix(app.name) { _ = try? matrixResults(app) }
        }
        if plan.functions {
            for app in apps { _ = try? functionResults(app) }
            for app in apps { _ = try? verifyScriptResults(app) }
        }
    }

    /// The app with the most differential cases (TeleportMe's reference tables, ten times any
    /// other's): its cases are shared with a second copy of its database.
    static func largestApp() throws -> String? {
        try memo.value("largest app") {
            try appsWithSQL().max { DifferentialExpansion.cases(try $0.spec()).count < DifferentialExpansion.cases(try $1.spec()).count }?.name
        }
    }

    /// PostgreSQL's answers to every differential case of an app (`DifferentialExpansion`).
    static func differentialAnswers(_ app: any AppModule.Type) throws -> RecordedAnswers {
        try memo.value("differential \(app.name)") {
            let cases = DifferentialExpansion.cases(try app.spec())
            let postgres: any RLSTarget =
                app.name == (try largestApp())
                ? ShardedRLSTarget([{ try target(app) }, { try target(app, copy: 1) }]) : try target(app)
            return RecordedAnswers(cases: cases, answers: postgres.executeAll(cases))
        }
    }

    /// PostgreSQL's answers to an app's randomized cases of the current seed.
    static func randomAnswers(_ app: any AppModule.Type, count: Int = 500) throws -> RecordedAnswers {
        let seed = PostgresChecks.seed
        return try memo.value("random \(app.name) \(seed) \(count)") {
            let cases = RandomizedCases.generate(try app.spec(), seed: seed, count: count)
            return RecordedAnswers(cases: cases, answers: try target(app).executeAll(cases))
        }
    }

    /// The shared RLS matrix's verdicts on an app's seeded database.
    static func matrixResults(_ app: any AppModule.Type) throws -> [CaseResult] {
        try memo.value("matrix \(app.name)") { PostgresChecks.matrixResults(try app.spec(), try target(app)) }
    }

    /// The app's `sql/checks.json` results on its seeded database.
    static func functionResults(_ app: any AppModule.Type) throws -> [CaseResult] {
        try memo.value("functions \(app.name)") {
            try PostgresChecks.functionResults(try app.spec(), try target(app), mock: try PostgresChecks.mockBackend(app))
        }
    }

    /// The app's `sql/verify/*.sql` scripts' results, each on a fresh seeded database (named
    /// apart from the one the suites' own script runs recreate, which may run meanwhile).
    static func verifyScriptResults(_ app: any AppModule.Type) throws -> [CaseResult] {
        try memo.value("verify scripts \(app.name)") {
            try PostgresChecks.verifyScriptResults(try app.spec(), cluster: try cluster(), database: "gate_scripts_\(app.name)")
        }
    }

    /// The process's memo of the values above.
    static let memo = Memo()

    /// Values computed once per process, by key: the first caller computes, callers meanwhile
    /// wait for its value; a computation that throws is not kept (the next caller tries again
    /// and meets the error itself).
    final class Memo: @unchecked Sendable {
        private let lock = NSLock()
        private var slots: [String: Slot] = [:]

        /// One key's value and the lock its computation holds.
        private final class Slot: @unchecked Sendable {
            let lock = NSLock()
            var value: Any?
        }

        func value<T>(_ key: String, _ make: () throws -> T) throws -> T {
            let slot = lock.withLock {
                if let s = slots[key] { return s }
                let s = Slot()
                slots[key] = s
                return s
            }
            return try slot.lock.withLock {
                if let v = slot.value as? T { return v }
                let v = try make()
                slot.value = v
                return v
            }
        }
    }

    /// A flag claimed once.
    final class OnceFlag: @unchecked Sendable {
        private let lock = NSLock()
        private var claimed = false
        /// True for the first caller only.
        func claim() -> Bool {
            lock.withLock {
                defer { claimed = true }; return !claimed
            }
        }
    }
}

/// PostgreSQL's outcomes of some cases, in case order, recorded once.
struct RecordedAnswers {
    var cases: [RLSCase]
    var answers: [Result<RLSOutcome, any Error>]

    /// The cases (with their answers) that `include` keeps.
    func filter(_ include: (RLSCase) -> Bool) -> RecordedAnswers {
        let kept = cases.indices.filter { include(cases[$0]) }
        return RecordedAnswers(cases: kept.map { cases[$0] }, answers: kept.map { answers[$0] })
    }

    /// A target replaying the answers; cases other than the recorded ones run on `live`.
    func target(live: @escaping () throws -> any RLSTarget) -> RecordedTarget { RecordedTarget(recorded: self, live: live) }
}

/// Replays recorded PostgreSQL answers: `executeAll` of exactly the recorded cases returns
/// their outcomes; anything else runs on the live target.
struct RecordedTarget: RLSTarget {
    let recorded: RecordedAnswers
    let live: () throws -> any RLSTarget

    func execute(_ rlsCase: RLSCase) throws -> RLSOutcome {
        if let i = recorded.cases.firstIndex(of: rlsCase) { return try recorded.answers[i].get() }
        return try live().execute(rlsCase)
    }

    func executeAll(_ cases: [RLSCase]) -> [Result<RLSOutcome, any Error>] {
        if cases == recorded.cases { return recorded.answers }
        do { return try live().executeAll(cases) } catch { return cases.map { _ in .failure(error) } }
    }
}
