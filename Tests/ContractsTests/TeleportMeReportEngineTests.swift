import XCTest
import MockBinding
import TeleportMe

/// The report engine against §4.6 steps 3-9 and the decisions of report.json, on small
/// hand-made catalogs whose expected results are worked out in the test.
final class TeleportMeReportEngineTests: GateTestCase {
    static let categories = ReportCatalogs.categories

    /// A city with every category at `base`, some overridden.
    func city(_ id: String, _ base: Double, _ overrides: [String: Double] = [:]) -> ReportCity {
        var s = Dictionary(uniqueKeysWithValues: Self.categories.map { ($0, base) })
        for (k, v) in overrides { s[k] = v }
        return ReportCity(id: id, name: id.capitalized, fullName: "\(id.capitalized), Testland", country: "Testland", imageURL: nil, scores: s)
    }

    func prefs(_ c: Double, _ cl: Double, _ cu: Double, _ j: Double) -> ReportPreferences {
        ReportPreferences(cost: c, climate: cl, culture: cu, jobMarket: j)
    }

    func testRulesLoadWithADecisionForEveryOpenChoice() throws {
        let r = try TeleportMeTestSupport.rules()
        XCTAssertEqual(r.primary.map(\.category), ["Cost of Living", "Environmental Quality", "Leisure & Culture", "Economy"])
        XCTAssertEqual(r.bonusCategories, ["Safety", "Healthcare", "Commute", "Internet Access", "Tolerance"])
        XCTAssertEqual([r.clampMin, r.clampMax], [40, 99])
        XCTAssertEqual([r.topCandidates, r.refinedMin, r.refinedMax, r.fallbackCount], [8, 3, 5, 4])
        XCTAssertEqual(r.comparison.map(\.display), ["cost", "climate", "culture", "economy", "commute"])
        for section in [
            "preferences", "weightedSum", "bonus", "clamp", "rounding", "ranking", "candidates", "refined", "fallback", "comparison", "missingScore",
            "response", "mockRefiner"
        ] {
            XCTAssertNotNil(r.decisions["$.\(section).decision"], "report.json \(section) has no decision")
        }
        for c in r.primary.map(\.category) + r.bonusCategories + r.comparison.map(\.category) {
            XCTAssertTrue(Self.categories.contains(c), "\(c) is not one of the 17 categories of §4.7")
        }
    }

    func testRulesAreReadStrictly() {
        func failure(_ edit: (inout [String: JSONValue]) -> Void) -> String {
            do { _ = try TeleportMeTestSupport.rules(editing: edit); return "no error" } catch { return "\(error)" }
        }
        XCTAssertEqual(
            failure { TeleportMeTestSupport.set(&$0, "clamp", "maximum", 99) },
            "Contracts/teleportme/report.json: $.clamp.maximum: unknown key 'maximum' (known here: decision, max, min)")
        XCTAssertEqual(
            failure { TeleportMeTestSupport.set(&$0, "bonus", "formula", "multiply") },
            "Contracts/teleportme/report.json: $.bonus.formula: unknown value 'multiply' (one of: blend, additive)")
        XCTAssertEqual(
            failure { TeleportMeTestSupport.set(&$0, "clamp", "max", 30) },
            "Contracts/teleportme/report.json: $.clamp.max: max (30) must not be below min (40)")
        XCTAssertEqual(
            failure { TeleportMeTestSupport.set(&$0, "fallback", "insightTemplate", "{city} rocks") },
            "Contracts/teleportme/report.json: $.fallback.insightTemplate: unknown placeholder '{city}' (allowed: {city_name}, {match_percent}, {strongest_category}, {strongest_score})"
        )
        XCTAssertEqual(
            failure { TeleportMeTestSupport.set(&$0, "refined", "max", 9) },
            "Contracts/teleportme/report.json: $.refined.max: max (9) cannot exceed candidates.top (8)")
        XCTAssertEqual(
            failure { TeleportMeTestSupport.set(&$0, "weightedSum", "decision", 3) },
            "Contracts/teleportme/report.json: $.weightedSum.decision: expected a string, found number")
        XCTAssertEqual(
            failure { $0["rounding"] = ["matchPercent": "halfEven"] },
            "Contracts/teleportme/report.json: $.rounding: missing required key 'decision'")
    }

