import Foundation
import ContractKit

/// `contracts goldens [--update] [--app NAME]`: compares every app's golden files with the
/// current output (mode from SUPACONTRACTS_RECORD, default never) or, with `--update`, rewrites
/// them (mode all) and prints the diff of each file that changed, for review.
func runGoldens(_ args: [String]) -> Int32 {
    let opts = Options(args, flags: ["update"])
    if let unknown = opts.values.keys.first(where: { $0 != "app" }) ?? opts.flags.first(where: { $0 != "update" }) ?? opts.positional.first {
        return fail("goldens: unknown argument '\(unknown)' (usage: contracts goldens [--update] [--app NAME])")
    }
    let apps = opts.values["app"].map { n in allApps.filter { $0.name == n } } ?? allApps
    if apps.isEmpty { return fail("goldens: unknown app '\(opts.values["app"]!)' (one of: \(allApps.map { $0.name }.joined(separator: ", ")))") }
    let mode: GoldenRecordMode
    if opts.flags.contains("update") {
        mode = .all
    } else {
        do { mode = try GoldenRecordMode.from() } catch { return fail("goldens: \(error)") }
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
