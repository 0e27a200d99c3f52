import XCTest
import MockBinding
import NaarsCars

/// Contracts/naarscars/sql on a real PostgreSQL, beyond the shared checks (catalog = schema.json,
/// RLS matrix and differential, sql/verify scripts on the fixtures, in PostgresGateTests):
/// FR-023 — the migrations and the generated seed (sql/seed/009_seed_data.sql) each applied twice
/// change nothing — the seed's rows equal fixtures.json's, the verify script passes on that seed
/// too (with Storage's schema present, so the bucket policies are exercised), and a migration
/// with a no-op protect_admin_fields is caught. Skipped when PostgreSQL is not installed.
final class NaarsCarsPostgresTests: GateTestCase {
    static var sqlFolder: URL { ContractsLocator.app("naarscars").appendingPathComponent("sql") }

    func cluster() throws -> PostgresCluster {
        do { return try PostgresChecks.sharedCluster() } catch let e as PostgresUnavailable {
            if ProcessInfo.processInfo.environment["SUPACONTRACTS_REQUIRE_POSTGRES"] == "1" { throw e }
            throw XCTSkip(e.reason)
        }
    }

    /// A fingerprint of everything the migrations create: columns, constraints, indexes,
    /// policies, functions, triggers, views, grants.
    static let fingerprintSQL = """
        select md5(string_agg(x, E'\\n' order by x)) from (
          select 'col ' || table_schema || '.' || table_name || '.' || column_name || ' ' || data_type || ' ' || is_nullable || ' ' || coalesce(column_default, '') as x
            from information_schema.columns where table_schema in ('public', 'storage')
          union all select 'con ' || conrelid::regclass || ' ' || conname || ' ' || pg_get_constraintdef(oid) from pg_constraint where connamespace = 'public'::regnamespace
          union all select 'idx ' || indexname || ' ' || indexdef from pg_indexes where schemaname = 'public'
          union all select 'pol ' || schemaname || '.' || tablename || ' ' || policyname || ' ' || cmd || ' ' || coalesce(qual, '') || ' ' || coalesce(with_check, '') from pg_policies
          union all select 'fn ' || p.oid::regprocedure || ' ' || md5(pg_get_functiondef(p.oid)) || ' ' || coalesce(array_to_string(p.proacl, ','), '')
            from pg_proc p where p.pronamespace = 'public'::regnamespace and p.prokind = 'f'
          union all select 'trg ' || tgrelid::regclass || ' ' || tgname || ' ' || pg_get_triggerdef(oid) from pg_trigger where not tgisinternal
          union all select 'view ' || viewname || ' ' || md5(definition) from pg_views where schemaname = 'public'
          union all select 'rls ' || relname || ' ' || relrowsecurity from pg_class where relnamespace = 'public'::regnamespace and relkind = 'r'
          union all select 'acl ' || relname || ' ' || coalesce(array_to_string(relacl, ','), '') from pg_class where relnamespace = 'public'::regnamespace
        ) f
        """

    func testMigrationsAndSeedAreIdempotentAndChecksPass() throws {
        let c = try cluster()
        let files = try PostgresCluster.migrationFiles(app: "naarscars")
        XCTAssertTrue(files.contains { $0.path.hasSuffix("shared/sql/000_supabase_shim.sql") }, "the shared shim comes first")
        let storage = Self.sqlFolder.appendingPathComponent("tests/storage_shim.sql")
        let db = "naarscars_idempotence"
        // The storage shim goes before the migrations so 008_storage.sql creates the buckets.
        try c.createDatabase(db, applying: [files[0], storage] + files.dropFirst())
        let session = try PsqlSession(installation: c.installation, host: c.host, database: db)
        defer { session.close() }
        let first = try session.query(Self.fingerprintSQL)
        for f in files { try c.psql(database: db, file: f) }
        XCTAssertEqual(try session.query(Self.fingerprintSQL), first, "FR-023: applying the migrations again changed the schema")

        let seed = Self.sqlFolder.appendingPathComponent("seed/009_seed_data.sql")
        try c.psql(database: db, file: seed)
        let countsSQL =
            "select string_agg(t || '=' || n, ' ' order by t) from (select 'auth.users' t, count(*) n from auth.users union all "
            + NaarsCarsSeedTables.tables.map { "select '\($0)', count(*) from public.\($0)" }.joined(separator: " union all ") + ") x"
        let counts = try session.query(countsSQL)
        try c.psql(database: db, file: seed)
        XCTAssertEqual(try session.query(countsSQL), counts, "FR-023: the seed applied twice")
        let fixtures = try NaarsCarsApp.spec().fixtures
        let expected =
            (["auth.users=\(fixtures.personas.count)"] + fixtures.tables.map { "\($0.table)=\($0.rows.count)" }
            + NaarsCarsSeedTables.tables.filter { t in !fixtures.tables.contains { $0.table == t } }.map { "\($0)=0" }).sorted().joined(separator: " ")
        XCTAssertEqual(counts, [expected], "the seed holds exactly fixtures.json's rows")
        // Seed users can sign in with Appendix B's password (pgcrypto's crypt).
        XCTAssertEqual(
            try session.query("select count(*) from auth.users where encrypted_password = extensions.crypt('TestPassword123!', encrypted_password)"),
            [String(fixtures.personas.count)])

        try c.psql(database: db, file: Self.sqlFolder.appendingPathComponent("verify/checks.sql"))
        XCTAssertEqual(try session.query("select count(*) from storage.buckets"), ["3"], "FR-017 buckets created")
    }

    /// Mutant: protect_admin_fields that lets anyone through makes the verify script fail at SEC-DB-005.
    func testVerifyScriptRejectsANoOpProtectAdminFields() throws {
        let c = try cluster()
        let db = "naarscars_mutant"
        let noop = "create or replace function public.protect_admin_fields() returns trigger language plpgsql as $$ begin return new; end $$;"
        try c.createDatabase(
            db, applying: try PostgresCluster.migrationFiles(app: "naarscars"),
            extraSQL: [try String(contentsOf: Self.sqlFolder.appendingPathComponent("seed/009_seed_data.sql"), encoding: .utf8), noop])
        XCTAssertThrowsError(try c.psql(database: db, file: Self.sqlFolder.appendingPathComponent("verify/checks.sql"))) { e in
            XCTAssertTrue("\(e)".contains("SEC-DB-005 self admin"), "\(e)")
        }
    }
}

/// The public tables, in creation order.
enum NaarsCarsSeedTables {
    static let tables = [
        "profiles", "invite_codes", "rides", "ride_participants", "favors", "favor_participants", "request_qa", "conversations",
        "conversation_participants", "messages", "notifications", "push_tokens", "town_hall_posts", "reviews"
    ]
}