    /// §4.6 step 4 worked by hand for one city under the report.json decisions (weighted mean of
    /// the primary terms, 50 % of the final; each bonus category 10 %).
    func testScoreMatchesTheDocumentsFormula() throws {
        let r = try TeleportMeTestSupport.rules()
        let engine = ReportEngine(rules: r)
        let c = city(
            "x", 5,
            [
                "Cost of Living": 8, "Environmental Quality": 6, "Leisure & Culture": 4, "Economy": 2,
                "Safety": 9, "Healthcare": 7, "Commute": 3, "Internet Access": 5, "Tolerance": 10
            ])
        let p = prefs(7, 6, 8, 5)
        // Terms (w/10)*(s/10)*100: 0.7*80 + 0.6*60 + 0.8*40 + 0.5*20 = 56 + 36 + 32 + 10 = 134; Σw/10 = 2.6.
        let primary = 134.0 / 2.6
        let bonus = 0.10 * (90 + 70 + 30 + 50 + 100)
        XCTAssertEqual(engine.rawScore(of: c, preferences: p), 0.5 * primary + bonus, accuracy: 1e-9)
        XCTAssertEqual(engine.matchPercent(0.5 * primary + bonus), 60) // 25.769… + 34 = 59.77 → 60
        // All weights 0: equal weights (zeroWeights = equal) = mean of the four primary scores.
        XCTAssertEqual(engine.rawScore(of: c, preferences: prefs(0, 0, 0, 0)), 0.5 * (80 + 60 + 40 + 20) / 4 + bonus, accuracy: 1e-9)
        // One slider: only that category counts.
        XCTAssertEqual(engine.rawScore(of: c, preferences: prefs(0, 0, 10, 0)), 0.5 * 40 + bonus, accuracy: 1e-9)
        // A missing score counts as missingScore (0).
        var partial = c
        partial.scores["Economy"] = nil
        XCTAssertEqual(engine.rawScore(of: partial, preferences: prefs(0, 0, 0, 10)), bonus, accuracy: 1e-9)
    }

    func testClampAndRounding() throws {
        let engine = ReportEngine(rules: try TeleportMeTestSupport.rules())
        XCTAssertEqual(engine.rawScore(of: city("top", 10), preferences: prefs(5, 5, 5, 5)), 100, accuracy: 1e-9)
        XCTAssertEqual(engine.matchPercent(100), 99)
        XCTAssertEqual(engine.matchPercent(0), 40)
        XCTAssertEqual(engine.matchPercent(39.4), 40)
        XCTAssertEqual(engine.matchPercent(86.5), 87, "half away from zero")
        XCTAssertEqual(engine.matchPercent(86.49), 86)
        XCTAssertEqual(engine.matchPercent(99.4), 99)
        XCTAssertEqual(ReportRules.Rounding.halfEven.apply(86.5), 86)
    }

    func testCandidatesExcludeTheCurrentCityRankByScoreThenIdAndStopAtTop() throws {
        let engine = ReportEngine(rules: try TeleportMeTestSupport.rules())
        var cities = (0..<12).map { city("c\($0)", Double($0) * 0.8) }
        cities.append(city("tie-b", 6)); cities.append(city("tie-a", 6)); cities.append(city("home", 10))
        let top = engine.topCandidates(current: "home", preferences: prefs(5, 5, 5, 5), catalog: ReportCatalog(cities: cities.reversed(), rules: engine.rules))
        XCTAssertEqual(top.map(\.cityID), ["c11", "c10", "c9", "c8", "tie-a", "tie-b", "c7", "c6"])
        XCTAssertEqual(top.map(\.matchPercent), [88, 80, 72, 64, 60, 60, 56, 48])
    }

    func generate(_ refiner: any Refiner, cities: [ReportCity]? = nil, current: String = "home") throws -> ReportOutcome {
        let engine = ReportEngine(rules: try TeleportMeTestSupport.rules())
        let list = cities ?? ((0..<10).map { city("c\($0)", 2 + Double($0) * 0.7) } + [city("home", 5)])
        return try engine.generate(
            currentCityID: current, preferences: prefs(7, 6, 8, 5), catalog: ReportCatalog(cities: list, rules: engine.rules), refiner: refiner)
    }

