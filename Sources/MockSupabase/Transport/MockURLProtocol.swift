import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Routes `URLSession` requests to in-process mock backends by host. Sessions made with
/// `MockSupabase.makeURLSession()` answer every request here: a host with no backend gets a
/// connection error instead of reaching the network.
package final class MockURLProtocol: URLProtocol {
    /// Backends by host: the process-wide routing table URLProtocol needs (it is instantiated by
    /// Foundation, not by us), behind the backend's one lock discipline (`Guarded`).
    private static let backends = Guarded<[String: WeakBackend]>([:])
    struct WeakBackend { weak var backend: MockSupabase? }

    /// Makes `backend` answer requests to `host`.
    package static func register(_ backend: MockSupabase, host: String) {
        backends.withLock { $0[host.lowercased()] = WeakBackend(backend: backend) }
    }

    /// Stops routing `host`.
    package static func unregister(host: String) {
        backends.withLock { $0[host.lowercased()] = nil }
    }

    static func backend(for host: String) -> MockSupabase? {
        backends.withLock { $0[host.lowercased()]?.backend }
    }

    package override class func canInit(with request: URLRequest) -> Bool { true }
    package override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }

    package override func startLoading() {
        // Read the request once: on Linux every `self.request` access bridges and copies it.
        let request = self.request
        guard let url = request.url, let host = url.host, let backend = MockURLProtocol.backend(for: host) else {
            client?.urlProtocol(self, didFailWithError: URLError(.cannotFindHost))
            return
        }
        var body = request.httpBody ?? Data()
        if body.isEmpty, let stream = request.httpBodyStream {
            stream.open()
            var buf = [UInt8](repeating: 0, count: 65536)
            while stream.hasBytesAvailable {
                let n = stream.read(&buf, maxLength: buf.count)
                if n <= 0 { break }
                body.append(buf, count: n)
            }
            stream.close()
        }
        var headers = HTTPHeaders()
        for (k, v) in request.allHTTPHeaderFields ?? [:] { headers.add(k, v) }
        // The request target is everything after "scheme://authority", still percent-encoded.
        let absolute = url.absoluteString
        var target = "/"
        // Scanned as bytes: the separators are ASCII, and Foundation's `range(of:)` bridges.
        let bytes = absolute.utf8
        var schemeEnd: String.Index?
        var i = bytes.startIndex
        while i < bytes.endIndex, schemeEnd == nil {
            if bytes[i] == 0x3A, bytes[bytes.index(after: i)...].starts(with: [0x2F, 0x2F]) {
                schemeEnd = bytes.index(i, offsetBy: 3)
            }
            i = bytes.index(after: i)
        }
        if let schemeEnd {
            let afterAuthority = absolute[schemeEnd...]
            if let slash = afterAuthority.utf8.firstIndex(where: { $0 == 0x2F || $0 == 0x3F }) {
                target = afterAuthority.utf8[slash] == 0x3F ? "/" + afterAuthority[slash...] : String(afterAuthority[slash...])
            }
        }
        // A URL's fragment stays with the client, as URLSession never sends it.
        if let hash = target.utf8.firstIndex(of: 0x23) { target = String(target[..<hash]) }
        let req = HTTPRequest(method: request.httpMethod ?? "GET", target: target, headers: headers, body: body)
        do {
            let resp = try backend.handle(req)
            var fields = [String: String](minimumCapacity: resp.headers.fields.count)
            for f in resp.headers {
                if let existing = fields[f.name] { fields[f.name] = existing + ", " + f.value } else { fields[f.name] = f.value }
            }
            guard let http = HTTPURLResponse(url: url, statusCode: resp.status, httpVersion: "HTTP/1.1", headerFields: fields) else {
                client?.urlProtocol(self, didFailWithError: URLError(.badServerResponse))
                return
            }
            client?.urlProtocol(self, didReceive: http, cacheStoragePolicy: .notAllowed)
            if !resp.body.isEmpty && req.method != "HEAD" { client?.urlProtocol(self, didLoad: resp.body) }
            client?.urlProtocolDidFinishLoading(self)
        } catch {
            client?.urlProtocol(self, didFailWithError: URLError(.notConnectedToInternet))
        }
    }

    package override func stopLoading() {}
}

extension MockSupabase {
    /// The base URL this backend answers on in-process (a host unique to this instance).
    public var baseURL: URL { URL(string: "https://\(host)")! }

    /// The host name this backend is registered under.
    package var host: String {
        let h = "mock-\(ObjectIdentifier(self).hashValue & 0x7fff_ffff).supabase.test"
        let (host, isNew) = state.withLock { s -> (String, Bool) in
            if let existing = s.registeredHost { return (existing, false) }
            s.registeredHost = h
            return (h, true)
        }
        if isNew { MockURLProtocol.register(self, host: host) }
        return host
    }

    /// A `URLSession` whose every request is answered in-process by this backend (requests to
    /// other hosts fail instead of reaching the network). Hand it to any client that accepts one.
    /// The session has no URL cache: the mock never lets a response be cached
    /// (`.notAllowed`), so a cache could only be consulted, and on Linux every data task of a
    /// session with one asks it first on a background queue, which lists the cache's disk
    /// directory (swift-corelibs-foundation, URLCache.swift `getCachedResponse(for:)`,
    /// `diskContentLocators`): a thread hop and a directory read per request, for nothing.
    public func makeURLSession(configuration base: URLSessionConfiguration = .ephemeral) -> URLSession {
        _ = host
        let c = base
        c.protocolClasses = [MockURLProtocol.self]
        c.timeoutIntervalForRequest = 30
        c.urlCache = nil
        return URLSession(configuration: c)
    }
}
