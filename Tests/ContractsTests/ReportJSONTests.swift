import XCTest
import MockBinding
import TeleportMe

/// generate-report builds its saved row as `JSONValue` and its response text field by field
/// (`ReportJSON`); these must be exactly what `PostgresRowCoding.encode` (and its text) gives,
/// which the wire bytes and the saved row were pinned with.
final class ReportJSONTests: GateTestCase {
    /// The fields where a builder and the encoder differ (empty: equal).
    static func differences(_ built: JSONValue, _ encoded: JSONValue, at path: String = "$") -> [String] {
        switch (built, encoded) {
        case (.object(let a), .object(let b)):
            return Set(a.keys).union(b.keys).sorted().flatMap { k -> [String] in
                guard let x = a[k], let y = b[k] else { return ["\(path).\(k): only in \(a[k] == nil ? "the encoder's" : "the builder's")"] }
                return differences(x, y, at: "\(path).\(k)")
            }
        case (.array(let a), .array(let b)):
            guard a.count == b.count else { return ["\(path): \(a.count) vs \(b.count) items"] }
            return zip(a, b).enumerated().flatMap { differences($1.0, $1.1, at: "\(path)[\($0)]") }
        default:
            return built == encoded ? [] : ["\(path): \(built) vs \(encoded)"]
        }
    }

    /// One city's comparison of the builders with the encoder.
    struct CityComparison: Sendable {
        var city: String
        /// Where the response's `jsonValue()` differs from the encoder's value.
        var responseDifferences: [String]
        /// The response's `jsonText()` and the encoder's text of it.
        var text: String, encodedText: String
        /// Where the saved row's `jsonValue(results:)` differs from the encoder's value.
        var rowDifferences: [String]
    }

    /// Every real urban area compared, computed once per process (the gate's warm-up,
    /// `GateWarmUp`, makes it while earlier suites run); with the number of cities.
    static let everyCity = Result { () throws -> (cities: Int, compared: [CityComparison]) in
        let rules = try TeleportMeTestSupport.rules()
        let engine = ReportEngine(rules: rules)
        let refiner = DeterministicRefiner(rules: rules)
        let cities = try ReportCatalogs.urbanAreas()
        let catalog = ReportCatalog(cities: cities, rules: rules)
        let prefs = [ReportPreferences(cost: 7, climate: 6, culture: 8, jobMarket: 5), ReportPreferences(cost: 0.5, climate: 10, culture: 0, jobMarket: 3.25)]
        guard let user = PGUUID(TeleportMeTestSupport.ana) else { throw TestSetupFailure(description: "ana's id is not a UUID") }
        var compared: [CityComparison] = []
        for (n, city) in cities.enumerated() {
            let p = prefs[n % prefs.count]
            let outcome = try engine.generate(current: city, preferences: p, catalog: catalog, refiner: refiner)
            var response = outcome.response
            if n % 3 == 0 { response.reportID = PGUUID(UUID(uuidString: "00000000-0000-4000-8000-\(String(format: "%012d", n))")!) }
            let row = CityReportInsert(
                userID: user, currentCityID: city.id, preferences: p, results: response.matches, aiSummary: n % 2 == 0 ? outcome.aiSummary : nil)
            compared.append(
                CityComparison(
                    city: city.id, responseDifferences: differences(try response.jsonValue(), try PostgresRowCoding.encode(response)),
                    text: try response.jsonText(), encodedText: try PostgresRowCoding.encode(response).serialized(),
                    rowDifferences: differences(try row.jsonValue(results: try response.matchValues()), try PostgresRowCoding.encode(row))))
        }
        return (cities.count, compared)
    }

    /// Every real urban area as the current city, two preference sets, with and without a saved
    /// id; the saved row too.
    func testBuildersEqualTheEncoderOnEveryCity() throws {
        let (cities, compared) = try Self.everyCity.get()
        var checked = 0
        for c in compared {
            XCTAssertEqual(c.responseDifferences, [], c.city)
            XCTAssertEqual(c.text, c.encodedText, c.city)
            XCTAssertEqual(c.rowDifferences, [], c.city)
            checked += 1
        }
        XCTAssertEqual(checked, cities)
    }

    /// Absent image, numbers at the edges of the encoder's cases (whole, tiny, huge, negative).
    func testEdgeValuesMatchAndAMutantIsCaught() throws {
        let edges: [Double] = [0, -0.0, 3, -3, 0.5, 1e-7, 0.0001, 0.00009, 1e16, 9_007_199_254_740_992, 9_007_199_254_740_994, 1.5e300, -2.75]
        var scores: [String: Double] = [:]
        for (i, d) in edges.enumerated() { scores["s\(i)"] = d }
        let match = CityMatch(
            cityID: "x", cityName: "X \"quoted\"", cityFullName: "X, Y", cityCountry: "Y", cityImageURL: nil, matchPercent: 40, rank: 1,
            comparison: ["Cost of Living": ComparisonEntry(matchScore: 1e-7, currentScore: 10, delta: -9.9999999)], aiInsight: "é\n", scores: scores)
        XCTAssertEqual(Self.differences(try match.jsonValue(), try PostgresRowCoding.encode(match)), [])
        var text = ""
        try match.writeJSON(to: &text)
        XCTAssertEqual(text, try PostgresRowCoding.encode(match).serialized())
        let empty = CityMatch(
            cityID: "e", cityName: "E", cityFullName: "E", cityCountry: "E", cityImageURL: "https://x/y.jpg", matchPercent: 99, rank: 5, comparison: [:],
            aiInsight: "", scores: [:])
        let rules = try TeleportMeTestSupport.rules()
        let cities = try ReportCatalogs.urbanAreas()
        var response = try ReportEngine(rules: rules).generate(
            current: cities[0], preferences: ReportPreferences(cost: 1, climate: 2, culture: 3, jobMarket: 4),
            catalog: ReportCatalog(cities: cities, rules: rules), refiner: DeterministicRefiner(rules: rules)
        ).response
        response.currentCity.id = "c"
        response.currentCity.name = "C \\ \u{1}"
        response.currentCity.scores = ["b": 1, "a": 0.25, "B": 2, "é": 3]
        response.matches = [match, empty]
        XCTAssertEqual(try response.jsonText(), try PostgresRowCoding.encode(response).serialized())
        response.matches = []
        XCTAssertEqual(
            try response.jsonText(), #"{"current_city":{"id":"c","name":"C \\ \u0001","scores":{"B":2,"a":0.25,"b":1,"é":3}},"matches":[],"report_id":null}"#)
        for d in edges { XCTAssertEqual(try ReportJSON.number(d), try PostgresRowCoding.encode(d), "\(d)") }
        XCTAssertThrowsError(try ReportJSON.number(.nan), "a non-finite score is refused as the encoder refuses it")
        // Mutant: a builder that leaves out an absent image (as synthesized Codable would) is caught.
        guard case .object(var mutant) = try match.jsonValue() else { return XCTFail("not an object") }
        mutant["city_image_url"] = nil
        XCTAssertEqual(Self.differences(.object(mutant), try PostgresRowCoding.encode(match)), ["$.city_image_url: only in the encoder's"])
        // Mutant: every number as a double (no whole-number ints) is caught.
        XCTAssertNotEqual(JSONValue.double(3), try ReportJSON.number(3))
    }
}