    func testRefinerPicksAreValidatedKeptAndRanked() throws {
        // Top 8 of c0…c9 are c9…c2; c0, c1 and home are outside the pool.
        let reply =
            #"```json{"matches": [{"city_id": "c5", "insight": "Five."}, {"city_id": "c9", "insight": "Nine."}, {"city_id": "c1", "insight": "One."}, {"city_id": "c7", "insight": " "}, {"city_id": "home", "insight": "Home."}, {"city_id": "c9", "insight": "Again."}, {"city_id": "c2", "insight": "Two."}], "summary": "Picked."}```"#
        let out = try generate(FixedRefiner(reply: reply))
        XCTAssertEqual(out.refinement, .refined)
        XCTAssertEqual(out.response.matches.map(\.cityID), ["c9", "c5", "c2"], "ranked by score (refined.rankOrder)")
        XCTAssertEqual(out.response.matches.map(\.rank), [1, 2, 3])
        XCTAssertEqual(out.response.matches.map(\.aiInsight), ["Nine.", "Five.", "Two."])
        XCTAssertEqual(out.aiSummary, "Picked.")
        XCTAssertEqual(out.dropped.map(\.entry), ["c1", "c7", "home", "c9"])
        XCTAssertEqual(out.dropped.map(\.reason), ["not in the candidate pool", "no insight", "not in the candidate pool", "duplicate"])
    }

    func testMoreThanFiveValidPicksKeepTheFirstFive() throws {
        let ids = ["c2", "c3", "c4", "c5", "c6", "c7", "c8"]
        let reply = JSONValue.object(["matches": .array(ids.map { ["city_id": .string($0), "insight": .string("About \($0).")] })]).serialized()
        let out = try generate(FixedRefiner(reply: reply))
        XCTAssertEqual(out.response.matches.map(\.cityID), ["c6", "c5", "c4", "c3", "c2"])
        XCTAssertNil(out.aiSummary)
    }

    func testRankOrderRefinerKeepsTheRefinersOrder() throws {
        let rules = try TeleportMeTestSupport.rules { TeleportMeTestSupport.set(&$0, "refined", "rankOrder", "refiner") }
        let reply = #"{"matches": [{"city_id": "c3", "insight": "a"}, {"city_id": "c9", "insight": "b"}, {"city_id": "c5", "insight": "c"}]}"#
        let list = (0..<10).map { city("c\($0)", 2 + Double($0) * 0.7) } + [city("home", 5)]
        let out = try ReportEngine(rules: rules).generate(
            currentCityID: "home", preferences: prefs(5, 5, 5, 5),
            catalog: ReportCatalog(cities: list, rules: rules), refiner: FixedRefiner(reply: reply))
        XCTAssertEqual(out.response.matches.map(\.cityID), ["c3", "c9", "c5"])
    }

