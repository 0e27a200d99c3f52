import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The one way to the wire: sends a `WireRequest` (credentials attached by the sender from its
/// `WireCredentials`) and returns the answer. Every rule kind sends through one of two
/// implementations: `URLSessionSender` (a URLSession: into a backend through its URLProtocol, to
/// a loopback HTTP server, or to a live URL) and `InProcessSender` (a backend's `handle`, on the
/// calling thread).
package protocol WireSender: Sendable {
    /// The keys and tokens the sender signs with.
    var credentials: any WireCredentials { get }
    /// Sends one request and waits for the answer; throws only when no answer arrives.
    func send(_ request: WireRequest) throws -> HTTPResponse
}

/// No answer arrived (a connection refused, an injected network fault, a timeout).
package struct WireSendError: Error, CustomStringConvertible, Sendable {
    /// `GET https://…/rest/v1/cities`.
    package var target: String
    /// What the transport reported.
    package var underlying: any Error
    package var description: String { "\(target): \(underlying)" }
}

/// Requests over a `URLSession` to a base URL: the session of a backend's URLProtocol
/// (`MockSupabase.makeURLSession(configuration: .ephemeral)`, answered in process), a loopback HTTP server
/// (`http://127.0.0.1:<port>`), or a live project.
package struct URLSessionSender: WireSender, @unchecked Sendable {
    package let session: URLSession
    /// The project URL (paths are appended to its own path).
    package let baseURL: URL
    /// The keys and tokens.
    package let credentials: any WireCredentials
    /// The per-request deadline in seconds (nil: the session's).
    package var timeout: TimeInterval? = nil

    /// The `URLRequest` of a request: path appended to the base URL's, query encoded
    /// (`WireRequest.encodedQuery`), credentials then the request's fields (a repeated field sent
    /// repeated), a JSON body's `Content-Type` left to the caller.
    package func urlRequest(_ request: WireRequest) throws -> URLRequest {
        guard var comps = URLComponents(url: baseURL, resolvingAgainstBaseURL: false) else {
            throw WireSendError(target: "\(request.method) \(baseURL)", underlying: URLError(.badURL))
        }
        let encodedPath = request.path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? request.path
        comps.percentEncodedPath = comps.percentEncodedPath + encodedPath
        if let q = request.encodedQuery { comps.percentEncodedQuery = q }
        guard let url = comps.url else { throw WireSendError(target: "\(request.method) \(request.path)", underlying: URLError(.badURL)) }
        var req = timeout.map { URLRequest(url: url, timeoutInterval: $0) } ?? URLRequest(url: url)
        req.httpMethod = request.method
        let fields = try request.fields(credentials)
        if let merged = Self.plainHeaderFields(fields) {
            if !merged.isEmpty { req.allHTTPHeaderFields = merged }
        } else {
            var seen = Set<String>()
            for f in fields {
                if seen.insert(f.name.lowercased()).inserted {
                    req.setValue(f.value, forHTTPHeaderField: f.name)
                } else {
                    req.addValue(f.value, forHTTPHeaderField: f.name)
                }
            }
        }
        if !request.body.isEmpty { req.httpBody = request.body }
        return req
    }

    /// The header dictionary `setValue(_:forHTTPHeaderField:)` for a field's first occurrence and
    /// `addValue(_:forHTTPHeaderField:)` for a repeat would leave on a `URLRequest`, built in one
    /// go; nil when a value holds a NUL, CR or LF byte (those go through Foundation one by one).
    /// On Linux each of those calls checks its value for CR/LF misuse by iterating `Character`s
    /// (swift-corelibs-foundation, NSURLRequest.swift `httpHeaderValueIsValid`), 100,000
    /// instructions for a bearer token, and rebuilds the request's dictionary; a value without
    /// those bytes always passes the check. As there, each name is stored `capitalized`, a repeat
    /// (names compared lower-cased, `existingHeaderField`) joined with ",".
    package static func plainHeaderFields(_ fields: HTTPHeaders) -> [String: String]? {
        var merged: [String: String] = [:]
        var seen = Set<String>()
        for f in fields {
            if f.value.utf8.contains(where: { $0 == 0 || $0 == 10 || $0 == 13 }) { return nil }
            let key = f.name.capitalized
            let existing = merged.first { $0.key.lowercased() == key.lowercased() }
            if seen.insert(f.name.lowercased()).inserted {
                if let existing { merged.removeValue(forKey: existing.key) }
                merged[key] = f.value
            } else if let existing {
                merged[existing.key] = existing.value + "," + f.value
            } else {
                merged[key] = f.value
            }
        }
        return merged
    }

    /// Sends and waits.
    package func send(_ request: WireRequest) throws -> HTTPResponse {
        let req = try urlRequest(request)
        final class Box: @unchecked Sendable { var result: Result<HTTPResponse, any Error>? }
        let box = Box()
        let done = DispatchSemaphore(value: 0)
        session.dataTask(with: req) { data, response, error in
            box.result = URLSessionSender.result(req, data, response, error)
            done.signal()
        }.resume()
        done.wait()
        return try box.result!.get()
    }

    /// Sends without blocking a thread.
    package func send(_ request: WireRequest) async throws -> HTTPResponse {
        let req = try urlRequest(request)
        let session = self.session
        return try await withCheckedThrowingContinuation { (k: CheckedContinuation<HTTPResponse, any Error>) in
            session.dataTask(with: req) { data, response, error in
                k.resume(with: URLSessionSender.result(req, data, response, error))
            }.resume()
        }
    }

    static func result(_ req: URLRequest, _ data: Data?, _ response: URLResponse?, _ error: (any Error)?) -> Result<HTTPResponse, any Error> {
        let target = "\(req.httpMethod ?? "GET") \(req.url?.absoluteString ?? "")"
        if let error { return .failure(WireSendError(target: target, underlying: error)) }
        guard let http = response as? HTTPURLResponse else { return .failure(WireSendError(target: target, underlying: URLError(.badServerResponse))) }
        var h = HTTPHeaders()
        for (k, v) in http.allHeaderFields { h.add("\(k)", "\(v)") }
        return .success(HTTPResponse(status: http.statusCode, headers: h, body: data ?? Data()))
    }
}

/// Requests handed to a backend's entry point on the calling thread (what its URLProtocol and
/// HTTP server call), credentials attached as the wire senders attach them.
package struct InProcessSender: WireSender {
    /// The keys and tokens.
    package let credentials: any WireCredentials
    /// The backend's entry point.
    package let handle: @Sendable (HTTPRequest) throws -> HTTPResponse

    /// A sender to `handle`.
    package init(credentials: any WireCredentials, handle: @escaping @Sendable (HTTPRequest) throws -> HTTPResponse) {
        self.credentials = credentials
        self.handle = handle
    }

    package func send(_ request: WireRequest) throws -> HTTPResponse {
        try handle(try request.httpRequest(credentials))
    }
}
