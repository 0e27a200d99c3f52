import Foundation
import MockSupabase
import MockBinding

/// What one flush of the offline post queue did.
public struct OfflineFlushReport: Sendable, Equatable {
    /// Titles of the posts the server created, in sending order.
    public var sent: [String] = []
    /// Titles of the posts the server refused (dropped and reported), with the error code.
    public var rejected: [String: String] = [:]
    /// Whether a network error (or a transient status) stopped the flush.
    public var stopped = false
    public init() {}
}

/// A client's queue of posts created offline (§4 "Post creation queued locally and submitted
/// when connectivity returns"): the implementation under test of
/// `CivicForgeOfflineQueueConformance`.
public protocol OfflinePostQueueing: AnyObject {
    /// Queues a post body (`POST /rest/v1/posts`).
    func enqueue(_ post: [String: JSONValue])
    /// The posts waiting, oldest first.
    var pending: [[String: JSONValue]] { get }
    /// Sends the queue; `send` performs one request and throws on a network error.
    func flush(_ send: ([String: JSONValue]) throws -> HTTPResponse) -> OfflineFlushReport
    /// The queue as stored in the user's cache entry (`offlineQueue`), to survive a relaunch.
    func encoded() throws -> Data
}

/// The reference queue: client-rules.json `offlineQueue`, literally.
package final class OfflinePostQueue: OfflinePostQueueing {
    package let rules: OfflineQueueRules
    /// Waiting posts, oldest first.
    package private(set) var pending: [[String: JSONValue]] = []

    /// A queue, restored from `stored` when given.
    package init(rules: OfflineQueueRules, restoring stored: Data? = nil) throws {
        self.rules = rules
        if let stored, case .array(let items) = try JSONValue.parse(stored) { pending = items.compactMap(\.objectValue) }
    }

    /// Appends a post.
    package func enqueue(_ post: [String: JSONValue]) { pending.append(post) }

    /// FIFO; a network error or a transient status keeps the post and stops; any other non-2xx
    /// drops it and reports it.
    package func flush(_ send: ([String: JSONValue]) throws -> HTTPResponse) -> OfflineFlushReport {
        var report = OfflineFlushReport()
        while let post = pending.first {
            let title = post["title"]?.stringValue ?? "?"
            guard let res = try? send(post), !rules.isTransient(res.status) else { report.stopped = true; break }
            if (200..<300).contains(res.status) {
                report.sent.append(title)
            } else {
                report.rejected[title] = res.jsonBody?["code"]?.stringValue ?? "HTTP \(res.status)"
            }
            pending.removeFirst()
        }
        return report
    }

    /// The waiting posts as a JSON array.
    package func encoded() throws -> Data { JSONValue.array(pending.map(JSONValue.object)).data() }
}

/// The conformance suite of an offline post queue against a CivicForge backend.
public enum CivicForgeOfflineQueueConformance {
    /// Builds the queue under test from the rules and, on relaunch, its stored form.
    public typealias Factory = (OfflineQueueRules, Data?) throws -> any OfflinePostQueueing

