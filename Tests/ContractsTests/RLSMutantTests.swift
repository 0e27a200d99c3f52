import XCTest
import MockBinding

/// Deliberately broken backends the RLS suite must reject: each runs every app's cases and must
/// fail some of them.
final class RLSMutantTests: GateTestCase {
    /// Runs every case as the service role: RLS ignored, every row returned, every write allowed.
    final class IgnoresRLS: RLSTarget {
        let inner: MockTarget
        init(_ inner: MockTarget) { self.inner = inner }
        func execute(_ c: RLSCase) throws -> RLSOutcome {
            var asService = c
            asService.actor = .serviceRole
            return try inner.execute(asService)
        }
    }

    /// Answers every read with `[]` (hides every row) and runs writes normally.
    final class HidesRows: RLSTarget {
        let inner: RLSTarget
        init(_ inner: RLSTarget) { self.inner = inner }
        func execute(_ c: RLSCase) throws -> RLSOutcome {
            if case .select = c.operation { return RLSOutcome(status: 200, rows: []) }
            return try inner.execute(c)
        }
    }

    /// Reports every refusal as 403, also for anon (PostgREST answers 401 without a JWT).
    final class ForbiddenForAnon: RLSTarget {
        let inner: RLSTarget
        init(_ inner: RLSTarget) { self.inner = inner }
        func execute(_ c: RLSCase) throws -> RLSOutcome {
            var o = try inner.execute(c)
            if o.status == 401 { o.status = 403 }
            return o
        }
    }

    /// Refuses every write the way an app's trigger does (400 P0001): the suite may call the
    /// refusal of an allowed write inconclusive, but not the refusal of a write that should have
    /// reached no row at all.
    final class RefusesEveryWrite: RLSTarget {
        let inner: RLSTarget
        init(_ inner: RLSTarget) { self.inner = inner }
        func execute(_ c: RLSCase) throws -> RLSOutcome {
            if case .select = c.operation { return try inner.execute(c) }
            return RLSOutcome(status: 400, code: "P0001", message: "refused")
        }
    }

    /// A backend whose matrix lost every owner test (`col = auth.uid()` replaced by true) and
    /// every WITH CHECK: the classic "USING (true)" and "forgot WITH CHECK" bugs, all at once.
    static func weakened(_ p: PolicySet) -> PolicySet {
        func drop(_ e: Expr) -> Expr {
            switch e {
            case .compare(.eq, _, .claim("sub")), .compare(.eq, .claim("sub"), _): return .constant(true)
            case .any(let xs): return .any(xs.map(drop))
            case .all(let xs): return .all(xs.map(drop))
            case .not(let x): return .not(drop(x))
            case .exists(let t, let w): return .exists(table: t, where: drop(w))
            default: return e
            }
        }
        var q = p
        for ti in q.tables.indices {
            for (cmd, cell) in q.tables[ti].cells {
                var c = cell
                c.using = c.using.map(drop)
                c.check = cmd == .select || cmd == .delete ? nil : .constant(true)
                q.tables[ti].cells[cmd] = c
            }
        }
        return q
    }

    /// The app's mock as a mutant sees it: `.inProcess` over a fresh backend, or (`recorded`)
    /// that mock's answers to the expansion's cases, as it gave them in its one run of them.
    static func failures(_ app: String, _ mutant: Mutant) throws -> Int {
        guard let module = RLSGate.module(app) else { throw RLSTargetError("Contracts/\(app)/policies.json has no app module") }
        let (backend, _) = try RLSSuite.makeBackend(module)
        let expansion = try RLSGate.report(app).expansion
        let live = MockTarget(backend: backend, transport: .inProcess)
        let inner: RLSTarget = mutant.wrapsAnswers ? Recorded(cases: expansion.cases, outcomes: try recordedOutcomes(app, expansion), live: live) : live
        let statuses = RLSSuite.run(expansion, on: try mutant.wrap(inner, live))
        return statuses.filter(\.isFailure).count
    }

    /// What the app's own mock (`.inProcess`, a fresh backend) answers to each case of the
    /// expansion, once per process for every mutant that only changes those answers: each case
    /// runs from the fixtures and is undone, so its answer is the same whenever it runs.
    static func recordedOutcomes(_ app: String, _ expansion: RLSExpansion) throws -> [Result<RLSOutcome, any Error>] {
        try recordings.value(app) {
            guard let module = RLSGate.module(app) else { throw RLSTargetError("Contracts/\(app)/policies.json has no app module") }
            let (backend, _) = try RLSSuite.makeBackend(module)
            return MockTarget(backend: backend, transport: .inProcess).executeAll(expansion.cases)
        }
    }

