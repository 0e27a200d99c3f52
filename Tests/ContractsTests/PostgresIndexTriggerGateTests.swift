import XCTest
import ContractKit
import MockSupabase
import TeleportMe
import NaarsCars
import Aura

/// The gate: schema.json's `indexDefinitions` and `triggers` equal PostgreSQL's catalog (columns
/// and their order, method, operator class, predicate; timing, events, function), so an index
/// moved to another column, dropped or narrowed, and a trigger dropped or fired at another time,
/// fail naming the index or trigger. Each mutant is DDL run before the catalog is read, in a
/// transaction that is rolled back.
final class PostgresIndexTriggerGateTests: XCTestCase {
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
        let found = try differences(TeleportMeApp.self, [
            "drop index public.cities_country_idx", "create index cities_country_idx on public.cities (continent)",
            "drop index public.city_scores_city_id_idx", "drop index public.saved_cities_user_id_idx",
            "drop index public.engagement_events_user_event_created",
            "create index engagement_events_user_event_created on public.engagement_events (user_id)",
            "drop index public.cities_name_trgm_idx", "create index cities_name_trgm_idx on public.cities (name)",
            "create index cities_latitude_idx on public.cities (latitude)",
        ])
        for expected in [
            "index cities_country_idx: schema.json cities_country_idx USING btree (country), PostgreSQL cities_country_idx USING btree (continent)",
            "index city_scores_city_id_idx: missing in PostgreSQL",
            "index saved_cities_user_id_idx: missing in PostgreSQL",
            "index engagement_events_user_event_created: schema.json engagement_events_user_event_created USING btree (user_id, event_type, created_at DESC), PostgreSQL engagement_events_user_event_created USING btree (user_id)",
            "index cities_name_trgm_idx: schema.json cities_name_trgm_idx USING gin (name gin_trgm_ops), PostgreSQL cities_name_trgm_idx USING btree (name)",
            "index cities_latitude_idx: in PostgreSQL",
        ] {
            XCTAssertTrue(found.contains(expected), "expected '\(expected)' in:\n\(found)")
        }
    }

    /// Naar's Cars FR-016 / PERF-DB-005 and FR-013: rides_claimed_by_idx on (date), a partial
    /// index made full, on_message_created and mark_request_reviewed moved to BEFORE INSERT.
    func testNaarsCarsIndexAndTriggerMutantsFail() throws {
        let found = try differences(NaarsCarsApp.self, [
            "drop index public.rides_claimed_by_idx", "create index rides_claimed_by_idx on public.rides (date)",
            "drop index public.rides_status_idx", "create index rides_status_idx on public.rides (status)",
            "drop index public.rides_user_id_status_idx", "create index rides_user_id_status_idx on public.rides (user_id)",
            "drop trigger on_message_created on public.messages",
            "create trigger on_message_created before insert on public.messages for each row execute function handle_new_message()",
            "drop trigger mark_request_reviewed on public.reviews",
            "create trigger mark_request_reviewed before insert on public.reviews for each row execute function handle_review_mark_reviewed()",
        ])
        for expected in [
            "index rides_claimed_by_idx: schema.json rides_claimed_by_idx USING btree (claimed_by), PostgreSQL rides_claimed_by_idx USING btree (date)",
            "index rides_status_idx: schema.json rides_status_idx USING btree (status) WHERE status = 'open', PostgreSQL rides_status_idx USING btree (status)",
            "index rides_user_id_status_idx: schema.json rides_user_id_status_idx USING btree (user_id, status), PostgreSQL",
            "trigger on_message_created: schema.json AFTER INSERT ON public.messages FOR EACH ROW EXECUTE FUNCTION handle_new_message(), PostgreSQL BEFORE INSERT",
            "trigger mark_request_reviewed: schema.json AFTER INSERT ON public.reviews FOR EACH ROW EXECUTE FUNCTION handle_review_mark_reviewed(), PostgreSQL BEFORE INSERT",
        ] {
            XCTAssertTrue(found.contains(expected), "expected '\(expected)' in:\n\(found)")
        }
    }

    /// Aura §6.1: idx_daily_readings_user_date and the users_updated_at trigger deleted.
    func testAuraDeletedIndexAndTriggerFail() throws {
        let found = try differences(AuraApp.self, [
            "drop index public.idx_daily_readings_user_date", "drop trigger users_updated_at on public.users",
        ])
        XCTAssertTrue(found.contains("index idx_daily_readings_user_date: missing in PostgreSQL"), found)
        XCTAssertTrue(found.contains("trigger users_updated_at: missing in PostgreSQL (schema.json BEFORE UPDATE ON public.users"), found)
    }

    /// The other way round: a schema.json whose index or trigger is wrong fails against the
    /// right database.
    func testAWrongSchemaFileFails() throws {
        var spec = try TeleportMeApp.spec()
        let i = try XCTUnwrap(spec.schema.tables.firstIndex { $0.name == "city_reports" })
        spec.schema.tables[i].indexDefinitions = [IndexDefinition(name: "city_reports_user_id_idx", keys: [IndexDefinition.Key(column: "user_id")]),
                                                  IndexDefinition(name: "city_reports_created_at", keys: [IndexDefinition.Key(column: "created_at")])]
        spec.schema.triggers = spec.schema.triggers?.map { t in
            var t = t
            if t.name == "on_auth_user_created" { t.events = ["insert", "update"] }
            return t
        }
        let found = try differences(TeleportMeApp.self, [], spec: spec)
        XCTAssertTrue(found.contains("index city_reports_created_at: schema.json city_reports_created_at USING btree (created_at), PostgreSQL city_reports_created_at USING btree (created_at DESC)"), found)
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
