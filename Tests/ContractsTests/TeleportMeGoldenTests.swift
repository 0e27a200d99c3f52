import XCTest
import MockBinding
import TeleportMe

/// The report goldens: every case matches Golden/teleportme/report/ (never re-recorded here),
/// is replayed through the mock's generate-report, and a deliberately altered engine fails them.
final class TeleportMeGoldenTests: GateTestCase {
    /// The real Golden/ folder, with artifacts in a temporary folder.
    func store() throws -> GoldenStore {
        GoldenStore(root: ContractsLocator.golden, artifacts: try TeleportMeTestSupport.temporaryFolder(self))
    }

    /// Honours SUPACONTRACTS_RECORD (default never), so `SUPACONTRACTS_RECORD=failed swift test
    /// --filter TeleportMeGoldenTests` re-records; the mutant tests below always use never.
    func testReportGoldensMatchAndReplayThroughTheMock() throws {
        let cases = try TeleportMeGoldens.goldenCases()
        let results = try GoldenSuite.run(
            app: "teleportme", cases: cases, store: try store(), mode: try GoldenRecordMode.from(environment: ProcessInfo.processInfo.environment))
        assertAllPassed(results, minimum: 24)
        XCTAssertEqual(results.filter { $0.name.hasSuffix("mock replay") }.count, cases.count, "every case is replayed")
    }

    /// The cases cover what the document's algorithm must handle.
    func testCasesCoverEveryContinentAndEveryRefinerOutcome() throws {
        let cases = try TeleportMeGoldens.loadCases()
        XCTAssertGreaterThanOrEqual(cases.count, 12)
        let spec = try AppSpec.load(folder: ContractsLocator.app("teleportme"))
        let continent = Dictionary(uniqueKeysWithValues: spec.fixtures.rows("cities").map { ($0["id"]!.stringValue!, $0["continent"]!.stringValue!) })
        XCTAssertEqual(
            Set(cases.compactMap { continent[$0.request.currentCityID] }),
            ["Europe", "North America", "Asia", "South America", "Oceania", "Africa"])
        let p = cases.map(\.request.preferences)
        XCTAssertTrue(p.contains(ReportPreferences(cost: 0, climate: 0, culture: 0, jobMarket: 0)))
        XCTAssertTrue(p.contains(ReportPreferences(cost: 10, climate: 10, culture: 10, jobMarket: 10)))
        XCTAssertTrue(p.contains { [$0.cost, $0.climate, $0.culture, $0.jobMarket].filter { $0 > 0 }.count == 1 }, "one preference dominant")
        XCTAssertTrue(p.contains { Set([$0.cost, $0.climate, $0.culture, $0.jobMarket]).count == 1 && $0.cost != 0 && $0.cost != 10 }, "equal preferences")
        let rules = try ReportRules.load()
        let catalog = try TeleportMeGoldens.fixtureCatalog(spec: spec, rules: rules)
        var outcomes: [String: Int] = [:]
        for c in cases {
            let golden = try TeleportMeGoldens.output(c, rules: rules, catalog: catalog)
            let reason = golden["refinement"]?["reason"]?.stringValue ?? "refined"
            let key =
                reason.hasPrefix("refiner failed")
                ? "throws"
                : reason.hasPrefix("reply unusable")
                    ? "garbage" : reason.hasPrefix("0 valid") ? "no valid ids" : reason.hasPrefix("2 valid") ? "two valid" : reason
            outcomes[key, default: 0] += 1
        }
        XCTAssertEqual(Set(outcomes.keys), ["refined", "throws", "garbage", "no valid ids", "two valid"], "\(outcomes)")
    }

