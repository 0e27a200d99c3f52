import XCTest
import MockBinding
#if canImport(Glibc)
    import Glibc
#endif

/// Crash consistency of the reference cache (TeleportMe §3.2 "atomic writes"): a writer process
/// saving entries in a loop is killed with SIGKILL a seeded number of microseconds after it has
/// opened the cache, a thousand times (`clientrules-tool crash-rounds` forks the writers eight at
/// a time, each in its own folder, so a round costs a few saves, not a process launch; each
/// writer's own timer sends the SIGKILL, so the moment does not depend on the scheduler). The
/// delays are uniform over three saves, so kills land anywhere in a save, not bunched. Readers
/// in this process read the entries the whole time the writers run. After every kill, and in
/// every concurrent read, each entry is whole: the old value or the new one, absent only if never
/// saved, never older than a save the writer reported done or than a value already read. The
/// same test run on a deliberately wrong writer (streaming into the file in place) fails.
final class ClientRulesCrashTests: GateTestCase {
    struct Payload: Decodable, Sendable {
        var seq: Int
        var items: [String]
    }

    struct MissingHelper: Error, CustomStringConvertible {
        var path: String
        var description: String { "\(path) is missing: build it with `swift build --build-tests`" }
    }

    struct Outcome {
        var torn: [String] = []
        var rounds = 0
        var killsMidRun = 0
        /// Kills that landed between a save's start and its end.
        var killsInsideASave = 0
        var reads = 0
        var microsPerSave = 0
        var window = 0
        /// What went wrong calibrating, if anything (the rounds still run, with a save assumed
        /// to take the whole 100 ms).
        var calibrationProblem: String?
        /// Wall-clock seconds the rounds took.
        var seconds = 0.0
    }

    /// Items per saved value (about 3 KB per entry: small enough for a thousand rounds in seconds,
    /// large enough that a save is many `write(2)` calls for the in-place writer).
    static let items = 50

    /// The helper, built next to the test bundle by `swift build` / `swift test`.
    static var tool: URL {
        get throws {
            let dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            let url = dir.appendingPathComponent("clientrules-tool")
            guard FileManager.default.isExecutableFile(atPath: url.path) else { throw MissingHelper(path: url.path) }
            return url
        }
    }

    /// The keys `clientrules-tool crash-rounds` writes (Sources/ClientRulesTool/main.swift).
    static func keys(_ rules: CacheRules) -> [CacheKey] {
        let user = "00000000-0000-4000-8000-00000000c0de"
        return [
            rules.entry("cities")!.key(user: nil, freshness: rules.freshness),
            rules.entry("savedCities")!.key(user: user, freshness: rules.freshness),
            rules.entry("pastReports")!.key(user: user, freshness: rules.freshness)
        ]
    }

    /// Readers that load every entry in a loop while the writers run.
    final class Readers: @unchecked Sendable {
        private let lock = NSLock()
        private var stop = false
        private var found: [String] = []
        private var count = 0
        private var threads: [Thread] = []
        private let done = DispatchGroup()

        func start(
            _ n: Int, store: @escaping @Sendable () -> FileCacheManager, keys: [CacheKey], check: @escaping @Sendable (CachedData<Payload>?, Bool) -> String?
        ) {
            for r in 0..<n {
                let reader = store()
                done.enter()
                let t = Thread { [self] in
                    var newest = [Int](repeating: -1, count: keys.count)
                    while !self.lock.withLock({ self.stop }) {
                        for (k, key) in keys.enumerated() {
                            var st = stat()
                            let existed = lstat(reader.path(for: key).path, &st) == 0
                            let got = reader.loadSynchronously(Payload.self, for: key)
                            var problem = check(got, existed)
                            if problem == nil, let seq = got?.value.seq {
                                if seq < newest[k] { problem = "went back from save \(newest[k]) to \(seq)" }
                                newest[k] = max(newest[k], seq)
                            }
                            self.lock.withLock {
                                self.count += 1
                                if let problem { self.found.append("reader \(r): \(key) \(problem)") }
                            }
                        }
                        usleep(200) // reads interleave with the writers' saves without taking a core from them
                    }
                    self.done.leave()
                }
                threads.append(t)
                t.start()
            }
        }

        func finish() -> (reads: Int, problems: [String]) {
            lock.withLock { stop = true }
            done.wait()
            return lock.withLock { (count, found) }
        }
    }

    /// Writers killed at once, each in its own folder (a batch of rounds).
    static let batch = 8

