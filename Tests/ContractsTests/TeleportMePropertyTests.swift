import XCTest
import MockBinding
import TeleportMe

/// Seeded properties of the report engine over the 266 real cities and synthetic catalogs:
/// match_percent within the clamp, ranks 1…n without gaps, the current city never a match,
/// 3-5 matches, and the same input (in any catalog order) gives byte-identical output.
final class TeleportMePropertyTests: GateTestCase {
    typealias RNG = SeededRandom

    func randomPreference(_ rng: inout RNG) -> Double {
        switch rng.next() % 6 {
        case 0: return 0
        case 1: return 10
        default: return Double(rng.next() % 101) / 10
        }
    }

    /// A refiner reply generator covering valid, partly valid, garbage and failing refiners.
    func randomRefiner(_ rng: inout RNG, rules: ReportRules, pool: [String], others: [String]) -> any Refiner {
        switch rng.next() % 6 {
        case 0: return DeterministicRefiner(rules: rules)
        case 1: return FailingRefiner("outage")
        case 2: return FixedRefiner(reply: ["", "null", "{", "[]", "{\"matches\": 3}", "Sure! Here you go."][Int(rng.next() % 6)])
        default:
            let n = Int(rng.next() % 9)
            let ids = (0..<n).map { _ -> String in
                let r = rng.next() % 10
                if r < 6, !pool.isEmpty { return pool[Int(rng.next() % UInt64(pool.count))] }
                if r < 9, !others.isEmpty { return others[Int(rng.next() % UInt64(others.count))] }
                return "nowhere-\(rng.next() % 5)"
            }
            let fence = rng.next() % 2 == 0
            let body = JSONValue.object(["matches": .array(ids.map { ["city_id": .string($0), "insight": .string("About \($0).")] })]).serialized()
            return FixedRefiner(reply: fence ? "```json\n\(body)\n```" : body)
        }
    }

    func encoded(_ o: ReportOutcome) throws -> Data { try PostgresRowCoding.encode(o.response).data(.pretty) }

    func check(catalog cities: [ReportCity], iterations: Int, seed: UInt64, file: StaticString = #filePath, line: UInt = #line) throws {
        let rules = try ReportRules.load()
        let engine = ReportEngine(rules: rules)
        var rng = RNG(seed: seed)
        let catalog = ReportCatalog(cities: cities, rules: rules)
        for i in 0..<iterations {
            let current = cities[Int(rng.next() % UInt64(cities.count))]
            let prefs = ReportPreferences(
                cost: randomPreference(&rng), climate: randomPreference(&rng), culture: randomPreference(&rng), jobMarket: randomPreference(&rng))
            let pool = engine.topCandidates(current: current.id, preferences: prefs, catalog: catalog).map(\.cityID)
            let others = [current.id] + (0..<3).map { _ in cities[Int(rng.next() % UInt64(cities.count))].id }
            let refiner = randomRefiner(&rng, rules: rules, pool: pool, others: others)
            let out = try engine.generate(current: current, preferences: prefs, catalog: catalog, refiner: refiner)
            let label = "seed \(seed) iteration \(i): \(current.id) \(prefs)"
            let m = out.response.matches
            XCTAssertTrue((rules.refinedMin...rules.refinedMax).contains(m.count), "\(label): \(m.count) matches", file: file, line: line)
            for x in m {
                XCTAssertTrue((40...99).contains(x.matchPercent), "\(label): match_percent \(x.matchPercent)", file: file, line: line)
                XCTAssertNotEqual(x.cityID, current.id, "\(label): the current city is a match", file: file, line: line)
                XCTAssertTrue(pool.contains(x.cityID), "\(label): \(x.cityID) is not among the top candidates", file: file, line: line)
            }
            XCTAssertEqual(m.map(\.rank), Array(stride(from: 1, through: m.count, by: 1)), "\(label): ranks", file: file, line: line)
            XCTAssertEqual(Set(m.map(\.cityID)).count, m.count, "\(label): a city twice", file: file, line: line)
            XCTAssertEqual(m.map(\.matchPercent), m.map(\.matchPercent).sorted(by: >), "\(label): ranked by score", file: file, line: line)
            // Determinism: the same input, and the same catalog in another order, give the same bytes.
            let again = try engine.generate(current: current, preferences: prefs, catalog: catalog, refiner: refiner)
            XCTAssertEqual(try encoded(out), try encoded(again), "\(label): not deterministic", file: file, line: line)
            if i % 10 == 0 {
                var shuffled = cities
                shuffled.shuffle(using: &rng)
                let other = try engine.generate(current: current, preferences: prefs, catalog: ReportCatalog(cities: shuffled, rules: rules), refiner: refiner)
                XCTAssertEqual(try encoded(out), try encoded(other), "\(label): depends on the catalog's order", file: file, line: line)
            }
        }
    }

    func testPropertiesOverTheRealUrbanAreas() throws {
        let cities = try ReportCatalogs.urbanAreas()
        XCTAssertEqual(cities.count, 266)
        try check(catalog: cities, iterations: 400, seed: 0x5EED_0001)
    }

    func testPropertiesOverSyntheticAndExtremeCatalogs() throws {
        try check(catalog: ReportCatalogs.synthetic(count: 2_000, seed: 99), iterations: 150, seed: 0x5EED_0002)
        // Extremes: all-0 and all-10 cities (clamped to 40 and 99), cities with missing categories, ties.
        var extreme = ReportCatalogs.synthetic(count: 30, seed: 5)
        for i in 0..<10 { extreme[i].scores = Dictionary(uniqueKeysWithValues: ReportCatalogs.categories.map { ($0, i % 2 == 0 ? 0.0 : 10.0) }) }
        for i in 10..<15 { extreme[i].scores = extreme[i].scores.filter { _ in i % 3 != 0 }; extreme[i].scores["Economy"] = nil }
        try check(catalog: extreme, iterations: 150, seed: 0x5EED_0003)
    }

    /// The property checks themselves can fail: a clamp of 30-100 lets percents out of 40-99.
    func testPropertyCheckRejectsAWrongClamp() throws {
        let wide = try TeleportMeTestSupport.rules {
            TeleportMeTestSupport.set(&$0, "clamp", "min", 30); TeleportMeTestSupport.set(&$0, "clamp", "max", 100)
        }
        var tops = ReportCatalogs.synthetic(count: 10, seed: 5)
        for i in 0..<10 { tops[i].scores = Dictionary(uniqueKeysWithValues: ReportCatalogs.categories.map { ($0, 10.0) }) }
        let out = try ReportEngine(rules: wide).generate(
            current: tops[0], preferences: ReportPreferences(cost: 5, climate: 5, culture: 5, jobMarket: 5),
            catalog: tops, refiner: FailingRefiner("x"))
        XCTAssertFalse(out.response.matches.allSatisfy { (40...99).contains($0.matchPercent) })
    }
}
