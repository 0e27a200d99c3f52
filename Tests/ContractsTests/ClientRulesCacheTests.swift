import XCTest
import MockBinding
#if canImport(Glibc)
    import Glibc
#endif

/// The cache suite: the references conform for every app, and each deliberately wrong cache
/// (a mutant with one flaw) is rejected with the rule it breaks.
final class ClientRulesCacheTests: GateTestCase {
    func rules(_ app: String) throws -> CacheRules { try XCTUnwrap(try ClientRules.load(app: app)?.cache) }

    func testReferenceStoresConformForEveryApp() async throws {
        for app in ["teleportme", "naarscars", "civicforge", "aura", "shvil"] {
            let cache = try rules(app)
            let report = await CacheStoreSuite.run(cache, make: ClientRulesReference.cacheFactory(cache))
            XCTAssertTrue(report.passed, "\(app): \(report)")
            // Every entry and every listed behaviour and invalidation was checked.
            let listed = Set(cache.entries.map(\.id) + cache.behaviours.map(\.id) + cache.invalidation.map(\.id))
            XCTAssertEqual(Set(report.checked), listed, app)
        }
    }

    func testDurableReferenceConforms() async throws {
        let cache = try rules("teleportme")
        let report = await CacheStoreSuite.run(cache, make: ClientRulesReference.cacheFactory(cache, durable: true))
        XCTAssertTrue(report.passed, "\(report)")
    }

    /// Runs the suite on a mutant and checks it is rejected for `rule`.
    func assertRejected(
        _ flaw: MutantFileCache.Flaw, app: String = "teleportme", rule: String,
        file: StaticString = #filePath, line: UInt = #line
    ) async throws {
        // The suite restricted to the rule under test (and the cheap per-entry TTL checks).
        var cache = try rules(app)
        cache.behaviours = cache.behaviours.filter { $0.id == rule }
        cache.invalidation = cache.invalidation.filter { $0.id == rule }
        let report = await CacheStoreSuite.run(cache) { env in MutantFileCache(root: env.directory, clock: env.clock, flaw: flaw) }
        XCTAssertFalse(report.passed, "\(flaw) passed", file: file, line: line)
        XCTAssertTrue(report.violated(rule), "\(flaw) not rejected for \(rule): \(report)", file: file, line: line)
    }

    func testTheMutantBaseConforms() async throws {
        // Without a flaw the mutant is a correct cache: each rejection below is its flaw's doing.
        let cache = try rules("teleportme")
        let report = await CacheStoreSuite.run(cache) { env in MutantFileCache(root: env.directory, clock: env.clock, flaw: nil) }
        XCTAssertTrue(report.passed, "\(report)")
    }

    func testOffByOneTTLIsRejected() async throws {
        try await assertRejected(.staleOnlyAfterTTL, rule: "cache.savedCities")
        try await assertRejected(.staleOnlyAfterTTL, rule: "cache.cities")
    }

