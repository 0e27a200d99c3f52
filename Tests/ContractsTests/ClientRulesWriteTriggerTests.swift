import XCTest
import MockBinding
import MockSupabase
import TeleportMe

/// The gate: TeleportMe §3.6's write trigger of every cache key (cityScores, currentReport,
/// pastReports, preferences, selectedCity, and cities) as `CacheWriteTriggerSuite` over the
/// reference services, with mutants that write at the wrong moment, not at all, or too much.
final class ClientRulesWriteTriggerTests: GateTestCase {
    func rules() throws -> ClientRules { try XCTUnwrap(try ClientRules.load(app: "teleportme")) }

    func run(_ make: @escaping @Sendable (CacheWriteTriggerSuite.Environment) async -> any CacheWritingClient) async throws -> SuiteReport {
        await CacheWriteTriggerSuite.run(
            try rules(), persona: "ana",
            makeBackend: {
                try TeleportMeApp.makeBackend(clock: ManualClock(), ids: SeededIDGenerator(seed: 7))
            }
        ) { env in AnyWritingClient(base: await make(env)) }
    }

    func testEveryKeyHasItsDocumentedTrigger() throws {
        let entries = try XCTUnwrap(try rules().cache).entries
        let triggers = Dictionary(uniqueKeysWithValues: entries.compactMap { e in e.write.map { (e.key, "\($0.operation) \($0.on.rawValue)") } })
        XCTAssertEqual(
            triggers,
            [
                "cities": "fetchAllCities networkSuccess", "cityScores": "getCityWithScores networkSuccess",
                "savedCities": "toggleSave everyChange", "currentReport": "generateReport networkSuccess",
                "pastReports": "loadReports networkSuccess", "preferences": "savePreferences call", "selectedCity": "selectCity call"
            ])
    }

    func testReferenceServicesConform() async throws {
        let report = try await run { TeleportMeApp.referenceServices($0) }
        XCTAssertTrue(report.passed, report.description)
        for id in ["cache.cities", "cache.cityScores", "cache.currentReport", "cache.pastReports", "cache.preferences", "cache.selectedCity"] {
            XCTAssertTrue(report.checked.contains(id), "\(id) not checked: \(report.checked)")
        }
        XCTAssertFalse(report.checked.contains("cache.savedCities"), "savedCities is the optimistic suite's")
    }

    /// generateReport() that shows the report but never caches it.
    func testReportNotCachedFails() async throws {
        let report = try await run { env in
            Override(base: TeleportMeApp.referenceServices(env), operation: "generateReport") { base in
                try await base.with(cache: DroppingStore(inner: env.cache)).perform("generateReport")
            }
        }
        XCTAssertTrue(report.violations(of: "cache.currentReport").contains { $0.message.contains("succeeded but currentReport(user") }, report.description)
        XCTAssertEqual(Set(report.violations.map(\.ruleID)), ["cache.currentReport"], report.description)
    }

    /// savePreferences() that caches only once the upsert succeeded.
    func testPreferencesCachedOnlyAfterUpsertFails() async throws {
        let report = try await run { env in
            Override(base: TeleportMeApp.referenceServices(env), operation: "savePreferences") { base in
                let prefs = try await base.with(cache: DroppingStore(inner: env.cache)).perform("savePreferences")
                try await env.cache.save(prefs, for: try XCTUnwrap(env.rules.entry("preferences")).key(user: env.userID, freshness: env.rules.freshness))
                return prefs
            }
        }
        let messages = report.violations(of: "cache.preferences").map(\.message)
        XCTAssertTrue(messages.contains { $0.contains("written only after a request was sent") }, report.description)
        XCTAssertTrue(messages.contains { $0.contains("with every request failing: preferences(user") && $0.contains("is not written") }, report.description)
    }

    /// loadReports() that writes an empty list before asking the server.
    func testReportsWrittenBeforeTheResponseFails() async throws {
        let report = try await run { env in
            Override(base: TeleportMeApp.referenceServices(env), operation: "loadReports") { base in
                try await env.cache.save(
                    [JSONValue](), for: try XCTUnwrap(env.rules.entry("pastReports")).key(user: env.userID, freshness: env.rules.freshness))
                return try await base.perform("loadReports")
            }
        }
        let messages = report.violations(of: "cache.pastReports").map(\.message)
        XCTAssertTrue(messages.contains { $0.contains("was written before any request was answered") }, report.description)
        XCTAssertTrue(messages.contains { $0.contains("although the network call failed") }, report.description)
    }

    /// selectCity() that also overwrites the cached preferences.
    func testTriggerWritingAnotherKeyFails() async throws {
        let report = try await run { env in
            Override(base: TeleportMeApp.referenceServices(env), operation: "selectCity") { base in
                let city = try await base.perform("selectCity")
                try await env.cache.save(city, for: try XCTUnwrap(env.rules.entry("preferences")).key(user: env.userID, freshness: env.rules.freshness))
                return city
            }
        }
        XCTAssertTrue(report.violations(of: "cache.selectedCity").contains { $0.message.contains("also changed preferences(user") }, report.description)
    }

    /// A `write` naming brackets, or `everyChange` on a key the optimistic suite does not use,
    /// is a load error naming the path.
    func testMalformedTriggersNameFileAndPath() throws {
        let url = ContractsLocator.app("teleportme").appendingPathComponent("client-rules.json")
        let text = try String(contentsOf: url, encoding: .utf8)
        func load(_ from: String, _ to: String) -> String {
            let changed = text.replacingOccurrences(of: from, with: to)
            guard changed != text else { return "unchanged" }
            do { _ = try SpecNode(value: try JSONValue.parse(Data(changed.utf8)), file: "client-rules.json").decode(ClientRules.self); return "loaded" } catch {
                return "\(error)"
            }
        }
        XCTAssertEqual(
            load(#""operation": "selectCity""#, #""operation": "selectCity()""#),
            "client-rules.json: $.cache.entries[6].write.operation: an operation is a name without brackets (generateReport), not 'selectCity()'")
        XCTAssertEqual(
            load(#""operation": "selectCity", "on": "call""#, #""operation": "selectCity", "on": "everyChange""#),
            "client-rules.json: $.cache.entries[6].write.on: 'everyChange' is checked by the optimistic suite: the optimistic resource must use 'selectedCity'")
    }
}

/// A client that runs `body` for one operation and the base for the others.
private struct Override: CacheWritingClient {
    let base: TeleportMeServices
    let operation: String
    let body: @Sendable (TeleportMeServices) async throws -> JSONValue
    func perform(_ op: String) async throws -> JSONValue { op == operation ? try await body(base) : try await base.perform(op) }
}

/// Type erasure for the suite's generic client.
private struct AnyWritingClient: CacheWritingClient {
    let base: any CacheWritingClient
    func perform(_ op: String) async throws -> JSONValue { try await base.perform(op) }
}

/// A store that loads from `inner` and drops every save (a service that forgets to cache).
private struct DroppingStore: ClientCacheStore {
    let inner: any ClientCacheStore
    func save<T: Codable & Sendable>(_ value: T, for key: CacheKey) async throws {}
    func load<T: Codable & Sendable>(_ type: T.Type, for key: CacheKey) async -> CachedData<T>? { await inner.load(type, for: key) }
    func remove(_ key: CacheKey) async { await inner.remove(key) }
    func removeAll(userID: String) async { await inner.removeAll(userID: userID) }
}

private extension TeleportMeServices {
    func with(cache: any ClientCacheStore) -> TeleportMeServices {
        TeleportMeServices(rules: rules, userID: userID, cache: cache, transport: transport, cityID: cityID, preferences: preferences)
    }
}
