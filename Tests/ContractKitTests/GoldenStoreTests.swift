import XCTest
import MockBinding

/// Golden files: record modes, artifacts on mismatch, orphans, replays, names.
final class GoldenStoreTests: XCTestCase {
    var dir: URL!
    var store: GoldenStore!

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("golden-\(UUID().uuidString)")
        store = GoldenStore(root: dir.appendingPathComponent("Golden"), artifacts: dir.appendingPathComponent("artifacts/golden"), displayBase: dir)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: dir) }

    func read(_ path: String) -> String? { try? String(contentsOf: dir.appendingPathComponent(path), encoding: .utf8) }

    func testModeComesFromTheEnvironment() throws {
        XCTAssertEqual(try GoldenRecordMode.from(environment: [:]), .never)
        XCTAssertEqual(try GoldenRecordMode.from(environment: ["SUPACONTRACTS_RECORD": ""]), .never)
        XCTAssertEqual(try GoldenRecordMode.from(environment: ["SUPACONTRACTS_RECORD": "missing"]), .missing)
        XCTAssertEqual(try GoldenRecordMode.from(environment: ["SUPACONTRACTS_RECORD": "FAILED"]), .failed)
        XCTAssertEqual(try GoldenRecordMode.from(environment: ["SUPACONTRACTS_RECORD": "all"]), .all)
        XCTAssertThrowsError(try GoldenRecordMode.from(environment: ["SUPACONTRACTS_RECORD": "yes"])) {
            XCTAssertEqual("\($0)", "SUPACONTRACTS_RECORD='yes' is not a record mode (one of: all, missing, failed, never)")
        }
    }

    func testEveryModeOnMissingMatchingAndDifferentFiles() throws {
        let v1: JSONValue = ["b": 2, "a": [1, "x"]], v2: JSONValue = ["b": 3, "a": [1, "x"]]
        // never: a missing file fails and nothing is written to Golden/.
        var r = try store.check(app: "app", suite: "s", name: "c", actual: v1, mode: .never)
        XCTAssertEqual(r.status, .missing)
        XCTAssertNil(read("Golden/app/s/c.json"))
        XCTAssertNotNil(read("artifacts/golden/app/s/c.json"))
        // missing: writes it, pretty with sorted keys and a final newline.
        r = try store.check(app: "app", suite: "s", name: "c", actual: v1, mode: .missing)
        XCTAssertEqual(r.status, .recorded)
        XCTAssertEqual(read("Golden/app/s/c.json"), "{\n  \"a\": [\n    1,\n    \"x\"\n  ],\n  \"b\": 2\n}\n")
        XCTAssertEqual(try store.check(app: "app", suite: "s", name: "c", actual: v1, mode: .never).status, .matched)
        // missing and never: a different output fails, with a diff and artifacts, file untouched.
        for mode in [GoldenRecordMode.missing, .never] {
            r = try store.check(app: "app", suite: "s", name: "c", actual: v2, mode: mode)
            XCTAssertEqual(r.status, .mismatch)
            XCTAssertEqual(r.diff, "--- Golden/app/s/c.json\n+++ actual\n@@ -3,5 +3,5 @@\n     1,\n     \"x\"\n   ],\n-  \"b\": 2\n+  \"b\": 3\n }\n")
            XCTAssertEqual(read("Golden/app/s/c.json"), GoldenStore.text(v1))
            XCTAssertEqual(read("artifacts/golden/app/s/c.json"), GoldenStore.text(v2))
            XCTAssertEqual(read("artifacts/golden/app/s/c.expected.json"), GoldenStore.text(v1))
        }
        // failed: rewrites the different file.
        r = try store.check(app: "app", suite: "s", name: "c", actual: v2, mode: .failed)
        XCTAssertEqual(r.status, .updated)
        XCTAssertFalse(r.diff.isEmpty)
        XCTAssertEqual(read("Golden/app/s/c.json"), GoldenStore.text(v2))
        // all: rewrites whatever differs, leaves equal files as they are.
        XCTAssertEqual(try store.check(app: "app", suite: "s", name: "c", actual: v1, mode: .all).status, .updated)
        XCTAssertEqual(try store.check(app: "app", suite: "s", name: "c", actual: v1, mode: .all).status, .matched)
        XCTAssertEqual(try store.check(app: "app", suite: "s", name: "new", actual: v1, mode: .failed).status, .recorded)
    }

    func testNamesCannotLeaveTheirFolder() {
        XCTAssertThrowsError(try store.check(app: "app", suite: "s", name: "../escape", actual: 1, mode: .all))
        XCTAssertThrowsError(try store.check(app: "app", suite: "", name: "c", actual: 1, mode: .all))
    }

    func testSuiteReportsMismatchesOrphansAndReplays() throws {
        func c(_ name: String, _ value: JSONValue, replayed: JSONValue? = nil) -> GoldenCase {
            var replay: (@Sendable (JSONValue) throws -> GoldenReplay)?
            if let r = replayed { replay = { golden in GoldenReplay(expected: golden["v"] ?? .null, actual: r) } }
            return GoldenCase(suite: "s", name: name, produce: { value }, replay: replay)
        }
        var results = try GoldenSuite.run(app: "app", cases: [c("one", ["v": 1], replayed: 1), c("two", ["v": 2])], store: store, mode: .missing)
        XCTAssertEqual(results.map(\.passed), [true, true, true])
        XCTAssertEqual(results.map(\.name), ["s · one", "s · one · mock replay", "s · two"])
        // Output changed, replay differs, a case dropped (orphan), a duplicate name.
        results = try GoldenSuite.run(app: "app", cases: [c("one", ["v": 9], replayed: 5), c("one", ["v": 1])], store: store, mode: .never)
        XCTAssertEqual(results.map(\.name), ["s · one", "s · one · mock replay", "s · one", "s · two"])
        XCTAssertEqual(results.map(\.passed), [false, false, false, false])
        XCTAssertTrue(results[1].message.contains("-1\n+5"), results[1].message)
        XCTAssertEqual(results[2].message, "duplicate case name")
        XCTAssertEqual(results[3].message, "Golden/app/s/two.json has no case; delete it or re-record with `contracts goldens --update`")
        // all: re-records and removes the orphan.
        results = try GoldenSuite.run(app: "app", cases: [c("one", ["v": 9])], store: store, mode: .all)
        XCTAssertEqual(results.map(\.passed), [true, true])
        XCTAssertNil(read("Golden/app/s/two.json"))
        XCTAssertEqual(store.existingCases(app: "app", suite: "s"), ["one"])
        // A failing producer is a failure naming it.
        results = try GoldenSuite.run(
            app: "app", cases: [GoldenCase(suite: "s", name: "one", produce: { throw GoldenError.invalidName("boom") })], store: store, mode: .never)
        XCTAssertEqual(results.first?.passed, false)
        XCTAssertTrue(results.first?.message.hasPrefix("producing the output failed") ?? false)
    }
}