    func testTTLOneSecondLongIsRejected() async throws { try await assertRejected(.ttlOneSecondLong, rule: "cache.pastReports") }
    func testTTLInMinutesIsRejected() async throws { try await assertRejected(.ttlReadAsMinutes, rule: "cache.savedCities") }
    func testExpiringNoTTLEntriesIsRejected() async throws { try await assertRejected(.noTTLMeansOneDay, rule: "cache.currentReport") }
    func testDroppingStaleEntriesIsRejected() async throws { try await assertRejected(.dropsStaleEntries, rule: "cache.savedCities") }
    func testScopeLeakBetweenUsersIsRejected() async throws { try await assertRejected(.ignoresUser, rule: "cache.user-isolation") }
    func testSignOutClearingGlobalEntriesIsRejected() async throws {
        try await assertRejected(.signOutClearsEverything, rule: "cache.invalidate.signOut")
        try await assertRejected(.signOutClearsEverything, rule: "cache.global-shared")
    }
    func testSignOutClearingNothingIsRejected() async throws { try await assertRejected(.signOutClearsNothing, rule: "cache.invalidate.signOut") }
    func testCorruptFileKeptIsRejected() async throws { try await assertRejected(.keepsCorruptFiles, rule: "cache.corrupt-entry-deleted") }
    func testCorruptFileKeptOnlyWhenItIsADirectoryIsRejected() async throws {
        try await assertRejected(.cannotDeleteDirectories, rule: "cache.corrupt-entry-deleted")
    }
    func testWrongTypeReturnedIsRejected() async throws { try await assertRejected(.acceptsAnyShape, rule: "cache.corrupt-entry-deleted") }
    func testNonAtomicWriteIsRejected() async throws { try await assertRejected(.writesInPlace, rule: "cache.atomic-replace") }
    func testLeftoverTemporaryFilesAreRejected() async throws { try await assertRejected(.leavesTemporaryFiles, rule: "cache.atomic-replace") }
    func testOverwriteKeepingOldTimestampIsRejected() async throws { try await assertRejected(.keepsFirstTimestamp, rule: "cache.overwrite-restamps") }
    func testForgettingOnRelaunchIsRejected() async throws { try await assertRejected(.forgetsOnRelaunch, rule: "cache.survives-relaunch") }
    func testTimestampTakenAtLoadIsRejected() async throws { try await assertRejected(.stampsLoadTime, rule: "cache.savedCities") }

    /// Naar's Cars' events: an invalidator clearing the wrong keys is rejected by the event's rule.
    func testWrongInvalidationIsRejected() async throws {
        let cache = try rules("naarscars")
        let report = await CacheStoreSuite.run(
            cache,
            invalidate: { rule, user, store in
                // Flaw: every event clears everything of the user (over-invalidation hides FR-044's table).
                await store.removeAll(userID: user)
            }, make: ClientRulesReference.cacheFactory(cache))
        XCTAssertTrue(report.violated("cache.invalidate.rideMutation"), "\(report)")
        XCTAssertTrue(report.violated("cache.invalidate.pullToRefresh"), "\(report)")
        XCTAssertFalse(report.violated("cache.invalidate.logout"), "\(report)")
        let none = await CacheStoreSuite.run(cache, invalidate: { _, _, _ in }, make: ClientRulesReference.cacheFactory(cache))
        XCTAssertTrue(none.violated("cache.invalidate.logout"), "\(none)")
    }

    /// The memory mutant of Naar's Cars: TTLs measured from the first save.
    func testMemoryStoreMutantIsRejected() async throws {
        let cache = try rules("naarscars")
        let report = await CacheStoreSuite.run(cache) { env in MutantFileCache(root: env.directory, clock: env.clock, flaw: .ttlReadAsMinutes) }
        XCTAssertTrue(report.violated("cache.rides"), "\(report)")
        XCTAssertTrue(report.violated("cache.conversations"), "\(report)")
    }

    /// A violation names the rule and what happened.
    func testViolationMessagesNameTheRuleAndWhatHappened() async throws {
        var cache = try rules("teleportme")
        cache.behaviours = []
        cache.invalidation = []
        let report = await CacheStoreSuite.run(cache) { env in MutantFileCache(root: env.directory, clock: env.clock, flaw: .staleOnlyAfterTTL) }
        let v = try XCTUnwrap(report.violations(of: "cache.savedCities").first)
        XCTAssertTrue(v.description.hasPrefix("cache.savedCities: TTL 300 s: savedCities(user "), v.description)
        XCTAssertTrue(v.message.contains("at age 300 s was fresh, expected stale"), v.description)
    }

    // MARK: The reference's own file handling (beyond the suite)

