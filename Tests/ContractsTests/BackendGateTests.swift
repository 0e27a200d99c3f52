import XCTest
import AppRegistry
import MockBinding
import TeleportMe
import NaarsCars
import CivicForge
import Aura
import Shvil

/// Served mocks for the backend gate: each app's mock on a loopback port, started once per test
/// process and shared (the runs put them back as they found them).
enum ServedMocks {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var served: [String: (MockSupabase, HTTPServer)] = [:]

    /// A backend served over loopback HTTP and an endpoint to it.
    static func serve(_ backend: MockSupabase) throws -> (HTTPServer, LiveEndpoint) {
        let server = HTTPServer(backend: backend, configuration: HTTPServer.Configuration(port: 0, idleTimeout: 30))
        try server.start()
        return (server, LiveEndpoint(baseURL: server.url, anonKey: backend.anonKey, serviceRoleKey: backend.serviceRoleKey))
    }

    /// The shared served mock of an app.
    static func shared(_ app: any AppModule.Type) throws -> (MockSupabase, LiveEndpoint) {
        lock.lock(); defer { lock.unlock() }
        if let (b, s) = served[app.name] {
            return (b, LiveEndpoint(baseURL: s.url, anonKey: b.anonKey, serviceRoleKey: b.serviceRoleKey))
        }
        let b = try app.makeMock()
        let (s, e) = try serve(b)
        served[app.name] = (b, s)
        return (b, e)
    }

    /// Shvil's first RLS flip that changes some case's expected answer (the mutant two tests
    /// serve), found once per process.
    static let shvilFlip = Result { () throws -> RLSFlip in
        let spec = try ShvilApp.spec()
        let expansion = RLSExpansion.current(spec, statuses: try ContractsLocator.postgrestStatuses())
        guard
            let flip = RLSFlip.all(spec.policies, schema: spec.schema).first(where: { f in
                expansion.expectations(under: f.policies, table: f.table).contains { i, e in expansion.cases[i].expected != e }
            })
        else { throw LiveBackendError("no flip of shvil's policies changes an expected answer") }
        return flip
    }

    /// Every row of every table of a backend (the state a run must leave as found).
    static func state(_ b: MockSupabase) throws -> [String: [String]] {
        var out: [String: [String]] = [:]
        for t in b.configuration.spec.schema.tables where !t.isView {
            out[t.qualifiedName] = try b.database.rows(t.qualifiedName, where: nil).map { JSONValue.object($0).serialized(.compact) }.sorted()
        }
        out["auth.users"] = try b.database.rows("auth.users", where: nil).compactMap { $0["id"]?.stringValue }.sorted()
        return out
    }

    static func failures(_ rows: [VerifyRow]) -> String {
        rows.flatMap { r -> [String] in
            if case .error(let m) = r.status { return ["\(r.app) · \(r.kind): error \(m)"] }
            return r.failures.map { "\($0.app) · \($0.kind) · \($0.name) · \($0.message.prefix(400))" }
        }.joined(separator: "\n")
    }
}

/// `contracts verify --target URL` against served mocks: every app passes over loopback HTTP and
/// leaves the backend as it found it; a served mutant (an RLS cell flipped, an edge function's
/// answer changed, a bucket limit changed) fails with the rule named.
final class LiveTargetGateTests: GateTestCase {
    /// One app's run against its own served mock: the backend's state before and after, the
    /// verify rows, and whether the backend has buckets.
    struct AppRun: Sendable {
        var before: [String: [String]]
        var rows: [VerifyRow]
        var after: [String: [String]]
        var hasBuckets: Bool
    }

    /// Each app against its own served mock, all side by side, once per process (`GateWarmUp`
    /// starts them before this suite runs); the checks in the test below, in order.
    static let everyAppRuns = Result { () throws -> [AppRun] in
        try SideBySide.map(allApps) { app -> AppRun in
            let backend = try app.makeMock()
            let (server, endpoint) = try ServedMocks.serve(backend)
            defer { server.stop() }
            let before = try ServedMocks.state(backend)
            let rows = LiveVerify.run(app, endpoint: endpoint)
            return AppRun(before: before, rows: rows, after: try ServedMocks.state(backend), hasBuckets: !backend.configuration.spec.buckets.isEmpty)
        }
    }

