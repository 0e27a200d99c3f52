import Foundation
import MockBinding
import MockSupabase

/// The reference TeleportMe services as §3.6 and §5 describe them, reduced to what they do with
/// the cache: `fetchAllCities()`, `getCityWithScores()`, `generateReport()`, `loadReports()`,
/// `savePreferences()` and `selectCity()`, each writing its cache entry at the moment its
/// client-rules.json `write` trigger says. What `CacheWriteTriggerSuite` checks.
package struct TeleportMeServices: CacheWritingClient {
    /// The cache rules (keys and TTLs).
    package let rules: CacheRules
    /// The signed-in user.
    package let userID: String
    package let cache: any ClientCacheStore
    /// The network.
    package let transport: any RESTTransport
    /// The city the screens act on (the current city of a report, the selected city, the city
    /// whose scores are opened).
    package let cityID: String
    /// The user's sliders (§4.6 request `preferences`).
    package let preferences: ReportPreferences

    package init(
        rules: CacheRules, userID: String, cache: any ClientCacheStore, transport: any RESTTransport,
        cityID: String, preferences: ReportPreferences
    ) {
        self.rules = rules
        self.userID = userID
        self.cache = cache
        self.transport = transport
        self.cityID = cityID
        self.preferences = preferences
    }

    /// An operation the services do not have.
    package struct UnknownOperation: Error, CustomStringConvertible {
        package var operation: String
        package var description: String { "TeleportMeServices has no operation \(operation)()" }
    }

    /// The key of a client-rules.json entry for this user.
    func key(_ name: String) throws -> CacheKey {
        guard let entry = rules.entry(name) else { throw RESTError.unexpectedBody("client-rules.json has no cache entry '\(name)'") }
        return entry.key(user: userID, freshness: rules.freshness)
    }

    var rest: PostgRESTClient { PostgRESTClient(transport: transport) }

    /// §3.6 cache-then-network over one list: the cache if fresh, else the server, written through.
    func cachedList(_ name: String, path: String, query: String) async throws -> JSONValue {
        let client = rest
        let loader = CacheThenNetworkLoader<JSONValue>(cache: cache, key: try key(name)) { try await client.rows(path: path, query: query) }
        let shown = await loader.load { _ in }
        if let error = shown.errorMessage { throw RESTError.unexpectedBody(error) }
        return .array(shown.items)
    }

    package func perform(_ operation: String) async throws -> JSONValue {
        switch operation {
        case "fetchAllCities":
            // §5.1 CityService.fetchAllCities(): cache, then (if stale) Supabase, written through.
            return try await cachedList("cities", path: "/rest/v1/cities", query: "select=*&order=id.asc")
        case "loadReports":
            return try await cachedList("pastReports", path: "/rest/v1/city_reports", query: "select=*&order=created_at.desc")
        case "getCityWithScores":
            // One global map city id -> scores; a success merges its city (client-rules.json decision).
            let k = try key("cityScores")
            let scores = try await rest.rows(path: "/rest/v1/city_scores", query: "select=*&city_id=eq.\(cityID)&order=category.asc")
            var map: [String: JSONValue] = [:]
            if case .object(let o)? = await cache.load(JSONValue.self, for: k)?.value { map = o }
            map[cityID] = .array(scores)
            try await cache.save(JSONValue.object(map), for: k)
            return .object(map)
        case "generateReport":
            // §5.2: invoke, then currentReport = response, then CacheManager.save(response).
            let body = try JSONEncoder().encode(GenerateReportRequest(currentCityID: cityID, preferences: preferences))
            let response = try await transport.send(
                HTTPRequest(
                    method: "POST", target: "/functions/v1/generate-report",
                    headers: ["Content-Type": "application/json"], body: body))
            guard (200..<300).contains(response.status) else { throw RESTError.status(response.status, response.text) }
            guard let report = response.jsonBody else { throw RESTError.unexpectedBody("generate-report answered no JSON") }
            try await cache.save(report, for: try key("currentReport"))
            return report
        case "savePreferences":
            // §5.2: CacheManager.save(preferences), then the upsert.
            let prefs: JSONValue = [
                "user_id": .string(userID), "cost_preference": .double(preferences.cost),
                "climate_preference": .double(preferences.climate), "culture_preference": .double(preferences.culture),
                "job_market_preference": .double(preferences.jobMarket)
            ]
            try await cache.save(prefs, for: try key("preferences"))
            let response = try await transport.send(
                HTTPRequest(
                    method: "POST", target: "/rest/v1/user_preferences?on_conflict=user_id",
                    headers: ["Content-Type": "application/json", "Prefer": "resolution=merge-duplicates,return=minimal"], body: prefs.data()))
            guard (200..<300).contains(response.status) else { throw RESTError.status(response.status, response.text) }
            return prefs
        case "selectCity":
            let selected: JSONValue = ["id": .string(cityID)]
            try await cache.save(selected, for: try key("selectedCity"))
            return selected
        default:
            throw UnknownOperation(operation: operation)
        }
    }
}

extension TeleportMeApp {
    /// The reference services through `CacheWriteTriggerSuite`, as persona `ana` acting on the
    /// first fixture city with mid-scale sliders.
    package static func referenceClientReports(_ rules: ClientRules) async -> [SuiteReport] {
        guard rules.cache?.entries.contains(where: { $0.write != nil }) == true else { return [] }
        return [
            await CacheWriteTriggerSuite.run(
                rules, persona: "ana",
                makeBackend: {
                    try makeBackend(clock: ManualClock(Date(timeIntervalSince1970: 1_767_225_600)), ids: SeededIDGenerator(seed: 0x5EED))
                }
            ) { env in
                referenceServices(env)
            }
        ]
    }

    /// The reference services of a suite environment.
    package static func referenceServices(_ env: CacheWriteTriggerSuite.Environment) -> TeleportMeServices {
        let city = env.backend.served.spec.fixtures.rows("cities").first?["id"]?.stringValue ?? ""
        return TeleportMeServices(
            rules: env.rules, userID: env.userID, cache: env.cache, transport: env.transport, cityID: city,
            preferences: ReportPreferences(cost: 5, climate: 5, culture: 5, jobMarket: 5))
    }
}
