import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sends requests to a mock backend **over the wire**: through a real `URLSession` and the
/// `MockURLProtocol` transport, exactly as a client app's networking stack would.
public final class WireClient: @unchecked Sendable {
    /// The backend answering.
    public let backend: MockSupabase
    /// The session used.
    public let session: URLSession

    /// A client for a backend.
    public init(_ backend: MockSupabase) {
        self.backend = backend
        session = backend.makeURLSession()
    }

    /// Errors of the transport itself (an injected network fault, a timeout).
    public struct TransportError: Error, CustomStringConvertible {
        /// The underlying error.
        public var underlying: Error
        public var description: String { "transport error: \(underlying)" }
    }

    /// The `apikey` and `Authorization` headers of an actor: a fixture persona's name, `anon`,
    /// `service_role`, or nil for none.
    public func credentials(as actor: String?) -> HTTPHeaders {
        guard let actor else { return [:] }
        switch actor {
        case "anon": return ["apikey": backend.anonKey, "Authorization": "Bearer \(backend.anonKey)"]
        case "service_role": return ["apikey": backend.serviceRoleKey, "Authorization": "Bearer \(backend.serviceRoleKey)"]
        default:
            guard let token = backend.accessToken(persona: actor) else { return ["apikey": backend.anonKey] }
            return ["apikey": backend.anonKey, "Authorization": "Bearer \(token)"]
        }
    }

    /// Sends one request and waits for the answer.
    /// - Parameters:
    ///   - path: e.g. `/rest/v1/cities`; `query` is appended verbatim (already encoded or plain).
    ///   - as: the actor whose credentials are added (see `credentials(as:)`).
    public func send(method: String, path: String, query: String? = nil, headers: HTTPHeaders = [:], body: Data? = nil, as actor: String? = nil) throws -> HTTPResponse {
        var comps = URLComponents(url: backend.baseURL, resolvingAgainstBaseURL: false)!
        comps.percentEncodedPath = path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? path
        if let query, !query.isEmpty { comps.percentEncodedQuery = WireClient.encodeQuery(query) }
        var req = URLRequest(url: comps.url!)
        req.httpMethod = method
        for f in credentials(as: actor) { req.setValue(f.value, forHTTPHeaderField: f.name) }
        var seen = Set<String>()
        for f in headers {
            // Repeated fields are sent as repeated fields (URLRequest joins them with commas).
            if seen.insert(f.name.lowercased()).inserted { req.setValue(f.value, forHTTPHeaderField: f.name) } else { req.addValue(f.value, forHTTPHeaderField: f.name) }
        }
        if let body {
            req.httpBody = body
            if headers["Content-Type"] == nil { req.setValue("application/json", forHTTPHeaderField: "Content-Type") }
        }
        let box = ResultBox()
        let sem = DispatchSemaphore(value: 0)
        let task = session.dataTask(with: req) { data, response, error in
            if let error { box.result = .failure(TransportError(underlying: error)) }
            else if let http = response as? HTTPURLResponse {
                var h = HTTPHeaders()
                for (k, v) in http.allHeaderFields { h.add("\(k)", "\(v)") }
                box.result = .success(HTTPResponse(status: http.statusCode, headers: h, body: data ?? Data()))
            } else { box.result = .failure(TransportError(underlying: URLError(.badServerResponse))) }
            sem.signal()
        }
        task.resume()
        sem.wait()
        return try box.result!.get()
    }

    /// Sends a JSON body.
    public func send(method: String, path: String, query: String? = nil, headers: HTTPHeaders = [:], json: JSONValue, as actor: String? = nil) throws -> HTTPResponse {
        try send(method: method, path: path, query: query, headers: headers, body: json.data(), as: actor)
    }

    /// Percent-encodes the characters a query string may not carry raw (spaces, quotes, …)
    /// while keeping PostgREST's syntax (`=`, `&`, `,`, `.`, `(`, `)`, `*`, `:`) readable.
    public static func encodeQuery(_ q: String) -> String {
        var allowed = CharacterSet.urlQueryAllowed
        allowed.remove(charactersIn: "+\"#")
        return q.addingPercentEncoding(withAllowedCharacters: allowed) ?? q
    }

    private final class ResultBox: @unchecked Sendable { var result: Result<HTTPResponse, Error>? }
}
