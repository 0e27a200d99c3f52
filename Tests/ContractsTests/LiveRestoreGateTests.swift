import XCTest
import ContractKit

/// `contracts verify --target URL` against a served mock whose `/__admin` routes answer 404, as
/// a real Supabase project's do (`contracts serve --no-admin`): the run cannot reset the backend
/// and puts it back through PostgREST, GoTrue's admin API and Storage alone. A full dump of the
/// backend (every row of every table of schema.json, every GoTrue user, every stored object)
/// before and after the run must be equal; where the API cannot put a row back (a column a
/// trigger stamps on every write), the cleanup case must fail and name that row.
final class LiveRestoreGateTests: XCTestCase {
    /// Every row of every table (any schema), every user (less what a sign-in updates) and
    /// every object, as text.
    static func dump(_ b: MockSupabase) throws -> [String: Set<String>] {
        var out: [String: Set<String>] = [:]
        for t in b.configuration.spec.schema.tables where !t.isView {
            out[t.qualifiedName] = Set(try b.database.rows(t.qualifiedName).map { JSONValue.object($0).serialized(.compact) })
        }
        // GoTrue writes last_sign_in_at (and updated_at) when a persona signs in: bookkeeping of
        // the sign-in the run must do, not data it created.
        let signIn: Set<String> = ["last_sign_in_at", "updated_at"]
        out["auth.users"] = Set(try b.database.rows("auth.users").map { JSONValue.object($0.filter { !signIn.contains($0.key) }).serialized(.compact) })
        for bucket in b.configuration.spec.buckets.compactMap({ $0["id"]?.stringValue }) {
            out["storage:" + bucket] = Set(b.storage.objectNames(bucket: bucket).map { n in
                let o = b.storage.object(bucket: bucket, name: n)
                return "\(n) \(o?.data.count ?? -1) \(o?.eTag ?? "")"
            })
        }
        return out
    }

    func testWithoutAdminResetTheRunLeavesEveryTableAsFoundOrNamesTheRow() throws {
        var exact: [String] = []
        for app in allApps {
            let backend = try app.makeBackend()
            backend.adminRoutesEnabled = false
            let (server, endpoint) = try ServedMocks.serve(backend)
            defer { server.stop() }
            let refused = try endpoint.send(HTTPRequest(method: "POST", path: "/__admin/reset"), as: "service_role")
            XCTAssertEqual(refused.status, 404, "\(app.name): /__admin/reset still answers")
            let before = try Self.dump(backend)
            let rows = LiveVerify.run(app, endpoint: endpoint)
            let after = try Self.dump(backend)
            let cleanup = try XCTUnwrap(rows.last { $0.kind == "cleanup" }?.cases.first, app.name)
            var differing: [String] = []
            for t in Set(before.keys).union(after.keys).sorted() {
                let a = before[t] ?? [], b = after[t] ?? []
                if a != b { differing.append("\(t): \(b.subtracting(a).count) rows now, \(a.subtracting(b).count) rows then: \(b.subtracting(a).sorted().prefix(2))") }
            }
            if cleanup.passed {
                XCTAssertEqual(differing, [], "\(app.name): the cleanup passed but the backend differs")
                exact.append(app.name)
            } else {
                // Every table that differs is named by the cleanup, row by row.
                XCTAssertFalse(differing.isEmpty, "\(app.name): the cleanup failed on a backend left as found: \(cleanup.message)")
                for t in Set(before.keys).union(after.keys) where before[t] != after[t] {
                    let name = t.hasPrefix("public.") ? String(t.dropFirst(7)) : t
                    XCTAssertTrue(cleanup.message.contains(name), "\(app.name): \(t) differs but the cleanup does not name it: \(cleanup.message)")
                    for row in (after[t] ?? []).subtracting(before[t] ?? []) {
                        if let id = try? JSONValue.parse(Data(row.utf8))["id"]?.stringValue {
                            XCTAssertTrue(cleanup.message.contains(id), "\(app.name): \(t) row \(id) differs but is not named")
                        }
                    }
                }
                XCTAssertTrue(cleanup.message.contains("only a database connection with triggers off can put it back"), cleanup.message)
            }
        }
        // The apps whose tables the API can put back exactly: those whose stamping triggers
        // (BEFORE UPDATE set_updated_at) sit on rows no trigger-writing child refers to.
        for app in ["shvil", "teleportme", "aura"] { XCTAssertTrue(exact.contains(app), "\(app) was not left exactly as found") }
    }
}