    func testReferenceDropsOtherFormatVersionsAndMisplacedFiles() throws {
        let cache = try rules("teleportme")
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("cache-ref-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let clock = ManualClock()
        let store = try FileCacheManager(root: dir, rules: cache, clock: clock, durable: false)
        let user = "00000000-0000-4000-8000-000000000001"
        let saved = cache.entry("savedCities")!.key(user: user, freshness: cache.freshness)
        let prefs = cache.entry("preferences")!.key(user: user, freshness: cache.freshness)
        try store.saveSynchronously(["lisbon"], for: saved)
        try store.saveSynchronously(["cost": 7], for: prefs)
        // A file of format version 0 (before versioning, §7.2) is dropped.
        let url = store.path(for: saved)
        var json = try JSONValue.parse(try Data(contentsOf: url))
        json.clientRulesSetKey("formatVersion", 0)
        try json.data().write(to: url)
        XCTAssertNil(store.loadSynchronously([String].self, for: saved))
        XCTAssertFalse(FileManager.default.fileExists(atPath: url.path))
        // Another entry's file copied over this one is not served as this one.
        try FileManager.default.copyItem(at: store.path(for: prefs), to: url)
        XCTAssertNil(store.loadSynchronously(JSONValue.self, for: saved))
        XCTAssertEqual(store.loadSynchronously(JSONValue.self, for: prefs)?.value, ["cost": 7])
        XCTAssertEqual(store.deletedCorruptEntries, 2)
    }

    func testReferenceRejectsKeysThatAreNotFileNames() throws {
        let cache = try rules("teleportme")
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("cache-ref-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = try FileCacheManager(root: dir, rules: cache, clock: ManualClock(), durable: false)
        for user in ["../global", "a/b", "", ".hidden"] {
            let key = cache.entry("savedCities")!.key(user: user, freshness: cache.freshness)
            XCTAssertThrowsError(try store.saveSynchronously(1, for: key), user)
            XCTAssertNil(store.loadSynchronously(Int.self, for: key))
        }
    }

    func testReferenceSweepsLeftoversOfAnInterruptedWriter() throws {
        let cache = try rules("teleportme")
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("cache-ref-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let global = dir.appendingPathComponent("global")
        try FileManager.default.createDirectory(at: global, withIntermediateDirectories: true)
        try Data("half".utf8).write(to: global.appendingPathComponent(".tmp-cities-1-1"))
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("users/.trash-9-9"), withIntermediateDirectories: true)
        _ = try FileCacheManager(root: dir, rules: cache, clock: ManualClock(), durable: false)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: global.path), [])
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("users").path), [])
    }
}

extension JSONValue {
    mutating func clientRulesSetKey(_ key: String, _ value: JSONValue) {
        if case .object(var o) = self { o[key] = value; self = .object(o) }
    }
}

/// A file cache with one deliberate flaw (or none): the mutants the cache suite must reject.
final class MutantFileCache: ClientCacheStore, @unchecked Sendable {
    enum Flaw {
        case staleOnlyAfterTTL, ttlOneSecondLong, ttlReadAsMinutes, noTTLMeansOneDay, dropsStaleEntries
        case ignoresUser, signOutClearsEverything, signOutClearsNothing
        case keepsCorruptFiles, cannotDeleteDirectories, acceptsAnyShape
        case writesInPlace, leavesTemporaryFiles, keepsFirstTimestamp, forgetsOnRelaunch, stampsLoadTime
    }

    struct Envelope<T: Codable>: Codable {
        var savedAt: Double
        var value: T
    }

    let root: URL
    let clock: WallClock
    let flaw: Flaw?
    let lock = NSLock()
    var counter = 0

    init(root: URL, clock: WallClock, flaw: Flaw?) {
        // forgetsOnRelaunch: every instance writes to a folder of its own.
        self.root = flaw == .forgetsOnRelaunch ? root.appendingPathComponent(UUID().uuidString) : root
        self.clock = clock
        self.flaw = flaw
    }

    func folder(_ user: String?) -> URL {
        guard let user, flaw != .ignoresUser else { return root.appendingPathComponent("global") }
        return root.appendingPathComponent("users/\(user)")
    }

    func path(_ key: CacheKey) -> URL { folder(key.userID).appendingPathComponent(key.stem + ".json") }

    func fileURL(for key: CacheKey) async -> URL? { path(key) }

    func ttl(_ key: CacheKey) -> TimeInterval? {
        switch flaw {
        case .ttlOneSecondLong: return key.ttl.map { $0 + 1 }
        case .ttlReadAsMinutes: return key.ttl.map { $0 * 60 }
        case .noTTLMeansOneDay: return key.ttl ?? 86_400
        default: return key.ttl
        }
    }

