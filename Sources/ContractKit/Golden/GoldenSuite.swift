import Foundation

/// What a golden case's mock replay produced: the part of the golden it must reproduce and what
/// the mock answered, compared like the golden itself (pretty JSON, line diff).
package struct GoldenReplay: Sendable {
    /// The part of the golden file the mock must reproduce (e.g. its `response`).
    package var expected: JSONValue
    /// What the mock answered, normalised (e.g. a generated id replaced by the golden's).
    package var actual: JSONValue
    /// Extra problems the replay found (status, headers), each one line.
    package var problems: [String]

    package init(expected: JSONValue, actual: JSONValue, problems: [String] = []) {
        self.expected = expected
        self.actual = actual
        self.problems = problems
    }
}

/// One golden case: a named output an app's logic produces from fixed inputs.
package struct GoldenCase: Sendable {
    /// The suite (folder under `Golden/<app>/`), e.g. `report`.
    package var suite: String
    /// The case (file name without `.json`).
    package var name: String
    /// Computes the output.
    package var produce: @Sendable () throws -> JSONValue
    /// Replays the case through the mock, given the golden file's content (nil: no replay).
    package var replay: (@Sendable (_ golden: JSONValue) throws -> GoldenReplay)?

    package init(
        suite: String, name: String, produce: @escaping @Sendable () throws -> JSONValue,
        replay: (@Sendable (_ golden: JSONValue) throws -> GoldenReplay)? = nil
    ) {
        self.suite = suite
        self.name = name
        self.produce = produce
        self.replay = replay
    }
}

package protocol GoldenSource: AppModule {
    static func goldenCases() throws -> [GoldenCase]
}

/// Runs golden cases against `Golden/`: compare (or record, per mode), report orphans, replay.
package enum GoldenSuite {
    /// The `goldens` rule kind of `contracts verify`: every app that is a `GoldenSource`, in
    /// `mode` (the CLI's comes from `SUPACONTRACTS_RECORD`, default never).
    package static func verifySuite(store: GoldenStore = GoldenStore(), mode: GoldenRecordMode = .never) -> VerifySuite {
        VerifySuite(kind: "goldens") { app in try results(app, store: store, mode: mode) }
    }

    /// Every golden of an app: its own cases (a `GoldenSource`) and its RLS matrix pages.
    package static func results(_ app: any AppModule.Type, store: GoldenStore, mode: GoldenRecordMode) throws -> [CaseResult] {
        var out: [CaseResult] = []
        if let source = app as? any GoldenSource.Type {
            out += try run(app: app.name, cases: source.goldenCases(), store: store, mode: mode)
        }
        return out + (try RLSGolden.results(app, mode: mode, store: store))
    }

    /// Checks every case: one result per golden file, one per replay, one per orphan file (a
    /// golden file no case produces; removed in mode `all`).
    package static func run(app: String, cases: [GoldenCase], store: GoldenStore, mode: GoldenRecordMode) throws -> [CaseResult] {
        var results: [CaseResult] = []
        var seen: [String: Set<String>] = [:]
        for c in cases {
            let label = "\(c.suite) · \(c.name)"
            if seen[c.suite, default: []].contains(c.name) {
                results.append(CaseResult(app: app, kind: "goldens", name: label, passed: false, message: "duplicate case name"))
                continue
            }
            seen[c.suite, default: []].insert(c.name)
            let output: JSONValue
            do { output = try c.produce() } catch {
                results.append(CaseResult(app: app, kind: "goldens", name: label, passed: false, message: "producing the output failed: \(error)"))
                continue
            }
            let r = try store.check(app: app, suite: c.suite, name: c.name, actual: output, mode: mode)
            results.append(CaseResult(app: app, kind: "goldens", name: label, passed: r.status.passed, message: message(r, store)))
            guard let replay = c.replay else { continue }
            // Replay against what is on disk now (just written, or the reviewed file).
            guard let data = FileManager.default.contents(atPath: r.file.path), let golden = try? JSONValue.parse(data) else {
                results.append(
                    CaseResult(app: app, kind: "goldens", name: label + " · mock replay", passed: false, message: "no readable golden file to replay"))
                continue
            }
            do {
                let rep = try replay(golden)
                let diff = LineDiff.unified(
                    from: GoldenStore.text(rep.expected), to: GoldenStore.text(rep.actual),
                    fromLabel: store.display(r.file) + " (replayed part)", toLabel: "mock")
                let problems = rep.problems + (diff.isEmpty ? [] : ["the mock's answer differs from the golden file:\n" + diff])
                results.append(
                    CaseResult(
                        app: app, kind: "goldens", name: label + " · mock replay", passed: problems.isEmpty,
                        message: problems.joined(separator: "\n")))
            } catch {
                results.append(CaseResult(app: app, kind: "goldens", name: label + " · mock replay", passed: false, message: "replay failed: \(error)"))
            }
        }
        for suite in Set(cases.map(\.suite)).sorted() {
            for orphan in store.existingCases(app: app, suite: suite) where !(seen[suite]?.contains(orphan) ?? false) {
                let path = store.display(try store.url(app: app, suite: suite, name: orphan))
                if mode == .all {
                    try store.remove(app: app, suite: suite, name: orphan)
                    results.append(
                        CaseResult(app: app, kind: "goldens", name: "\(suite) · \(orphan)", passed: true, message: "removed \(path): no case produces it"))
                } else {
                    results.append(
                        CaseResult(
                            app: app, kind: "goldens", name: "\(suite) · \(orphan)", passed: false,
                            message: "\(path) has no case; delete it or re-record with `contracts goldens --update`"))
                }
            }
        }
        return results
    }

    static func message(_ r: GoldenResult, _ store: GoldenStore) -> String {
        let path = store.display(r.file)
        switch r.status {
        case .matched: return ""
        case .recorded: return "recorded \(path)"
        case .updated: return "re-recorded \(path):\n\(r.diff)"
        case .missing:
            return
                "\(path) does not exist; actual output written to \(r.artifact.map(store.display) ?? "?"); record it with `swift run contracts goldens --update` or \(GoldenRecordMode.environmentKey)=missing"
        case .mismatch:
            return "\(path) differs from the output (actual written to \(r.artifact.map(store.display) ?? "?") beside a copy of the expected file):\n\(r.diff)"
        }
    }
}
