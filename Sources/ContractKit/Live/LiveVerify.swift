import Foundation

/// `contracts verify --target URL`: an app's contracts against a live Supabase-compatible
/// backend. Rows, in order: `provision` (personas, fixtures), `client-rules` (what the app's
/// loader and optimistic service send, `LiveClientRules`), `storage` (bucket settings and
/// limits, `LiveStorageChecks`, and bucket policies, `LiveStoragePolicies`), `interactions` and
/// `functions` (documented interactions; those calling an edge function form the `functions`
/// row), `rls` (every matrix case; its reads ran before the interactions), the kinds that cannot run over a URL as "not
/// applicable to --target", and `cleanup` (what the run created removed, nothing left behind).
package enum LiveVerify {
    /// The kinds that never run over a URL, with the reason shown in their row.
    package static let notApplicable: [(kind: String, reason: String)] = [
        ("fixtures", "not applicable to --target: fixtures are checked in-process; the provision row loads them into the backend"),
        ("models", "not applicable to --target: checks the package's Codable models against schema.json, not a backend"),
        ("goldens", "not applicable to --target: checks the package's own outputs against Golden/"),
        ("app-rules", "not applicable to --target: checks the rule files' own consistency"),
        ("postgres", "not applicable to --target: use --database URL or --migrations DIR"),
        ("rls flips", "not applicable to --target: the flip test installs altered policies; run --database for the SQL")
    ]

    /// The kinds a live run has (`LiveOptions.kinds` picks among them).
    package static let kinds = ["interactions", "functions", "rls", "storage", LiveClientRules.kind]

    /// Why a file cannot run on this backend (nil: it can).
    static func inapplicable(_ file: InteractionFile, hasInbox: Bool) -> String? {
        if file.steps.contains(where: { $0.advanceClock != nil }) { return "moves the backend's clock (advanceClock)" }
        if let why = file.clockBound { return "depends on the backend's clock: \(why)" }
        let text = file.steps.map { s -> String in
            let r = s.request
            return [r.path, r.query ?? "", r.rawBody ?? "", r.body?.serialized() ?? ""].joined(separator: " ") + r.headers.map(\.value).joined(separator: " ")
        }.joined(separator: " ")
        if !hasInbox && (text.contains("{{otp.") || text.contains("{{emailToken.")) {
            return "reads the e-mails GoTrue sent; the backend has no GET /__admin/inbox"
        }
        return nil
    }

    /// Every row for one app. `progress` is called before a kind starts (row nil) and after.
    package static func run(
        _ app: any AppModule.Type, endpoint: LiveEndpoint, options: LiveOptions = LiveOptions(),
        progress: (_ app: String, _ kind: String, _ row: VerifyRow?) -> Void = { _, _, _ in }
    ) -> [VerifyRow] {
        var rows: [VerifyRow] = []
        func timed(_ kind: String, _ body: () throws -> VerifyRow.Status) {
            rows.append(VerifyRow.timed(app: app.name, kind: kind, progress: progress, body))
        }
        let spec: AppSpec, statuses: PostgRESTStatusTable
        do { (spec, statuses) = (try app.spec(), try ContractsLocator.postgrestStatuses()) } catch {
            timed("provision") { .error("the \(app.title) contracts do not load: \(error)") }
            return rows
        }
        let backend = LiveBackend(endpoint: endpoint, spec: spec, options: options)
        let clientRules = try? ClientRules.load(app: app.name)
        var prepared = false
        timed("provision") {
            let r = try backend.prepare()
            prepared = r.allSatisfy(\.passed)
            return .ran(r)
        }
        if prepared {
            let transport = LiveTransport(backend)
            let shapes = GeneratedValueShapes(fixtures: spec.fixtures)
            var files: [InteractionFile] = []
            timed("interactions") {
                files = try InteractionReplay.load(app: app); return .ran([])
            }
            rows.removeLast()
            var skipped: [String] = []
            func wanted(_ k: String) -> Bool { options.kinds?.contains(k) ?? true }
            // What only reads the tables runs first, on the fixtures as loaded: on a backend the
            // API cannot put back exactly (a trigger stamps a row others refer to, and no
            // --restore-database) the reads still see the fixtures' values. Then the writes,
            // each put back: interactions, functions, the RLS matrix's writes.
            let reference = { try app.makeBackendUnderTest(clock: SystemClock(), ids: SystemIDGenerator(), folder: nil) }
            if wanted(LiveClientRules.kind), let rules = clientRules, LiveClientRules.applies(rules) {
                timed(LiveClientRules.kind) { .ran(LiveClientRules.run(backend, rules: rules, reference: try reference())) }
            }
            if !spec.buckets.isEmpty && wanted(LiveStorageChecks.kind) {
                timed(LiveStorageChecks.kind) { .ran(LiveStorageChecks.run(backend) + LiveStoragePolicies.run(backend, reference: try reference())) }
            }
            let matrix = RLSSuite.hasMatrix(app.name) && wanted(RLSSuite.kind)
            // Expanded only when the matrix runs (once per process: `RLSExpansion.current`).
            let expansion = matrix ? RLSExpansion.current(spec, statuses: statuses) : nil
            let target = LiveRLSTarget(backend)
            func reads(_ c: RLSCase) -> Bool { c.operation.command == .select && c.setup.isEmpty }
            let cases = expansion?.cases ?? []
            var statuses = [RLSCaseStatus?](repeating: nil, count: cases.count)
            let readsStarted = Date()
            for i in cases.indices where reads(cases[i]) { statuses[i] = RLSSuite.run(cases[i], on: target) }
            let readSeconds = Date().timeIntervalSince(readsStarted)
            for kind in ["interactions", "functions"] where wanted(kind) {
                let mine = files.filter { f in (f.steps.contains { $0.request.path.hasPrefix("/functions/v1/") } ? "functions" : "interactions") == kind }
                if mine.isEmpty { continue }
                timed(kind) {
                    var out: [CaseResult] = []
                    for f in mine {
                        if let why = inapplicable(f, hasInbox: transport.hasInbox) {
                            skipped.append("\(f.file.split(separator: "/").last ?? "") (\(why))"); continue
                        }
                        let r = InteractionReplay.replay(f, over: transport, shapes: shapes)
                        try backend.restore()
                        out.append(
                            CaseResult(
                                app: app.name, kind: kind, name: "\(f.file.split(separator: "/").last ?? "") · \(f.name)",
                                passed: r.passed, message: r.failures.joined(separator: "\n")))
                    }
                    return .ran(out)
                }
            }
            if !skipped.isEmpty {
                timed("interactions") { .notApplicable("not applicable to --target: \(skipped.count) files: " + skipped.joined(separator: ", ")) }
            }
            if let expansion {
                timed(RLSSuite.kind) {
                    for i in cases.indices where statuses[i] == nil { statuses[i] = RLSSuite.run(cases[i], on: target) }
                    return .ran(RLSReport(expansion: expansion, statuses: statuses.compactMap { $0 }, flips: nil).caseResults)
                }
                rows[rows.count - 1].seconds += readSeconds
            }
        }
        if options.kinds == nil {
            for (kind, reason) in notApplicable { timed(kind) { .notApplicable(reason) } }
            let wire = prepared && LiveClientRules.applies(clientRules) ? "; the loader and optimistic resources ran in the client-rules row above" : ""
            timed(LiveClientRules.kind) { .notApplicable("not applicable to --target: " + LiveClientRules.clientSideReason + wire) }
        }
        timed("cleanup") { .ran([backend.cleanup()]) }
        return rows
    }

    /// Every app against one backend (each app's run provisions and cleans up its own).
    package static func outcome(
        apps: [any AppModule.Type], endpoint: LiveEndpoint, options: LiveOptions = LiveOptions(),
        progress: (_ app: String, _ kind: String, _ row: VerifyRow?) -> Void = { _, _, _ in }
    ) -> VerifyOutcome {
        VerifyOutcome(rows: apps.flatMap { run($0, endpoint: endpoint, options: options, progress: progress) })
    }
}
