import XCTest
import MockBinding
import TeleportMe

/// The app's server pieces on the mock: search_cities, the triggers and generate-report's
/// authentication and saving.
final class TeleportMeServerTests: GateTestCase {
    /// pg_trgm's documented behaviour: show_trgm('cat') and similarity('word', 'two words').
    func testTrigramsFollowPgTrgm() {
        XCTAssertEqual(Trigram.trigrams("cat"), ["  c", " ca", "cat", "at "])
        XCTAssertEqual(Trigram.trigrams("Foo-BAR"), ["  f", " fo", "foo", "oo ", "  b", " ba", "bar", "ar "])
        XCTAssertEqual(Trigram.similarity("word", "two words"), Float(4) / Float(11))
        XCTAssertEqual(Trigram.similarity("berln", "Berlin"), Float(4) / Float(9))
        XCTAssertEqual(Trigram.similarity("", "Berlin"), 0)
        XCTAssertEqual(Trigram.similarity("São Paulo", "sao paulo") < 1, true, "accented letters are letters, not folded")
    }

    func testSearchThresholdLimitAndTies() throws {
        let rules = try FunctionRules.load()
        XCTAssertEqual(rules.search.threshold, 0.15)
        XCTAssertEqual(rules.search.limit, 20)
        let rows: [[String: JSONValue]] =
            (1...30).map {
                ["id": .string("springfield-\($0)"), "name": .string("Springfield"), "full_name": .string("Springfield \($0)"), "country": "United States"]
            }
            + [["id": "berlin", "name": "Berlin", "full_name": "Berlin, Germany", "country": "Germany"]]
        let search = SearchCitiesFunction(rules: rules.search)
        let hits = search.search("springfield", in: rows.reversed())
        XCTAssertEqual(hits.count, 20, "at most 20 rows")
        XCTAssertEqual(
            hits.prefix(3).map { $0.row["id"]!.stringValue! }, ["springfield-1", "springfield-10", "springfield-11"], "ties by name, then id (bytewise)")
        // Exactly at the threshold: excluded unless inclusive.
        var exact = rules.search
        exact.threshold = Double(Float(4) / Float(9))
        XCTAssertTrue(SearchCitiesFunction(rules: exact).search("berln", in: rows).isEmpty)
        exact.inclusive = true
        XCTAssertEqual(SearchCitiesFunction(rules: exact).search("berln", in: rows).map { $0.row["id"]! }, ["berlin"])
        // PostgreSQL's comparison: similarity() is real, 0.15 is numeric, compared in double
        // precision. 3/20 is 0.15 as a real and above 0.15 widened: it matches a strict 0.15.
        let tie: [[String: JSONValue]] = [["id": "tie", "name": "Abcdefghijklmnopqr", "full_name": "Abcdefghijklmnopqr", "country": "Qqqq"]]
        XCTAssertEqual(Trigram.similarity("abc", "Abcdefghijklmnopqr"), Float(3) / Float(20))
        XCTAssertEqual(search.search("abc", in: tie).map { $0.row["id"]! }, ["tie"])
        // Mutant: comparing in single precision drops it.
        XCTAssertFalse(Trigram.similarity("abc", "Abcdefghijklmnopqr") > Float(0.15))
    }

    func testFunctionRulesAreReadStrictly() throws {
        var o = try XCTUnwrap(try SpecNode.load(FunctionRules.defaultURL).value.objectValue)
        TeleportMeTestSupport.set(&o, "update_updated_at", "tables", ["profiles", "saved_cities"])
        let schema = try AppSpec.load(folder: ContractsLocator.app("teleportme")).schema
        XCTAssertThrowsError(try FunctionRules.decode(SpecNode(value: .object(o), file: "Contracts/teleportme/functions.json"), schema: schema)) {
            XCTAssertEqual("\($0)", "Contracts/teleportme/functions.json: $.update_updated_at.tables[1]: table 'saved_cities' has no updated_at column")
        }
    }

