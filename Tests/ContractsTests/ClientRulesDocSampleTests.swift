import XCTest
import MockBinding

/// The five-line sample of docs/clientrules.md, compiled and run against a cache written the
/// way a client team writes one (Foundation only, nothing from this package but the protocol).
final class ClientRulesDocSampleTests: GateTestCase {
    func testClientTeamsCacheManagerConforms() async throws {
        // docs/clientrules.md: begin sample
        let rules = try ClientRules.load(app: "teleportme")!.cache!
        let report = await CacheStoreSuite.run(rules) { env in
            TeamCacheManager(directory: env.directory, now: { env.clock.now() })
        }
        XCTAssertTrue(report.passed, report.description)
        // docs/clientrules.md: end sample
    }

    /// The sample in the docs is the one compiled here, line for line.
    func testTheDocsShowThisSample() throws {
        let docs = try String(contentsOf: ContractsLocator.root.appendingPathComponent("docs/clientrules.md"), encoding: .utf8)
        let source = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
        func lines(_ s: Substring) -> [String] { s.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty } }
        let begin = try XCTUnwrap(source.range(of: "// docs/clientrules.md: begin sample\n"))
        let end = try XCTUnwrap(source.range(of: "// docs/clientrules.md: end sample"))
        let compiled = lines(source[begin.upperBound..<end.lowerBound])
        let block = try XCTUnwrap(docs.range(of: "```swift\n" + "let rules = "), "docs/clientrules.md shows the sample in a swift block")
        let close = try XCTUnwrap(docs.range(of: "```", range: block.upperBound..<docs.endIndex))
        let shown = lines(docs[docs.index(block.lowerBound, offsetBy: 9)..<close.lowerBound])
        XCTAssertEqual(shown, compiled, "docs/clientrules.md and ClientRulesDocSampleTests.swift must show the same sample")
        XCTAssertEqual(compiled.count, 5)
    }
}

/// A cache as a client team writes it (TeleportMe §3.2): JSON files, a `CachedData`-style
/// envelope with the save time, global and per-user folders, `.atomic` writes, corrupt files
/// deleted. Only the conformance to `ClientCacheStore` is added for the suite.
final class TeamCacheManager: ClientCacheStore, @unchecked Sendable {
    private struct Stored<T: Codable>: Codable {
        let timestamp: Date
        let value: T
    }

    private let directory: URL
    private let now: @Sendable () -> Date
    private let lock = NSLock()

    init(directory: URL, now: @escaping @Sendable () -> Date) {
        self.directory = directory
        self.now = now
    }

    private func url(_ key: CacheKey) -> URL {
        let folder = key.userID.map { directory.appendingPathComponent("users").appendingPathComponent($0) } ?? directory.appendingPathComponent("global")
        return folder.appendingPathComponent("\(key.stem).json")
    }

    func fileURL(for key: CacheKey) async -> URL? { url(key) }

    func save<T: Codable & Sendable>(_ value: T, for key: CacheKey) async throws { try write(value, key) }
    func load<T: Codable & Sendable>(_ type: T.Type, for key: CacheKey) async -> CachedData<T>? { read(type, key) }
    func remove(_ key: CacheKey) async { lock.withLock { try? FileManager.default.removeItem(at: url(key)) } }
    func removeAll(userID: String) async {
        lock.withLock { try? FileManager.default.removeItem(at: directory.appendingPathComponent("users").appendingPathComponent(userID)) }
    }

    private func write<T: Codable>(_ value: T, _ key: CacheKey) throws {
        let data = try JSONEncoder().encode(Stored(timestamp: now(), value: value))
        try lock.withLock {
            let file = url(key)
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: file.path, isDirectory: &isDirectory), isDirectory.boolValue {
                try FileManager.default.removeItem(at: file)
            }
            try data.write(to: file, options: .atomic)
        }
    }

    private func read<T: Codable>(_ type: T.Type, _ key: CacheKey) -> CachedData<T>? {
        lock.withLock {
            let file = url(key)
            guard
                (try? FileManager.default.attributesOfItem(atPath: file.path)) != nil
                    || (try? FileManager.default.destinationOfSymbolicLink(atPath: file.path)) != nil
            else { return nil }
            guard let data = try? Data(contentsOf: file), !data.isEmpty,
                let stored = try? JSONDecoder().decode(Stored<T>.self, from: data)
            else {
                try? FileManager.default.removeItem(at: file) // corrupt: delete automatically
                return nil
            }
            return CachedData(value: stored.value, savedAt: stored.timestamp, isStale: key.isStale(savedAt: stored.timestamp, now: now()))
        }
    }
}
