import XCTest
import MockBinding
import MockSupabase
import TeleportMe
import NaarsCars
import Aura
import CivicForge

/// The gate: schema.json's `indexDefinitions` and `triggers` equal PostgreSQL's catalog (columns
/// and their order, method, operator class, predicate; timing, events, function), so an index
/// moved to another column, dropped or narrowed, and a trigger dropped or fired at another time,
/// fail naming the index or trigger. Each mutant is DDL run before the catalog is read, in a
/// transaction that is rolled back.
final class PostgresIndexTriggerGateTests: GateTestCase {
    func differences(_ app: any AppModule.Type, _ prelude: [String], spec: AppSpec? = nil) throws -> String {
        guard PostgresCluster.hasSQL(app: app.name) else { throw XCTSkip("no \(app.name) SQL") }
        let results = try PostgresChecks.catalogResults(try spec ?? app.spec(), try PostgresGate.target(app), prelude: prelude)
        return results.filter { !$0.passed }.map { "\($0.name): \($0.message)" }.joined(separator: "\n")
    }

    func testEveryAppDeclaresItsIndexesAndTriggers() throws {
        for app in try PostgresGate.appsWithSQL() {
            let schema = try app.spec().schema
            XCTAssertTrue(schema.declaresIndexes, "\(app.name): schema.json states no indexDefinitions")
            XCTAssertNotNil(schema.triggers, "\(app.name): schema.json states no triggers")
        }
    }

    /// TeleportMe §4.5: an index on the wrong column, two dropped, a composite reduced to one
    /// column, an index nobody declared.
    func testTeleportMeIndexMutantsFail() throws {
        let found = try differences(
            TeleportMeApp.self,
            [
                "drop index public.cities_country_idx", "create index cities_country_idx on public.cities (continent)",
                "drop index public.city_scores_city_id_idx", "drop index public.saved_cities_user_id_idx",
                "drop index public.engagement_events_user_event_created",
                "create index engagement_events_user_event_created on public.engagement_events (user_id)",
                "drop index public.cities_name_trgm_idx", "create index cities_name_trgm_idx on public.cities (name)",
                "create index cities_latitude_idx on public.cities (latitude)"
            ])
        for expected in [
            "index cities_country_idx: schema.json cities_country_idx USING btree (country), PostgreSQL cities_country_idx USING btree (continent)",
            "index city_scores_city_id_idx: missing in PostgreSQL",
            "index saved_cities_user_id_idx: missing in PostgreSQL",
            "index engagement_events_user_event_created: schema.json engagement_events_user_event_created USING btree (user_id, event_type, created_at DESC), PostgreSQL engagement_events_user_event_created USING btree (user_id)",
            "index cities_name_trgm_idx: schema.json cities_name_trgm_idx USING gin (name gin_trgm_ops), PostgreSQL cities_name_trgm_idx USING btree (name)",
            "index cities_latitude_idx: in PostgreSQL"
        ] {
            XCTAssertTrue(found.contains(expected), "expected '\(expected)' in:\n\(found)")
        }
    }

    /// Naar's Cars FR-016 / PERF-DB-005 and FR-013: rides_claimed_by_idx on (date), a partial
    /// index made full, on_message_created and mark_request_reviewed moved to BEFORE INSERT.
    func testNaarsCarsIndexAndTriggerMutantsFail() throws {
        let found = try differences(
            NaarsCarsApp.self,
            [
                "drop index public.rides_claimed_by_idx", "create index rides_claimed_by_idx on public.rides (date)",
                "drop index public.rides_status_idx", "create index rides_status_idx on public.rides (status)",
                "drop index public.rides_user_id_status_idx", "create index rides_user_id_status_idx on public.rides (user_id)",
                "drop trigger on_message_created on public.messages",
                "create trigger on_message_created before insert on public.messages for each row execute function handle_new_message()",
                "drop trigger mark_request_reviewed on public.reviews",
                "create trigger mark_request_reviewed before insert on public.reviews for each row execute function handle_review_mark_reviewed()"
            ])
        for expected in [
            "index rides_claimed_by_idx: schema.json rides_claimed_by_idx USING btree (claimed_by), PostgreSQL rides_claimed_by_idx USING btree (date)",
            "index rides_status_idx: schema.json rides_status_idx USING btree (status) WHERE status = 'open', PostgreSQL rides_status_idx USING btree (status)",
            "index rides_user_id_status_idx: schema.json rides_user_id_status_idx USING btree (user_id, status), PostgreSQL",
            "trigger on_message_created: schema.json AFTER INSERT ON public.messages FOR EACH ROW EXECUTE FUNCTION handle_new_message(), PostgreSQL BEFORE INSERT",
            "trigger mark_request_reviewed: schema.json AFTER INSERT ON public.reviews FOR EACH ROW EXECUTE FUNCTION handle_review_mark_reviewed(), PostgreSQL BEFORE INSERT"
        ] {
            XCTAssertTrue(found.contains(expected), "expected '\(expected)' in:\n\(found)")
        }
    }