    /// The recordings made so far, by app.
    private static let recordings = ProcessMemo<[Result<RLSOutcome, any Error>]>()

    /// The mock's recorded answers, for cases asked in the recorded order (a mutant may skip
    /// some: `HidesRows` asks for no read); a case not found after the last one answered runs on
    /// the mock itself.
    final class Recorded: RLSTarget {
        let cases: [RLSCase], outcomes: [Result<RLSOutcome, any Error>], live: MockTarget
        private var next = 0
        init(cases: [RLSCase], outcomes: [Result<RLSOutcome, any Error>], live: MockTarget) {
            self.cases = cases; self.outcomes = outcomes; self.live = live
        }
        func execute(_ c: RLSCase) throws -> RLSOutcome {
            var i = next
            while i < cases.count, i < outcomes.count {
                if cases[i] == c {
                    next = i + 1
                    return try outcomes[i].get()
                }
                i += 1
            }
            return try live.execute(c)
        }
    }

    /// `failures(app, mutant)` of every app with a matrix, each app against its own backend side
    /// by side; the counts in the apps' order.
    static func failuresOfEveryApp(_ mutant: Mutant) throws -> [(app: String, failures: Int)] {
        let apps = RLSGate.appsWithMatrix()
        return zip(apps, try Concurrently<Int>.map(apps) { try failures($0, mutant) }).map { ($0, $1) }
    }

    /// The deliberately broken backends below.
    enum Mutant: CaseIterable {
        case ignoresRLS, hidesRows, forbiddenForAnon, refusesEveryWrite, ownerTestsAndChecksDropped

        /// Whether the mutant only changes the answers the app's mock gives (and so may wrap
        /// its recorded answers, `recordedOutcomes`), rather than what the mock runs.
        var wrapsAnswers: Bool {
            switch self {
            case .hidesRows, .forbiddenForAnon, .refusesEveryWrite: return true
            case .ignoresRLS, .ownerTestsAndChecksDropped: return false
            }
        }

        /// The mutant around `answers` (the mock's answers: recorded when `wrapsAnswers`, else
        /// `live` itself), or installed in the app's own target `live`.
        func wrap(_ answers: RLSTarget, _ live: MockTarget) throws -> RLSTarget {
            switch self {
            case .ignoresRLS: return IgnoresRLS(live)
            case .hidesRows: return HidesRows(answers)
            case .forbiddenForAnon: return ForbiddenForAnon(answers)
            case .refusesEveryWrite: return RefusesEveryWrite(answers)
            case .ownerTestsAndChecksDropped:
                try live.install(RLSMutantTests.weakened(live.backend.mock.database.policies))
                return live
            }
        }
    }

    /// Each mutant's failure counts for every app, once per process (`GateWarmUp` starts them,
    /// one mutant after another, before this suite runs); each test below checks its own.
    static let counts: [Mutant: Result<[Count], any Error>] = Dictionary(
        uniqueKeysWithValues: Mutant.allCases.map { m in (m, Result { try failuresOfEveryApp(m).map { Count(app: $0.app, failures: $0.failures) } }) })

    /// One app's failing cases under a mutant.
    struct Count: Sendable {
        var app: String
        var failures: Int
    }

    func failuresOfEveryApp(_ mutant: Mutant) throws -> [Count] {
        try XCTUnwrap(Self.counts[mutant], "\(mutant) was not run").get()
    }

    func testATargetThatIgnoresRLSIsRejected() throws {
        for c in try failuresOfEveryApp(.ignoresRLS) {
            XCTAssertGreaterThan(c.failures, 0, "\(c.app): a target ignoring RLS passed every case")
        }
    }

    func testATargetThatHidesEveryRowIsRejected() throws {
        for c in try failuresOfEveryApp(.hidesRows) {
            XCTAssertGreaterThan(c.failures, 0, "\(c.app): a target hiding every row passed every case")
        }
    }

    func testATargetThatAnswers403ToAnonIsRejected() throws {
        for c in try failuresOfEveryApp(.forbiddenForAnon) {
            XCTAssertGreaterThan(c.failures, 0, "\(c.app): 403 instead of 401 for anon went unnoticed")
        }
    }

    func testATargetRefusingEveryWriteIsRejected() throws {
        for c in try failuresOfEveryApp(.refusesEveryWrite) {
            XCTAssertGreaterThan(c.failures, 0, "\(c.app): refusing every write passed every case")
        }
    }

    func testAMockWithOwnerTestsAndChecksDroppedIsRejected() throws {
        for c in try failuresOfEveryApp(.ownerTestsAndChecksDropped) {
            XCTAssertGreaterThan(c.failures, 0, "\(c.app): a matrix without owner tests and WITH CHECK passed every case")
        }
    }
}