    func testFallbackIsTheTopFourWithGenericInsights() throws {
        let cases: [(any Refiner, String)] = [
            (FailingRefiner("timeout"), "refiner failed: timeout"),
            (FixedRefiner(reply: "Sorry, I cannot help."), "reply unusable: not JSON"),
            (FixedRefiner(reply: "[1, 2, 3]"), "reply unusable: expected a JSON object, found array"),
            (FixedRefiner(reply: #"{"picks": []}"#), "reply unusable: no 'matches' array"),
            (
                FixedRefiner(
                    reply: #"{"matches": [{"city_id": "c9", "insight": "x"}, {"city_id": "c8", "insight": "y"}, {"city_id": "atlantis", "insight": "z"}]}"#),
                "2 valid picks, at least 3 required"
            ),
            (FixedRefiner(reply: ""), "reply unusable: not JSON")
        ]
        for (refiner, reason) in cases {
            let out = try generate(refiner)
            guard case .fallback(let r) = out.refinement else { XCTFail("expected a fallback for \(reason)"); continue }
            XCTAssertTrue(r.description.hasPrefix(reason), "\(r) vs \(reason)")
            XCTAssertEqual(out.response.matches.map(\.cityID), ["c9", "c8", "c7", "c6"])
            XCTAssertNil(out.aiSummary)
            let c9 = out.response.matches[0]
            // c9 has every category at 8.3: strongest primary category is the first listed (ties in report.json order).
            XCTAssertEqual(c9.aiInsight, "C9 is a \(c9.matchPercent)% match for your priorities, with its strongest score in Cost of Living (8.3 out of 10).")
        }
    }

    func testComparisonCoversTheFiveDisplayCategoriesRounded() throws {
        let list = [
            city("home", 2.5, ["Cost of Living": 2.504, "Commute": 4.6873]),
            city("a", 7, ["Cost of Living": 7.005, "Commute": 6.2133, "Economy": 4.663]),
            city("b", 6), city("c", 5), city("d", 4)
        ]
        let out = try generate(FailingRefiner("off"), cities: list)
        let a = try XCTUnwrap(out.response.matches.first { $0.cityID == "a" })
        XCTAssertEqual(Set(a.comparison.keys), ["Cost of Living", "Environmental Quality", "Leisure & Culture", "Economy", "Commute"])
        XCTAssertEqual(a.comparison["Cost of Living"], ComparisonEntry(matchScore: 7.01, currentScore: 2.5, delta: 4.51))
        XCTAssertEqual(a.comparison["Commute"], ComparisonEntry(matchScore: 6.21, currentScore: 4.69, delta: 1.52))
        XCTAssertEqual(a.comparison["Economy"], ComparisonEntry(matchScore: 4.66, currentScore: 2.5, delta: 2.16))
        var missing = list
        missing[1].scores["Commute"] = nil
        let m = try generate(FailingRefiner("off"), cities: missing).response.matches.first { $0.cityID == "a" }
        XCTAssertNil(m?.comparison["Commute"], "a category one side lacks is left out")
        XCTAssertNil(m?.scores["Commute"])
        XCTAssertEqual(out.response.currentCity.scores["Commute"], 4.6873, "scores are the stored values, unrounded")
    }

    func testSmallCatalogsAndBadInput() throws {
        let engine = ReportEngine(rules: try TeleportMeTestSupport.rules())
        let three = [city("home", 5), city("a", 6), city("b", 7)]
        let out = try engine.generate(
            currentCityID: "home", preferences: prefs(1, 2, 3, 4), catalog: ReportCatalog(cities: three, rules: engine.rules),
            refiner: DeterministicRefiner(rules: engine.rules))
        XCTAssertEqual(out.candidates.map(\.cityID), ["b", "a"])
        XCTAssertEqual(out.response.matches.map(\.cityID), ["b", "a"], "with 2 candidates the refiner cannot name 3: fallback shows both")
        XCTAssertThrowsError(
            try engine.generate(
                currentCityID: "nowhere", preferences: prefs(1, 2, 3, 4), catalog: ReportCatalog(cities: three, rules: engine.rules),
                refiner: FailingRefiner("x"))
        ) {
            XCTAssertEqual("\($0)", "unknown city 'nowhere'")
        }
        for bad in [prefs(10.01, 1, 1, 1), prefs(1, -1, 1, 1), prefs(1, 1, .nan, 1), prefs(1, 1, 1, .infinity)] {
            XCTAssertThrowsError(
                try engine.generate(
                    currentCityID: "home", preferences: bad, catalog: ReportCatalog(cities: three, rules: engine.rules), refiner: FailingRefiner("x")))
        }
        XCTAssertNoThrow(try engine.validate(prefs(0, 10, 0, 10)))
    }

    func testDeterministicRefinerFollowsItsRules() throws {
        let rules = try TeleportMeTestSupport.rules()
        let list = (0..<10).map { city("c\($0)", 2 + Double($0) * 0.7) } + [city("home", 5)]
        let out = try ReportEngine(rules: rules).generate(
            currentCityID: "home", preferences: prefs(1, 9, 1, 1), catalog: ReportCatalog(cities: list, rules: rules),
            refiner: DeterministicRefiner(rules: rules))
        XCTAssertEqual(out.refinement, .refined)
        // Percents fall by 3-4 per city: within 6 of the best are c9, c8 (and c7 at the edge).
        let best = out.candidates[0].matchPercent
        let close = out.candidates.filter { Double(best - $0.matchPercent) <= rules.mockRefiner.closeToBest }.count
        XCTAssertEqual(out.response.matches.count, min(max(close, 3), 5))
        XCTAssertEqual(out.response.matches[0].aiInsight, "C9 scores 8.3 for Environmental Quality, your top priority, against 5 in Home.")
        XCTAssertEqual(out.aiSummary, "Cities that suit your priorities best, led by C9, compared with Home.")
    }
}
