import Foundation

package enum RLSCaseStatus: Sendable, Equatable {
    /// The outcome is the matrix's.
    case passed
    /// The outcome differs from the matrix's (`expected allowed, got 0 rows — row id=…`).
    case failed(String)
    /// The statement reached the app's own code (a trigger, a constraint), which refused it with
    /// an error other than RLS's: the case says nothing about the matrix.
    case inconclusive(String)

    package var isFailure: Bool { if case .failed = self { return true }; return false }
}

/// How one cell fared: its cases and its flips.
package struct RLSCellSummary: Sendable {
    package var cell: RLSCell
    package var cases: Int
    /// Cases whose outcome differed from the matrix.
    package var failed: Int
    /// Cases refused by the app's own code.
    package var inconclusive: Int
    /// Flips of this cell tried (0 when the flip test did not run).
    package var flips: Int
    /// Flips some case noticed.
    package var flipsCaught: Int
    /// Flips the app's own code hides from every request.
    package var flipsMasked: Int
    /// Flips no case noticed (a failure: a missing witness or a target ignoring the flip).
    package var uncaughtFlips: [String]

    /// Green, red or grey in the report.
    package enum Status: String, Sendable {
        /// Every case passed and every flip was caught: fully checked.
        case passed
        /// No case failed, but the cell is only partly checked: some cases were inconclusive
        /// (refused by the app's own code before RLS decided) or some flips were masked.
        case partial
        /// A case failed or a flip went unnoticed.
        case failed
        case noCases = "no-cases"
    }

    /// The cell's colour: a failure wins; then no cases; then partly checked (inconclusive
    /// cases or masked flips); else fully checked.
    package var status: Status {
        if failed > 0 || !uncaughtFlips.isEmpty { return .failed }
        if cases == 0 { return .noCases }
        return inconclusive > 0 || flipsMasked > 0 ? .partial : .passed
    }
}

/// The result of running an app's matrix: every case's verdict and, when asked, the flips.
package struct RLSReport: Sendable {
    package var expansion: RLSExpansion
    /// One verdict per case, in `expansion.cases` order.
    package var statuses: [RLSCaseStatus]
    /// The flip test, when it ran.
    package var flips: [RLSFlipResult]?

    package var app: String { expansion.app }

    /// Per-cell figures, in matrix order.
    package var cells: [RLSCellSummary] {
        expansion.cells.map { cell in
            let fl = (flips ?? []).filter { $0.flip.table == cell.table && $0.flip.command == cell.command }
            return RLSCellSummary(
                cell: cell, cases: cell.cases.count,
                failed: cell.cases.filter { statuses[$0].isFailure }.count,
                inconclusive: cell.cases.filter {
                    if case .inconclusive = statuses[$0] { return true }; return false
                }.count,
                flips: fl.count, flipsCaught: fl.filter(\.caught).count,
                flipsMasked: fl.filter {
                    if case .masked = $0.verdict { return true }; return false
                }.count,
                uncaughtFlips: fl.filter { !$0.verdict.acceptable }.map(\.flip.kind))
        }
    }

    /// Results for `contracts verify` and the gate: every case (inconclusive ones pass with a
    /// note), then one per flip (passes when caught or masked).
    package var caseResults: [CaseResult] {
        let cases = zip(expansion.cases, statuses).map { c, s -> CaseResult in
            switch s {
            case .passed: return CaseResult(app: c.app, kind: RLSSuite.kind, name: c.name, passed: true)
            case .failed(let m): return CaseResult(app: c.app, kind: RLSSuite.kind, name: c.name, passed: false, message: m)
            case .inconclusive(let m): return CaseResult(app: c.app, kind: RLSSuite.kind, name: c.name, passed: true, message: "inconclusive: \(m)")
            }
        }
        let flipResults = (flips ?? []).map { f in
            CaseResult(
                app: app, kind: RLSSuite.kind, name: "\(f.flip.table) · \(f.flip.command.rawValue) · flip \(f.flip.kind)",
                passed: f.verdict.acceptable, message: f.verdict.acceptable ? "" : String(f.summary.dropFirst(f.flip.name.count + 2)))
        }
        return cases + flipResults
    }

    package var failures: [CaseResult] { caseResults.filter { !$0.passed } }

    /// A report of an expansion run on some target (`flips` nil: the flip test did not run).
    package init(expansion: RLSExpansion, statuses: [RLSCaseStatus], flips: [RLSFlipResult]?) {
        self.expansion = expansion
        self.statuses = statuses
        self.flips = flips
    }
}

