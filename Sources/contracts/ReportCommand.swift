import Foundation
import ContractKit

/// `contracts report rls --out DIR [--app NAME] [--no-flips]`: runs every app's RLS matrix
/// (cases over the wire, then the flip test) and writes `DIR/<app>.md`, `DIR/<app>.html` and
/// `DIR/index.html` / `DIR/index.md`.
func runReport(_ args: [String]) -> Int32 {
    let opts = Options(args, flags: ["no-flips"])
    guard opts.positional.first == "rls" else { return fail("report: usage: contracts report rls --out DIR [--app NAME] [--no-flips]") }
    guard let outPath = opts.values["out"] else { return fail("report rls: --out DIR is required") }
    let out = URL(fileURLWithPath: outPath)
    var apps = allApps.filter { RLSSuite.hasMatrix($0.name) }
    if let name = opts.values["app"] {
        apps = apps.filter { $0.name == name }
        if apps.isEmpty { return fail("report rls: no app '\(name)' with a Contracts/\(name)/policies.json") }
    }
    do {
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        var pages: [(title: String, report: RLSReport)] = []
        for app in apps {
            let start = Date()
            let report = try RLSSuite.check(app, flips: !opts.flags.contains("no-flips"))
            try Data(RLSMatrixPage.markdown(report, title: app.title).utf8).write(to: out.appendingPathComponent("\(app.name).md"))
            try Data(RLSMatrixPage.html(report, title: app.title).utf8).write(to: out.appendingPathComponent("\(app.name).html"))
            print("\(app.name): \(RLSMatrixPage.summary(report)) (\(String(format: "%.1f", Date().timeIntervalSince(start))) s)")
            pages.append((app.title, report))
        }
        try Data(RLSMatrixPage.indexHTML(pages).utf8).write(to: out.appendingPathComponent("index.html"))
        try Data(RLSMatrixPage.indexMarkdown(pages).utf8).write(to: out.appendingPathComponent("index.md"))
        print("wrote \(pages.count * 2 + 2) files to \(out.path)")
        return 0
    } catch {
        return fail("report rls: \(error)")
    }
}
