import Foundation

/// The `fixtures` rule kind: the app's contracts load, every fixture row reads back over the
/// wire (PostgREST, as the service role, by primary key) exactly as PostgreSQL would print it,
/// and every persona signs in with its documented password through GoTrue.
package enum FixtureSuite {
    /// The suite for `contracts verify`.
    package static let suite = VerifySuite(kind: "fixtures") { app in try run(app) }

    /// Runs every case for an app (empty when the app has no contracts yet).
    package static func run(_ app: any AppModule.Type) throws -> [CaseResult] {
        let folder = ContractsLocator.app(app.name)
        guard FileManager.default.fileExists(atPath: folder.appendingPathComponent("schema.json").path) else { return [] }
        let backend = try app.makeBackendUnderTest(clock: ManualClock(), ids: SeededIDGenerator(seed: 1), folder: nil)
        return try run(backend: backend, app: app.name)
    }

    /// Runs every case against a backend (exposed so tests can hand in a deliberately broken one).
    package static func run(backend: any BackendUnderTest, app: String) throws -> [CaseResult] {
        let wire = WireClient(backend)
        let spec = backend.served.spec
        var results: [CaseResult] = []
        for (table, rows) in spec.fixtures.tables {
            guard let ts = spec.schema.table(table), !ts.primaryKey.isEmpty, ts.schema == "public" else { continue }
            for row in rows {
                guard case .object(let expected) = row else { continue }
                let keyText = ts.primaryKey.map { expected[$0].map { $0.stringValue ?? $0.serialized() } ?? "?" }.joined(separator: ",")
                let name = "\(table) · \(keyText) · reads back as stored"
                do {
                    let query = ts.primaryKey.map { c in "\(c)=eq.\(expected[c].map { $0.stringValue ?? $0.serialized() } ?? "")" }.joined(separator: "&")
                    let r = try wire.send(method: "GET", path: "/rest/v1/\(table)", query: query, as: "service_role")
                    guard r.status == 200, let got = r.jsonBody?.arrayValue, got.count == 1, case .object(let actual) = got[0] else {
                        results.append(
                            CaseResult(
                                app: app, kind: "fixtures", name: name, passed: false, message: "expected one row, got \(r.status) \(r.text.prefix(200))"))
                        continue
                    }
                    var mismatch: String?
                    for c in ts.columns {
                        let want = try SQLValue.coerce(json: expected[c.name] ?? .null, to: c.type)
                        let have = try SQLValue.coerce(json: actual[c.name] ?? .null, to: c.type)
                        let defaulted = expected[c.name] == nil && c.defaultValue != nil
                        if !defaulted && want != have && SQLValue.compare(want, have, type: c.type) != 0 {
                            mismatch = "column \(c.name): expected \(want.json(as: c.type)), got \(actual[c.name] ?? .null)"
                            break
                        }
                    }
                    if actual.keys.count != ts.columns.count { mismatch = mismatch ?? "expected \(ts.columns.count) columns, got \(actual.keys.count)" }
                    results.append(CaseResult(app: app, kind: "fixtures", name: name, passed: mismatch == nil, message: mismatch ?? ""))
                } catch {
                    results.append(CaseResult(app: app, kind: "fixtures", name: name, passed: false, message: "\(error)"))
                }
            }
        }
        for p in spec.fixtures.personas {
            let name = "persona \(p.name) · signs in with the documented password"
            do {
                let r = try wire.send(
                    method: "POST", path: "/auth/v1/token", query: "grant_type=password",
                    headers: ["apikey": backend.anonKey], json: ["email": .string(p.email), "password": .string(p.password)])
                let ok = r.status == 200 && r.jsonBody?["user"]?["id"]?.stringValue == p.id
                results.append(
                    CaseResult(
                        app: app, kind: "fixtures", name: name, passed: ok,
                        message: ok ? "" : "expected 200 and user \(p.id), got \(r.status) \(r.text.prefix(200))"))
            } catch {
                results.append(CaseResult(app: app, kind: "fixtures", name: name, passed: false, message: "\(error)"))
            }
        }
        return results
    }
}
