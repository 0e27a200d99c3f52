import AppRegistry
import Foundation
import MockBinding

let goldensSpec = CommandSpec(
    name: "goldens",
    summary: """
        Compares every app's golden files (Golden/<app>/) with the current output and prints a unified diff
        for each mismatch (the actual output is written under artifacts/golden/). With --update, re-records
        them and prints the diff of each file that changed, for review before committing.
        """,
    options: [
        .flag("update", "re-record every golden file (record mode all) instead of comparing"),
        .value("app", "NAME", repeatable: true, "only this app (one of: \(appList); case-insensitive)")
    ],
    environment: commonEnvironment + [("SUPACONTRACTS_RECORD", "record mode without --update: never (default) | missing | failed | all")],
    exitStatus: [(0, "every golden matches (or was written)"), (1, "a golden differs or cannot be produced"), (2, "usage error")])

/// `contracts goldens [--update] [--app NAME]`: compares every app's golden files with the
/// current output (mode from SUPACONTRACTS_RECORD, default never) or, with `--update`, rewrites
/// them (mode all) and prints the diff of each file that changed, for review.
func runGoldens(_ args: [String]) -> Int32 {
    var status: Int32 = 0
    guard let opts = parse(goldensSpec, args, status: &status) else { return status }
    guard let apps = resolveApps(opts.values["app"], command: goldensSpec) else { return 2 }
    let mode: GoldenRecordMode
    if opts.flags.contains("update") {
        mode = .all
    } else {
        do { mode = try GoldenRecordMode.from(environment: ProcessInfo.processInfo.environment) } catch { return fail("goldens: \(error)") }
    }
    let store = GoldenStore()
    var total = 0, failed = 0, changed = 0
    for app in apps {
        let results: [CaseResult]
        do { results = try GoldenSuite.results(app, store: store, mode: mode) } catch {
            print("FAIL \(app.name) · load · \(error)")
            total += 1; failed += 1
            continue
        }
        for r in results {
            total += 1
            if !r.passed { failed += 1 }
            if r.message.isEmpty {
                print("ok    \(app.name) · \(r.name)")
            } else {
                if r.passed { changed += 1 }
                print("\(r.passed ? "wrote" : "FAIL ") \(app.name) · \(r.name)")
                print(r.message.split(separator: "\n", omittingEmptySubsequences: false).map { "      " + $0 }.joined(separator: "\n"))
            }
        }
    }
    print("\(total) golden checks (mode \(mode.rawValue)): \(total - failed) passed, \(failed) failed, \(changed) files written")
    if failed > 0 && mode == .never {
        print("review the diffs; if the change is intended: swift run contracts goldens --update")
    }
    return failed == 0 && total > 0 ? 0 : 1
}