    func save<T: Codable & Sendable>(_ value: T, for key: CacheKey) async throws { try saveNow(value, key) }
    func load<T: Codable & Sendable>(_ type: T.Type, for key: CacheKey) async -> CachedData<T>? { loadNow(type, key) }
    func remove(_ key: CacheKey) async { removeNow(key) }
    func removeAll(userID: String) async { removeAllNow(userID) }

    func saveNow<T: Codable & Sendable>(_ value: T, _ key: CacheKey) throws {
        lock.lock(); defer { lock.unlock() }
        let file = path(key)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        var savedAt = clock.now().timeIntervalSince1970
        if flaw == .keepsFirstTimestamp, let data = try? Data(contentsOf: file),
            let old = try? JSONDecoder().decode(Envelope<JSONValue>.self, from: data)
        {
            savedAt = old.savedAt
        }
        let data = try JSONEncoder().encode(Envelope(savedAt: savedAt, value: value))
        switch flaw {
        case .writesInPlace where FileManager.default.fileExists(atPath: file.path):
            let h = try FileHandle(forWritingTo: file)
            try h.truncate(atOffset: 0)
            try h.write(contentsOf: data)
            try h.close()
        case .leavesTemporaryFiles:
            counter += 1
            let temp = file.deletingLastPathComponent().appendingPathComponent(".\(key.stem).\(counter).tmp")
            try data.write(to: temp)
            try? FileManager.default.removeItem(at: file)
            try FileManager.default.copyItem(at: temp, to: file)
        default:
            let temp = file.deletingLastPathComponent().appendingPathComponent(".\(key.stem).tmp")
            try data.write(to: temp)
            if rename(temp.path, file.path) != 0 {
                try? FileManager.default.removeItem(at: file)
                guard rename(temp.path, file.path) == 0 else { throw ClientCacheError.io("rename") }
            }
        }
    }

    func loadNow<T: Codable & Sendable>(_ type: T.Type, _ key: CacheKey) -> CachedData<T>? {
        lock.lock(); defer { lock.unlock() }
        let file = path(key)
        var st = stat()
        guard lstat(file.path, &st) == 0 else { return nil }
        let decoded: CachedData<T>?
        if let data = try? Data(contentsOf: file), let e = try? JSONDecoder().decode(Envelope<T>.self, from: data) {
            let savedAt = flaw == .stampsLoadTime ? clock.now() : Date(timeIntervalSince1970: e.savedAt)
            let age = clock.now().timeIntervalSince(savedAt)
            let stale: Bool
            if flaw == .staleOnlyAfterTTL { stale = ttl(key).map { age > $0 } ?? false } else { stale = ttl(key).map { age >= $0 } ?? false }
            if stale && flaw == .dropsStaleEntries { return nil }
            decoded = CachedData(value: e.value, savedAt: savedAt, isStale: stale)
        } else if flaw == .acceptsAnyShape, let data = try? Data(contentsOf: file),
            let e = try? JSONDecoder().decode(Envelope<JSONValue>.self, from: data),
            let forced = try? JSONDecoder().decode(T.self, from: Data(#"{"probe": 0}"#.utf8))
        {
            // Flaw: a value of the wrong shape is patched into some default instead of dropped.
            decoded = CachedData(value: forced, savedAt: Date(timeIntervalSince1970: e.savedAt), isStale: false)
        } else {
            decoded = nil
        }
        if decoded == nil && flaw != .keepsCorruptFiles {
            if (st.st_mode & S_IFMT) == S_IFDIR {
                if flaw != .cannotDeleteDirectories { try? FileManager.default.removeItem(at: file) }
            } else {
                unlink(file.path)
            }
        }
        return decoded
    }

    func removeNow(_ key: CacheKey) {
        lock.lock(); defer { lock.unlock() }
        try? FileManager.default.removeItem(at: path(key))
    }

    func removeAllNow(_ userID: String) {
        lock.lock(); defer { lock.unlock() }
        switch flaw {
        case .signOutClearsEverything: try? FileManager.default.removeItem(at: root)
        case .signOutClearsNothing: break
        default: try? FileManager.default.removeItem(at: folder(userID))
        }
    }
}