    /// Aura §6.1: idx_daily_readings_user_date and the users_updated_at trigger deleted.
    func testAuraDeletedIndexAndTriggerFail() throws {
        let found = try differences(
            AuraApp.self,
            [
                "drop index public.idx_daily_readings_user_date", "drop trigger users_updated_at on public.users"
            ])
        XCTAssertTrue(found.contains("index idx_daily_readings_user_date: missing in PostgreSQL"), found)
        XCTAssertTrue(found.contains("trigger users_updated_at: missing in PostgreSQL (schema.json BEFORE UPDATE ON public.users"), found)
    }

    /// The other way round: a schema.json whose index or trigger is wrong fails against the
    /// right database.
    func testAWrongSchemaFileFails() throws {
        var spec = try TeleportMeApp.spec()
        let i = try XCTUnwrap(spec.schema.tables.firstIndex { $0.name == "city_reports" })
        spec.schema.tables[i].indexDefinitions = [
            IndexDefinition(name: "city_reports_user_id_idx", keys: [IndexDefinition.Key(column: "user_id")]),
            IndexDefinition(name: "city_reports_created_at", keys: [IndexDefinition.Key(column: "created_at")])
        ]
        spec.schema.triggers = spec.schema.triggers?.map { t in
            var t = t
            if t.name == "on_auth_user_created" { t.events = ["insert", "update"] }
            return t
        }
        let found = try differences(TeleportMeApp.self, [], spec: spec)
        XCTAssertTrue(
            found.contains(
                "index city_reports_created_at: schema.json city_reports_created_at USING btree (created_at), PostgreSQL city_reports_created_at USING btree (created_at DESC)"
            ), found)
        XCTAssertTrue(found.contains("trigger on_auth_user_created: schema.json AFTER INSERT OR UPDATE ON auth.users"), found)
    }

    /// Loading refuses a malformed declaration with the file and JSON path.
    func testMalformedDeclarationsNameFileAndPath() throws {
        let base = try JSONValue.parse(Data(contentsOf: ContractsLocator.app("aura").appendingPathComponent("schema.json")))
        func load(_ change: (inout [String: JSONValue]) -> Void) -> String {
            guard case .object(var o) = base else { return "not an object" }
            change(&o)
            do { _ = try DatabaseSchema.decode(SpecNode(value: .object(o), file: "Contracts/aura/schema.json")); return "loaded" } catch { return "\(error)" }
        }
        let badTiming = load { o in
            if case .array(var ts) = o["triggers"], case .object(var t) = ts[0] { t["timing"] = "during"; ts[0] = .object(t); o["triggers"] = .array(ts) }
        }
        XCTAssertEqual(badTiming, "Contracts/aura/schema.json: $.triggers[0].timing: timing is 'before', 'after' or 'instead of', not 'during'")
        let badTable = load { o in
            if case .array(var ts) = o["triggers"], case .object(var t) = ts[0] { t["table"] = "nowhere"; ts[0] = .object(t); o["triggers"] = .array(ts) }
        }
        XCTAssertEqual(badTable, "Contracts/aura/schema.json: $.triggers[0].table: unknown table 'nowhere'")
    }
}

/// CivicForge's storage policies run on PostgreSQL (the shim's storage schema): the verify
/// script passes on the shipped SQL and fails on a policy that forgets the folder rule.
final class PostgresStoragePolicyGateTests: GateTestCase {
    func script() throws -> URL {
        let url = ContractsLocator.app("civicforge").appendingPathComponent("sql/verify/storage_policies.sql")
        guard FileManager.default.fileExists(atPath: url.path) else { throw TestSetupFailure(description: "no storage_policies.sql") }
        return url
    }

