import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A Supabase-compatible backend at a URL (`supabase start`'s `http://127.0.0.1:54321`, a hosted
/// project, `contracts serve`), reached over HTTP with its anon and service-role keys.
///
/// The one place that attaches credentials to a request (`credentials(as:)`): the anon key, the
/// service-role key, or a persona's access token signed in through GoTrue. The requests are the
/// ones the in-process path sends (`WireClient`, `MockTarget`); only the base URL and the keys
/// differ.
public final class LiveEndpoint: @unchecked Sendable {
    /// The project URL (no trailing `/rest/v1`).
    public let baseURL: URL
    /// The project's anon key.
    public let anonKey: String
    /// The project's service-role key.
    public let serviceRoleKey: String
    private let session: URLSession
    private let lock = NSLock()
    private var tokens: [String: String] = [:]

    /// An endpoint. `timeout` bounds each request (seconds).
    public init(baseURL: URL, anonKey: String, serviceRoleKey: String, timeout: TimeInterval = 30) {
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
    }

    /// Hands every redirect back as the answer (GoTrue's `/authorize` and `/verify` answer 302
    /// to the provider or the app; the contracts check that answer, as the mock path does).
    final class NoRedirects: NSObject, URLSessionTaskDelegate, @unchecked Sendable {
        func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void) {
            completionHandler(nil)
        }
    }

    /// A failure to reach the backend (not an error status: those are answers).
    public struct TransportError: Error, CustomStringConvertible, Sendable {
        /// What happened.
        public var message: String
        public var description: String { "transport error: \(message)" }
    }

    /// Records a persona's access token (after sign-in); `credentials(as:)` uses it from then on.
    public func setToken(_ token: String, for persona: String) { lock.lock(); tokens[persona] = token; lock.unlock() }

    /// The token of a persona signed in, if any.
    public func token(for persona: String) -> String? { lock.lock(); defer { lock.unlock() }; return tokens[persona] }

    /// The `apikey` and `Authorization` headers of an actor: `anon`, `service_role`, a signed-in
    /// persona's name (the anon key and the persona's access token), or nil for none.
    public func credentials(as actor: String?) throws -> HTTPHeaders {
        guard let actor else { return [:] }
        switch actor {
        case "anon": return ["apikey": anonKey, "Authorization": "Bearer \(anonKey)"]
        case "service_role": return ["apikey": serviceRoleKey, "Authorization": "Bearer \(serviceRoleKey)"]
        default:
            guard let t = token(for: actor) else { throw TransportError(message: "persona '\(actor)' is not signed in") }
            return ["apikey": anonKey, "Authorization": "Bearer \(t)"]
        }
    }

    /// Characters a query name or value keeps as they are (as `MockTarget` sends them).
    static let queryValueAllowed = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~,()*:")

    /// A query string from name/value pairs, each part percent-encoded.
    public static func queryString(_ pairs: [(name: String, value: String)]) -> String {
        pairs.map { ($0.name.addingPercentEncoding(withAllowedCharacters: queryValueAllowed) ?? $0.name) + "=" +
            ($0.value.addingPercentEncoding(withAllowedCharacters: queryValueAllowed) ?? $0.value) }.joined(separator: "&")
    }

    /// Sends a request built from parts (`query` as the step wrote it; encoded as `WireClient` does).
    public func send(method: String, path: String, query: String? = nil, headers: HTTPHeaders = [:], body: Data? = nil, as actor: String?) throws -> HTTPResponse {
        try send(method: method, path: path, encodedQuery: query.map(WireClient.encodeQuery), headers: headers, body: body, as: actor)
    }

    /// Sends a request (`HTTPRequest`'s query pairs encoded one by one).
    public func send(_ request: HTTPRequest, as actor: String?) throws -> HTTPResponse {
        try send(method: request.method, path: request.path, encodedQuery: request.query.isEmpty ? nil : LiveEndpoint.queryString(request.query),
                 headers: request.headers, body: request.body.isEmpty ? nil : request.body, as: actor)
    }

    /// Sends a JSON body as an actor.
    public func send(method: String, path: String, query: [(name: String, value: String)] = [], json: JSONValue?, headers: HTTPHeaders = [:], as actor: String?) throws -> HTTPResponse {
        var h = headers
        if json != nil, h["Content-Type"] == nil { h["Content-Type"] = "application/json" }
        return try send(HTTPRequest(method: method, path: path, query: query, headers: h, body: json?.data() ?? Data()), as: actor)
    }

    func send(method: String, path: String, encodedQuery: String?, headers: HTTPHeaders, body: Data?, as actor: String?) throws -> HTTPResponse {
        guard var comps = URLComponents(url: baseURL, resolvingAgainstBaseURL: false) else {
            throw TransportError(message: "not a URL: \(baseURL)")
        }
        let encodedPath = path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? path
        comps.percentEncodedPath = comps.percentEncodedPath + encodedPath
        if let q = encodedQuery, !q.isEmpty { comps.percentEncodedQuery = q }
        guard let url = comps.url else { throw TransportError(message: "cannot form a URL from \(path)") }
        var req = URLRequest(url: url)
        req.httpMethod = method
        let creds = try credentials(as: actor)
        for f in creds where headers[f.name] == nil { req.setValue(f.value, forHTTPHeaderField: f.name) }
        var seen = Set<String>()
        for f in headers {
            if seen.insert(f.name.lowercased()).inserted { req.setValue(f.value, forHTTPHeaderField: f.name) } else { req.addValue(f.value, forHTTPHeaderField: f.name) }
        }
        if let body {
            req.httpBody = body
            if headers["Content-Type"] == nil { req.setValue("application/json", forHTTPHeaderField: "Content-Type") }
        }
        final class Box: @unchecked Sendable { var result: Result<HTTPResponse, Error>? }
        let box = Box()
        let done = DispatchSemaphore(value: 0)
        session.dataTask(with: req) { data, response, error in
            if let error { box.result = .failure(TransportError(message: "\(method) \(url.absoluteString): \(error.localizedDescription)")) }
            else if let http = response as? HTTPURLResponse {
                var h = HTTPHeaders()
                for (k, v) in http.allHeaderFields { h.add("\(k)", "\(v)") }
                box.result = .success(HTTPResponse(status: http.statusCode, headers: h, body: data ?? Data()))
            } else { box.result = .failure(TransportError(message: "\(method) \(url.absoluteString): no HTTP response")) }
            done.signal()
        }.resume()
        done.wait()
        return try box.result!.get()
    }
}
