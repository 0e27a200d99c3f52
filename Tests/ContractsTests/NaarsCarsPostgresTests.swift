import XCTest
import ContractKit
import NaarsCars
#if canImport(Glibc)
import Glibc
#endif

/// Contracts/naarscars/sql on a real PostgreSQL (skipped when no server binaries are installed):
/// a throwaway cluster, the Supabase shim, the migrations applied twice with an unchanged schema
/// dump (FR-023), the seed applied twice, sql/tests/checks.sql (SEC-DB-001..010, every trigger
/// and function, storage policies), and the catalog compared with schema.json.
final class NaarsCarsPostgresTests: XCTestCase {
    struct Cluster {
        let bin: URL
        let dir: URL
        let asPostgres: Bool

        static func binaries() -> URL? {
            if let env = ProcessInfo.processInfo.environment["PG_BIN"], FileManager.default.isExecutableFile(atPath: env + "/initdb") {
                return URL(fileURLWithPath: env)
            }
            let base = "/usr/lib/postgresql"
            let versions = ((try? FileManager.default.contentsOfDirectory(atPath: base)) ?? []).compactMap(Int.init).sorted(by: >)
            for v in versions where FileManager.default.isExecutableFile(atPath: "\(base)/\(v)/bin/initdb") { return URL(fileURLWithPath: "\(base)/\(v)/bin") }
            return nil
        }

        /// Runs a tool to completion and returns its status and output. The child is spawned with
        /// only descriptors 0-2 (output into a file read after exit): `pg_ctl start` leaves a server
        /// behind, and a server holding an inherited pipe or Foundation's child-exit descriptor
        /// would keep a reader or `Process.waitUntilExit` waiting forever.
        @discardableResult
        func run(_ tool: String, _ args: [String], owner: Bool = false) throws -> (Int32, String) {
            let path = tool.hasPrefix("/") ? tool : bin.appendingPathComponent(tool).path
            let argv0 = owner && asPostgres ? "/usr/sbin/runuser" : path
            let all = owner && asPostgres ? ["-u", "postgres", "--", path] + args : args
            let log = dir.path + "/.run-\(UUID().uuidString).log"
            defer { try? FileManager.default.removeItem(atPath: log) }
            var fa = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&fa)
            defer { posix_spawn_file_actions_destroy(&fa) }
            posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0)
            posix_spawn_file_actions_addopen(&fa, 1, log, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            posix_spawn_file_actions_adddup2(&fa, 1, 2)
            for name in (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? [] {
                if let fd = Int32(name), fd > 2 { posix_spawn_file_actions_addclose(&fa, fd) }
            }
            var env = ProcessInfo.processInfo.environment
            env["PGTZ"] = "UTC"
            env["PGOPTIONS"] = "-c client_min_messages=warning"
            var argv: [UnsafeMutablePointer<CChar>?] = ([argv0] + all).map { strdup($0) } + [nil]
            var envp: [UnsafeMutablePointer<CChar>?] = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
            defer { for p in argv { free(p) }; for p in envp { free(p) } }
            var pid: pid_t = 0
            let rc = posix_spawn(&pid, argv0, &fa, nil, &argv, &envp)
            guard rc == 0 else { return (127, "cannot run \(argv0): error \(rc)") }
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 { if errno != EINTR { break } }
            let code: Int32 = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
            return (code, (try? String(contentsOfFile: log, encoding: .utf8)) ?? "")
        }

        func psql(_ args: [String], database: String = "naarscars") throws -> (Int32, String) {
            try run("psql", ["-X", "-q", "-At", "-v", "ON_ERROR_STOP=1", "-h", dir.path, "-U", "postgres", "-d", database] + args)
        }

        func apply(_ file: URL) throws {
            let (rc, out) = try psql(["-f", file.path])
            XCTAssertEqual(rc, 0, "\(file.lastPathComponent): \(out)")
        }

        func stop() {
            _ = try? run("pg_ctl", ["-D", dir.appendingPathComponent("data").path, "-m", "immediate", "-w", "stop"], owner: true)
            try? FileManager.default.removeItem(at: dir)
        }
    }