    func testEveryAppPassesAgainstItsServedMockAndLeavesItAsFound() throws {
        let runs = try Self.everyAppRuns.get()
        for (app, run) in zip(allApps, runs) {
            let (before, rows) = (run.before, run.rows)
            XCTAssertEqual(ServedMocks.failures(rows), "", app.name)
            let kinds = Set(rows.map(\.kind))
            for k in ["provision", "interactions", "rls", "cleanup"] { XCTAssertTrue(kinds.contains(k), "\(app.name): no \(k) row") }
            XCTAssertGreaterThan(rows.first { $0.kind == "rls" }?.cases.count ?? 0, 100, app.name)
            for (kind, _) in LiveVerify.notApplicable {
                let row = rows.first { $0.kind == kind }
                guard case .notApplicable(let why)? = row?.status else { XCTFail("\(app.name): \(kind) not shown as not applicable"); continue }
                XCTAssertTrue(why.hasPrefix("not applicable to --target"), why)
            }
            if run.hasBuckets { XCTAssertTrue(kinds.contains("storage"), app.name) }
            XCTAssertEqual(run.after, before, "\(app.name): the run left the backend changed")
        }
    }

    /// A backend with no users and no rows: the personas are created through the admin API, the
    /// fixtures loaded, every case put back by differences (no /__admin/reset state to go back
    /// to), and at the end the backend is empty again.
    func testAnEmptyBackendIsProvisionedAndEmptiedAgain() throws {
        var spec = try ShvilApp.spec()
        spec.fixtures.personas = []
        spec.fixtures.tables = []
        let backend = try MockSupabase(configuration: MockConfiguration(spec: spec))
        ShvilApp.register(on: backend)
        let (server, endpoint) = try ServedMocks.serve(backend)
        defer { server.stop() }
        let before = try ServedMocks.state(backend)
        let live = LiveBackend(endpoint: endpoint, spec: try ShvilApp.spec())
        let provision = try live.prepare()
        XCTAssertEqual(provision.filter { !$0.passed }.map(\.description), [])
        XCTAssertFalse(live.adminReset, "the mock's reset state lacks the fixtures")
        XCTAssertTrue(live.log.contains { $0.hasPrefix("created user") }, "\(live.log)")
        XCTAssertTrue(live.log.contains { $0.hasPrefix("loaded") }, "\(live.log)")
        XCTAssertEqual(try backend.database.rows("auth.users", where: nil).count, spec.fixtures.personas.count + (try ShvilApp.spec()).fixtures.personas.count)
        let expansion = RLSExpansion.current(try ShvilApp.spec(), statuses: try ContractsLocator.postgrestStatuses())
        let report = RLSReport(expansion: expansion, statuses: RLSSuite.run(expansion, on: LiveRLSTarget(live)), flips: nil)
        XCTAssertEqual(report.failures.map(\.description), [])
        XCTAssertGreaterThan(live.restores, 10)
        // Nothing sent since the last restore but reads: nothing to put back, nothing sent.
        try live.restore()
        let (restores, writes) = (live.restores, endpoint.writesSent)
        _ = try endpoint.send(HTTPRequest(method: "GET", path: "/rest/v1/users"), as: "service_role")
        try live.restore()
        XCTAssertEqual(live.restores, restores, "a restore ran after reads alone")
        XCTAssertEqual(endpoint.writesSent, writes)
        // Any other request may have written: the next restore runs.
        _ = try endpoint.send(
            method: "PATCH", path: "/rest/v1/users", query: [("id", "eq.00000000-0000-4000-8000-000000000000")], json: ["display_name": "x"], as: "service_role"
        )
        try live.restore()
        XCTAssertEqual(live.restores, restores + 1, "no restore after a write")
        let cleanup = live.cleanup()
        XCTAssertTrue(cleanup.passed, cleanup.message)
        XCTAssertEqual(try ServedMocks.state(backend), before, "the personas and fixture rows were not all removed")
        // --keep leaves them.
        let kept = LiveBackend(endpoint: endpoint, spec: try ShvilApp.spec(), options: LiveOptions(keep: true))
        _ = try kept.prepare()
        XCTAssertTrue(kept.cleanup().passed)
        XCTAssertNotEqual(try ServedMocks.state(backend), before)
    }

