import XCTest
@testable import ContractKit

/// client-rules.json: every app's file loads with the documents' numbers, and a broken file is an
/// error naming the file and the JSON path.
final class ClientRulesSpecTests: XCTestCase {
    func testEveryAppsRulesLoad() throws {
        for app in ["teleportme", "naarscars", "civicforge", "aura", "shvil"] {
            let rules = try XCTUnwrap(try ClientRules.load(app: app), app)
            XCTAssertEqual(rules.app, app)
            XCTAssertEqual(Set(rules.ruleIDs).count, rules.ruleIDs.count, "\(app): rule ids are unique")
            XCTAssertNotNil(rules.cache, "\(app) states cache rules")
        }
    }

    /// The numbers are the documents' (000 §3.6, 001 FR-042/FR-045/FR-049/FR-047, 002 §3).
    func testTheDocumentsNumbersAreTranscribed() throws {
        let tm = try XCTUnwrap(try ClientRules.load(app: "teleportme")).cache!
        let table = Dictionary(uniqueKeysWithValues: tm.entries.map { ($0.key, ($0.scope, $0.ttlSeconds)) })
        XCTAssertEqual(table.count, 7)
        XCTAssertTrue(table["cities"]! == (.global, 24 * 3600))
        XCTAssertTrue(table["cityScores"]! == (.global, 24 * 3600))
        XCTAssertTrue(table["savedCities"]! == (.user, 5 * 60))
        XCTAssertTrue(table["currentReport"]! == (.user, nil))
        XCTAssertTrue(table["pastReports"]! == (.user, 3600))
        XCTAssertTrue(table["preferences"]! == (.user, nil))
        XCTAssertTrue(table["selectedCity"]! == (.user, nil))

        let nc = try XCTUnwrap(try ClientRules.load(app: "naarscars"))
        let ttl = Dictionary(uniqueKeysWithValues: nc.cache!.entries.map { ($0.key, $0.ttlSeconds) })
        XCTAssertEqual(ttl, ["profiles": 300, "rides": 120, "favors": 120, "conversations": 60, "leaderboard": 900])
        let intervals = Dictionary(uniqueKeysWithValues: nc.rateLimits!.actions.map { ($0.action, $0.minimumInterval) })
        XCTAssertEqual(intervals, ["claimUnclaim": 5, "sendMessage": 1, "generateInvite": 10, "pullToRefresh": 2, "loginAttempt": 2, "passwordReset": 30])
        XCTAssertEqual(nc.realtime?.maxSubscriptions, 3)
        XCTAssertEqual(nc.realtime?.backgroundDropAfter, 30)
        let presets = Dictionary(uniqueKeysWithValues: nc.images.map { ($0.name, [$0.maxDimensionPixels, $0.maxBytes]) })
        XCTAssertEqual(presets, ["avatar": [400, 200 * 1024], "messageImage": [1200, 500 * 1024], "fullSize": [2000, 1024 * 1024]])
        XCTAssertEqual(Set(nc.cache!.invalidation.map(\.event)).isSuperset(of: ["logout", "pullToRefresh:rides", "mutation:rides"]), true)

        let cf = try XCTUnwrap(try ClientRules.load(app: "civicforge"))
        XCTAssertEqual(cf.realtime?.backgroundDropAfter, 0, "002 §3: disconnect when the app backgrounds")
        XCTAssertTrue(cf.images.isEmpty, "CivicForge's photo rules live in photos.json")
        XCTAssertEqual(cf.offlineQueue?.operations, ["createPost"], "002 §4: post creation is queued")
        let sh = try XCTUnwrap(try ClientRules.load(app: "shvil"))
        XCTAssertNil(sh.offlineQueue, "Shvil's sync queue lives in sync.json")
        XCTAssertEqual(sh.cache?.entry("offlineQueue")?.ttlSeconds, nil)
        XCTAssertEqual(tm.freshness.staleWhenAge, .atLeastTTL)
        let t = try XCTUnwrap(try ClientRules.load(app: "teleportme"))
        XCTAssertEqual(t.timeout("timeout.authSession"), 10)
        XCTAssertEqual(t.timeout("timeout.generateReport"), 30)
    }

    // MARK: Broken files name the file and the path

