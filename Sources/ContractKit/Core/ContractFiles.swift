import Foundation

/// A file or folder of `Contracts/<app>/` and the rule kind of `contracts verify` that reads and
/// checks it. Every entry of an app's folder must be claimed by one: a file nothing reads would
/// pass verify whatever it says.
package struct ContractFile: Sendable {
    /// `flags.json`, or `interactions/` for a folder.
    package var name: String
    /// The rule kind that reads and checks it (`app-rules`, `rls`, …).
    package var kind: String
    /// Whether a missing file is a load error.
    package var required: Bool
    /// For the `app-rules` kind: decodes the file strictly and returns its checks (a throw is a
    /// failing case naming the file and JSON path). Nil where the kind's own machinery reads it.
    package var check: (@Sendable (_ folder: URL) throws -> [RuleCheck])?

    package init(_ name: String, kind: String, required: Bool = true, check: (@Sendable (_ folder: URL) throws -> [RuleCheck])? = nil) {
        self.name = name
        self.kind = kind
        self.required = required
        self.check = check
    }

    /// The files every app's contracts are made of, read by the common machinery.
    package static let common: [ContractFile] = [
        ContractFile("schema.json", kind: "models"),
        // The naming overlay of the generated table models (ModelOverlay; checked against the
        // schema by the `models` kind, and the generated files by the freshness test).
        ContractFile("models.json", kind: "models", required: false),
        ContractFile("policies.json", kind: "rls"),
        ContractFile("fixtures.json", kind: "fixtures"),
        ContractFile("fixtures/", kind: "fixtures", required: false),
        ContractFile("storage.json", kind: "client-rules", required: false),
        ContractFile("client-rules.json", kind: "client-rules", required: false),
        ContractFile("interactions/", kind: "interactions", required: false),
        // GoTrue settings (read with the app's spec; its sign-up, e-mail and redirect rules are
        // exercised by the app's documented interactions).
        ContractFile("auth.json", kind: "interactions", required: false),
        ContractFile("sql/", kind: "postgres", required: false),
        // What Realtime publishes (MockSupabase.realtime; the apps' realtime gate cases).
        ContractFile("realtime.json", kind: "app-rules", required: false) { folder in
            let publication = try RealtimePublication.load(folder: folder)
            let schema = try AppSpec.load(folder: folder).schema
            let known = Set(schema.tables.map(\.qualifiedName))
            let missing = publication.tables.keys.sorted().filter { !known.contains($0) }
            return [RuleCheck("every published table is in schema.json", violations: missing.map { "\($0) is published but not in schema.json" })]
        }
    ]
}

/// One named check of an app's rule file, with what it found wrong (empty: it holds).
package struct RuleCheck: Sendable, Equatable {
    /// `flags.json · every flag × environment as the stages give it`.
    package var name: String
    /// Violations, each naming what is wrong.
    package var violations: [String]

    package init(_ name: String, violations: [String]) {
        self.name = name
        self.violations = violations
    }
}

/// Checks that an app's contracts load at all, before any rule kind runs: each problem is
/// reported once, and the kinds that could not run say so.
package enum ContractFolderCheck {
    /// Load errors of `app`: missing required files, entries no rule kind reads, and the first
    /// error of loading the backend and the client rules. Empty when everything loads.
    package static func problems(_ app: any AppModule.Type, folder: URL? = nil) -> [String] {
        let folder = folder ?? ContractsLocator.app(app.name)
        let display = "Contracts/\(app.name)/"
        let fm = FileManager.default
        var isDir: ObjCBool = false
        guard fm.fileExists(atPath: folder.path, isDirectory: &isDir), isDir.boolValue else {
            return ["\(display): missing folder (looked in \(folder.path); set SUPACONTRACTS_ROOT to the package root)"]
        }
        var out: [String] = []
        let claims = ContractFile.common + app.contractFiles
        for c in claims where c.required {
            let path = folder.appendingPathComponent(c.name.hasSuffix("/") ? String(c.name.dropLast()) : c.name).path
            if !fm.fileExists(atPath: path) { out.append("\(display)\(c.name): missing file (read by the \(c.kind) rule kind)") }
        }
        let entries = ((try? fm.contentsOfDirectory(atPath: folder.path)) ?? []).filter { !$0.hasPrefix(".") }.sorted()
        for e in entries {
            var d: ObjCBool = false
            fm.fileExists(atPath: folder.appendingPathComponent(e).path, isDirectory: &d)
            let name = d.boolValue ? e + "/" : e
            if !claims.contains(where: { $0.name == name }) {
                out.append(
                    "\(display)\(name): no rule kind of verify reads this \(d.boolValue ? "folder" : "file"); remove it, or claim it in \(app.self).contractFiles with the check that reads it"
                )
            }
        }
        if !out.isEmpty { return out }
        do { _ = try app.makeBackendUnderTest(clock: ManualClock(), ids: SeededIDGenerator(seed: 1), folder: folder) } catch { out.append("\(error)") }
        do { _ = try ClientRules.load(app: app.name) } catch { out.append("\(error)") }
        return out
    }
}

/// The `app-rules` kind of `contracts verify`: every check of the app's own rule files
/// (`AppModule.contractFiles`), one case per check.
package enum AppRulesSuite {
    /// The rule kind's name.
    package static let kind = "app-rules"

    /// The suite for `contracts verify`.
    package static let suite = VerifySuite(kind: kind) { app in run(app) }

    /// One case per check of each claimed file; a file that does not load is one failing case
    /// naming it.
    package static func run(_ app: any AppModule.Type, folder: URL? = nil) -> [CaseResult] {
        let folder = folder ?? ContractsLocator.app(app.name)
        var out: [CaseResult] = []
        for file in app.contractFiles {
            guard let check = file.check else { continue }
            do {
                for c in try check(folder) {
                    out.append(
                        CaseResult(
                            app: app.name, kind: kind, name: "\(file.name) · \(c.name)", passed: c.violations.isEmpty,
                            message: c.violations.joined(separator: "; ")))
                }
            } catch {
                out.append(CaseResult(app: app.name, kind: kind, name: "\(file.name) · loads", passed: false, message: "\(error)"))
            }
        }
        // Every quoted number of the app's files equals the value its rule holds.
        out += SourceTraceSuite.cases(app: app.name, folder: folder)
        return out
    }
}
