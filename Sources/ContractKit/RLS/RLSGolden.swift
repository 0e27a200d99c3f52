import Foundation

/// Golden files of the RLS pages: `Golden/<app>/rls/matrix.md` and `matrix.html`, text compared
/// byte for byte, with the golden machinery's record modes (`SUPACONTRACTS_RECORD`, default
/// never), statuses, line diff and artifacts folder. (`GoldenStore.check` compares JSON files;
/// the pages are Markdown and HTML.)
package enum RLSGolden {
    /// The golden file of a page.
    package static func url(app: String, name: String, store: GoldenStore = GoldenStore()) -> URL {
        store.root.appendingPathComponent(app).appendingPathComponent("rls").appendingPathComponent(name)
    }

    /// Compares `actual` with `Golden/<app>/rls/<name>` under `mode`, writing what the mode allows;
    /// a mismatch writes the actual page to `<artifacts>/<app>/rls/<name>`.
    package static func check(
        app: String, name: String, actual: String, mode: GoldenRecordMode,
        store: GoldenStore = GoldenStore()
    ) throws -> GoldenResult {
        let file = url(app: app, name: name, store: store)
        let artifact = store.artifacts.appendingPathComponent(app).appendingPathComponent("rls").appendingPathComponent(name)
        guard let data = FileManager.default.contents(atPath: file.path) else {
            if mode == .never {
                try write(actual, artifact, store)
                return GoldenResult(status: .missing, file: file, diff: "", artifact: artifact)
            }
            try write(actual, file, store)
            return GoldenResult(status: .recorded, file: file, diff: "")
        }
        let expected = String(decoding: data, as: UTF8.self)
        if expected == actual { return GoldenResult(status: .matched, file: file, diff: "") }
        let diff = LineDiff.unified(from: expected, to: actual, fromLabel: store.display(file), toLabel: "actual")
        if mode == .all || mode == .failed {
            try write(actual, file, store)
            return GoldenResult(status: .updated, file: file, diff: diff)
        }
        try write(actual, artifact, store)
        return GoldenResult(status: .mismatch, file: file, diff: diff, artifact: artifact)
    }

    /// The `goldens` results of an app's matrix pages (`matrix.md`, `matrix.html`); none when the
    /// app has no policies.json.
    package static func results(_ app: any AppModule.Type, mode: GoldenRecordMode, store: GoldenStore = GoldenStore()) throws -> [CaseResult] {
        guard RLSSuite.hasMatrix(app.name) else { return [] }
        let report = try RLSSuite.sharedReport(app)
        return try [("matrix.md", RLSMatrixPage.markdown(report, title: app.title)), ("matrix.html", RLSMatrixPage.html(report, title: app.title))].map {
            name, text in
            let r = try check(app: app.name, name: name, actual: text, mode: mode, store: store)
            return CaseResult(
                app: app.name, kind: "goldens", name: "rls · \(name)", passed: r.status.passed, message: message(r, store: store, status: r.status))
        }
    }

    /// A failure message for a result: what happened, the diff, and the command that re-records.
    package static func message(_ r: GoldenResult, store: GoldenStore = GoldenStore(), status: GoldenStatus? = nil) -> String {
        let record = "if intended, re-record: swift run contracts goldens --update"
        switch r.status {
        case .matched: return ""
        case .recorded, .updated: return status == nil ? "" : "re-recorded \(store.display(r.file))" + (r.diff.isEmpty ? "" : ":\n\(r.diff)")
        case .missing: return "missing golden file \(store.display(r.file)); \(record)"
        case .mismatch: return "\(store.display(r.file)) differs (actual page: \(r.artifact.map(store.display) ?? "-")):\n\(r.diff)\n\(record)"
        }
    }

    static func write(_ text: String, _ file: URL, _ store: GoldenStore) throws {
        do {
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: file, options: .atomic)
        } catch {
            throw GoldenError.writeFailed(path: store.display(file), reason: "\(error)")
        }
    }
}
