import XCTest
import AppRegistry
import MockBinding
import NaarsCars

/// `contracts verify --target URL` against a served mock whose `/__admin` routes answer 404, as
/// a real Supabase project's do (`contracts serve --no-admin`): the run cannot reset the backend
/// and puts it back through PostgREST, GoTrue's admin API and Storage alone. A full dump of the
/// backend (every row of every table of schema.json, every GoTrue user, every stored object)
/// before and after the run must be equal; where the API cannot put a row back (a column a
/// trigger stamps on every write), the cleanup case must fail and name that row.
final class LiveRestoreGateTests: GateTestCase {
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
            out["storage:" + bucket] = Set(
                b.storage.objectNames(bucket: bucket).map { n in
                    let o = b.storage.object(bucket: bucket, name: n)
                    return "\(n) \(o?.data.count ?? -1) \(o?.eTag ?? "")"
                })
        }
        return out
    }

    /// One app's run against its own served mock without `/__admin/reset`: the backend's dump
    /// before and after, the verify rows, and what `POST /__admin/reset` answered first.
    struct Run: Sendable {
        var refused: Int
        var before: [String: Set<String>]
        var rows: [VerifyRow]
        var after: [String: Set<String>]
    }

    /// Every app's run through the API alone and every app's run with the restore database,
    /// the ten side by side, once per process (each test below checks its five): a run mostly
    /// waits on its served mock, and the apps differ in length.
    static let runs = Result { () throws -> (api: [Run], database: [Run]) in
        let jobs = allApps.map { ($0, false) } + allApps.map { ($0, true) }
        let runs = try SideBySide.map(jobs) { (app: any AppModule.Type, withDatabase: Bool) -> Run in
            let backend = try app.makeMock()
            backend.adminRoutesEnabled = false
            let (server, endpoint) = try ServedMocks.serve(backend)
            defer { server.stop() }
            let refused = try endpoint.send(HTTPRequest(method: "POST", path: "/__admin/reset"), as: "service_role")
            let before = try LiveRestoreGateTests.dump(backend)
            let options = withDatabase ? LiveOptions(database: MockDatabaseWriter(backend: backend)) : LiveOptions()
            let rows = LiveVerify.run(app, endpoint: endpoint, options: options)
            return Run(refused: refused.status, before: before, rows: rows, after: try LiveRestoreGateTests.dump(backend))
        }
        return (Array(runs[..<allApps.count]), Array(runs[allApps.count...]))
    }

    func testWithoutAdminResetTheRunLeavesEveryTableAsFoundOrNamesTheRow() throws {
        var exact: [String] = []
        let runs = try Self.runs.get().api
        for (app, run) in zip(allApps, runs) {
            let (before, rows, after) = (run.before, run.rows, run.after)
            XCTAssertEqual(run.refused, 404, "\(app.name): /__admin/reset still answers")
            // The table never leaves a kind out: each of verify's kinds is a row, run or "not
            // applicable to --target" with its reason.
            let suites = [
                FixtureSuite.suite, InteractionReplay.verifySuite(), ModelSuite.verifySuite(), GoldenSuite.verifySuite(mode: .never),
                RLSSuite.verifySuite, ClientRulesReference.verifySuite, AppRulesSuite.suite, PostgresChecks.suite
            ]
            for kind in suites.map(\.kind) {
                XCTAssertTrue(rows.contains { $0.kind == kind }, "\(app.name): verify --target's table has no \(kind) row")
            }
            for row in rows {
                if case .notApplicable(let why) = row.status { XCTAssertTrue(why.hasPrefix("not applicable to --target: "), why) }
            }
            let cleanup = try XCTUnwrap(rows.last { $0.kind == "cleanup" }?.cases.first, app.name)
            // Every case passes: reads run before writes, so a stamp the API cannot undo is never
            // read against the fixtures' value.
            XCTAssertEqual(ServedMocks.failures(rows.filter { $0.kind != "cleanup" }), "", app.name)
            var differing: [String] = []
            for t in Set(before.keys).union(after.keys).sorted() {
                let a = before[t] ?? [], b = after[t] ?? []
                if a != b {
                    differing.append("\(t): \(b.subtracting(a).count) rows now, \(a.subtracting(b).count) rows then: \(b.subtracting(a).sorted().prefix(2))")
                }
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

    /// With the backend's database at hand (`--restore-database`; here the served mock's own
    /// database with triggers off stands in for the psql connection), every app passes every
    /// case without `/__admin/reset` and the backend is left exactly as found.
    func testWithTheRestoreDatabaseEveryAppPassesAndLeavesEveryTableExactlyAsFound() throws {
        let runs = try Self.runs.get().database
        for (app, run) in zip(allApps, runs) {
            XCTAssertEqual(ServedMocks.failures(run.rows), "", app.name)
            XCTAssertEqual(run.after, run.before, "\(app.name): the run left the backend changed")
        }
    }

    /// `--restore-database`: what PostgREST cannot put back — Naar's Cars' conversation stamped
    /// by `set_updated_at` when a message arrives, a row other rows refer to — is written through
    /// the database with triggers off, exactly; with triggers on (what any API write does) the
    /// same write is stamped again. Against `scripts/postgres`'s kind of cluster with the app's
    /// own SQL.
    func testTheRestoreDatabaseWritesBackWhatATriggerStampsExactly() throws {
        let cluster = try PostgresGate.cluster()
        let db = "liverestore_naarscars"
        try cluster.psql(database: "postgres", sql: "drop database if exists \"\(db)\" with (force);\n")
        try cluster.createDatabase(db, applying: try PostgresCluster.migrationFiles(app: NaarsCarsApp.name))
        let url = cluster.connectionString(database: db)
        let spec = try NaarsCarsApp.spec()
        let writer = try PsqlRestoreWriter(url: url, installation: cluster.installation)
        let session = try PsqlSession(installation: cluster.installation, connectionString: url, name: db)
        defer { session.close() }
        // The fixtures, written with triggers off (no auth.users rows: foreign keys are not
        // checked either, as in a restore of a dump).
        var restores: [LiveTableRestore] = []
        for (name, rows) in spec.fixtures.tables {
            guard let t = spec.schema.table(name), t.schema == "public", !t.isView else { continue }
            restores.append(LiveTableRestore(table: t, upsert: rows.compactMap(\.objectValue), delete: []))
        }
        try writer.apply(restores)
        let conversations = try XCTUnwrap(spec.schema.table("conversations"))
        let original = try XCTUnwrap(spec.fixtures.tables.first { $0.0 == "conversations" }?.1.first?.objectValue)
        let id = try XCTUnwrap(original["id"]?.stringValue), stamp = try XCTUnwrap(original["updated_at"]?.stringValue)
        func sameStamp() throws -> String {
            try session.query("select updated_at = '\(stamp)'::timestamptz from public.conversations where id = '\(id)'").first ?? ""
        }
        XCTAssertEqual(try sameStamp(), "t", "the fixture row was not written as given")
        // A message arrives: on_message_created stamps the conversation.
        let message = try XCTUnwrap(spec.fixtures.tables.first { $0.0 == "messages" }?.1.first { $0["conversation_id"]?.stringValue == id }?.objectValue)
        _ = try session.query(
            "insert into public.messages (conversation_id, from_id, content) values ('\(id)', '\(message["from_id"]?.stringValue ?? "")', 'stamps the conversation')"
        )
        XCTAssertEqual(try sameStamp(), "f", "the message did not stamp its conversation")
        // Writing the old value back as any API write does (triggers on) is stamped again.
        _ = try session.query("update public.conversations set updated_at = '\(stamp)' where id = '\(id)'")
        XCTAssertEqual(try sameStamp(), "f", "set_updated_at let an update write updated_at")
        // Through the writer: exact, and the message the run added is gone.
        let messages = try XCTUnwrap(spec.schema.table("messages"))
        let added = try session.query("select id from public.messages where content = 'stamps the conversation'")
        XCTAssertEqual(added.count, 1)
        try writer.apply([
            LiveTableRestore(table: messages, upsert: [], delete: added.map { ["id": .string($0)] }),
            LiveTableRestore(table: conversations, upsert: [original], delete: [])
        ])
        XCTAssertEqual(try sameStamp(), "t", "the writer did not put the stamp back")
        XCTAssertEqual(try session.query("select count(*) from public.messages where content = 'stamps the conversation'"), ["0"])
        // A failing statement rolls the whole restore back and says so.
        var moved = original
        moved["created_at"] = "2020-01-01T00:00:00+00:00"
        XCTAssertThrowsError(
            try writer.apply([
                LiveTableRestore(table: conversations, upsert: [moved], delete: []),
                LiveTableRestore(table: messages, upsert: [["id": "not a uuid"]], delete: [])
            ]))
        XCTAssertEqual(try session.query("select count(*) from public.conversations where created_at = '2020-01-01T00:00:00+00:00'"), ["0"])
        try cluster.psql(database: "postgres", sql: "drop database if exists \"\(db)\" with (force);\n")
    }
}

/// The served mock's own database, written with its triggers off: a stand-in for the psql
/// connection of `--restore-database` (`PsqlRestoreWriter`, tested against PostgreSQL above).
/// The mock still checks foreign keys and runs their actions with triggers off (PostgreSQL's
/// replica role does neither), so a row to write that is there already is deleted and inserted
/// again as the SQL does (freeing a unique key two rows swapped) only when no row refers to it
/// (its delete would cascade); otherwise it is updated in place.
struct MockDatabaseWriter: LiveDatabaseWriter {
    let backend: MockSupabase

    func apply(_ restores: [LiveTableRestore]) throws {
        let db = backend.database
        let tables = backend.configuration.spec.schema.tables
        func key(_ t: TableSchema, _ row: [String: JSONValue]) -> RowFilter {
            .and(t.primaryKey.map { c in RowFilter.eq(c, row[c]?.stringValue ?? row[c].map { $0.serialized() } ?? "") })
        }
        func exists(_ t: TableSchema, _ row: [String: JSONValue]) throws -> Bool { try !db.rows(t.qualifiedName, where: key(t, row)).isEmpty }
        func referenced(_ t: TableSchema, _ row: [String: JSONValue]) throws -> Bool {
            for u in tables where !u.isView {
                for fk in u.foreignKeys where fk.refTable == t.name || fk.refTable == t.qualifiedName {
                    let match = RowFilter.and(
                        zip(fk.columns, fk.refColumns).map { c, r in RowFilter.eq(c, row[r]?.stringValue ?? row[r].map { $0.serialized() } ?? "") })
                    if try !db.rows(u.qualifiedName, where: match).isEmpty { return true }
                }
            }
            return false
        }
        try db.withTriggersOff {
            try db.atomically {
                for r in restores.reversed() { for row in r.delete { _ = try db.delete(r.table.qualifiedName, where: key(r.table, row)) } }
                for r in restores {
                    for row in r.upsert where try exists(r.table, row) && !referenced(r.table, row) {
                        _ = try db.delete(r.table.qualifiedName, where: key(r.table, row))
                    }
                }
                // Parents first: a row updated in place may refer to a row inserted just before.
                for r in restores {
                    for row in r.upsert {
                        if try exists(r.table, row) {
                            try db.update(r.table.qualifiedName, set: row.filter { !r.table.primaryKey.contains($0.key) }, where: key(r.table, row))
                        } else {
                            try db.insert(r.table.qualifiedName, [row])
                        }
                    }
                }
            }
        }
    }
}
