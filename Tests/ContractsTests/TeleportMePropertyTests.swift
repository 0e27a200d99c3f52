import XCTest
import MockBinding
import TeleportMe

/// Seeded properties of the report engine over the 266 real cities and synthetic catalogs:
/// match_percent within the clamp, ranks 1…n without gaps, the current city never a match,
/// 3-5 matches, and the same input (in any catalog order) gives byte-identical output.
///
/// Each catalog's rounds are generated once per process (`realUrbanAreas`, `synthetic`,
/// `extreme`: the gate's warm-up, `GateWarmUp`, makes them while earlier suites run); the tests
/// check what was generated.
final class TeleportMePropertyTests: GateTestCase {
    typealias RNG = SeededRandom

    static func randomPreference(_ rng: inout RNG) -> Double {
        switch rng.next() % 6 {
        case 0: return 0
        case 1: return 10
        default: return Double(rng.next() % 101) / 10
        }
    }

    /// A refiner reply generator covering valid, partly valid, garbage and failing refiners.
    static func randomRefiner(_ rng: inout RNG, rules: ReportRules, pool: [String], others: [String]) -> any Refiner {
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

    static func encoded(_ o: ReportOutcome) throws -> Data { try PostgresRowCoding.encode(o.response).data(.pretty) }

    /// One iteration's drawn input: the current city, the preferences, the top candidates, the
    /// refiner and (every tenth iteration) the catalog shuffled.
    struct Round: Sendable {
        var current: ReportCity
        var prefs: ReportPreferences
        var pool: [String]
        var refiner: any Refiner
        var shuffled: [ReportCity]?
    }

    /// What the engine made of a round: the outcome, its bytes, the bytes of the same input
    /// again and (with a shuffled catalog) of the shuffled catalog.
    struct Generated: Sendable {
        var out: ReportOutcome
        var bytes: Data
        var again: Data
        var shuffled: Data?
    }

    /// One catalog's rounds and what the engine made of each.
    struct Run: Sendable {
        var rules: ReportRules
        var rounds: [Round]
        var generated: [Generated]
    }

    /// The real urban areas' 400 rounds, computed once per process.
    static let realUrbanAreas = Result { try run(catalog: ReportCatalogs.urbanAreas(), iterations: 400, seed: 0x5EED_0001) }
    /// A synthetic catalog of 2,000 cities' 150 rounds, computed once per process.
    static let synthetic = Result { try run(catalog: ReportCatalogs.synthetic(count: 2_000, seed: 99), iterations: 150, seed: 0x5EED_0002) }
    /// The extreme catalog's 150 rounds, computed once per process.
    static let extreme = Result { try run(catalog: extremeCatalog(), iterations: 150, seed: 0x5EED_0003) }

    /// Extremes: all-0 and all-10 cities (clamped to 40 and 99), cities with missing categories, ties.
    static func extremeCatalog() -> [ReportCity] {
        var extreme = ReportCatalogs.synthetic(count: 30, seed: 5)
        for i in 0..<10 { extreme[i].scores = Dictionary(uniqueKeysWithValues: ReportCatalogs.categories.map { ($0, i % 2 == 0 ? 0.0 : 10.0) }) }
        for i in 10..<15 { extreme[i].scores = extreme[i].scores.filter { _ in i % 3 != 0 }; extreme[i].scores["Economy"] = nil }
        return extreme
    }

    /// Draws `iterations` rounds over `cities` from `seed` and generates each.
    static func run(catalog cities: [ReportCity], iterations: Int, seed: UInt64) throws -> Run {
        let rules = try ReportRules.load()
        let engine = ReportEngine(rules: rules)
        var rng = RNG(seed: seed)
        let catalog = ReportCatalog(cities: cities, rules: rules)
        // Every round's input drawn first, in the generator's order (the engine draws nothing);
        // the rounds then run side by side; `check` checks them, in order.
        var rounds: [Round] = []
        for i in 0..<iterations {
            let current = cities[Int(rng.next() % UInt64(cities.count))]
            let prefs = ReportPreferences(
                cost: randomPreference(&rng), climate: randomPreference(&rng), culture: randomPreference(&rng), jobMarket: randomPreference(&rng))
            let pool = engine.topCandidates(current: current.id, preferences: prefs, catalog: catalog).map(\.cityID)
            let others = [current.id] + (0..<3).map { _ in cities[Int(rng.next() % UInt64(cities.count))].id }
            let refiner = randomRefiner(&rng, rules: rules, pool: pool, others: others)
            var shuffled: [ReportCity]?
            if i % 10 == 0 {
                var s = cities
                s.shuffle(using: &rng)
                shuffled = s
            }
            rounds.append(Round(current: current, prefs: prefs, pool: pool, refiner: refiner, shuffled: shuffled))
        }
        let generated = try Concurrently<Generated>.map(rounds) { r in
            let out = try engine.generate(current: r.current, preferences: r.prefs, catalog: catalog, refiner: r.refiner)
            // Determinism: the same input, and the same catalog in another order, give the same bytes.
            let again = try engine.generate(current: r.current, preferences: r.prefs, catalog: catalog, refiner: r.refiner)
            let other = try r.shuffled.map {
                try encoded(try engine.generate(current: r.current, preferences: r.prefs, catalog: ReportCatalog(cities: $0, rules: rules), refiner: r.refiner))
            }
            return Generated(out: out, bytes: try encoded(out), again: try encoded(again), shuffled: other)
        }
        return Run(rules: rules, rounds: rounds, generated: generated)
    }

    /// Checks every round of `run` (made from `seed`, which the labels name).
    func check(_ run: Result<Run, any Error>, seed: UInt64, file: StaticString = #filePath, line: UInt = #line) throws {
        let made = try run.get()
        let (rules, rounds, generated) = (made.rules, made.rounds, made.generated)
        for (i, (r, g)) in zip(rounds, generated).enumerated() {
            let (current, pool, out) = (r.current, r.pool, g.out)
            let label = "seed \(seed) iteration \(i): \(current.id) \(r.prefs)"
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
            XCTAssertEqual(g.bytes, g.again, "\(label): not deterministic", file: file, line: line)
            if let other = g.shuffled {
                XCTAssertEqual(g.bytes, other, "\(label): depends on the catalog's order", file: file, line: line)
            }
        }
    }

    func testPropertiesOverTheRealUrbanAreas() throws {
        let cities = try ReportCatalogs.urbanAreas()
        XCTAssertEqual(cities.count, 266)
        try check(Self.realUrbanAreas, seed: 0x5EED_0001)
    }

    func testPropertiesOverSyntheticAndExtremeCatalogs() throws {
        try check(Self.synthetic, seed: 0x5EED_0002)
        try check(Self.extreme, seed: 0x5EED_0003)
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
