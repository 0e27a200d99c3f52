import Foundation
import MockBinding
@testable import MockSupabase

/// Runs `body(i)` on `count` threads of their own at once and waits for all of them (real
/// threads, not a pool sized to the cores, so more clients than cores contend).
func onThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
    let group = DispatchGroup()
    for i in 0..<count {
        group.enter()
        let t = Thread {
            body(i)
            group.leave()
        }
        t.stackSize = 4 << 20
        t.start()
    }
    group.wait()
}

/// Violations found by concurrent clients, collected from any thread.
final class Findings: Sendable {
    private let items = Guarded<[String]>([])

    /// Records one violation.
    func add(_ s: String) { items.withLock { $0.append(s) } }
    /// Every violation so far.
    var all: [String] { items.withLock { $0 } }
}

/// One client of a backend over `handle` (or over any function that answers as it does): keys,
/// an optional user session, and checks that every answer is well-formed.
struct HammerClient: Sendable {
    /// The implementation under test: the backend's `handle`, or a deliberately wrong wrapper.
    let send: @Sendable (HTTPRequest) throws -> HTTPResponse
    let anonKey: String
    let serviceKey: String
    let findings: Findings
    /// Who acts, for messages.
    var label: String

    init(_ backend: MockSupabase, findings: Findings, label: String, send: (@Sendable (HTTPRequest) throws -> HTTPResponse)? = nil) {
        self.send = send ?? { try backend.handle($0) }
        anonKey = backend.anonKey
        serviceKey = backend.serviceRoleKey
        self.findings = findings
        self.label = label
    }

    /// Sends a request; records a violation unless the status is one of `expect` and a JSON
    /// body parses. Returns the response (nil when the transport threw).
    @discardableResult
    func call(
        _ method: String, _ target: String, token: String? = nil, apikey: String? = nil, json: JSONValue? = nil,
        body: Data? = nil, headers extra: HTTPHeaders = [:], expect: Set<Int>
    ) -> HTTPResponse? {
        var h: HTTPHeaders = ["apikey": apikey ?? anonKey]
        if let token { h["Authorization"] = "Bearer \(token)" }
        if json != nil { h["Content-Type"] = "application/json" }
        for (n, v) in extra { h[n] = v }
        let data = json.map { $0.data() } ?? body ?? Data()
        do {
            let r = try send(HTTPRequest(method: method, target: target, headers: h, body: data))
            if !expect.contains(r.status) {
                findings.add("\(label): \(method) \(target) answered \(r.status), expected \(expect.sorted()): \(r.text.prefix(300))")
            }
            if (r.headers["Content-Type"] ?? "").contains("json"), !r.body.isEmpty, (try? JSONValue.parse(r.body)) == nil {
                findings.add("\(label): \(method) \(target) answered a JSON content type with a body that is not JSON: \(r.text.prefix(200))")
            }
            return r
        } catch {
            findings.add("\(label): \(method) \(target) threw \(error)")
            return nil
        }
    }

    /// The body as JSON (null when absent or not JSON).
    static func json(_ r: HTTPResponse?) -> JSONValue { r.flatMap { try? JSONValue.parse($0.body) } ?? .null }

    /// A session from a GoTrue answer: access and refresh token, user id.
    static func session(_ r: HTTPResponse?) -> (access: String, refresh: String, user: String)? {
        let j = json(r)
        guard let a = j["access_token"]?.stringValue, let rt = j["refresh_token"]?.stringValue, let u = j["user"]?["id"]?.stringValue else { return nil }
        return (a, rt, u)
    }
}