    /// Violations of `rules` by queues `make` builds, posting as `author` (tier 2) and `refused`
    /// (tier 1) on a fresh CivicForge backend: offline nothing is lost and only the first post is
    /// tried; back online posts go out oldest first; a refused post is dropped and reported
    /// without blocking the ones behind it; a transient status keeps it; the queue survives a
    /// relaunch.
    public static func violations(rules: OfflineQueueRules, author: String = "ben", refused: String = "tova", make: Factory) -> [String] {
        var out: [String] = []
        if rules.operations != ["createPost"] { out.append("offlineQueue.operations \(rules.operations): v1 queues post creation only (§4)") }
        func post(_ title: String, valid: Bool = true) -> [String: JSONValue] {
            var p: [String: JSONValue] = ["type": "need", "title": .string(title), "description": "queued offline", "category": "errands"]
            if !valid { p["title"] = nil }
            return p
        }
        var log: [String] = []
        func world() throws -> (MockSupabase, (String) -> ([String: JSONValue]) throws -> HTTPResponse, () -> Int) {
            let b = try CivicForgeApp.makeBackend(clock: ManualClock(InteractionReplay.defaultStartTime), ids: SeededIDGenerator(seed: 13))
            var attempts = 0
            log = []
            let sender = { (persona: String) -> ([String: JSONValue]) throws -> HTTPResponse in
                let token = b.accessToken(persona: persona) ?? ""
                return { body in
                    attempts += 1
                    let res = try b.handle(
                        HTTPRequest(
                            method: "POST", path: "/rest/v1/posts", query: [(name: "select", value: "title")],
                            headers: [
                                "apikey": b.anonKey, "Authorization": "Bearer \(token)", "Content-Type": "application/json",
                                "Prefer": "return=representation"
                            ], body: JSONValue.object(body).data()))
                    if (200..<300).contains(res.status) { log.append(body["title"]?.stringValue ?? "?") }
                    return res
                }
            }
            return (b, sender, { attempts })
        }
        /// The titles the server created, in the order it received them (checked against its rows).
        func titles(_ b: MockSupabase) -> [String] {
            let stored = ((try? b.database.rows("posts", where: .eq("description", "queued offline"))) ?? []).compactMap { $0["title"]?.stringValue }
            return stored.sorted() == log.sorted() ? log : stored.sorted()
        }
        func titlesOf(_ q: any OfflinePostQueueing) -> [String] { q.pending.map { $0["title"]?.stringValue ?? "(untitled)" } }
        do {
            // Offline, then back online; then a relaunch in between.
            let (b, sender, attempts) = try world()
            let q = try make(rules, nil)
            for t in ["first", "second", "third"] { q.enqueue(post(t)) }
            b.inject(InjectedFault(pathPrefix: "/rest/v1/", kind: .networkError, remaining: 100))
            let offline = q.flush(sender(author))
            if titlesOf(q) != ["first", "second", "third"] { out.append("offline: the queue holds \(titlesOf(q)), expected every post in order") }
            if attempts() != 1 { out.append("offline: \(attempts()) posts tried, expected the first only (keepAndStop)") }
            if !offline.stopped || !offline.sent.isEmpty { out.append("offline: reported \(offline)") }
            b.clearFaults()
            let restored = try make(rules, try q.encoded())
            if titlesOf(restored) != ["first", "second", "third"] { out.append("relaunch: restored \(titlesOf(restored)), expected the queue as stored") }
            let online = restored.flush(sender(author))
            if online.sent != ["first", "second", "third"] || titles(b) != ["first", "second", "third"] {
                out.append("online: sent \(online.sent), server has \(titles(b)), expected first, second, third in order")
            }
            if !restored.pending.isEmpty { out.append("online: \(titlesOf(restored)) still queued") }
        } catch { out.append("offline/online: setup failed: \(error)") }
        do {
            // A refusal in the middle: dropped and reported, the rest still sent.
            let (b, sender, _) = try world()
            let q = try make(rules, nil)
            q.enqueue(post("before")); q.enqueue(post("broken", valid: false)); q.enqueue(post("after"))
            let r = q.flush(sender(author))
            if r.sent != ["before", "after"] || titles(b) != ["before", "after"] {
                out.append("refused item: sent \(r.sent), server has \(titles(b)), expected before and after")
            }
            if r.rejected["?"] == nil { out.append("refused item: the post without a title was not reported (\(r.rejected))") }
            if !q.pending.isEmpty { out.append("refused item: \(titlesOf(q)) still queued (a refused post blocks the queue)") }
            // A user who lost tier 2: RLS refuses every post; all are dropped and reported.
            let t = try make(rules, nil)
            t.enqueue(post("tier one")); t.enqueue(post("tier one again"))
            let tr = t.flush(sender(refused))
            if tr.rejected.keys.sorted() != ["tier one", "tier one again"] || !t.pending.isEmpty {
                out.append("refused user: rejected \(tr.rejected), still queued \(titlesOf(t)); expected both dropped and reported")
            }
        } catch { out.append("refusals: setup failed: \(error)") }
        do {
            // Transient statuses: kept, the flush stops.
            for status in [401, 429, 503] where rules.isTransient(status) {
                let q = try make(rules, nil)
                q.enqueue(post("kept")); q.enqueue(post("behind"))
                let r = q.flush { _ in
                    HTTPResponse(status: status, headers: ["Content-Type": "application/json"], body: JSONValue.object(["message": "try later"]).data())
                }
                if titlesOf(q) != ["kept", "behind"] || !r.rejected.isEmpty {
                    out.append("status \(status): queue \(titlesOf(q)), rejected \(r.rejected); expected both kept (transient)")
                }
            }
        } catch { out.append("transient: setup failed: \(error)") }
        return out
    }
}
