import Foundation

/// How one cell fared: its cases and its flips.
public struct RLSCellSummary: Sendable {
    /// The cell.
    public var cell: RLSCell
    /// Cases run.
    public var cases: Int
    /// Cases whose outcome differed from the matrix.
    public var failed: Int
    /// Flips of this cell tried (0 when the flip test did not run).
    public var flips: Int
    /// Flips some case noticed.
    public var flipsCaught: Int
    /// The flips no case noticed (`negated`, …).
    public var uncaughtFlips: [String]

    /// Green, red or grey in the report.
    public enum Status: String, Sendable {
        case passed, failed, noCases = "no-cases"
    }

    /// The cell's colour: every case passed, some failed, or there were none.
    public var status: Status { cases == 0 ? .noCases : (failed == 0 ? .passed : .failed) }
}

/// The result of running an app's matrix: every case's result and, when asked, the flips.
public struct RLSReport: Sendable {
    /// The expansion run.
    public var expansion: RLSExpansion
    /// One result per case, in `expansion.cases` order.
    public var results: [CaseResult]
    /// The flip test, when it ran.
    public var flips: [RLSFlipResult]?

    /// The app.
    public var app: String { expansion.app }

    /// Per-cell figures, in matrix order.
    public var cells: [RLSCellSummary] {
        expansion.cells.map { cell in
            let fl = (flips ?? []).filter { $0.flip.table == cell.table && $0.flip.command == cell.command }
            return RLSCellSummary(cell: cell, cases: cell.cases.count, failed: cell.cases.filter { !results[$0].passed }.count,
                                  flips: fl.count, flipsCaught: fl.filter(\.caught).count,
                                  uncaughtFlips: fl.filter { !$0.caught }.map(\.flip.kind))
        }
    }

    /// Results for `contracts verify`: every case, then one per flip (passed when caught).
    public var caseResults: [CaseResult] {
        results + (flips ?? []).map { f in
            CaseResult(app: app, kind: RLSSuite.kind, name: "\(f.flip.table) · \(f.flip.command.rawValue) · flip \(f.flip.kind)",
                       passed: f.caught,
                       message: f.caught ? "" : "no case noticed the flipped cell: the fixtures lack a witness row for it (\(f.casesRun) cases ran)")
        }
    }
}

/// Runs RLS matrices as executable specifications.
public enum RLSSuite {
    /// The rule kind in `contracts verify`.
    public static let kind = "rls"

    /// Runs every case of an expansion against a target.
    public static func run(_ expansion: RLSExpansion, on target: RLSTarget) -> [CaseResult] {
        expansion.cases.map { run($0, on: target) }
    }

    /// Runs one case: passed when the outcome is the matrix's.
    public static func run(_ c: RLSCase, on target: RLSTarget) -> CaseResult {
        do {
            let outcome = try target.execute(c)
            if let why = c.mismatch(outcome) {
                return CaseResult(app: c.app, kind: kind, name: c.name, passed: false, message: "\(why) — \(c.detail)")
            }
            return CaseResult(app: c.app, kind: kind, name: c.name, passed: true)
        } catch {
            return CaseResult(app: c.app, kind: kind, name: c.name, passed: false, message: "target failed: \(error) — \(c.detail)")
        }
    }

    /// The flip test: installs each flip of the matrix in turn and runs the cases of the flipped
    /// cell (and, for a flipped SELECT cell, the table's other cases, which depend on it) until
    /// one that passed under the original matrix fails. The original matrix is reinstalled after.
    public static func flipTest(_ expansion: RLSExpansion, on target: RLSPolicyInstalling, baseline: [CaseResult]) throws -> [RLSFlipResult] {
        var out: [RLSFlipResult] = []
        defer { try? target.install(expansion.policies) }
        for flip in RLSFlip.all(expansion.policies) {
            try target.install(flip.policies)
            var caught: String?
            var ran = 0
            for (i, c) in expansion.cases.enumerated() where c.table == flip.table && c.dependsOn.contains(flip.command) && baseline[i].passed {
                ran += 1
                let r = run(c, on: target)
                if !r.passed { caught = "\(r.name) · \(r.message)"; break }
            }
            out.append(RLSFlipResult(flip: flip, caughtBy: caught, casesRun: ran))
        }
        return out
    }

    /// Whether an app has an RLS matrix (`Contracts/<app>/policies.json`).
    public static func hasMatrix(_ app: String) -> Bool {
        FileManager.default.fileExists(atPath: ContractsLocator.app(app).appendingPathComponent("policies.json").path)
    }

    /// Builds the app's backend (fixed clock, seeded ids), expands its matrix and runs every case
    /// over the wire (`MockTarget`), then the flip test when `flips` is true.
    public static func check(_ app: any AppModule.Type, flips: Bool = true,
                             target makeTarget: (MockSupabase) -> RLSPolicyInstalling = { MockTarget(backend: $0) }) throws -> RLSReport {
        let clock = ManualClock()
        let backend = try app.makeBackend(clock: clock, ids: SeededIDGenerator(seed: 0x524C53))
        let expansion = RLSExpansion(spec: backend.configuration.spec, now: clock.now())
        let target = makeTarget(backend)
        let results = run(expansion, on: target)
        let flipResults = flips ? try flipTest(expansion, on: target, baseline: results) : nil
        return RLSReport(expansion: expansion, results: results, flips: flipResults)
    }

    /// `contracts verify --kind rls`: every case and every flip of an app with a matrix.
    public static let verifySuite = VerifySuite(kind: kind) { app in
        guard hasMatrix(app.name) else { return [] }
        return try check(app).caseResults
    }
}
