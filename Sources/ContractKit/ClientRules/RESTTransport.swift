import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The network side of the client components: one HTTP exchange with the backend. The reference
/// loader and optimistic service speak PostgREST through it; the suites wrap it to watch and
/// time every request, and the mock injects failures behind it.
public protocol RESTTransport: Sendable {
    /// Sends a request; throws `RESTError.network` when no answer arrives.
    func send(_ request: HTTPRequest) async throws -> HTTPResponse
}

/// A failed exchange, as a client sees it.
public enum RESTError: Error, CustomStringConvertible, Sendable, Equatable {
    /// No answer (offline, connection lost, timeout).
    case network(String)
    /// The server answered with an error status.
    case status(Int, String)
    /// The answer was not what was asked for.
    case unexpectedBody(String)

    public var description: String {
        switch self {
        case .network(let m): return "network error: \(m)"
        case .status(let s, let body): return "HTTP \(s): \(body)"
        case .unexpectedBody(let m): return "unexpected response: \(m)"
        }
    }
}

/// A client's credentials: one API key and one bearer token, whoever they belong to (a
/// persona's access token, the anon key, the service-role key).
package struct ClientCredentials: WireCredentials {
    /// The `apikey` header.
    package var apiKey: String
    package var token: String
    package var anonKey: String { apiKey }
    package var serviceRoleKey: String { apiKey }
    package func accessToken(persona: String) -> String? { token }

    /// The actor these credentials sign as (`apikey: apiKey`, `Authorization: Bearer token`).
    package static let actor = WireActor.persona("client")

    /// A backend's anon key with the bearer token `WireCredentials.headers(for:)` gives the actor
    /// a name names: a fixture persona's access token (`ana`), the anon key (`anon`) or the
    /// service-role key (`service_role`).
    package init(backend: some WireCredentials, persona: String) throws {
        apiKey = backend.anonKey
        do {
            let bearer = try backend.headers(for: WireActor(name: persona))["Authorization"] ?? ""
            token = bearer.hasPrefix("Bearer ") ? String(bearer.dropFirst(7)) : bearer
        } catch is MissingTokenError {
            throw RESTError.unexpectedBody("no persona '\(persona)' in the fixtures")
        }
    }

    /// Credentials from their parts.
    package init(apiKey: String, token: String) {
        self.apiKey = apiKey
        self.token = token
    }
}

/// Requests answered in process by a `MockSupabase` (`InProcessSender`), signed as one of its
/// personas (or anon). An injected network fault arrives as `RESTError.network`, as a dropped
/// connection would.
public struct MockBackendTransport: RESTTransport {
    package let backend: any BackendUnderTest
    /// The bearer token sent (a persona's access token, or the anon key).
    package var token: String { credentials.token }
    let credentials: ClientCredentials
    let sender: InProcessSender

    /// A transport acting as a fixture persona (`ana`), `anon` or `service_role`.
    public init(backend: any BackendUnderTest, persona: String) throws {
        self.backend = backend
        credentials = try ClientCredentials(backend: BackendKeys(backend), persona: persona)
        sender = InProcessSender(backend: backend, credentials: credentials)
    }

    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        do { return try sender.send(WireRequest(request, as: ClientCredentials.actor)) } catch is InjectedNetworkError {
            throw RESTError.network("The Internet connection appears to be offline.")
        }
    }
}

/// Requests sent over the wire (`URLSessionSender`): a real `URLSession` (for the mock,
/// `backend.makeURLSession(configuration: .ephemeral)`, whose URLProtocol answers in process), signed with an API key and
/// a bearer token, each with a deadline (TeleportMe §3.7 `timeout.rest`). A transport failure
/// arrives as `RESTError.network`.
public struct URLSessionTransport: RESTTransport {
    package let sender: URLSessionSender
    package var session: URLSession { sender.session }
    /// The project URL (`https://<ref>.supabase.co`).
    package var baseURL: URL { sender.baseURL }
    /// The per-request deadline in seconds.
    package let timeout: TimeInterval

    /// A transport over `session` to `baseURL`.
    public init(session: URLSession, baseURL: URL, apiKey: String, token: String, timeout: TimeInterval) {
        sender = URLSessionSender(session: session, baseURL: baseURL, credentials: ClientCredentials(apiKey: apiKey, token: token), timeout: timeout)
        self.timeout = timeout
    }