    func testCivicForgeStoragePoliciesHoldOnPostgres() throws {
        guard PostgresCluster.hasSQL(app: "civicforge") else { throw XCTSkip("no CivicForge SQL") }
        let r = try PostgresChecks.verifyScriptResults(try CivicForgeApp.spec(), cluster: try PostgresGate.cluster(), scripts: [try script()])
        XCTAssertEqual(r.count, 1)
        XCTAssertTrue(r.allSatisfy(\.passed), PostgresGate.failures(r))
    }

    func testAnUploadPolicyWithoutTheFolderRuleFails() throws {
        guard PostgresCluster.hasSQL(app: "civicforge") else { throw XCTSkip("no CivicForge SQL") }
        let mutant = FileManager.default.temporaryDirectory.appendingPathComponent("storage-mutant-\(UUID().uuidString).sql")
        let body = try String(contentsOf: try script(), encoding: .utf8)
        try
            ("drop policy storage_post_photos_insert_own on storage.objects;\n"
            + "create policy storage_post_photos_insert_own on storage.objects for insert to authenticated with check (bucket_id = 'post-photos');\n"
            + body).write(to: mutant, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: mutant) }
        let r = try PostgresChecks.verifyScriptResults(try CivicForgeApp.spec(), cluster: try PostgresGate.cluster(), scripts: [mutant])
        XCTAssertFalse(r[0].passed)
        XCTAssertTrue(r[0].message.contains("FAIL: ben uploaded into ana's folder"), r[0].message)
    }
}

/// search_cities on data large enough to reach its limits (§4.4 "Similarity threshold of 0.15
/// … Returns top 20 results"): 30 matching cities and a city exactly at 3/20.
final class PostgresSearchLimitGateTests: GateTestCase {
    /// The shipped `create function public.search_cities …` statement with `edit` applied.
    func mutant(_ edit: (String) -> String) throws -> String {
        let sql = try String(contentsOf: ContractsLocator.app("teleportme").appendingPathComponent("sql/002_functions.sql"), encoding: .utf8)
        guard let start = sql.range(of: "create or replace function public.search_cities"),
            let end = sql.range(of: "$$;", range: start.upperBound..<sql.endIndex),
            let firstDollars = sql.range(of: "$$", range: start.upperBound..<sql.endIndex), firstDollars.lowerBound < end.lowerBound
        else {
            throw TestSetupFailure(description: "search_cities not found in 002_functions.sql")
        }
        let statement = String(sql[start.lowerBound..<end.upperBound])
        let changed = edit(statement)
        if changed == statement { throw TestSetupFailure(description: "the mutation changed nothing") }
        return changed
    }

    func failing(_ prelude: String) throws -> [String] {
        let app = TeleportMeApp.self
        guard PostgresCluster.hasSQL(app: app.name) else { throw XCTSkip("no TeleportMe SQL") }
        return try PostgresChecks.functionResults(
            try app.spec(), try PostgresGate.target(app), mock: try PostgresChecks.mockBackend(app),
            prelude: [prelude]
        ).filter { !$0.passed }.map(\.name)
    }

    func testLimit25Fails() throws {
        let names = try failing(try mutant { $0.replacingOccurrences(of: "limit 20", with: "limit 25") })
        XCTAssertTrue(names.contains("function · search_cities over 30 matches returns 20"), "\(names)")
        XCTAssertTrue(names.contains("function · search_cities('zzyzx') over 30 matches: mock and PostgreSQL return the same 20 in the same order"), "\(names)")
    }

    /// A threshold compared as real (`> 0.15::real`) drops the city at exactly 3/20, which
    /// PostgreSQL's `real > numeric` keeps; the mock follows PostgreSQL.
    func testThresholdComparedAsRealFails() throws {
        let names = try failing(try mutant { $0.replacingOccurrences(of: "> 0.15", with: "> 0.15::real") })
        XCTAssertTrue(names.contains("function · search_cities: a similarity of exactly 3/20 is above 0.15 as PostgreSQL compares it"), "\(names)")
        XCTAssertTrue(names.contains("function · search_cities('abc') at the threshold: mock and PostgreSQL agree"), "\(names)")
    }
}