    func testSignUpCreatesAProfileAndUpdatesStampUpdatedAt() throws {
        let clock = ManualClock()
        let backend = try TeleportMeTestSupport.backend(clock: clock)
        let wire = WireClient(backend)
        clock.advance(by: 3600)
        let signup = try wire.send(
            method: "POST", path: "/auth/v1/signup", json: ["email": "dora@teleportme.test", "password": "dora-pass", "data": ["full_name": "Dora"]], as: "anon"
        )
        XCTAssertEqual(signup.status, 200, signup.text)
        let id = try XCTUnwrap(signup.jsonBody?["user"]?["id"]?.stringValue)
        let profile = try XCTUnwrap(try backend.database.rows("profiles", where: .eq("id", id)).first)
        XCTAssertEqual(profile["name"], "Dora", "name from raw_user_meta_data (functions.json nameKeys)")
        XCTAssertEqual(profile["email"], "dora@teleportme.test")

        for table in ["profiles", "cities", "user_preferences"] {
            clock.advance(by: 60)
            let stamp = PGTimestamp(clock.now()).description
            let key = table == "cities" ? "id" : table == "profiles" ? "id" : "user_id"
            let value = table == "cities" ? "berlin" : TeleportMeTestSupport.ana
            let set: [String: JSONValue] = table == "cities" ? ["summary": "Updated."] : table == "profiles" ? ["name": "Ana B"] : ["cost_preference": 1]
            let r = try backend.database.update(table, set: set.merging(["updated_at": "2000-01-01T00:00:00+00:00"]) { $1 }, where: .eq(key, value))
            XCTAssertEqual(r.first?["updated_at"]?.stringValue, stamp, "\(table): updated_at = now(), whatever the client sent")
        }
        // saved_cities has no such trigger (and no such column): its rows are untouched by it.
        XCTAssertNoThrow(try backend.database.update("saved_cities", set: ["city_id": "paris"], where: .eq("id", "5a000000-0000-4000-8000-00000000a001")))
    }

    func testGenerateReportSavesAsTheCallerSoRLSApplies() throws {
        let backend = try TeleportMeTestSupport.backend()
        let wire = WireClient(backend)
        let body: JSONValue = ["current_city_id": "berlin", "preferences": ["cost": 5, "climate": 5, "culture": 5, "job_market": 5]]
        let before = backend.database.count("city_reports")
        let anon = try wire.send(method: "POST", path: "/functions/v1/generate-report", json: body, as: "anon")
        XCTAssertEqual(anon.status, 200)
        XCTAssertEqual(anon.jsonBody?["report_id"], .null)
        XCTAssertEqual(backend.database.count("city_reports"), before, "anon reports are not saved")
        let ben = try wire.send(method: "POST", path: "/functions/v1/generate-report", json: body, as: "ben")
        let id = try XCTUnwrap(ben.jsonBody?["report_id"]?.stringValue)
        let row = try XCTUnwrap(try backend.database.rows("city_reports", where: .eq("id", id)).first)
        XCTAssertEqual(row["user_id"], .string(TeleportMeTestSupport.ben))
        XCTAssertEqual(row["results"], ben.jsonBody?["matches"])
        XCTAssertEqual(row["ai_summary"]?.stringValue?.isEmpty, false)
        let get = try wire.send(method: "GET", path: "/functions/v1/generate-report", as: "ben")
        XCTAssertEqual(get.status, 405)

        // Mutant policy: no one may insert reports. A save as the service role would slip past
        // RLS; a save as the caller is refused and nothing is written.
        var policies = backend.database.policies
        let t = try XCTUnwrap(policies.tables.firstIndex { $0.table == "city_reports" })
        policies.tables[t].cells[.insert]?.check = .constant(false)
        backend.database.policies = policies
        let count = backend.database.count("city_reports")
        let refused = try wire.send(method: "POST", path: "/functions/v1/generate-report", json: body, as: "ben")
        XCTAssertEqual(refused.status, 500, refused.text)
        XCTAssertEqual(refused.jsonBody?["code"], "42501")
        XCTAssertEqual(backend.database.count("city_reports"), count)
    }

    func testUnreadableRulesSurfaceOnTheFirstCall() throws {
        let folder = try TeleportMeTestSupport.temporaryFolder(self)
        let fm = FileManager.default
        for f in ["schema.json", "policies.json", "fixtures.json", "functions.json", "fixtures"] {
            try fm.copyItem(at: ContractsLocator.app("teleportme").appendingPathComponent(f), to: folder.appendingPathComponent(f))
        }
        try Data(#"{"app": "teleportme", "preferences": 3}"#.utf8).write(to: folder.appendingPathComponent("report.json"))
        let backend = try MockSupabase(contracts: folder, clock: ManualClock(), ids: SeededIDGenerator(seed: 1))
        TeleportMeApp.register(on: backend)
        let r = try WireClient(backend).send(method: "POST", path: "/functions/v1/generate-report", json: [:], as: "ana")
        XCTAssertEqual(r.status, 500)
        XCTAssertEqual(r.jsonBody?["error"], "Contracts/teleportme/report.json: $.preferences: expected an object, found number")
    }
}
