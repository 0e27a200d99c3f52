import XCTest
@testable import ContractKit

/// Unit tests of the PostgreSQL machinery that need no server: reply parsing, SQL generation,
/// default normalization, outcome comparison, fixture SQL; plus the cluster's lifecycle when a
/// server is installed.
final class PostgresMachineryTests: XCTestCase {
    func testSplitReadsRowsAndStatus() {
        let ok = PsqlSession.split(["[1]", "@@supacontracts-ok@@ 3"])
        XCTAssertEqual(ok.rows, ["[1]"])
        XCTAssertEqual(try ok.status.get(), 3)
        let err = PsqlSession.split(["@@supacontracts-error@@ 42501 new row violates row-level security policy for table \"t\""])
        guard case .failure(let e) = err.status else { return XCTFail("expected an error") }
        XCTAssertEqual(e.code, "42501")
        XCTAssertEqual(e.message, "new row violates row-level security policy for table \"t\"")
        let multi = PsqlSession.split(["@@supacontracts-error@@ P0001 first line", "second line"])
        guard case .failure(let m) = multi.status else { return XCTFail("expected an error") }
        XCTAssertEqual(m.message, "first line\nsecond line")
        guard case .failure(let none) = PsqlSession.split(["garbage"]).status else { return XCTFail("a reply without status is an error") }
        XCTAssertEqual(none.code, "XX000")
    }

    func testDefaultNormalization() {
        XCTAssertTrue(PostgresCatalog.defaultMatches(.value("city_i_love"), "'city_i_love'::text", type: .text))
        XCTAssertFalse(PostgresCatalog.defaultMatches(.value("city_i_love"), "'city'::text", type: .text))
        XCTAssertTrue(PostgresCatalog.defaultMatches(.value(5.0), "5.0", type: .double))
        XCTAssertTrue(PostgresCatalog.defaultMatches(.value(5), "5", type: .double))
        XCTAssertFalse(PostgresCatalog.defaultMatches(.value(5), "6", type: .double))
        XCTAssertTrue(PostgresCatalog.defaultMatches(.value(-1), "'-1'::integer", type: .integer))
        XCTAssertTrue(PostgresCatalog.defaultMatches(.value(-1), "(-1)", type: .integer))
        XCTAssertTrue(PostgresCatalog.defaultMatches(.value(true), "true", type: .boolean))
        XCTAssertTrue(PostgresCatalog.defaultMatches(.value("it's"), "'it''s'::text", type: .text))
        XCTAssertTrue(PostgresCatalog.defaultMatches(.value([]), "'{}'::text[]", type: .array(.text)))
        XCTAssertTrue(PostgresCatalog.defaultMatches(.value("open"), "'open'::ride_status", type: .enumeration(name: "ride_status", labels: ["open"])))
        XCTAssertTrue(PostgresCatalog.defaultMatches(.value([]), "ARRAY[]::integer[]", type: .array(.integer)))
        XCTAssertTrue(PostgresCatalog.defaultMatches(.value(["a", "b, c"]), "ARRAY['a'::text, 'b, c'::text]", type: .array(.text)))
        XCTAssertFalse(PostgresCatalog.defaultMatches(.value(["a"]), "ARRAY['b'::text]", type: .array(.text)))
        XCTAssertFalse(PostgresCatalog.defaultMatches(.value([]), "ARRAY['b'::text]", type: .array(.text)))
        XCTAssertTrue(PostgresCatalog.defaultMatches(.genRandomUUID, "gen_random_uuid()", type: .uuid))
        XCTAssertTrue(PostgresCatalog.defaultMatches(.now, "now()", type: .timestamptz))
        XCTAssertTrue(PostgresCatalog.defaultMatches(.authUID, "auth.uid()", type: .uuid))
        XCTAssertFalse(PostgresCatalog.defaultMatches(.now, nil, type: .timestamptz))
        XCTAssertFalse(PostgresCatalog.defaultMatches(nil, "now()", type: .timestamptz))
        XCTAssertTrue(PostgresCatalog.defaultMatches(nil, nil, type: .text))
    }

    func testStatementsQuoteValuesAndSwitchRole() {
        let t = PostgresTarget.self
        XCTAssertEqual(t.qualified("cities"), "\"public\".\"cities\"")
        XCTAssertEqual(t.qualified("auth.users"), "\"auth\".\"users\"")
        XCTAssertEqual(t.condition(["id": "o'brien"]), " where t.\"id\" = 'o''brien'")
        let ana = RLSActor.user(id: "a11ce000-0000-4000-8000-000000000001", email: nil)
        let role = t.actAs(ana.auth)
        XCTAssertTrue(role.hasPrefix("set local role \"authenticated\";\n"), role)
        XCTAssertTrue(role.contains("\"sub\":\"a11ce000-0000-4000-8000-000000000001\""), role)
        XCTAssertTrue(t.actAs(.anon).contains("set local role \"anon\""))
    }

    func testErrorStatusesFollowPostgREST() throws {
        let table = try ContractsLocator.postgrestStatuses()
        XCTAssertEqual(table.status(for: "P0001", anonymous: false), 400)
        XCTAssertEqual(table.status(for: "PT409", anonymous: false), 409)
        XCTAssertEqual(table.status(for: "42501", anonymous: true), 401)
        XCTAssertEqual(table.status(for: "42501", anonymous: false), 403)
        XCTAssertEqual(table.status(for: "23505", anonymous: false), 409)
    }