/// Runs RLS matrices as executable specifications.
package enum RLSSuite {
    /// The rule kind in `contracts verify`.
    package static let kind = "rls"

    /// Judges an outcome against a case.
    package static func judge(_ c: RLSCase, _ outcome: RLSOutcome) -> RLSCaseStatus {
        guard let why = c.mismatch(outcome) else { return .passed }
        // PostgreSQL checks a new row against WITH CHECK before its constraints (class 23):
        // meeting a constraint means the row got past row-level security.
        if case .error(_, "42501", let m?) = c.expected, m.hasPrefix("new row violates"), outcome.code?.hasPrefix("23") == true {
            return .failed("\(why) (the row got past row-level security) — \(c.detail)")
        }
        if c.appCodeRuns && isAppRefusal(outcome) {
            return .inconclusive("refused by the app's own code: \(outcome) — \(c.detail)")
        }
        return .failed("\(why) — \(c.detail)")
    }

    /// An error the app's code raised (a trigger, a constraint), not RLS or a grant: a 4xx with an
    /// error body whose message is not one of PostgreSQL's RLS or privilege messages.
    package static func isAppRefusal(_ o: RLSOutcome) -> Bool {
        guard let code = o.code, (400..<500).contains(o.status) else { return false }
        let message = o.message ?? ""
        if code == "42501" && (message.hasPrefix("new row violates row-level security policy") || message.hasPrefix("permission denied for")) { return false }
        return true
    }

    /// Runs one case on a target (a target failure counts as a failed case).
    package static func run(_ c: RLSCase, on target: RLSTarget) -> RLSCaseStatus {
        do { return judge(c, try target.execute(c)) } catch {
            return .failed("target failed: \(error) — \(c.detail)")
        }
    }

    /// Runs every case of an expansion against a target.
    package static func run(_ expansion: RLSExpansion, on target: RLSTarget) -> [RLSCaseStatus] {
        run(expansion.cases, on: target)
    }

    /// Runs cases against a target (`executeAll`: together where the target can), each judged
    /// on its own outcome; a target failure counts as that case failing.
    package static func run(_ cases: [RLSCase], on target: RLSTarget) -> [RLSCaseStatus] {
        zip(cases, target.executeAll(cases)).map { c, r in
            switch r {
            case .success(let o): return judge(c, o)
            case .failure(let error): return .failed("target failed: \(error) — \(c.detail)")
            }
        }
    }

    /// The flip test. For each flip of the matrix (one cell changed), the oracle names the cases
    /// whose expected outcome the flip changes — the cases that must notice it. The flipped
    /// matrix is installed and those cases run (against the original expectations) until one
    /// fails. No such case: the fixtures lack a witness. All refused by the app's own code:
    /// masked. Some kept their original outcome and none failed: the target ignores the flip.
    /// The original matrix is reinstalled after.
    package static func flipTest(_ expansion: RLSExpansion, on target: RLSPolicyInstalling, baseline: [RLSCaseStatus]) throws -> [RLSFlipResult] {
        var out: [RLSFlipResult] = []
        defer { try? target.install(expansion.policies) }
        for flip in RLSFlip.all(expansion.policies, schema: expansion.schema) {
            let flipped = expansion.expectations(under: flip.policies, table: flip.table)
            let changed = flipped.keys.sorted().filter { i in flipped[i] != expansion.cases[i].expected }
            let witnesses = changed.filter { baseline[$0] == .passed }
            guard !witnesses.isEmpty else {
                // Witnesses the app's own code refused even under the original matrix cannot show
                // the flip either.
                let refused = changed.first {
                    if case .inconclusive = baseline[$0] { return true }; return false
                }
                let verdict: RLSFlipVerdict = refused.map { .masked("\(expansion.cases[$0].name): refused under the original matrix too") } ?? .noWitness
                out.append(RLSFlipResult(flip: flip, verdict: verdict, witnesses: changed.count, casesRun: 0, disagreements: []))
                continue
            }
            try target.install(flip.policies)
            var verdict: RLSFlipVerdict?
            var ran = 0
            var kept: String?
            var masked: String?
            var disagreements: [String] = []
            for i in witnesses {
                ran += 1
                let c = expansion.cases[i]
                let outcome: RLSOutcome
                do { outcome = try target.execute(c) } catch {
                    verdict = .notEnforced("\(c.name): target failed: \(error)")
                    break
                }
                var underFlip = c
                underFlip.expected = flipped[i]!
                if case .failed(let why) = judge(underFlip, outcome) { disagreements.append("\(c.name) · \(why)") }
                switch judge(c, outcome) {
                case .failed(let why): verdict = .caught(by: "\(c.name) · \(why)")
                case .inconclusive(let why): masked = masked ?? "\(c.name): \(why)"
                case .passed: kept = kept ?? "\(c.name) (\(c.detail))"
                }
                if verdict != nil { break }
            }
            let final = verdict ?? (kept.map { .notEnforced($0) } ?? .masked(masked ?? ""))
            out.append(RLSFlipResult(flip: flip, verdict: final, witnesses: witnesses.count, casesRun: ran, disagreements: disagreements))
        }
        return out
    }

    /// Whether an app has an RLS matrix (`Contracts/<app>/policies.json`).
    package static func hasMatrix(_ app: String) -> Bool {
        FileManager.default.fileExists(atPath: ContractsLocator.app(app).appendingPathComponent("policies.json").path)
    }

    /// The app's backend as the RLS suite runs it: a fixed clock (2026-01-01) and seeded ids.
    package static func makeBackend(_ app: any AppModule.Type) throws -> (any BackendUnderTest, Date) {
        let clock = ManualClock()
        return (try app.makeBackendUnderTest(clock: clock, ids: SeededIDGenerator(seed: 0x524C53), folder: nil), clock.now())
    }

    /// Expands the app's matrix, runs every case against the mock over `transport` (URLSession
    /// through the URLProtocol by default), then, when `flips` is true, the flip test against a
    /// second backend in process (rollback isolation: the flip test runs thousands of writes).
    /// `expansion`: the app's expansion made elsewhere at the backend's fixed clock
    /// (`sharedExpansion`); nil: expanded here from the backend's spec.
    package static func check(
        _ app: any AppModule.Type, flips: Bool = true, transport: MockTarget.Transport = .urlSession, expansion given: RLSExpansion? = nil
    ) throws -> RLSReport {
        let (backend, now) = try makeBackend(app)
        let expansion = try given ?? RLSExpansion(spec: backend.served.spec, now: now, statuses: try ContractsLocator.postgrestStatuses())
        let statuses = run(expansion, on: MockTarget(backend: backend, transport: transport))
        var flipResults: [RLSFlipResult]?
        if flips {
            let (flipBackend, _) = try makeBackend(app)
            flipResults = try flipTest(expansion, on: MockTarget(backend: flipBackend, transport: .inProcess), baseline: statuses)
        }
        return RLSReport(expansion: expansion, statuses: statuses, flips: flipResults)
    }

    /// `check(app)` once per process: the report is a pure function of the app's contracts, and
    /// both `verify`'s `rls` and `goldens` kinds need it.
    package static func sharedReport(_ app: any AppModule.Type) throws -> RLSReport {
        try reports.value(app.name) { try check(app, expansion: try sharedExpansion(app)) }
    }

    /// The reports computed so far in this process, by app.
    private static let reports = ProcessMemo<RLSReport>()

    /// The app's expansion at the fixed clock of `makeBackend` (2026-01-01), once per process:
    /// the report's (`sharedReport`), and the `postgres` kind's matrix when the expansion does
    /// not read the clock (`RLSExpansionClock`), so verify's two kinds expand each app once.
    package static func sharedExpansion(_ app: any AppModule.Type) throws -> RLSExpansion {
        try expansions.value(app.name) {
            RLSExpansion(spec: try app.spec(), now: ManualClock().now(), statuses: try ContractsLocator.postgrestStatuses())
        }
    }

    /// The expansions of `sharedExpansion`, by app.
    private static let expansions = ProcessMemo<RLSExpansion>()

    /// `contracts verify --kind rls`: every case and every flip of an app with a matrix.
    package static let verifySuite = VerifySuite(kind: kind) { app in
        guard hasMatrix(app.name) else { return [] }
        return try sharedReport(app).caseResults
    }
}
