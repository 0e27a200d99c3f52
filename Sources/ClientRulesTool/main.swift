import Foundation
import AppRegistry
import ContractKit
#if canImport(Glibc)
    import Glibc
#endif

// clientrules-tool — helpers of the client-rule suites that need a process of their own.
//
//   clientrules-tool crash-rounds DIR [--impl reference|in-place] [--items N]
//       the crash-consistency test's writers: reads "batch START DELAY_US…" lines on stdin; for
//       each delay W it forks writer W, which opens the TeleportMe cache in DIR/wW, prints
//       "W ready", and saves entries from sequence START on (printing "W begin K SEQ" before and
//       "W saved K SEQ" after each save) until SIGKILL ends it DELAY_US microseconds after it was
//       ready; then the tool reaps every writer, prints "W killed SIGNAL" for each, and "done".
//       `--impl in-place` is a deliberately wrong writer that streams each entry into its file.
//   clientrules-tool bench [--iterations N]
//       times the reference stores against the speed targets in client-rules.json.

let usage = """
    usage: clientrules-tool crash-rounds DIR [--impl reference|in-place] [--items N]
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
        rules.entry("pastReports")!.key(user: user, freshness: rules.freshness)
    ]
}

/// A value of `items` items whose every part names its sequence number, so a mix of two saves is visible.
func crashValue(_ seq: Int, items: Int) -> JSONValue {
    ["seq": .int(Int64(seq)), "items": .array((0..<items).map { .string("\(seq)-\($0)-" + String(repeating: "p", count: 48)) })]
}

/// The deliberately wrong writer: opens the entry's file in place (truncating it) and streams
/// the envelope piece by piece while producing it, as a naive streaming encoder would (the same
/// bytes `crashValue(seq, items:)` saved by the reference would hold).
func writeInPlace(seq: Int, items: Int, key: CacheKey, store: FileCacheManager, clock: WallClock) throws {
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
    for i in 0..<items {
        let item = JSONValue.string("\(seq)-\(i)-" + String(repeating: "p", count: 48))
        put((i == 0 ? "" : ",") + item.serialized())
    }
    put("]}}")
}

/// Writes a line with one `write(2)` (no buffering: a line printed before a kill is not lost,
/// and lines of the writer and of the tool never interleave).
func emit(_ s: String) {
    var bytes = Array((s + "\n").utf8)
    bytes.withUnsafeMutableBytes { raw in
        var offset = 0
        while offset < raw.count {
            let n = write(1, raw.baseAddress! + offset, raw.count - offset)
            if n < 0 { if errno == EINTR { continue }; return }
            offset += n
        }
    }
}

/// The forked writer: opens the store as a relaunched app would (sweeping what the killed one
/// left), arms a timer, and saves until the timer's SIGKILL (or until its parent is gone).
func writerChild(_ w: Int, dir: String, impl: String, items: Int, start: Int, delay: Int, rules: CacheRules, parent: pid_t) -> Never {
    let clock = SystemClock()
    guard let store = try? FileCacheManager(root: URL(fileURLWithPath: dir).appendingPathComponent("w\(w)"), rules: rules, clock: clock) else { _exit(3) }
    let keys = crashKeys(rules)
    emit("\(w) ready")
    // SIGKILL `delay` µs from now, wherever the loop below is: the timer's signal handler sends
    // it, so the moment does not depend on when the scheduler runs the parent.
    signal(SIGALRM) { _ in kill(getpid(), SIGKILL) }
    var timer = itimerval(it_interval: timeval(tv_sec: 0, tv_usec: 0), it_value: timeval(tv_sec: delay / 1_000_000, tv_usec: .init(max(delay % 1_000_000, 1))))
    setitimer(__itimer_which_t(ITIMER_REAL.rawValue), &timer, nil)
    var seq = start
    while getppid() == parent {
        for (k, key) in keys.enumerated() {
            emit("\(w) begin \(k) \(seq)")
            do {
                if impl == "reference" {
                    try store.saveSynchronously(crashValue(seq, items: items), for: key)
                } else {
                    try writeInPlace(seq: seq, items: items, key: key, store: store, clock: clock)
                }
            } catch { emit("\(w) failed \(error)"); _exit(4) }
            emit("\(w) saved \(k) \(seq)")
            seq += 1
        }
    }
    _exit(0)
}

func crashRounds(_ args: [String]) -> Never {
    guard let dir = args.first else { fail(usage) }
    let impl = option("--impl", in: args) ?? "reference"
    guard impl == "reference" || impl == "in-place" else { fail("unknown --impl '\(impl)'") }
    let items = Int(option("--items", in: args) ?? "200") ?? 200
    guard let rules = try? ClientRules.load(app: "teleportme")?.cache else { fail("cannot load Contracts/teleportme/client-rules.json") }
    let me = getpid()
    while let line = readLine() {
        let parts = line.split(separator: " ")
        guard parts.count >= 3, parts[0] == "batch", let start = Int(parts[1]) else { fail("bad command '\(line)'") }
        let delays = parts.dropFirst(2).compactMap { Int($0) }
        var children: [pid_t] = []
        for (w, delay) in delays.enumerated() {
            let pid = fork()
            if pid < 0 { fail("fork: \(String(cString: strerror(errno)))") }
            if pid == 0 { writerChild(w, dir: dir, impl: impl, items: items, start: start, delay: delay, rules: rules, parent: me) }
            children.append(pid)
        }
        for (w, pid) in children.enumerated() {
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            let signalled = (status & 0x7f) != 0 && (status & 0x7f) != 0x7f
            emit("\(w) killed \(signalled ? Int(status & 0x7f) : -Int((status >> 8) & 0xff))")
        }
        emit("done")
    }
    exit(0)
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
    for app in allApps.map({ $0.name }) {
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
            func time(_ body: () -> Void) {
                let t0 = DispatchTime.now().uptimeNanoseconds; body(); times.append(Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e6)
            }
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
            print(
                [
                    app.padding(toLength: 11, withPad: " ", startingAt: 0), perf.id.padding(toLength: 16, withPad: " ", startingAt: 0),
                    perf.operation.rawValue.padding(toLength: 6, withPad: " ", startingAt: 0),
                    ("< " + String(format: "%.0f", perf.maxMilliseconds) + " ms").padding(toLength: 9, withPad: " ", startingAt: 0),
                    ms(percentile(times, 0.5)).padding(toLength: 9, withPad: " ", startingAt: 0), ms(p99).padding(toLength: 9, withPad: " ", startingAt: 0),
                    ms(times.max() ?? 0).padding(toLength: 9, withPad: " ", startingAt: 0), ok ? "ok" : "SLOW"
                ].joined(separator: " "))
        }
    }
    print("payload: Contracts/teleportme/fixtures/cities.json (55 rows); \(iterations) iterations per row")
    return failed == 0 ? 0 : 1
}

final class TimesBox: @unchecked Sendable { var times: [Double] = [] }

var args = Array(CommandLine.arguments.dropFirst())
let command = args.isEmpty ? "help" : args.removeFirst()
// `$SUPACONTRACTS_ROOT`, else the checkout this binary was built from.
let root = ProcessInfo.processInfo.environment["SUPACONTRACTS_ROOT"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }
ContractsLocator.$root.withValue(root ?? ContractsLocator.packageRoot) {
    switch command {
    case "crash-rounds": crashRounds(args)
    case "bench": exit(bench(args))
    default: print(usage); exit(command == "help" ? 0 : 2)
    }
}