    /// A restore reads only the tables the writes since the last one may have changed, by
    /// schema.json's foreign keys and triggers; a change none of them explains (here written
    /// straight into the mock's database while a place is inserted) is not read then, and the
    /// cleanup, which reads every table once more, fails naming its table.
    func testAChangeNoDeclaredTriggerOrForeignKeyExplainsFailsTheCleanup() throws {
        let backend = try ShvilApp.makeBackend()
        backend.adminRoutesEnabled = false
        let (server, endpoint) = try ServedMocks.serve(backend)
        defer { server.stop() }
        let live = LiveBackend(endpoint: endpoint, spec: try ShvilApp.spec())
        XCTAssertEqual(try live.prepare().filter { !$0.passed }.map(\.description), [])
        let id = "5b000000-0000-4000-8000-0000000000ff"
        let place: JSONValue = ["id": .string(id), "name": "Added", "latitude": 31.7, "longitude": 35.2, "metadata": [:]]
        XCTAssertEqual(try endpoint.send(method: "POST", path: "/rest/v1/places", json: place, as: "service_role").status, 201)
        _ = try backend.database.update(
            "public.feature_flags", set: ["description": "changed behind the API"],
            where: .and([.eq("key", "liquid_glass_nav_v1"), .eq("environment", "staging")]))
        try live.restore()
        XCTAssertEqual(try backend.database.rows("public.places", where: .eq("id", id)).count, 0, "the inserted place was not deleted")
        XCTAssertEqual(
            try backend.database.rows("public.feature_flags", where: .eq("description", "changed behind the API")).count, 1,
            "the restore read a table no write since the last one could change")
        let cleanup = live.cleanup()
        XCTAssertFalse(cleanup.passed, "an undeclared change went unnoticed")
        XCTAssertTrue(cleanup.message.contains("feature_flags was changed by something schema.json"), cleanup.message)
        XCTAssertEqual(try backend.database.rows("public.feature_flags", where: .eq("description", "changed behind the API")).count, 0, "not put back")
    }

    /// The served mutants' runs (an RLS cell flipped, an edge function's answer changed, a
    /// bucket's limit doubled), side by side, once per process; each test below checks one.
    enum Mutant: CaseIterable { case flippedCell, changedFunction, changedBucketLimit }

    static let mutantRuns = Result { () throws -> [Mutant: [VerifyRow]] in
        let rows = try SideBySide.map(Mutant.allCases) { mutant -> [VerifyRow] in
            switch mutant {
            case .flippedCell:
                let backend = try ShvilApp.makeBackend()
                backend.database.policies = try ServedMocks.shvilFlip.get().policies
                let (server, endpoint) = try ServedMocks.serve(backend)
                defer { server.stop() }
                return LiveVerify.run(ShvilApp.self, endpoint: endpoint, options: LiveOptions(kinds: ["rls"]))
            case .changedFunction:
                let backend = try TeleportMeApp.makeBackend()
                backend.registerFunction("generate-report") { _ in .json(200, ["report": "a different answer"]) }
                let (server, endpoint) = try ServedMocks.serve(backend)
                defer { server.stop() }
                return LiveVerify.run(TeleportMeApp.self, endpoint: endpoint, options: LiveOptions(kinds: ["functions"]))
            case .changedBucketLimit:
                let copy = FileManager.default.temporaryDirectory.appendingPathComponent("supacontracts-bucket-mutant-\(UUID().uuidString)")
                try FileManager.default.copyItem(at: ContractsLocator.app(CivicForgeApp.name), to: copy)
                defer { try? FileManager.default.removeItem(at: copy) }
                let url = copy.appendingPathComponent("storage.json")
                var doc = try JSONValue.parse(Data(contentsOf: url))
                guard var buckets = doc["buckets"]?.arrayValue, var first = buckets.first?.objectValue, let limit = first["fileSizeLimit"]?.doubleValue else {
                    throw LiveBackendError("civicforge's storage.json has no first bucket with a fileSizeLimit")
                }
                first["fileSizeLimit"] = .int(Int64(limit) * 2)
                buckets[0] = .object(first)
                if case .object(var o) = doc { o["buckets"] = .array(buckets); doc = .object(o) }
                try doc.data().write(to: url)
                let backend = try CivicForgeApp.makeBackend(folder: copy)
                let (server, endpoint) = try ServedMocks.serve(backend)
                defer { server.stop() }
                return LiveVerify.run(CivicForgeApp.self, endpoint: endpoint, options: LiveOptions(kinds: ["storage"]))
            }
        }
        return Dictionary(uniqueKeysWithValues: zip(Mutant.allCases, rows))
    }