    func startCluster() throws -> Cluster {
        guard let bin = Cluster.binaries() else { throw XCTSkip("PostgreSQL server binaries not installed (set PG_BIN)") }
        let root = getuid() == 0
        if root && !FileManager.default.isExecutableFile(atPath: "/usr/sbin/runuser") { throw XCTSkip("running as root needs runuser") }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("naarscars-pg-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let c = Cluster(bin: bin, dir: dir, asPostgres: root)
        if root { try c.run("/usr/bin/chown", ["postgres", dir.path]) }
        let (rc, out) = try c.run("initdb", ["-D", dir.appendingPathComponent("data").path, "-U", "postgres", "-A", "trust", "-E", "UTF8", "--locale=C", "--no-sync"], owner: true)
        guard rc == 0 else { c.stop(); throw XCTSkip("initdb failed: \(out)") }
        let (rc2, out2) = try c.run("pg_ctl", ["-D", dir.appendingPathComponent("data").path, "-l", dir.appendingPathComponent("server.log").path, "-w", "-t", "30",
                                               "-o", "-k \(dir.path) -c listen_addresses= -c fsync=off -c synchronous_commit=off -c timezone=UTC", "start"], owner: true)
        guard rc2 == 0 else {
            let log = (try? String(contentsOf: dir.appendingPathComponent("server.log"), encoding: .utf8)) ?? out2
            c.stop()
            throw XCTSkip("the server did not start: \(log)")
        }
        _ = try c.psql(["-c", "create database naarscars"], database: "postgres")
        return c
    }

    static var sqlFolder: URL { ContractsLocator.app("naarscars").appendingPathComponent("sql") }

    static func migrations() throws -> [URL] {
        try FileManager.default.contentsOfDirectory(atPath: sqlFolder.path).filter { $0.hasSuffix(".sql") }.sorted().map { sqlFolder.appendingPathComponent($0) }
    }

    static func shims() -> [URL] {
        let shared = ContractsLocator.contracts.appendingPathComponent("shared/sql/000_supabase_shim.sql")
        let shim = FileManager.default.fileExists(atPath: shared.path) ? shared : sqlFolder.appendingPathComponent("tests/supabase_shim_fallback.sql")
        return [shim, sqlFolder.appendingPathComponent("tests/storage_shim.sql")]
    }

    func testMigrationsSeedAndChecksOnPostgreSQL() throws {
        let c = try startCluster()
        defer { c.stop() }
        for f in Self.shims() { try c.apply(f) }
        for f in try Self.migrations() { try c.apply(f) }
        let first = try c.run("pg_dump", ["-h", c.dir.path, "-U", "postgres", "--schema-only", "naarscars"]).1
        for f in try Self.migrations() { try c.apply(f) }
        let second = try c.run("pg_dump", ["-h", c.dir.path, "-U", "postgres", "--schema-only", "naarscars"]).1
        func strip(_ s: String) -> [Substring] { s.split(separator: "\n").filter { !$0.hasPrefix("\\restrict") && !$0.hasPrefix("\\unrestrict") } }
        XCTAssertEqual(strip(first), strip(second), "FR-023: applying the migrations twice changes the schema")
        XCTAssertGreaterThan(strip(first).count, 100)

        let seed = Self.sqlFolder.appendingPathComponent("seed/009_seed_data.sql")
        try c.apply(seed)
        let counts = try c.psql(["-c", "select string_agg(relname || '=' || n_live_tup, ' ' order by relname) from pg_stat_user_tables where schemaname = 'public'"]).1
        try c.apply(seed)
        XCTAssertEqual(try c.psql(["-c", "select string_agg(relname || '=' || n_live_tup, ' ' order by relname) from pg_stat_user_tables where schemaname = 'public'"]).1, counts,
                       "FR-023: the seed applied twice")
        let spec = try NaarsCarsApp.spec()
        for (table, rows) in spec.fixtures.tables {
            XCTAssertEqual(try c.psql(["-c", "select count(*) from public.\(table)"]).1.trimmingCharacters(in: .whitespacesAndNewlines), String(rows.count), "\(table) seed rows")
        }

        let (rc, out) = try c.psql(["-f", Self.sqlFolder.appendingPathComponent("tests/checks.sql").path])
        XCTAssertEqual(rc, 0, out)
        XCTAssertTrue(out.contains("naarscars SQL checks passed"), out)

        try compareCatalog(c, spec.schema)
    }

    /// information_schema and pg_constraint against schema.json.
    func compareCatalog(_ c: Cluster, _ schema: DatabaseSchema) throws {
        let cols = try c.psql(["-F", "|", "-c", """
            select table_name, column_name, case data_type when 'USER-DEFINED' then udt_name when 'ARRAY' then substr(udt_name, 2) || '[]' else data_type end,
                   is_nullable, coalesce(column_default, '')
              from information_schema.columns where table_schema = 'public' order by table_name, ordinal_position
            """]).1
        var actual: [String: [[String]]] = [:]
        for line in cols.split(separator: "\n") {
            let f = line.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
            actual[f[0], default: []].append(Array(f[1...]))
        }
        for t in schema.tables where t.schema == "public" {
            let rows = actual[t.name] ?? []
            XCTAssertEqual(rows.map { $0[0] }, t.columns.map(\.name), "\(t.name) columns in PostgreSQL")
            for (c, r) in zip(t.columns, rows) {
                XCTAssertEqual(r[1], c.type.description, "\(t.name).\(c.name) type")
                XCTAssertEqual(r[2] == "YES", c.nullable || t.isView, "\(t.name).\(c.name) nullability")
                var def = r[3]
                if let cast = def.range(of: "::", options: .backwards) { def = String(def[..<cast.lowerBound]) }
                XCTAssertEqual(def.isEmpty ? nil : def, NaarsCarsSQLTests.defaultSQL(c.defaultValue), "\(t.name).\(c.name) default")
            }
        }
        let cons = try c.psql(["-F", "|", "-c", """
            select rel.relname, con.conname, con.contype, con.confdeltype from pg_constraint con
              join pg_class rel on rel.oid = con.conrelid join pg_namespace n on n.oid = rel.relnamespace
             where n.nspname = 'public' order by 1, 2
            """]).1
        var constraints: [String: [String: (String, String)]] = [:]
        for line in cons.split(separator: "\n") {
            let f = line.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
            constraints[f[0], default: [:]][f[1]] = (f[2], f[3])
        }
        let action: [OnDelete: String] = [.cascade: "c", .setNull: "n", .noAction: "a", .restrict: "r", .setDefault: "d"]
        for t in schema.tables where t.schema == "public" && !t.isView {
            var expected: [String: (String, String)] = ["\(t.name)_pkey": ("p", " ")]
            for u in t.uniques { expected[u.name] = ("u", " ") }
            for fk in t.foreignKeys { expected[fk.name] = ("f", action[fk.onDelete] ?? "?") }
            for ch in t.checks { expected[ch.name] = ("c", " ") }
            for col in t.columns where col.check != nil { expected["\(t.name)_\(col.name)_check"] = ("c", " ") }
            let got = constraints[t.name] ?? [:]
            XCTAssertEqual(got.keys.sorted(), expected.keys.sorted(), "\(t.name) constraints")
            for (name, (kind, del)) in expected {
                XCTAssertEqual(got[name]?.0, kind, "\(name) kind")
                XCTAssertEqual(got[name]?.1, del, "\(name) ON DELETE")
            }
        }
        let rls = try c.psql(["-c", "select string_agg(relname, ',' order by relname) from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = 'public' and relkind = 'r' and not relrowsecurity"]).1
        XCTAssertEqual(rls.trimmingCharacters(in: .whitespacesAndNewlines), "", "FR-009: tables without RLS")
    }
}
