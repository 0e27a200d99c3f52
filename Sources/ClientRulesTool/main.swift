import Foundation
import ContractKit
#if canImport(Glibc)
import Glibc
#endif

// clientrules-tool — helpers of the client-rule suites that need a process of their own.
//
//   clientrules-tool crash-writer DIR [--impl reference|in-place] [--start N]
//       saves entries to the TeleportMe cache in DIR forever, printing "saved K SEQ" after each
//       completed save; the crash-consistency test kills it with SIGKILL. `--impl in-place` is a
//       deliberately wrong writer that streams each entry straight into its file.
//   clientrules-tool bench [--iterations N]
//       times the reference stores against the speed targets in client-rules.json.

let usage = """
usage: clientrules-tool crash-writer DIR [--impl reference|in-place] [--start N]
       clientrules-tool bench [--iterations N]
"""

func out(_ s: String) { FileHandle.standardOutput.write(Data((s + "\n").utf8)) }
func fail(_ s: String) -> Never { FileHandle.standardError.write(Data("clientrules-tool: \(s)\n".utf8)); exit(2) }

func option(_ name: String, in args: [String]) -> String? {
    guard let i = args.firstIndex(of: name), i + 1 < args.count else { return nil }
    return args[i + 1]
}

/// The entries the crash test writes and checks (shared with Tests/ContractsTests/ClientRulesCrashTests).
func crashKeys(_ rules: CacheRules) -> [CacheKey] {
    let user = "00000000-0000-4000-8000-00000000c0de"
    return [
        rules.entry("cities")!.key(user: nil, freshness: rules.freshness),
        rules.entry("savedCities")!.key(user: user, freshness: rules.freshness),
        rules.entry("pastReports")!.key(user: user, freshness: rules.freshness),
    ]
}

/// Items per saved value.
let crashItems = 1500

/// A value whose every part names its sequence number, so a mix of two saves is visible.
func crashValue(_ seq: Int) -> JSONValue {
    ["seq": .int(Int64(seq)), "items": .array((0..<crashItems).map { .string("\(seq)-\($0)-" + String(repeating: "p", count: 48)) })]
}

