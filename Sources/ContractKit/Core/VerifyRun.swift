import Foundation

/// One cell of `contracts verify`'s table: an app × rule kind and what became of it.
package struct VerifyRow: Sendable {
    /// What became of a rule kind for an app.
    package enum Status: Sendable {
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
    package var app: String
    /// The rule kind (`rls`).
    package var kind: String
    package var status: Status
    /// Wall-clock seconds the kind took for the app.
    package var seconds: Double

    /// Runs `body` as the `kind` row of `app`: announced to `progress` before (row nil) and after,
    /// timed, a thrown error recorded as `.error`. The one place the `--target` and `--database`
    /// runners time a kind.
    static func timed(
        app: String, kind: String, progress: (_ app: String, _ kind: String, _ row: VerifyRow?) -> Void,
        _ body: () throws -> Status
    ) -> VerifyRow {
        progress(app, kind, nil)
        let start = Date()
        let status: Status
        do { status = try body() } catch { status = .error("\(error)") }
        let row = VerifyRow(app: app, kind: kind, status: status, seconds: Date().timeIntervalSince(start))
        progress(app, kind, row)
        return row
    }

    /// The cases run (empty unless `.ran`).
    package var cases: [CaseResult] { if case .ran(let r) = status { return r } else { return [] } }
    package var failures: [CaseResult] { cases.filter { !$0.passed } }
    /// Whether this row makes verify fail.
    package var failed: Bool {
        switch status {
        case .ran(let r): return r.contains { !$0.passed }
        case .skipped, .notApplicable: return false
        case .error, .notRun: return true
        }
    }
}

/// The result of `contracts verify`: load errors per app (each once) and one row per app × kind.
package struct VerifyOutcome: Sendable {
    /// Errors that kept an app's contracts from loading, each reported once.
    package var loadErrors: [(app: String, message: String)] = []
    /// App × rule kind rows, in the order they ran (kinds that do not apply to an app have none).
    package var rows: [VerifyRow] = []

    package var cases: [CaseResult] { rows.flatMap(\.cases) }
    package var failures: [CaseResult] { rows.flatMap(\.failures) }
    /// Whether verify passes: no load error, no failing case or row, and at least one case ran.
    package var passed: Bool { loadErrors.isEmpty && !rows.contains(where: \.failed) && !cases.isEmpty }
}

/// Runs rule kinds over apps, checking first that each app's contracts load.
package enum VerifyRunner {
    /// Runs `suites` for every app of `apps`; the rows come in app order, each app's kinds in
    /// suite order. The app × kind cells run side by side, `width` at a time on threads of their
    /// own (`Concurrently.onThreads`), the PostgreSQL kinds first (they mostly wait on the server
    /// while other cells compute); values several kinds need (the RLS report, the RLS expansion:
    /// `RLSSuite.sharedReport`, `RLSSuite.sharedExpansion`) are computed once. An app whose
    /// contracts do not load (`ContractFolderCheck`) has its errors recorded once and a `.notRun`
    /// row per kind. A suite's `VerifySkip` is a `.skipped` row, or an `.error` row when its kind
    /// is in `required`. `progress` is called before each kind starts (row nil) and after it
    /// ends, one call at a time. Every app's contracts are decoded once for the whole run
    /// (`LoadedSpecs`, unless the caller bound its own): its kinds share the decoded spec.
    package static func run(
        apps: [any AppModule.Type], suites: [VerifySuite], required: Set<String> = [],
        check: (any AppModule.Type) -> [String] = { ContractFolderCheck.problems($0) },
        width: Int = ProcessInfo.processInfo.activeProcessorCount + 1,
        progress: (_ app: String, _ kind: String, _ row: VerifyRow?) -> Void = { _, _, _ in }
    ) -> VerifyOutcome {
        LoadedSpecs.$current.withValue(LoadedSpecs.current ?? LoadedSpecs()) {
            runCells(apps: apps, suites: suites, required: required, check: check, width: width, progress: progress)
        }
    }

    /// `run` with the specs bound.
    private static func runCells(
        apps: [any AppModule.Type], suites: [VerifySuite], required: Set<String>, check: (any AppModule.Type) -> [String],
        width: Int, progress: (_ app: String, _ kind: String, _ row: VerifyRow?) -> Void
    ) -> VerifyOutcome {
        let progressLock = NSLock()
        return withoutActuallyEscaping(progress) { progress in
            withoutActuallyEscaping(check) { check in
                let report: (String, String, VerifyRow?) -> Void = { a, k, r in progressLock.withLock { progress(a, k, r) } }
                let problems: [[String]] =
                    (try? Concurrently<[String]>.map(apps, width: width) { app in
                        report(app.name, "load", nil)
                        return check(app)
                    }) ?? []
                // Every cell of an app that loads, slowest kind first.
                var cells: [(app: Int, suite: Int)] = []
                for a in apps.indices where problems[a].isEmpty { for k in suites.indices { cells.append((a, k)) } }
                cells.sort { (suites[$0.suite].kind == "postgres" ? 0 : 1, $0.app, $0.suite) < (suites[$1.suite].kind == "postgres" ? 0 : 1, $1.app, $1.suite) }
                // Threads of their own: the PostgreSQL cells mostly wait on the server, and
                // Dispatch's pool would run no more cells than cores.
                let rows: [VerifyRow?] =
                    (try? Concurrently<VerifyRow?>.onThreads(cells, width: width) { cell in
                        row(apps[cell.app], suites[cell.suite], required: required, progress: report)
                    }) ?? []
                var byCell: [Int: [Int: VerifyRow]] = [:]
                for (cell, r) in zip(cells, rows) { if let r { byCell[cell.app, default: [:]][cell.suite] = r } }
                var outcome = VerifyOutcome()
                for a in apps.indices {
                    if !problems[a].isEmpty {
                        outcome.loadErrors += problems[a].map { (apps[a].name, $0) }
                        for s in suites {
                            let row = VerifyRow(app: apps[a].name, kind: s.kind, status: .notRun, seconds: 0)
                            outcome.rows.append(row)
                            report(apps[a].name, s.kind, row)
                        }
                        continue
                    }
                    for k in suites.indices { if let r = byCell[a]?[k] { outcome.rows.append(r) } }
                }
                return outcome
            }
        }
    }

    /// One app × kind cell: nil when the kind has no case for the app.
    static func row(
        _ app: any AppModule.Type, _ s: VerifySuite, required: Set<String>,
        progress: (_ app: String, _ kind: String, _ row: VerifyRow?) -> Void
    ) -> VerifyRow? {
        progress(app.name, s.kind, nil)
        let start = Date()
        let status: VerifyRow.Status
        do {
            let results = try s.run(app)
            if results.isEmpty { return nil }
            status = .ran(results)
        } catch let skip as VerifySkip {
            status = required.contains(s.kind) ? .error("required (--require \(s.kind)) but skipped: \(skip.reason)") : .skipped(skip.reason)
        } catch {
            status = .error("\(error)")
        }
        let row = VerifyRow(app: app.name, kind: s.kind, status: status, seconds: Date().timeIntervalSince(start))
        progress(app.name, s.kind, row)
        return row
    }
}