    private func expectError(
        _ edit: (inout JSONValue) -> Void, path: String, containing text: String,
        file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let source = ContractsLocator.app("teleportme").appendingPathComponent("client-rules.json")
        var json = try JSONValue.parse(try Data(contentsOf: source))
        edit(&json)
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("client-rules-\(UUID().uuidString).json")
        try json.data(.pretty).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        do {
            _ = try ClientRules.load(url, displayName: "Contracts/broken/client-rules.json")
            XCTFail("expected an error at \(path)", file: file, line: line)
        } catch let e as SpecError {
            XCTAssertEqual(e.file, "Contracts/broken/client-rules.json", file: file, line: line)
            XCTAssertEqual(e.path, path, "\(e)", file: file, line: line)
            XCTAssertTrue(e.message.contains(text), "\(e)", file: file, line: line)
            XCTAssertTrue(e.description.hasPrefix("Contracts/broken/client-rules.json: \(path): "), file: file, line: line)
        }
    }

    func testWrongTypeNamesItsPath() throws {
        try expectError(
            { $0.clientRulesSet(["cache", "entries", 2, "ttlSeconds"], "5min") }, path: "$.cache.entries[2].ttlSeconds", containing: "expected a number")
    }

    func testUnknownKeyIsAnError() throws {
        try expectError({ $0.clientRulesSet(["cache", "entries", 0, "tll"], 60) }, path: "$.cache.entries[0].tll", containing: "unknown key 'tll'")
    }

    func testNegativeTTLIsAnError() throws {
        try expectError({ $0.clientRulesSet(["cache", "entries", 0, "ttlSeconds"], -1) }, path: "$.cache.entries[0].ttlSeconds", containing: "non-negative")
    }

    func testUnknownBehaviourIDIsAnError() throws {
        try expectError(
            { $0.clientRulesSet(["cache", "behaviours", 0, "id"], "cache.never-checked") }, path: "$.cache.behaviours[0].id",
            containing: "no cache suite checks")
    }

    func testDanglingCacheKeyIsAnError() throws {
        try expectError(
            { $0.clientRulesSet(["loader", "resources", 1, "cacheKey"], "savedCitys") }, path: "$.loader.resources[1].cacheKey",
            containing: "unknown cache key 'savedCitys'")
    }

    func testDuplicateRuleIDIsAnError() throws {
        try expectError(
            { $0.clientRulesSet(["cache", "entries", 1, "id"], "cache.cities") }, path: "$.cache.entries[1].id", containing: "duplicate rule id 'cache.cities'")
    }

    func testBadScopeIsAnError() throws {
        try expectError(
            { $0.clientRulesSet(["cache", "entries", 3, "scope"], "device") }, path: "$.cache.entries[3].scope", containing: "unknown value 'device'")
    }

    func testInvalidJSONNamesLineAndColumn() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("client-rules-\(UUID().uuidString).json")
        try Data("{\n  \"app\": \"x\",\n  \"cache\": { oops }\n}".utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        XCTAssertThrowsError(try ClientRules.load(url, displayName: "Contracts/broken/client-rules.json")) { error in
            let e = error as? SpecError
            XCTAssertEqual(e?.file, "Contracts/broken/client-rules.json")
            XCTAssertEqual(e?.path, "$")
            XCTAssertTrue(e?.message.contains("line 3") ?? false, "\(error)")
        }
    }

    func testFileBehaviourOnMemoryStorageIsAnError() throws {
        let source = ContractsLocator.app("naarscars").appendingPathComponent("client-rules.json")
        var json = try JSONValue.parse(try Data(contentsOf: source))
        json.clientRulesSet(["cache", "behaviours", 0], ["id": "cache.atomic-replace", "doc": "x"])
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("client-rules-\(UUID().uuidString).json")
        try json.data().write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        XCTAssertThrowsError(try ClientRules.load(url, displayName: "Contracts/naarscars/client-rules.json")) { error in
            XCTAssertEqual((error as? SpecError)?.path, "$.cache.behaviours")
        }
    }
}

extension JSONValue {
    /// Sets (or, with nil, removes) the value at a path of keys and indices.
    mutating func clientRulesSet(_ path: [Any], _ value: JSONValue?) {
        guard let first = path.first else { if let value { self = value }; return }
        let rest = Array(path.dropFirst())
        switch (self, first) {
        case (.object(var o), let k as String):
            if rest.isEmpty { o[k] = value } else { var child = o[k] ?? .null; child.clientRulesSet(rest, value); o[k] = child }
            self = .object(o)
        case (.array(var a), let i as Int):
            if rest.isEmpty { if let value { a[i] = value } else { a.remove(at: i) } } else { a[i].clientRulesSet(rest, value) }
            self = .array(a)
        default:
            break
        }
    }
}
