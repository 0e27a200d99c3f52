import AppRegistry
import Foundation
import MockBinding

let reportSpec = CommandSpec(
    name: "report",
    summary: """
        report rls: runs every app's RLS matrix (cases over the wire, then the flip test) and writes
        DIR/<app>.md, DIR/<app>.html, DIR/index.html and DIR/index.md (DIR is created if missing).
        scripts/screenshot-rls renders the HTML in headless Chromium to a PNG.
        """,
    positionals: ["rls"],
    options: [
        .value("out", "DIR", required: true, "the folder to write (required)"),
        .value("app", "NAME", repeatable: true, "only this app (one of: \(appList); case-insensitive)"),
        .flag("no-flips", "skip the flip test (faster; cells show only their cases)")
    ],
    environment: commonEnvironment,
    exitStatus: [(0, "written"), (1, "a contract did not load or a page could not be written"), (2, "usage error")])

/// `contracts report rls --out DIR [--app NAME] [--no-flips]`: runs every app's RLS matrix
/// (cases over the wire, then the flip test) and writes `DIR/<app>.md`, `DIR/<app>.html` and
/// `DIR/index.html` / `DIR/index.md`.
func runReport(_ args: [String]) -> Int32 {
    var status: Int32 = 0
    guard let opts = parse(reportSpec, args, status: &status) else { return status }
    guard opts.positionals.first == "rls" else { return usageFail(reportSpec.usage("unknown report '\(opts.positionals[0])' (the one report is: rls)")) }
    guard let outPath = opts.value("out") else { return usageFail(reportSpec.usage("--out DIR is required")) }
    guard var apps = resolveApps(opts.values["app"], command: reportSpec) else { return 2 }
    apps = apps.filter { RLSSuite.hasMatrix($0.name) }
    if apps.isEmpty { return usageFail(reportSpec.usage("no app named has a Contracts/<app>/policies.json")) }
    // Before any work: the output folder must be a folder we can write.
    let out = URL(fileURLWithPath: outPath)
    var isDir: ObjCBool = false
    if FileManager.default.fileExists(atPath: out.path, isDirectory: &isDir), !isDir.boolValue {
        return usageFail(reportSpec.usage("--out \(outPath) is a file, not a folder; give a folder (created if missing)"))
    }
    do {
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
    } catch {
        return fail("report rls: cannot create the folder \(outPath): \(FileErrorText.describe(error: error, path: outPath, writing: true))")
    }
    if !FileManager.default.isWritableFile(atPath: out.path) {
        return fail("report rls: cannot write into \(outPath): permission denied")
    }
    func write(_ text: String, _ name: String) throws {
        let url = out.appendingPathComponent(name)
        do { try Data(text.utf8).write(to: url) } catch {
            throw ReportWriteError(message: "cannot write \(url.path): \(FileErrorText.describe(error: error, path: url.path, writing: true))")
        }
    }
    var pages: [(title: String, report: RLSReport)] = []
    for app in apps {
        let start = Date()
        do {
            let report = try RLSSuite.check(app, flips: !opts.flags.contains("no-flips"))
            try write(RLSMatrixPage.markdown(report, title: app.title), "\(app.name).md")
            try write(RLSMatrixPage.html(report, title: app.title), "\(app.name).html")
            print("\(app.name): \(RLSMatrixPage.summary(report)) (\(String(format: "%.1f", Date().timeIntervalSince(start))) s)")
            pages.append((app.title, report))
        } catch {
            _ = fail("report rls: \(app.name): \(error)"); return 1
        }
    }
    do {
        try write(RLSMatrixPage.indexHTML(pages), "index.html")
        try write(RLSMatrixPage.indexMarkdown(pages), "index.md")
    } catch {
        _ = fail("report rls: \(error)"); return 1
    }
    print("wrote \(pages.count * 2 + 2) files to \(out.path)")
    return 0
}

/// A page that could not be written, in words.
struct ReportWriteError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}
