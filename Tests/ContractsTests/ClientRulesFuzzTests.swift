import XCTest
import MockBinding
import MockSupabase
#if canImport(Glibc)
    import Glibc
#endif

/// Replays the cache fuzz target's seed corpus and every crash it ever found (Tests/Fuzz) through
/// the same harness as `scripts/fuzz-cache`, against the reference cache; and shows the harness
/// rejects flawed caches.
final class ClientRulesFuzzTests: GateTestCase {
    let root = ContractsLocator.root.appendingPathComponent("Tests/Fuzz")
    var rules: CacheRules { get throws { try XCTUnwrap(try ClientRules.load(app: "teleportme")?.cache) } }

    func inputs(_ folder: String) throws -> [URL] {
        let dir = root.appendingPathComponent(folder)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []
        return names.filter { !$0.hasPrefix(".") }.sorted().map { dir.appendingPathComponent($0) }
    }

    func replay(_ files: [URL], open: @escaping CacheFuzzHarness.Opener = CacheFuzzHarness.reference) throws -> [String: [String]] {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("cache-fuzz-replay-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: base) }
        var failures: [String: [String]] = [:]
        for f in files {
            let problems = CacheFuzzHarness.run(try Data(contentsOf: f), rules: try rules, base: base, open: open)
            if !problems.isEmpty { failures[f.lastPathComponent] = problems }
        }
        return failures
    }

    func testSeedCorpusRunsClean() throws {
        let files = try inputs("cache-corpus")
        XCTAssertGreaterThanOrEqual(files.count, 20, "the seed corpus is committed under Tests/Fuzz/cache-corpus")
        XCTAssertEqual(try replay(files), [:])
    }

    func testEveryCrashFoundStaysFixed() throws {
        XCTAssertEqual(try replay(try inputs("cache-crashes")), [:])
    }

    /// The harness's invariants can fail: a cache that keeps unreadable files is caught.
    func testHarnessRejectsACacheThatKeepsCorruptFiles() throws {
        let failures = try replay(try inputs("cache-corpus")) { root, layout, clock in
            KeepsCorruptFiles(FileCacheManager(root: root, layout: layout, clock: clock, durable: false))
        }
        XCTAssertNotNil(failures["raw-garbage"], "\(failures)")
        XCTAssertNotNil(failures["prog-truncate"], "\(failures)")
        XCTAssertTrue(failures.values.joined().contains { $0.contains("was not deleted") }, "\(failures)")
    }

    /// …and so is one whose sign-out clears every user.
    func testHarnessRejectsASignOutThatClearsEveryone() throws {
        let failures = try replay(try inputs("cache-corpus")) { root, layout, clock in
            ClearsEveryone(FileCacheManager(root: root, layout: layout, clock: clock, durable: false), root: root)
        }
        XCTAssertNotNil(failures["prog-signout"], "\(failures)")
    }
}

extension ClientRulesFuzzTests {
    /// The decoding properties every fuzz input gets (without the on-disk part) reject a reader
    /// that ignores whose entry a file is: a user's entry reads as every user's.
    func testDecodingCheckRejectsAReaderThatIgnoresTheUser() throws {
        let ignoresUser: CacheFuzzHarness.Decode = { data, key, version in
            guard case .object(let o)? = try? JSONValue.parse(data), o["key"]?.stringValue == key.stem,
                o["formatVersion"]?.doubleValue == Double(version), let t = o["savedAt"]?.doubleValue, let v = o["value"]
            else { return nil }
            return (v, t)
        }
        let input = try Data(contentsOf: try XCTUnwrap(try inputs("cache-corpus").first { $0.lastPathComponent == "raw-user-entry" }))
        let base = FileManager.default.temporaryDirectory
        XCTAssertEqual(CacheFuzzHarness.run(input, rules: try rules, base: base, deep: false), [])
        let problems = CacheFuzzHarness.run(input, rules: try rules, base: base, decode: ignoresUser, deep: false)
        XCTAssertTrue(problems.contains { $0.hasPrefix("one file reads as 2 entries") }, "\(problems)")
    }

    /// The fuzz target's sampled check passes over the corpus and every crash input.
    func testSampledCheckPassesOverTheCorpus() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("cache-fuzz-sampled-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: base) }
        for f in try inputs("cache-corpus") + inputs("cache-crashes") {
            XCTAssertEqual(CacheFuzzHarness.fuzzRun(try Data(contentsOf: f), rules: try rules, base: base), [], f.lastPathComponent)
        }
    }
}

/// Flaw: an unreadable file is put back after the reference deleted it.
final class KeepsCorruptFiles: SynchronousFileCache {
    let inner: FileCacheManager
    init(_ inner: FileCacheManager) { self.inner = inner }
    func saveSynchronously<T: Encodable>(_ value: T, for key: CacheKey) throws { try inner.saveSynchronously(value, for: key) }
    func loadSynchronously<T: Decodable>(_ type: T.Type, for key: CacheKey) -> CachedData<T>? {
        let file = inner.path(for: key)
        var st = stat()
        let regular = lstat(file.path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFREG
        let saved = regular ? try? Data(contentsOf: file) : nil
        let got = inner.loadSynchronously(type, for: key)
        if got == nil, let saved { try? saved.write(to: file) }
        return got
    }
    func removeSynchronously(_ key: CacheKey) { inner.removeSynchronously(key) }
    func removeAllSynchronously(userID: String) { inner.removeAllSynchronously(userID: userID) }
    func path(for key: CacheKey) -> URL { inner.path(for: key) }
}

/// Flaw: sign-out removes every user's folder.
final class ClearsEveryone: SynchronousFileCache {
    let inner: FileCacheManager
    let root: URL
    init(_ inner: FileCacheManager, root: URL) { self.inner = inner; self.root = root }
    func saveSynchronously<T: Encodable>(_ value: T, for key: CacheKey) throws { try inner.saveSynchronously(value, for: key) }
    func loadSynchronously<T: Decodable>(_ type: T.Type, for key: CacheKey) -> CachedData<T>? { inner.loadSynchronously(type, for: key) }
    func removeSynchronously(_ key: CacheKey) { inner.removeSynchronously(key) }
    func removeAllSynchronously(userID: String) { try? FileManager.default.removeItem(at: root.appendingPathComponent("users")) }
    func path(for key: CacheKey) -> URL { inner.path(for: key) }
}