    /// TeleportMe has no cache rules in client-rules.json.
    struct MissingCacheRules: Error, CustomStringConvertible {
        var description: String { "Contracts/teleportme/client-rules.json has no cache rules" }
    }

    /// The rounds of `impl`, with no XCTest assertion inside (they may run on the warm-up's
    /// thread, outside any test): what they found is in the outcome, for the test to check.
    static func run(impl: String, rounds: Int, seed: UInt64, stopAtFirstTorn: Bool = false) throws -> Outcome {
        let t0 = Date()
        let tool = try Self.tool
        guard let rules = try ClientRules.load(app: "teleportme")?.cache else { throw MissingCacheRules() }
        let keys = keys(rules)
        // tmpfs when there is one: the same code path (fsync included) without disk latency.
        let shm = URL(fileURLWithPath: "/dev/shm", isDirectory: true)
        let base = FileManager.default.fileExists(atPath: shm.path) ? shm : FileManager.default.temporaryDirectory
        let dir = base.appendingPathComponent("crash-\(impl)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let folders = (0..<batch).map { dir.appendingPathComponent("w\($0)") }

        let p = Process()
        p.executableURL = tool
        p.arguments = ["crash-rounds", dir.path, "--impl", impl, "--items", "\(items)"]
        p.environment = ["SUPACONTRACTS_ROOT": ContractsLocator.root.path, "SWIFT_BACKTRACE": "enable=no"]
        let input = Pipe(), output = Pipe()
        p.standardInput = input
        p.standardOutput = output
        try p.run()
        defer { if p.isRunning { p.terminate() } }
        var buffer = Data()
        var pending: [String] = []
        /// Each writer's lines of one batch (up to its "killed" line).
        func runBatch(start: Int, delays: [Int]) -> [[String]] {
            input.fileHandleForWriting.write(Data("batch \(start) \(delays.map(String.init).joined(separator: " "))\n".utf8))
            var lines = [[String]](repeating: [], count: delays.count)
            while true {
                while !pending.isEmpty {
                    let line = pending.removeFirst()
                    if line == "done" { return lines }
                    let parts = line.split(separator: " ", maxSplits: 1)
                    if parts.count == 2, let w = Int(parts[0]), w < lines.count { lines[w].append(String(parts[1])) }
                }
                let chunk = output.fileHandleForReading.availableData
                if chunk.isEmpty { return lines }
                buffer.append(chunk)
                while let nl = buffer.firstIndex(of: 0x0A) {
                    pending.append(String(decoding: buffer[buffer.startIndex..<nl], as: UTF8.self))
                    buffer = Data(buffer[(nl + 1)...])
                }
            }
        }

        var outcome = Outcome()
        // Calibration: one writer for 100 ms gives the time of a save on this machine now.
        let calibration = runBatch(start: 1, delays: [100_000])[0]
        let saves = calibration.filter { $0.hasPrefix("saved ") }.count
        if saves == 0 { outcome.calibrationProblem = "the writer saved nothing in 100 ms: \(calibration.suffix(3))" }
        outcome.microsPerSave = 100_000 / max(saves, 1)
        // Kills land uniformly over about three saves after the store is open.
        let window = max(3 * outcome.microsPerSave, 300)
        outcome.window = window

        let verifiers = try folders.map { try FileCacheManager(root: $0, rules: rules, clock: SystemClock()) }
        let check: @Sendable (CachedData<Payload>?, Bool) -> String? = { [items] entry, existed in
            guard let p = entry?.value else { return existed ? "was half-written (a file that does not load)" : nil }
            let whole = p.items.count == items && p.items.allSatisfy { $0.hasPrefix("\(p.seq)-") }
            return whole ? nil : "mixes two saves (seq \(p.seq), \(p.items.count) items)"
        }
        let readers = Readers()
        for folder in folders.prefix(2) {
            readers.start(1, store: { try! FileCacheManager(root: folder, rules: rules, clock: SystemClock()) }, keys: keys, check: check)
        }

        let random = SeededIDGenerator(seed: seed)
        var lastDone = [[Int?]](repeating: [Int?](repeating: nil, count: keys.count), count: batch)
        for (k, s) in lastSaves(calibration) { lastDone[0][k] = s }
        var b = 0
        while outcome.rounds < rounds {
            let delays = (0..<batch).map { _ in
                let r = random.bytes(4)
                return Int((UInt32(r[0]) | UInt32(r[1]) << 8 | UInt32(r[2]) << 16 | UInt32(r[3]) << 24) % UInt32(window))
            }
            let all = runBatch(start: (b + 2) * 100_000, delays: delays)
            b += 1
            for (w, lines) in all.enumerated() {
                let r = outcome.rounds
                guard let killed = lines.last, killed.hasPrefix("killed ") else {
                    outcome.torn.append("round \(r): the writer tool stopped: \(lines.suffix(3))")
                    outcome.seconds = Date().timeIntervalSince(t0)
                    return outcome
                }
                if killed == "killed \(SIGKILL)" { outcome.killsMidRun += 1 }
                if lines.dropLast().last?.hasPrefix("begin ") == true { outcome.killsInsideASave += 1 }
                if let failure = lines.first(where: { $0.hasPrefix("failed ") }) { outcome.torn.append("round \(r): \(failure)") }
                for (k, s) in lastSaves(lines) { lastDone[w][k] = s }
                // After the kill: every entry whole, and at least as new as the last reported save.
                for (k, key) in keys.enumerated() {
                    var st = stat()
                    let existed = lstat(verifiers[w].path(for: key).path, &st) == 0
                    let got = verifiers[w].loadSynchronously(Payload.self, for: key)
                    if let problem = check(got, existed) { outcome.torn.append("round \(r): \(key) \(problem) (killed \(delays[w]) µs after opening)") }
                    if !existed, let done = lastDone[w][k] { outcome.torn.append("round \(r): \(key) vanished although save \(done) completed") }
                    if let seq = got?.value.seq, let done = lastDone[w][k], seq < done {
                        outcome.torn.append("round \(r): \(key) holds save \(seq), older than the completed \(done)")
                    }
                }
                outcome.rounds += 1
            }
            if stopAtFirstTorn && !outcome.torn.isEmpty { break }
        }
        let (reads, problems) = readers.finish()
        outcome.reads = reads
        outcome.torn += problems
        input.fileHandleForWriting.closeFile()
        p.waitUntilExit()
        outcome.seconds = Date().timeIntervalSince(t0)
        return outcome
    }

    /// The last completed save of each key in a round's lines.
    static func lastSaves(_ lines: [String]) -> [(Int, Int)] {
        lines.compactMap { line in
            let parts = line.split(separator: " ")
            guard parts.count == 3, parts[0] == "saved", let k = Int(parts[1]), let s = Int(parts[2]) else { return nil }
            return (k, s)
        }
    }

    /// Each writer's rounds, once per process (`GateWarmUp` runs them, one after the other, on a
    /// thread of their own before this suite runs: they mostly wait for the writers); each test
    /// below checks its own.
    static let referenceOutcome = Result { try run(impl: "reference", rounds: 1000, seed: 0xC0FFEE) }
    static let inPlaceOutcome = Result { try run(impl: "in-place", rounds: 200, seed: 0xBADC0DE, stopAtFirstTorn: true) }

    func testKilledWriterNeverLeavesAHalfWrittenEntry() throws {
        let outcome = try Self.referenceOutcome.get()
        print(
            "reference writer: \(outcome.rounds) rounds (window \(outcome.window) µs after the store opens) in \(String(format: "%.1f", outcome.seconds)) s, \(outcome.killsInsideASave) kills inside a save, "
                + "\(outcome.reads) concurrent reads, \(outcome.microsPerSave) µs per save")
        XCTAssertNil(outcome.calibrationProblem)
        XCTAssertEqual(outcome.rounds, 1000)
        XCTAssertEqual(outcome.killsMidRun, 1000, "every round ends with SIGKILL")
        XCTAssertGreaterThan(outcome.killsInsideASave, 500, "kills are spread over the saves, not bunched between them or before them")
        XCTAssertGreaterThan(outcome.reads, 1000, "the readers read while the writers ran")
        XCTAssertEqual(outcome.torn, [], "\(outcome.torn.count) torn entries: \(outcome.torn.prefix(5))")
    }

    /// The check can fail: a writer that streams into the entry's file in place is caught (by the
    /// readers or after a kill; up to 200 kills, stopping at the first torn entry).
    func testKilledInPlaceWriterIsCaught() throws {
        let outcome = try Self.inPlaceOutcome.get()
        XCTAssertNil(outcome.calibrationProblem)
        print("in-place writer: caught after \(outcome.rounds) kills: \(outcome.torn.first ?? "not caught")")
        XCTAssertFalse(outcome.torn.isEmpty, "200 kills of an in-place writer left no torn entry")
    }
}
