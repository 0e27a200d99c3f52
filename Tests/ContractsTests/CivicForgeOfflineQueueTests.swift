import XCTest
import MockBinding
import MockSupabase
@testable import CivicForge

/// The gate: §4's offline post queue (client-rules.json offlineQueue) on the reference queue, and
/// the suite rejecting a LIFO queue, one that loses posts offline, one blocked by a refused post
/// and one that drops posts on a server error.
final class CivicForgeOfflineQueueTests: GateTestCase {
    func rules() throws -> OfflineQueueRules { try XCTUnwrap(try ClientRules.load(app: "civicforge")?.offlineQueue) }

    func testReferenceQueueConforms() throws {
        let r = try rules()
        XCTAssertEqual(r.operations, ["createPost"])
        XCTAssertTrue(r.isTransient(401) && r.isTransient(503) && !r.isTransient(403) && !r.isTransient(400))
        XCTAssertEqual(CivicForgeOfflineQueueConformance.violations(rules: r) { try OfflinePostQueue(rules: $0, restoring: $1) }, [])
    }

    /// A queue with one behaviour swapped.
    final class Mutant: OfflinePostQueueing {
        enum Kind { case lifo, dropOnNetworkError, blockOnRefusal, dropOnServerError }
        let kind: Kind
        let inner: OfflinePostQueue
        init(_ kind: Kind, _ rules: OfflineQueueRules, _ stored: Data?) throws {
            self.kind = kind; inner = try OfflinePostQueue(rules: rules, restoring: stored)
        }
        var pending: [[String: JSONValue]] { kind == .lifo ? inner.pending.reversed() : inner.pending }
        func enqueue(_ post: [String: JSONValue]) { inner.enqueue(post) }
        func encoded() throws -> Data { try inner.encoded() }
        func flush(_ send: ([String: JSONValue]) throws -> HTTPResponse) -> OfflineFlushReport {
            var report = OfflineFlushReport()
            var queue = pending
            var kept: [[String: JSONValue]] = []
            while !queue.isEmpty {
                let post = queue.removeFirst()
                let title = post["title"]?.stringValue ?? "?"
                guard let res = try? send(post) else {
                    report.stopped = true
                    if kind != .dropOnNetworkError { kept = [post] + queue }
                    break
                }
                if (200..<300).contains(res.status) { report.sent.append(title); continue }
                if kind == .blockOnRefusal || (inner.rules.isTransient(res.status) && kind != .dropOnServerError) {
                    kept = [post] + queue; report.stopped = true; break
                }
                report.rejected[title] = res.jsonBody?["code"]?.stringValue ?? "HTTP \(res.status)"
            }
            let stored = try? OfflinePostQueue(
                rules: inner.rules, restoring: JSONValue.array((kind == .lifo ? kept.reversed() : kept).map(JSONValue.object)).data())
            while !inner.pending.isEmpty { _ = inner.flush { _ in HTTPResponse(status: 201) } }
            for p in stored?.pending ?? [] { inner.enqueue(p) }
            return report
        }
    }

    func testMutantQueuesAreRejected() throws {
        let r = try rules()
        func run(_ k: Mutant.Kind) -> [String] { CivicForgeOfflineQueueConformance.violations(rules: r) { try Mutant(k, $0, $1) } }
        let lifo = run(.lifo)
        XCTAssertTrue(lifo.contains { $0.hasPrefix("online: sent [\"third\", \"second\", \"first\"]") }, "\(lifo)")
        let lossy = run(.dropOnNetworkError)
        XCTAssertTrue(lossy.contains { $0.hasPrefix("offline: the queue holds") }, "\(lossy)")
        let blocked = run(.blockOnRefusal)
        XCTAssertTrue(blocked.contains { $0.contains("a refused post blocks the queue") }, "\(blocked)")
        let eager = run(.dropOnServerError)
        XCTAssertTrue(eager.contains { $0.hasPrefix("status 503: queue []") }, "\(eager)")
    }
}
