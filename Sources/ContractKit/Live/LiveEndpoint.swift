import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A Supabase-compatible backend at a URL (`supabase start`'s `http://127.0.0.1:54321`, a hosted
/// project, `contracts serve`), reached over HTTP with its anon and service-role keys.
///
/// Its credentials (`WireCredentials`): the anon key, the service-role key, or a persona's access
/// token signed in through GoTrue, attached by the one sender (`URLSessionSender`) the
/// in-process path uses too (`WireClient`, `MockTarget`); only the base URL and the keys differ.
package final class LiveEndpoint: WireCredentials, @unchecked Sendable {
    /// The project URL (no trailing `/rest/v1`).
    package let baseURL: URL
    /// The project's anon key.
    package let anonKey: String
    /// The project's service-role key.
    package let serviceRoleKey: String
    private let session: URLSession
    private let lock = NSLock()
    private var tokens: [String: String] = [:]
    /// What each request that may write could have changed, in the order sent.
    private var writes: [LiveWrite] = []
    /// Plain HTTP to this machine goes over connections of its own (`LoopbackHTTPSender`); nil:
    /// through `session`.
    private let loopback: LoopbackHTTPSender?

    /// An endpoint. `timeout` bounds each request (seconds).
    package init(baseURL: URL, anonKey: String, serviceRoleKey: String, timeout: TimeInterval = 30) {
        var text = baseURL.absoluteString
        while text.hasSuffix("/") { text.removeLast() }
        self.baseURL = URL(string: text) ?? baseURL
        self.anonKey = anonKey
        self.serviceRoleKey = serviceRoleKey
        let config = URLSessionConfiguration.ephemeral
        config.timeoutIntervalForRequest = timeout
        config.httpShouldSetCookies = false
        config.urlCache = nil
        session = URLSession(configuration: config, delegate: NoRedirects(), delegateQueue: nil)
        loopback = LoopbackHTTPSender(baseURL: self.baseURL, timeout: timeout)
    }

    /// Hands every redirect back as the answer (GoTrue's `/authorize` and `/verify` answer 302
    /// to the provider or the app; the contracts check that answer, as the mock path does).
    final class NoRedirects: NSObject, URLSessionTaskDelegate, @unchecked Sendable {
        func urlSession(
            _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
            newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
        ) {
            completionHandler(nil)
        }
    }

    /// A failure to reach the backend (not an error status: those are answers).
    package struct TransportError: Error, CustomStringConvertible, Sendable {
        /// What happened.
        package var message: String
        package var description: String { "transport error: \(message)" }
    }

    /// Records a persona's access token (after sign-in); requests as the persona carry it from then on.
    package func setToken(_ token: String, for persona: String) { lock.lock(); tokens[persona] = token; lock.unlock() }

    /// The token of a persona signed in, if any.
    package func token(for persona: String) -> String? { lock.lock(); defer { lock.unlock() }; return tokens[persona] }

    /// How many requests this endpoint has sent that may have written (every request but those
    /// `LiveReadOnly` names): unchanged between two moments, nothing sent in between changed
    /// the backend (`LiveBackend.restore` then has nothing to put back).
    package var writesSent: Int { lock.lock(); defer { lock.unlock() }; return writes.count }

    /// What the requests that may write sent after the first `mark` of them could have changed.
    func writes(since mark: Int) -> ArraySlice<LiveWrite> { lock.lock(); defer { lock.unlock() }; return writes[min(mark, writes.count)...] }

    /// A signed-in persona's token (`WireCredentials`).
    package func accessToken(persona: String) -> String? { token(for: persona) }

    /// The sender: this endpoint's session, URL and credentials.
    var sender: URLSessionSender { URLSessionSender(session: session, baseURL: baseURL, credentials: self) }

    /// Sends a request built from parts (`query` as the step wrote it, `WireRequest.Query.written`).
    package func send(method: String, path: String, query: String? = nil, headers: HTTPHeaders = [:], body: Data? = nil, as actor: String?) throws
        -> HTTPResponse
    {
        try send(
            WireRequest(
                method: method, path: path, query: .written(query ?? ""), headers: headers, body: body ?? Data(),
                actor: actor.map(WireActor.init(name:)) ?? .none))
    }

    /// Sends a request (`HTTPRequest`'s query pairs encoded one by one).
    package func send(_ request: HTTPRequest, as actor: String?) throws -> HTTPResponse {
        try send(WireRequest(request, as: actor.map(WireActor.init(name:)) ?? .none))
    }

    /// Sends a JSON body as an actor.
    package func send(
        method: String, path: String, query: [(name: String, value: String)] = [], json: JSONValue?, headers: HTTPHeaders = [:], as actor: String?
    ) throws -> HTTPResponse {
        var h = headers
        if json != nil, h["Content-Type"] == nil { h["Content-Type"] = "application/json" }
        return try send(HTTPRequest(method: method, path: path, query: query, headers: h, body: json?.data() ?? Data()), as: actor)
    }

    /// Sends a request (a body without `Content-Type` goes as JSON).
    package func send(_ request: WireRequest) throws -> HTTPResponse {
        var r = request
        // Counted before sending: a request that fails on the way back may still have written.
        if let w = LiveReadOnly.write(method: r.method, path: r.path, headers: r.headers) { lock.lock(); writes.append(w); lock.unlock() }
        if !r.body.isEmpty, r.headers["Content-Type"] == nil { r.headers["Content-Type"] = "application/json" }
        do {
            if let loopback { return try loopback.send(r, credentials: self) }
            return try sender.send(r)
        } catch let e as WireSendError {
            throw TransportError(message: "\(e.target): \(e.underlying.localizedDescription)")
        } catch let e as MissingTokenError {
            throw TransportError(message: "persona '\(e.persona)' is not signed in")
        }
    }
}