    func served(_ mutant: Mutant) throws -> [VerifyRow] { try XCTUnwrap(Self.mutantRuns.get()[mutant]) }

    func testAFlippedRLSCellFailsNamingTheCell() throws {
        let flip = try ServedMocks.shvilFlip.get()
        let rows = try served(.flippedCell)
        let failures = rows.flatMap(\.failures)
        XCTAssertFalse(failures.isEmpty, "flip \(flip.name) went unnoticed")
        // The flipped cell is named; other cases of the table may notice too (an UPDATE returns
        // only rows its caller can see).
        XCTAssertTrue(
            failures.contains { $0.kind == "rls" && $0.name.hasPrefix("\(flip.table) · \(flip.command.rawValue)") },
            failures.map(\.name).joined(separator: "\n"))
        XCTAssertTrue(failures.allSatisfy { $0.name.hasPrefix("\(flip.table) · ") }, failures.map(\.name).joined(separator: "\n"))
        XCTAssertTrue(rows.last?.cases.allSatisfy(\.passed) ?? false, "cleanup")
    }

    func testAChangedEdgeFunctionAnswerFailsNamingTheInteraction() throws {
        let rows = try served(.changedFunction)
        let failures = rows.flatMap(\.failures)
        XCTAssertTrue(failures.contains { $0.kind == "functions" && $0.name.hasPrefix("generate-report-example.json") }, ServedMocks.failures(rows))
    }

    /// The command a team runs: `contracts verify --app shvil --target URL` with the keys in the
    /// environment exits 0 against the served mock, 1 against a served mutant naming the cell.
    func testTheCommandLineAgainstAServedMockAndAMutant() throws {
        var dirs = [Bundle(for: Self.self).bundleURL.deletingLastPathComponent()]
        if let argv0 = CommandLine.arguments.first { dirs.append(URL(fileURLWithPath: argv0).deletingLastPathComponent()) }
        guard let exe = dirs.map({ $0.appendingPathComponent("contracts") }).first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
            throw XCTSkip("the contracts executable is not built beside the test bundle (swift build builds it)")
        }
        func verify(_ endpoint: LiveEndpoint) throws -> (Int32, String) {
            let p = Process()
            p.executableURL = exe
            p.arguments = ["verify", "--app", "shvil", "--target", endpoint.baseURL.absoluteString, "--no-progress"]
            var env = ProcessInfo.processInfo.environment
            env["SUPABASE_ANON_KEY"] = endpoint.anonKey
            env["SUPABASE_SERVICE_ROLE_KEY"] = endpoint.serviceRoleKey
            p.environment = env
            let out = Pipe()
            p.standardOutput = out
            p.standardError = FileHandle.nullDevice
            try p.run()
            let data = out.fileHandleForReading.readDataToEndOfFile()
            p.waitUntilExit()
            return (p.terminationStatus, String(decoding: data, as: UTF8.self))
        }
        let (_, endpoint) = try ServedMocks.shared(ShvilApp.self)
        let flip = try ServedMocks.shvilFlip.get()
        let mutant = try ShvilApp.makeBackend()
        mutant.database.policies = flip.policies
        let (server, mutantEndpoint) = try ServedMocks.serve(mutant)
        defer { server.stop() }
        // The two commands side by side, each against its own served backend.
        let runs = try Concurrently<(Int32, String)>.map([endpoint, mutantEndpoint], width: 2) { try verify($0) }
        let (ok, text) = runs[0], (bad, failing) = runs[1]
        XCTAssertEqual(ok, 0, text)
        XCTAssertTrue(text.contains("not applicable to --target"), text)
        XCTAssertEqual(bad, 1, failing)
        XCTAssertTrue(failing.contains("FAIL shvil · rls · \(flip.table) · "), failing)
    }

    func testAChangedBucketLimitFailsNamingTheBucketRule() throws {
        let rows = try served(.changedBucketLimit)
        let names = rows.flatMap(\.failures).map(\.name)
        let bucket = try XCTUnwrap(try CivicForgeApp.spec().buckets.first?["id"]?.stringValue)
        XCTAssertTrue(names.contains("\(bucket) · bucket exists with storage.json's settings"), "\(names)")
        XCTAssertTrue(names.contains("\(bucket) · an object of fileSizeLimit + 1 bytes is refused (413)"), "\(names)")
    }
}
