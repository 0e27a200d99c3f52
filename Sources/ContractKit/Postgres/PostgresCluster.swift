import Foundation
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Why PostgreSQL cannot be used here, or what went wrong starting or talking to it.
package struct PostgresUnavailable: Error, CustomStringConvertible, Sendable {
    /// The reason, with the install hint when binaries are missing.
    package var reason: String
    package init(_ reason: String) { self.reason = reason }
    package var description: String { reason }
}

/// Where the PostgreSQL binaries are: `$PG_BIN`, else the newest `/usr/lib/postgresql/*/bin`,
/// else `pg_config --bindir`'s folder on PATH, else `initdb` on PATH (the same search as
/// `scripts/postgres`).
package struct PostgresInstallation: Sendable {
    /// The folder holding `initdb`, `pg_ctl` and `postgres`.
    package var bin: URL
    /// The `psql` client.
    package var psql: URL

    /// How to install the server when it is missing.
    package static let installHint =
        "install PostgreSQL 15 or later: `apt-get install -y postgresql-15` (Debian/Ubuntu; provides /usr/lib/postgresql/15/bin), `brew install postgresql@15` (macOS), or set PG_BIN to a folder holding initdb"

    /// Finds the binaries or says why not.
    package static func find(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> PostgresInstallation {
        let fm = FileManager.default
        func usable(_ dir: String) -> PostgresInstallation? {
            guard fm.isExecutableFile(atPath: dir + "/initdb"), fm.isExecutableFile(atPath: dir + "/pg_ctl") else { return nil }
            var psql = dir + "/psql"
            if !fm.isExecutableFile(atPath: psql), let p = onPath("psql", environment) { psql = p }
            guard fm.isExecutableFile(atPath: psql) else { return nil }
            return PostgresInstallation(bin: URL(fileURLWithPath: dir), psql: URL(fileURLWithPath: psql))
        }
        if let b = environment["PG_BIN"], !b.isEmpty {
            if let i = usable(b) { return i }
            throw PostgresUnavailable("PG_BIN=\(b) holds no initdb/pg_ctl/psql; \(installHint)")
        }
        let base = "/usr/lib/postgresql"
        let versions = ((try? fm.contentsOfDirectory(atPath: base)) ?? []).compactMap { v in Int(v).map { ($0, v) } }.sorted { $0.0 > $1.0 }
        for (_, v) in versions { if let i = usable("\(base)/\(v)/bin") { return i } }
        for dir in ["/opt/homebrew/bin", "/usr/local/bin"] + (environment["PATH"] ?? "").split(separator: ":").map(String.init) {
            if let i = usable(dir) { return i }
        }
        throw PostgresUnavailable("PostgreSQL server binaries (initdb, pg_ctl, psql) not found; \(installHint)")
    }

    static func onPath(_ name: String, _ env: [String: String]) -> String? {
        (env["PATH"] ?? "/usr/bin:/bin").split(separator: ":").map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}

/// The result of a finished child process.
struct ProcessOutput {
    var status: Int32
    var output: String
}

/// Runs a program to completion with `posix_spawn`, stdout and stderr into one log read after
/// exit. The child gets only descriptors 0-2: `pg_ctl start` leaves a daemon behind, and a daemon
/// holding any other inherited descriptor (a pipe of this process, or Foundation's child-exit
/// socket) would keep readers and `Process.waitUntilExit` waiting forever.
func runProgram(_ path: String, _ args: [String], environment: [String: String]? = nil, stdin: String? = nil) throws -> ProcessOutput {
    let fm = FileManager.default
    let base = NSTemporaryDirectory() + "/supacontracts-run-\(getpid())-\(UUID().uuidString)"
    let logPath = base + ".log", inPath = base + ".in"
    defer { try? fm.removeItem(atPath: logPath); try? fm.removeItem(atPath: inPath) }
    if let stdin { try Data(stdin.utf8).write(to: URL(fileURLWithPath: inPath)) }
    #if canImport(Glibc)
        var fa = posix_spawn_file_actions_t()
    #else
        var fa: posix_spawn_file_actions_t?
    #endif
    posix_spawn_file_actions_init(&fa)
    defer { posix_spawn_file_actions_destroy(&fa) }
    posix_spawn_file_actions_addopen(&fa, 0, stdin == nil ? "/dev/null" : inPath, O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&fa, 1, logPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    posix_spawn_file_actions_adddup2(&fa, 1, 2)
    let fdDir = fm.fileExists(atPath: "/proc/self/fd") ? "/proc/self/fd" : "/dev/fd"
    for name in (try? fm.contentsOfDirectory(atPath: fdDir)) ?? [] {
        if let fd = Int32(name), fd > 2 { posix_spawn_file_actions_addclose(&fa, fd) }
    }
    let env = (environment ?? ProcessInfo.processInfo.environment).map { "\($0.key)=\($0.value)" }
    var argv: [UnsafeMutablePointer<CChar>?] = ([path] + args).map { strdup($0) } + [nil]
    var envp: [UnsafeMutablePointer<CChar>?] = env.map { strdup($0) } + [nil]
    defer { for p in argv { free(p) }; for p in envp { free(p) } }
    var pid: pid_t = 0
    let rc = posix_spawn(&pid, path, &fa, nil, &argv, &envp)
    guard rc == 0 else { throw PostgresUnavailable("cannot run \(path): error \(rc)") }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 {
        if errno != EINTR { throw PostgresUnavailable("waiting for \(path) failed (errno \(errno))") }
    }
    let code: Int32 = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    let text = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
    return ProcessOutput(status: code, output: text)
}

/// A throwaway PostgreSQL cluster: `initdb` in a folder of its own (under `parentFolders`' first:
/// memory when it can), the server on a unix socket in that folder (no TCP), `fsync=off`, timezone UTC. As root, the server runs as the `postgres`
/// user through `runuser` (initdb refuses root).
///
/// `stop()` (also run at process exit and on deinit) stops the server and removes the folder;
/// clusters left behind by a crashed process are swept on the next `start`. The data directory
/// is a copy of one `initdb` made once per PostgreSQL build and user (`InitdbCache`), which
/// outlives the process.
package final class PostgresCluster: @unchecked Sendable {
    /// The cluster's folder (data directory in `data/`, socket in the folder itself).
    package let directory: URL
    /// The binaries used.
    package let installation: PostgresInstallation
    let runAs: String?
    private let lock = NSLock()
    /// Database set-ups take turns: roles are cluster-wide, so two set-ups at once (verify runs
    /// apps side by side) both find `anon` missing in the shim's `if not exists` and both create
    /// it, and the second fails with 23505 on `pg_authid_rolname_index`.
    private let setupLock = NSLock()
    private var stopped = false
    /// Template databases by the files applied to them (`migratedTemplate`; under `lock`).
    private var templates: [String: String] = [:]

    static let prefix = "supacontracts-pg-swift."
    nonisolated(unsafe) static var live: [ObjectIdentifier: PostgresCluster] = [:]
    static let liveLock = NSLock()
    nonisolated(unsafe) static var exitHookInstalled = false

    /// Starts a new cluster.
    package static func start(installation: PostgresInstallation? = nil) throws -> PostgresCluster {
        let inst = try installation ?? PostgresInstallation.find()
        sweepStale(inst)
        let runAs: String? = geteuid() == 0 ? "postgres" : nil
        if runAs != nil, getpwnam("postgres") == nil {
            throw PostgresUnavailable("running as root needs a 'postgres' user to own the cluster (useradd -r postgres)")
        }
        let tmp = URL(fileURLWithPath: parentFolders[0])
        let dir = tmp.appendingPathComponent("\(prefix)\(getpid()).\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        if let user = runAs, let pw = getpwnam(user) { _ = chown(dir.path, pw.pointee.pw_uid, pw.pointee.pw_gid) }
        let cluster = PostgresCluster(directory: dir, installation: inst, runAs: runAs)
        do {
            try cluster.makeDataDirectory()
            let opts =
                "-k \(dir.path) -c listen_addresses= -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c timezone=UTC -c max_connections=20 -c jit=off"
            let ctl = try cluster.runServerTool("pg_ctl", ["-D", dir.path + "/data", "-l", dir.path + "/server.log", "-w", "-t", "30", "-o", opts, "start"])
            guard ctl.status == 0 else {
                let log = (try? String(contentsOf: dir.appendingPathComponent("server.log"), encoding: .utf8)) ?? ""
                throw PostgresUnavailable("the server did not start: \(ctl.output)\n\(log)")
            }
        } catch {
            cluster.stop()
            throw error
        }
        liveLock.lock()
        live[ObjectIdentifier(cluster)] = cluster
        if !exitHookInstalled {
            exitHookInstalled = true
            atexit { PostgresCluster.stopAll() }
        }
        liveLock.unlock()
        return cluster
    }

    private init(directory: URL, installation: PostgresInstallation, runAs: String?) {
        self.directory = directory
        self.installation = installation
        self.runAs = runAs
    }

    deinit { stop() }

    /// Stops every cluster this process started (installed as an exit hook).
    package static func stopAll() {
        liveLock.lock()
        let all = Array(live.values)
        live = [:]
        liveLock.unlock()
        for c in all { c.stop() }
    }

    /// Stops clusters whose owning process is gone (left by a crash or a killed test run).
    static func sweepStale(_ inst: PostgresInstallation) {
        for tmp in parentFolders { sweepStale(inst, in: tmp) }
    }

    /// Where clusters are made, first choice first (`ScratchSpace`: memory when it can, where
    /// creating a database from a template, hundreds of files, costs no disk inode allocation);
    /// every one is swept for clusters left behind.
    static var parentFolders: [String] { ScratchSpace.parents }

    /// `sweepStale` in one parent folder.
    private static func sweepStale(_ inst: PostgresInstallation, in tmp: String) {
        InitdbCache.sweepStale(in: tmp)
        for name in (try? FileManager.default.contentsOfDirectory(atPath: tmp)) ?? [] where name.hasPrefix(prefix) {
            let rest = name.dropFirst(prefix.count)
            guard let pid = Int32(rest.split(separator: ".").first ?? ""), pid != getpid() else { continue }
            if kill(pid, 0) == 0 || errno == EPERM { continue } // owner alive
            let dir = URL(fileURLWithPath: tmp).appendingPathComponent(name)
            let stale = PostgresCluster(directory: dir, installation: inst, runAs: geteuid() == 0 ? "postgres" : nil)
            stale.stop()
        }
    }

    func runServerTool(_ tool: String, _ args: [String]) throws -> ProcessOutput {
        let path = installation.bin.appendingPathComponent(tool).path
        if let user = runAs {
            let runuser = ["/usr/sbin/runuser", "/sbin/runuser", "/usr/bin/runuser"].first { FileManager.default.isExecutableFile(atPath: $0) }
            guard let runuser else { throw PostgresUnavailable("running as root needs runuser (util-linux) to start the server as '\(user)'") }
            return try runProgram(runuser, ["-u", user, "--", path] + args)
        }
        return try runProgram(path, args)
    }

    /// Stops the server (immediate shutdown) and removes the folder. Idempotent.
    package func stop() {
        lock.lock()
        if stopped { lock.unlock(); return }
        stopped = true
        lock.unlock()
        let pidFile = directory.path + "/data/postmaster.pid"
        if let text = try? String(contentsOfFile: pidFile, encoding: .utf8) {
            _ = try? runServerTool("pg_ctl", ["-D", directory.path + "/data", "-m", "immediate", "-w", "stop"])
            // pg_ctl returns once the pid file is gone; wait (bounded) until the process is too.
            if let pid = Int32(text.split(separator: "\n").first ?? "") {
                var waited = 0
                while PostgresCluster.isAlive(pid), waited < 500 { usleep(10_000); waited += 1 }
                if PostgresCluster.isAlive(pid) { kill(pid, SIGKILL) }
            }
        }
        try? FileManager.default.removeItem(at: directory)
        PostgresCluster.liveLock.withLock { PostgresCluster.live[ObjectIdentifier(self)] = nil }
    }

    /// Whether a process exists and is not a zombie.
    package static func isAlive(_ pid: Int32) -> Bool {
        guard kill(pid, 0) == 0 || errno == EPERM else { return false }
        if let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        {
            return !stat[close...].dropFirst(2).hasPrefix("Z")
        }
        return true
    }

    /// The socket folder (`PGHOST`).
    package var host: String { directory.path }

    /// A libpq connection string for a database of this cluster.
    package func connectionString(database: String) -> String { "postgresql://postgres@/\(database)?host=\(host)" }

    /// The SQL files of an app, in the order `scripts/postgres` applies them: the shim
    /// (`Contracts/shared/sql/*.sql`) then `Contracts/<app>/sql/*.sql`, each sorted by name.
    package static func migrationFiles(app: String, contracts: URL = ContractsLocator.contracts) throws -> [URL] {
        func sqlFiles(_ dir: URL) -> [URL] {
            ((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []).filter { $0.hasSuffix(".sql") }.sorted()
                .map { dir.appendingPathComponent($0) }
        }
        let appDir = contracts.appendingPathComponent(app).appendingPathComponent("sql")
        let own = sqlFiles(appDir)
        guard !own.isEmpty else { throw PostgresUnavailable("Contracts/\(app)/sql/ holds no .sql files") }
        return sqlFiles(contracts.appendingPathComponent("shared/sql")) + own
    }

    package static func hasSQL(app: String, contracts: URL = ContractsLocator.contracts) -> Bool {
        (try? migrationFiles(app: app, contracts: contracts)) != nil
    }

    /// Runs a psql script file or text against a database, stopping at the first error.
    package func psql(database: String, file: URL? = nil, sql: String? = nil) throws {
        var args = ["-X", "-q", "-v", "ON_ERROR_STOP=1", "-h", host, "-U", "postgres", "-d", database]
        if let file { args += ["-f", file.path] }
        var env = ProcessInfo.processInfo.environment
        env["PGTZ"] = "UTC"
        env["PGOPTIONS"] = PsqlSession.sessionOptions
        let r = try runProgram(installation.psql.path, args, environment: env, stdin: sql)
        guard r.status == 0 else {
            throw PostgresUnavailable(
                "psql \(file.map { $0.lastPathComponent } ?? "script") on \(database) failed: \(r.output.trimmingCharacters(in: .whitespacesAndNewlines))")
        }
    }

    /// (Re)creates a database and applies SQL files to it in order; `extraSQL` runs last (a
    /// mutant's change, a fixture load). The files are applied once per cluster to a template
    /// database, which every database of the same files is then copied from (`create database …
    /// template`, a file copy instead of running the migrations again), with the template's own
    /// settings (`alter database … set`, which a copy does not take along).
    package func createDatabase(_ name: String, applying files: [URL], extraSQL: [String] = []) throws {
        setupLock.lock()
        defer { setupLock.unlock() }
        let template = try migratedTemplate(files)
        try psql(
            database: "postgres",
            sql: """
                drop database if exists "\(name)" with (force);
                create database "\(name)" template "\(template)";
                insert into pg_db_role_setting (setdatabase, setrole, setconfig)
                  select (select oid from pg_database where datname = \(name.sqlLiteral)), s.setrole, s.setconfig from pg_db_role_setting s
                  where s.setdatabase = (select oid from pg_database where datname = \(template.sqlLiteral));

                """)
        for s in extraSQL { try psql(database: name, sql: s) }
    }

    /// The template database holding `files` applied in order (built on first use; keyed by
    /// the files' paths and contents, so an edited file gets a template of its own).
    private func migratedTemplate(_ files: [URL]) throws -> String {
        let key = try files.map { $0.path + "\n" + String(decoding: try Data(contentsOf: $0), as: UTF8.self) }.joined(separator: "\u{0}")
        if let t = lock.withLock({ templates[key] }) { return t }
        let t = "supacontracts_template_\(lock.withLock { templates.count })"
        try psql(database: "postgres", sql: "drop database if exists \"\(t)\" with (force);\ncreate database \"\(t)\";\n")
        for f in files { try psql(database: t, file: f) }
        lock.withLock { templates[key] = t }
        return t
    }
}
