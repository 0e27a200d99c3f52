import Foundation
import MockBinding
import MockSupabase

/// Realtime fan-out over loopback WebSockets, side by side in one run: (a) `inserts` posts into
/// CivicForge's published `posts` with no subscriber, then (b) the same inserts with
/// `subscribers` sockets each joined to postgres_changes INSERT on `posts`, half as ben (the
/// posts' neighbourhood: RLS lets every event through) and half as omar (another neighbourhood:
/// RLS drops every event). Prints inserts/s of both, events delivered per second and the p50/p99
/// latency from commit to receipt, and checks that each subscriber received exactly what RLS
/// allows.
func runRealtimeBenchmark(subscribers: Int = 100, inserts: Int = 200) {
    do {
        let backend = try MockSupabase(contracts: ContractsLocator.app("civicforge"), clock: ManualClock(), ids: SeededIDGenerator(seed: 3))
        let server = HTTPServer(backend: backend, configuration: .init(threads: 2))
        try server.start()
        defer { server.stop() }
        let template = backend.configuration.spec.fixtures.rows("posts").first?.objectValue ?? [:]
        func row(_ i: Int, _ run: String) -> [String: JSONValue] {
            var r = template
            r["created_at"] = nil
            r["updated_at"] = nil
            r["id"] = .string("b0000000-0000-4000-8000-" + run + String(format: "%07d", i))
            r["title"] = .string("bench \(run) \(i)")
            return r
        }
        func insertAll(_ run: String, stamps: Stamps?) throws -> Double {
            let start = DispatchTime.now().uptimeNanoseconds
            for i in 0..<inserts {
                let r = row(i, run)
                stamps?.set(r["id"]!.stringValue!, DispatchTime.now().uptimeNanoseconds)
                try backend.database.insert("posts", [r])
            }
            return Double(inserts) / (Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        }

        let quiet = try insertAll("00000", stamps: nil)

        // A token per subscriber (each its own session, as separate users' devices): the RLS check runs per subscriber.
        let people = ["ben", "omar"].map { backend.configuration.spec.fixtures.persona($0)! }
        var clients: [RealtimeClient] = []
        for i in 0..<subscribers {
            let c = try RealtimeClient(port: server.port, apikey: backend.anonKey)
            let reply = try c.join(
                "bench-\(i)", accessToken: backend.accessToken(for: people[i % 2].id, email: people[i % 2].email),
                postgresChanges: [["event": "INSERT", "schema": "public", "table": "posts"]])
            guard reply?.payload["status"] == .string("ok"), try c.next(where: { $0.event == "system" })?.payload["status"] == .string("ok") else {
                throw WebSocketClient.Failure(description: "subscriber \(i) was not subscribed: \(String(describing: reply))")
            }
            clients.append(c)
        }
        let seeing = (subscribers + 1) / 2
        let stamps = Stamps()
        let latencies = Latencies()
        let group = DispatchGroup()
        for (i, c) in clients.enumerated() {
            let expected = i % 2 == 0 ? inserts : 0
            group.enter()
            Thread.detachNewThread {
                defer { group.leave() }
                var got = 0
                // Readers of RLS-refused subscribers listen until the feeders are done (below).
                while let m = try? c.next(timeout: expected == 0 ? 2 : 20, where: { $0.event == "postgres_changes" }) {
                    let now = DispatchTime.now().uptimeNanoseconds
                    if let id = m.payload["data"]?["record"]?["id"]?.stringValue, let t0 = stamps.get(id) { latencies.add(Double(now - t0) / 1e6, at: now) }
                    got += 1
                    if expected > 0 && got == expected { break }
                }
                latencies.count(subscriber: i, got)
            }
        }
        Thread.sleep(forTimeInterval: 0.2)
        let start = DispatchTime.now().uptimeNanoseconds
        let busy = try insertAll("00001", stamps: stamps)
        backend.realtime.flush()
        group.wait()
        let elapsed = Double(latencies.last - start) / 1e9
        let delivered = latencies.all.count
        // Paced: inserts spaced below the fan-out's capacity, so latency is delivery, not queueing.
        let paced = Latencies()
        let pacedInserts = 40, pacedRate = 10.0
        for (i, c) in clients.enumerated() where i % 2 == 0 {
            group.enter()
            Thread.detachNewThread {
                defer { group.leave() }
                var got = 0
                while got < pacedInserts, let m = try? c.next(timeout: 20, where: { $0.event == "postgres_changes" }) {
                    let now = DispatchTime.now().uptimeNanoseconds
                    if let id = m.payload["data"]?["record"]?["id"]?.stringValue, let t0 = stamps.get(id) { paced.add(Double(now - t0) / 1e6, at: now) }
                    got += 1
                }
            }
        }
        for i in 0..<pacedInserts {
            let r = row(i, "00002")
            stamps.set(r["id"]!.stringValue!, DispatchTime.now().uptimeNanoseconds)
            try backend.database.insert("posts", [r])
            Thread.sleep(forTimeInterval: 1 / pacedRate)
        }
        group.wait()
        let q = paced.all.sorted()
        func pq(_ x: Double) -> Double { q.isEmpty ? .nan : q[min(q.count - 1, Int(Double(q.count) * x))] }
        let wrong = latencies.received.filter { $0.key % 2 == 0 ? $0.value != inserts : $0.value != 0 }
        let p = latencies.all.sorted()
        func pct(_ q: Double) -> Double { p.isEmpty ? .nan : p[min(p.count - 1, Int(Double(p.count) * q))] }
        print(
            "Realtime fan-out: \(inserts) inserts into posts, \(subscribers) subscribers over loopback WebSocket (\(seeing) see each post under RLS, \(subscribers - seeing) are refused by it); events/s from the first insert to the last receipt"
        )
        print(String(format: "  inserts/s, no subscriber:            %8.0f", quiet))
        print(String(format: "  inserts/s, %3d subscribers:          %8.0f  (%.2fx)", subscribers, busy, busy / quiet))
        print(
            String(
                format: "  events delivered/s (RLS checked):    %8.0f  (%d events in %.2f s, %d RLS checks per insert)", Double(delivered) / elapsed, delivered,
                elapsed, subscribers))
        print(String(format: "  commit-to-receipt, burst (queueing): p50 %.1f ms, p99 %.1f ms, max %.1f ms", pct(0.5), pct(0.99), p.last ?? .nan))
        print(String(format: "  commit-to-receipt, paced %2.0f inserts/s: p50 %.1f ms, p99 %.1f ms (%d events)", pacedRate, pq(0.5), pq(0.99), q.count))
        print(
            wrong.isEmpty
                ? "  every subscriber received exactly what RLS allows"
                : "  WRONG: subscribers with other counts: \(wrong.sorted { $0.key < $1.key }.prefix(10))")
    } catch {
        print("realtime benchmark failed: \(error)")
    }
}

/// Commit times by post id.
final class Stamps: @unchecked Sendable {
    private let lock = NSLock()
    private var t: [String: UInt64] = [:]
    func set(_ id: String, _ v: UInt64) { lock.lock(); t[id] = v; lock.unlock() }
    func get(_ id: String) -> UInt64? { lock.lock(); defer { lock.unlock() }; return t[id] }
}

/// Latencies (ms) and per-subscriber counts gathered by the reader threads.
final class Latencies: @unchecked Sendable {
    private let lock = NSLock()
    private var xs: [Double] = []
    private var counts: [Int: Int] = [:]
    private(set) var lastReceipt: UInt64 = 0
    func add(_ ms: Double, at t: UInt64) { lock.lock(); xs.append(ms); lastReceipt = max(lastReceipt, t); lock.unlock() }
    var last: UInt64 { lock.lock(); defer { lock.unlock() }; return lastReceipt }
    func count(subscriber: Int, _ n: Int) { lock.lock(); counts[subscriber] = n; lock.unlock() }
    var all: [Double] { lock.lock(); defer { lock.unlock() }; return xs }
    var received: [Int: Int] { lock.lock(); defer { lock.unlock() }; return counts }
}