    /// A transport to a mock backend over its URLProtocol, acting as a persona (or `anon`).
    public init(backend: any BackendUnderTest, persona: String, timeout: TimeInterval) throws {
        let c = try ClientCredentials(backend: BackendKeys(backend), persona: persona)
        self.init(session: backend.makeURLSession(configuration: .ephemeral), baseURL: backend.baseURL, apiKey: c.apiKey, token: c.token, timeout: timeout)
    }

    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        do { return try await sender.send(WireRequest(request, as: ClientCredentials.actor)) } catch let e as WireSendError {
            throw RESTError.network(e.underlying.localizedDescription)
        }
    }
}

/// The few PostgREST calls the reference client components make.
package struct PostgRESTClient: Sendable {
    package let transport: any RESTTransport

    /// A client over a transport.
    package init(transport: any RESTTransport) { self.transport = transport }

    /// `GET path?query`: the rows.
    package func rows(path: String, query: String) async throws -> [JSONValue] {
        let target = query.isEmpty ? path : "\(path)?\(query)"
        let response = try await transport.send(HTTPRequest(method: "GET", target: target, headers: ["Accept": "application/json"]))
        guard (200..<300).contains(response.status) else { throw RESTError.status(response.status, response.text) }
        guard case .array(let rows)? = response.jsonBody else { throw RESTError.unexpectedBody("expected a JSON array from \(path)") }
        return rows
    }

    /// `POST /rest/v1/<table>` with `return=representation`: the inserted row.
    package func insert(table: String, row: JSONValue) async throws -> JSONValue {
        let response = try await transport.send(
            HTTPRequest(
                method: "POST", target: "/rest/v1/\(table)?select=*",
                headers: ["Content-Type": "application/json", "Prefer": "return=representation", "Accept": "application/json"],
                body: row.data()))
        guard (200..<300).contains(response.status) else { throw RESTError.status(response.status, response.text) }
        guard case .array(let rows)? = response.jsonBody, rows.count == 1 else {
            throw RESTError.unexpectedBody("expected one inserted row from \(table), got \(response.text.prefix(200))")
        }
        return rows[0]
    }

    /// `DELETE /rest/v1/<table>?col=eq.value&…`.
    package func delete(table: String, matching: [(String, String)]) async throws {
        let filters = matching.map { "\($0.0)=eq.\($0.1.addingPercentEncoding(withAllowedCharacters: .urlQueryAllowed) ?? $0.1)" }
        let response = try await transport.send(HTTPRequest(method: "DELETE", target: "/rest/v1/\(table)?" + filters.joined(separator: "&")))
        guard (200..<300).contains(response.status) else { throw RESTError.status(response.status, response.text) }
    }
}

/// Wraps a transport: logs every request to a shared timeline and can run a probe as each one
/// is sent (what the client showed and cached at that moment).
final class SpyTransport: RESTTransport, @unchecked Sendable {
    let inner: any RESTTransport
    let timeline: Timeline
    private let lock = NSLock()
    private var onSend: (@Sendable (HTTPRequest) async -> Void)?

    init(inner: any RESTTransport, timeline: Timeline) {
        self.inner = inner
        self.timeline = timeline
    }

    func setProbe(_ probe: (@Sendable (HTTPRequest) async -> Void)?) { lock.lock(); onSend = probe; lock.unlock() }

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        timeline.append(.request("\(request.method) \(request.path)"))
        let probe = lock.withLock { onSend }
        if let probe { await probe(request) }
        return try await inner.send(request)
    }
}

/// What happened, in order: requests sent and states shown.
final class Timeline: @unchecked Sendable {
    enum Event: Sendable {
        case request(String)
        case shown(JSONValue, String?)
    }

    private let lock = NSLock()
    private var events: [Event] = []

    func append(_ e: Event) { lock.lock(); events.append(e); lock.unlock() }
    var all: [Event] { lock.lock(); defer { lock.unlock() }; return events }
    var requests: [String] {
        all.compactMap {
            if case .request(let r) = $0 { return r }; return nil
        }
    }
    /// States shown before the first request (all of them when there was none).
    var shownBeforeFirstRequest: [(JSONValue, String?)] {
        var out: [(JSONValue, String?)] = []
        for e in all {
            switch e {
            case .request: return out
            case .shown(let v, let err): out.append((v, err))
            }
        }
        return out
    }
    var shown: [(JSONValue, String?)] {
        all.compactMap {
            if case .shown(let v, let e) = $0 { return (v, e) }; return nil
        }
    }
}

/// Encodes any Encodable as a `JSONValue` (how the suites look at a client's own models).
func jsonValue<T: Encodable>(_ value: T) -> JSONValue? {
    guard let data = try? JSONEncoder().encode(value) else { return nil }
    return try? JSONValue.parse(data)
}