    func testOutcomeComparison() {
        let a = DifferentialOutcome.ok(count: 1, rows: [["x": 1]])
        XCTAssertTrue(a.agrees(with: .ok(count: 1, rows: [["x": 1.0]])), "numbers compare by value")
        XCTAssertFalse(a.agrees(with: .ok(count: 1, rows: [["x": 2]])))
        XCTAssertFalse(a.agrees(with: .ok(count: 0, rows: [])))
        XCTAssertTrue(DifferentialOutcome.ok(count: 1).agrees(with: .ok(count: 1)))
        let rls = DifferentialOutcome.failed(PostgresError("42501", "new row violates row-level security policy for table \"t\""))
        XCTAssertFalse(rls.agrees(with: .failed(PostgresError("42501", "permission denied for table t"))), "RLS and grant refusals differ")
        XCTAssertFalse(rls.agrees(with: .ok(count: 0)))
        XCTAssertEqual(rls.statusClass, "error")
    }

    func testWriteEchoesAreComparedOnWrittenColumnsOnly() throws {
        let spec = try AppSpec.load(folder: ContractsLocator.app("teleportme"))
        let c = RLSCase(
            table: "profiles", actor: .serviceRole,
            operation: .update(key: ["id": "a"], set: ["name": "X", "updated_at": "2026-01-01T00:00:00+00:00"], returning: true))
        XCTAssertEqual(c.comparedColumns(in: spec.schema), ["id", "name"])
        XCTAssertNil(RLSCase(table: "profiles", actor: .anon, operation: .select(key: [:])).comparedColumns(in: spec.schema))
    }

    func testFixtureSQLDisablesUserTriggersOnly() throws {
        let spec = try AppSpec.load(folder: ContractsLocator.app("teleportme"))
        let sql = PostgresFixtures.sql(spec.fixtures, schema: spec.schema)
        XCTAssertTrue(sql.hasPrefix("begin;\nalter table auth.users disable trigger user;\n"))
        XCTAssertTrue(sql.contains("insert into public.city_scores ("))
        XCTAssertFalse(sql.contains("session_replication_role"), "replica mode would also switch off foreign keys")
        XCTAssertTrue(sql.hasSuffix("commit;\n"))
    }

    func testRandomIsSeeded() {
        var a = SeededRandom(seed: 1), b = SeededRandom(seed: 1), c = SeededRandom(seed: 2)
        let x = (0..<4).map { _ in a.next() }
        XCTAssertEqual(x, (0..<4).map { _ in b.next() })
        XCTAssertNotEqual(x, (0..<4).map { _ in c.next() })
    }

    func testClusterStartsAndLeavesNothingBehind() throws {
        let inst: PostgresInstallation
        do { inst = try PostgresInstallation.find() } catch let e as PostgresUnavailable {
            if ProcessInfo.processInfo.environment["SUPACONTRACTS_REQUIRE_POSTGRES"] == "1" { return XCTFail(e.reason) }
            throw XCTSkip("PostgreSQL not available (\(e.reason))")
        }
        let cluster = try PostgresCluster.start(installation: inst)
        let pidText = try String(contentsOfFile: cluster.directory.path + "/data/postmaster.pid", encoding: .utf8)
        let pid = try XCTUnwrap(Int32(pidText.split(separator: "\n").first ?? ""))
        XCTAssertTrue(PostgresCluster.isAlive(pid), "server running")
        try cluster.psql(database: "postgres", sql: "select 1;")
        let session = try PsqlSession(installation: inst, host: cluster.host, database: "postgres")
        XCTAssertEqual(try session.query("select 40 + 2"), ["42"])
        XCTAssertThrowsError(try session.query("select 1/0")) { e in XCTAssertEqual((e as? PostgresError)?.code, "22012") }
        XCTAssertEqual(try session.query("select 'still usable'"), ["still usable"])
        session.close()
        cluster.stop()
        cluster.stop()
        XCTAssertFalse(FileManager.default.fileExists(atPath: cluster.directory.path))
        XCTAssertFalse(PostgresCluster.isAlive(pid), "server stopped")
    }
}

/// The sweep of clusters left by a process that died.
final class PostgresClusterSweepTests: XCTestCase {
    func testFoldersOfDeadOwnersAreRemovedAndLiveOnesKept() throws {
        let inst: PostgresInstallation
        do { inst = try PostgresInstallation.find() } catch let e as PostgresUnavailable {
            if ProcessInfo.processInfo.environment["SUPACONTRACTS_REQUIRE_POSTGRES"] == "1" { return XCTFail(e.reason) }
            throw XCTSkip("PostgreSQL not available (\(e.reason))")
        }
        // A pid that has exited: a finished child's.
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/sh")
        p.arguments = ["-c", "exit 0"]
        try p.run()
        p.waitUntilExit()
        let deadPID = p.processIdentifier
        XCTAssertFalse(PostgresCluster.isAlive(deadPID))
        let tmp = URL(fileURLWithPath: NSTemporaryDirectory())
        let dead = tmp.appendingPathComponent("\(PostgresCluster.prefix)\(deadPID).sweeptest")
        let live = tmp.appendingPathComponent("\(PostgresCluster.prefix)1.sweeptest") // pid 1 is alive
        for d in [dead, live] { try FileManager.default.createDirectory(at: d, withIntermediateDirectories: true) }
        defer { try? FileManager.default.removeItem(at: live) }
        PostgresCluster.sweepStale(inst)
        XCTAssertFalse(FileManager.default.fileExists(atPath: dead.path), "a dead owner's cluster folder is swept")
        XCTAssertTrue(FileManager.default.fileExists(atPath: live.path), "a live owner's cluster folder is kept")
    }
}
