import Foundation
import ContractKit

func runVerify(_ args: [String]) -> Int32 {
    let opts = Options(args)
    let apps = opts.values["app"].map { n in allApps.filter { $0.name == n } } ?? allApps
    if apps.isEmpty { return fail("verify: unknown app '\(opts.values["app"]!)'") }
    let suites = opts.values["kind"].map { k in allSuites.filter { $0.kind == k } } ?? allSuites
    var rows: [(String, String, Int, Int, Int)] = []
    var failures: [CaseResult] = []
    for app in apps {
        for suite in suites {
            let results: [CaseResult]
            do { results = try suite.run(app) } catch {
                results = [CaseResult(app: app.name, kind: suite.kind, name: "load", passed: false, message: "\(error)")]
            }
            if results.isEmpty { continue }
            let passed = results.filter(\.passed).count
            rows.append((app.name, suite.kind, results.count, passed, results.count - passed))
            failures += results.filter { !$0.passed }
        }
    }
    let header = ["app", "rule kind", "cases", "passed", "failed"]
    let table = rows.map { [$0.0, $0.1, String($0.2), String($0.3), String($0.4)] }
    let widths = header.indices.map { i in max(header[i].count, table.map { $0[i].count }.max() ?? 0) }
    func line(_ cells: [String]) -> String {
        cells.enumerated().map { i, c in i >= 2 ? String(repeating: " ", count: widths[i] - c.count) + c : c + String(repeating: " ", count: widths[i] - c.count) }.joined(separator: "  ")
    }
    print(line(header))
    print(widths.map { String(repeating: "-", count: $0) }.joined(separator: "  "))
    for r in table { print(line(r)) }
    let total = rows.reduce(0) { $0 + $1.2 }, failed = rows.reduce(0) { $0 + $1.4 }
    print("\(total) cases, \(total - failed) passed, \(failed) failed")
    for f in failures.prefix(50) { print("FAIL \(f)") }
    if failures.count > 50 { print("… and \(failures.count - 50) more failures") }
    return failed == 0 && total > 0 ? 0 : 1
}