    /// Mutant: the bonus weight changed from 10 % to 12 %. Every golden fails, the message holds a
    /// unified diff, and the actual output lands in the artifacts folder beside the expected.
    func testGoldensRejectAnEngineWithChangedWeights() throws {
        let mutant = try TeleportMeTestSupport.rules { TeleportMeTestSupport.set(&$0, "bonus", "weightEach", 0.12) }
        let store = try store()
        let results = try GoldenSuite.run(app: "teleportme", cases: try TeleportMeGoldens.goldenCases(rules: mutant, replay: false), store: store, mode: .never)
        let failed = results.filter { !$0.passed }
        XCTAssertEqual(failed.count, results.count, "every report depends on the bonus weight")
        let berlin = try XCTUnwrap(failed.first { $0.name == "report · europe-berlin" })
        XCTAssertTrue(berlin.message.contains("--- Golden/teleportme/report/europe-berlin.json\n+++ actual\n@@ -"), berlin.message)
        XCTAssertTrue(berlin.message.contains("\n-      \"raw_score\": "), berlin.message)
        let artifact = store.artifacts.appendingPathComponent("teleportme/report/europe-berlin.json")
        let expectedCopy = store.artifacts.appendingPathComponent("teleportme/report/europe-berlin.expected.json")
        XCTAssertEqual(
            try String(contentsOf: expectedCopy, encoding: .utf8),
            try String(contentsOf: ContractsLocator.golden.appendingPathComponent("teleportme/report/europe-berlin.json"), encoding: .utf8))
        XCTAssertNotEqual(try String(contentsOf: artifact, encoding: .utf8), try String(contentsOf: expectedCopy, encoding: .utf8))
    }

    /// One decision's mutant: its label, the case it must fail and whether that case passed
    /// (nil: no such case).
    struct DecisionRun: Sendable {
        var label: String
        var mustFail: String
        var passed: Bool?
    }

    /// The decisions' mutants run against the goldens, computed once per process (the gate's
    /// warm-up, `GateWarmUp`, makes them while earlier suites run), their artifacts in a temporary
    /// folder removed once run.
    static let changedDecisions = Result { () throws -> [DecisionRun] in
        let mutants: [(String, (inout [String: JSONValue]) -> Void, String)] = [
            ("rank order", { TeleportMeTestSupport.set(&$0, "refined", "rankOrder", "refiner") }, "report · refiner-success"),
            ("fallback size", { TeleportMeTestSupport.set(&$0, "fallback", "count", 5) }, "report · refiner-garbage"),
            (
                "climate category",
                { o in
                    guard case .array(var p)? = o["primary"], case .object(var c) = p[1] else { return }
                    c["category"] = "Outdoors"; p[1] = .object(c); o["primary"] = .array(p)
                }, "report · africa-lagos"
            ),
            (
                "tie-break",
                {
                    TeleportMeTestSupport.set(&$0, "ranking", "sortBy", "matchPercent");
                    TeleportMeTestSupport.set(&$0, "ranking", "tieBreak", "cityIdDescending")
                }, "report · asia-tokyo"
            )
        ]
        let artifacts = FileManager.default.temporaryDirectory.appendingPathComponent("teleportme-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: artifacts, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: artifacts) }
        return try mutants.enumerated().map { n, mutant in
            let (label, edit, mustFail) = mutant
            // A folder of its own for each mutant's artifacts, as each had one.
            let store = GoldenStore(root: ContractsLocator.golden, artifacts: artifacts.appendingPathComponent("\(n)"))
            let rules = try TeleportMeTestSupport.rules(editing: edit)
            let results = try GoldenSuite.run(
                app: "teleportme", cases: try TeleportMeGoldens.goldenCases(rules: rules, replay: false), store: store, mode: .never)
            return DecisionRun(label: label, mustFail: mustFail, passed: results.first { $0.name == mustFail }?.passed)
        }
    }

    /// Mutants of single decisions: each fails at least the cases that exercise it.
    func testGoldensRejectChangedDecisions() throws {
        for run in try Self.changedDecisions.get() {
            XCTAssertEqual(run.passed, false, "\(run.label): \(run.mustFail) should fail")
        }
    }

    /// Mutant of the mock: a generate-report that answers another case's report fails the replay.
    func testReplayRejectsAMockThatAnswersDifferently() throws {
        let cases = try TeleportMeGoldens.loadCases()
        let a = try XCTUnwrap(cases.first { $0.name == "europe-berlin" }), b = try XCTUnwrap(cases.first { $0.name == "asia-tokyo" })
        let goldenB = try JSONValue.parse(Data(contentsOf: ContractsLocator.golden.appendingPathComponent("teleportme/report/asia-tokyo.json")))
        let replay = try TeleportMeGoldens.replay(a, golden: goldenB)
        XCTAssertNotEqual(replay.expected, replay.actual)
        let same = try TeleportMeGoldens.replay(b, golden: goldenB)
        XCTAssertEqual(same.expected, same.actual)
        XCTAssertEqual(same.problems, [])
    }
}