/// The deliberately wrong writer: opens the entry's file in place (truncating it) and streams
/// the envelope piece by piece while producing it, as a naive streaming encoder would (the same
/// bytes `crashValue(seq)` saved by the reference would hold).
func writeInPlace(seq: Int, key: CacheKey, store: FileCacheManager, clock: Clock) throws {
    let file = store.path(for: key)
    try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
    let fd = open(file.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    guard fd >= 0 else { throw ClientCacheError.io("open \(file.path)") }
    defer { close(fd) }
    func put(_ s: String) { _ = s.withCString { write(fd, $0, strlen($0)) } }
    var head = "{\"formatVersion\":\(store.layout.formatVersion),\"key\":\(JSONValue.string(key.stem).serialized())"
    if let u = key.userID { head += ",\"userId\":\(JSONValue.string(u).serialized())" }
    head += ",\"savedAt\":\(JSONValue.double(clock.now().timeIntervalSince1970).serialized())"
    head += ",\"ttlSeconds\":\(key.ttl.map { JSONValue.double($0).serialized() } ?? "null"),\"value\":{\"seq\":\(seq),\"items\":["
    put(head)
    for i in 0..<crashItems {
        let item = JSONValue.string("\(seq)-\(i)-" + String(repeating: "p", count: 48))
        put((i == 0 ? "" : ",") + item.serialized())
    }
    put("]}}")
}

func crashWriter(_ args: [String]) -> Never {
    guard let dir = args.first else { fail(usage) }
    let impl = option("--impl", in: args) ?? "reference"
    guard impl == "reference" || impl == "in-place" else { fail("unknown --impl '\(impl)'") }
    var seq = Int(option("--start", in: args) ?? "1") ?? 1
    guard let rules = try? ClientRules.load(app: "teleportme")?.cache else { fail("cannot load Contracts/teleportme/client-rules.json") }
    let clock = SystemClock()
    let store: FileCacheManager
    do { store = try FileCacheManager(root: URL(fileURLWithPath: dir), rules: rules, clock: clock, durable: false) } catch { fail("\(error)") }
    let keys = crashKeys(rules)
    while true {
        for (k, key) in keys.enumerated() {
            do {
                if impl == "reference" { try store.saveSynchronously(crashValue(seq), for: key) } else { try writeInPlace(seq: seq, key: key, store: store, clock: clock) }
            } catch { fail("save failed: \(error)") }
            out("saved \(k) \(seq)")
            seq += 1
        }
    }
}

// MARK: Benchmark

func percentile(_ xs: [Double], _ p: Double) -> Double {
    let s = xs.sorted()
    return s[min(s.count - 1, Int((Double(s.count - 1) * p).rounded()))]
}

func bench(_ args: [String]) -> Int32 {
    let iterations = Int(option("--iterations", in: args) ?? "500") ?? 500
    var failed = 0
    print("app         rule             op     target    p50       p99       max       result")
    for app in ["teleportme", "naarscars", "civicforge", "aura", "shvil"] {
        guard let rules = try? ClientRules.load(app: app)?.cache, !rules.performance.isEmpty else { continue }
        // A realistic payload: TeleportMe's 55 fixture cities (the §8.2 "~50KB" list).
        let cities = (try? JSONValue.parse(Data(contentsOf: ContractsLocator.app("teleportme").appendingPathComponent("fixtures/cities.json")))) ?? .array([])
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("clientrules-bench-\(getpid())")
        defer { try? FileManager.default.removeItem(at: dir) }
        let clock = SystemClock()
        let entry = rules.entries.first { $0.scope == .user } ?? rules.entries[0]
        let key = entry.key(user: "00000000-0000-4000-8000-00000000beef", freshness: rules.freshness)
        for perf in rules.performance {
            var times: [Double] = []
            func time(_ body: () -> Void) { let t0 = DispatchTime.now().uptimeNanoseconds; body(); times.append(Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e6) }
            switch (rules.storage, perf.operation) {
            case (.memory, _):
                let store = MemoryCacheStore(clock: clock)
                let sem = DispatchSemaphore(value: 0)
                let box = TimesBox()
                Task {
                    try? await store.save(cities, for: key)
                    for _ in 0..<iterations {
                        let t0 = DispatchTime.now().uptimeNanoseconds
                        _ = await store.load(JSONValue.self, for: key)
                        box.times.append(Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e6)
                    }
                    sem.signal()
                }
                sem.wait()
                times = box.times
            case (.files, .write):
                guard let store = try? FileCacheManager(root: dir, rules: rules, clock: clock, durable: true) else { continue }
                for _ in 0..<iterations { time { try? store.saveSynchronously(cities, for: key) } }
            case (.files, _):
                guard let store = try? FileCacheManager(root: dir, rules: rules, clock: clock, durable: true) else { continue }
                try? store.saveSynchronously(cities, for: key)
                for _ in 0..<iterations { time { _ = store.loadSynchronously(JSONValue.self, for: key) } }
            }
            let p99 = percentile(times, 0.99)
            let ok = p99 <= perf.maxMilliseconds
            if !ok { failed += 1 }
            func ms(_ x: Double) -> String { String(format: "%.3f ms", x) }
            print([app.padding(toLength: 11, withPad: " ", startingAt: 0), perf.id.padding(toLength: 16, withPad: " ", startingAt: 0),
                   perf.operation.rawValue.padding(toLength: 6, withPad: " ", startingAt: 0),
                   ("< " + String(format: "%.0f", perf.maxMilliseconds) + " ms").padding(toLength: 9, withPad: " ", startingAt: 0),
                   ms(percentile(times, 0.5)).padding(toLength: 9, withPad: " ", startingAt: 0), ms(p99).padding(toLength: 9, withPad: " ", startingAt: 0),
                   ms(times.max() ?? 0).padding(toLength: 9, withPad: " ", startingAt: 0), ok ? "ok" : "SLOW"].joined(separator: " "))
        }
    }
    print("payload: Contracts/teleportme/fixtures/cities.json (55 rows); \(iterations) iterations per row")
    return failed == 0 ? 0 : 1
}

final class TimesBox: @unchecked Sendable { var times: [Double] = [] }

var args = Array(CommandLine.arguments.dropFirst())
let command = args.isEmpty ? "help" : args.removeFirst()
switch command {
case "crash-writer": crashWriter(args)
case "bench": exit(bench(args))
default: print(usage); exit(command == "help" ? 0 : 2)
}
