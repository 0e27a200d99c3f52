import Foundation

/// One cell of `contracts verify`'s table: an app × rule kind and what became of it.
public struct VerifyRow: Sendable {
    /// What became of a rule kind for an app.
    public enum Status: Sendable {
        /// The kind ran these cases.
        case ran([CaseResult])
        /// The kind could not run here (a tool is missing): the reason and how to fix it.
        case skipped(String)
        /// The kind failed as a whole (its rules did not load, or a skip that `--require` forbids).
        case error(String)
        /// The kind did not run because the app's contracts failed to load (the load errors are
        /// reported once, with the app).
        case notRun
        /// The kind cannot run against this kind of target (`not applicable to --target: …`):
        /// shown, never omitted, and not a failure.
        case notApplicable(String)
    }

    /// The app (`shvil`).
    public var app: String
    /// The rule kind (`rls`).
    public var kind: String
    /// What happened.
    public var status: Status
    /// Wall-clock seconds the kind took for the app.
    public var seconds: Double

    /// A row.
    public init(app: String, kind: String, status: Status, seconds: Double) {
        self.app = app
        self.kind = kind
        self.status = status
        self.seconds = seconds
    }

    /// Runs `body` as the `kind` row of `app`: announced to `progress` before (row nil) and after,
    /// timed, a thrown error recorded as `.error`. The one place the `--target` and `--database`
    /// runners time a kind.
    static func timed(app: String, kind: String, progress: (_ app: String, _ kind: String, _ row: VerifyRow?) -> Void,
                      _ body: () throws -> Status) -> VerifyRow {
        progress(app, kind, nil)
        let start = Date()
        let status: Status
        do { status = try body() } catch { status = .error("\(error)") }
        let row = VerifyRow(app: app, kind: kind, status: status, seconds: Date().timeIntervalSince(start))
        progress(app, kind, row)
        return row
    }

    /// The cases run (empty unless `.ran`).
    public var cases: [CaseResult] { if case .ran(let r) = status { return r } else { return [] } }
    /// Failing cases.
    public var failures: [CaseResult] { cases.filter { !$0.passed } }
    /// Whether this row makes verify fail.
    public var failed: Bool {
        switch status {
        case .ran(let r): return r.contains { !$0.passed }
        case .skipped, .notApplicable: return false
        case .error, .notRun: return true
        }
    }
}

/// The result of `contracts verify`: load errors per app (each once) and one row per app × kind.
public struct VerifyOutcome: Sendable {
    /// Errors that kept an app's contracts from loading, each reported once.
    public var loadErrors: [(app: String, message: String)]
    /// App × rule kind rows, in the order they ran (kinds that do not apply to an app have none).
    public var rows: [VerifyRow]

    /// An outcome.
    public init(loadErrors: [(app: String, message: String)] = [], rows: [VerifyRow] = []) {
        self.loadErrors = loadErrors
        self.rows = rows
    }

    /// Every case run.
    public var cases: [CaseResult] { rows.flatMap(\.cases) }
    /// Every failing case.
    public var failures: [CaseResult] { rows.flatMap(\.failures) }
    /// Whether verify passes: no load error, no failing case or row, and at least one case ran.
    public var passed: Bool { loadErrors.isEmpty && !rows.contains(where: \.failed) && !cases.isEmpty }
}

/// Runs rule kinds over apps, checking first that each app's contracts load.
public enum VerifyRunner {
    /// Runs `suites` for every app of `apps`, in order. An app whose contracts do not load
    /// (`ContractFolderCheck`) has its errors recorded once and a `.notRun` row per kind. A
    /// suite's `VerifySkip` is a `.skipped` row, or an `.error` row when its kind is in
    /// `required`. `progress` is called before each kind starts (row nil) and after it ends.
    public static func run(apps: [any AppModule.Type], suites: [VerifySuite], required: Set<String> = [],
                           check: (any AppModule.Type) -> [String] = { ContractFolderCheck.problems($0) },
                           progress: (_ app: String, _ kind: String, _ row: VerifyRow?) -> Void = { _, _, _ in }) -> VerifyOutcome {
        var outcome = VerifyOutcome()
        for app in apps {
            progress(app.name, "load", nil)
            let problems = check(app)
            if !problems.isEmpty {
                outcome.loadErrors += problems.map { (app.name, $0) }
                for s in suites {
                    let row = VerifyRow(app: app.name, kind: s.kind, status: .notRun, seconds: 0)
                    outcome.rows.append(row)
                    progress(app.name, s.kind, row)
                }
                continue
            }
            for s in suites {
                progress(app.name, s.kind, nil)
                let start = Date()
                let status: VerifyRow.Status
                do {
                    let results = try s.run(app)
                    if results.isEmpty { continue }
                    status = .ran(results)
                } catch let skip as VerifySkip {
                    status = required.contains(s.kind) ? .error("required (--require \(s.kind)) but skipped: \(skip.reason)") : .skipped(skip.reason)
                } catch {
                    status = .error("\(error)")
                }
                let row = VerifyRow(app: app.name, kind: s.kind, status: status, seconds: Date().timeIntervalSince(start))
                outcome.rows.append(row)
                progress(app.name, s.kind, row)
            }
        }
        return outcome
    }
}
