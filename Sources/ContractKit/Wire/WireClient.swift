import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Sends requests to a mock backend **over the wire**: through a real `URLSession` and the
/// `MockURLProtocol` transport (`URLSessionSender(backend:)`), exactly as a client app's
/// networking stack would.
package final class WireClient: @unchecked Sendable {
    package let backend: any BackendUnderTest
    package let sender: URLSessionSender
    package var session: URLSession { sender.session }

    package init(_ backend: any BackendUnderTest) {
        self.backend = backend
        sender = URLSessionSender(backend: backend)
    }

    /// Errors of the transport itself (an injected network fault, a timeout).
    package struct TransportError: Error, CustomStringConvertible {
        package var underlying: Error
        package var description: String { "transport error: \(underlying)" }
    }

    /// The actor of a name (`WireActor(name:)`, nil: none). A name that is no persona of the
    /// fixtures sends the anon key alone, as a client before sign-in.
    func actor(_ name: String?, _ headers: inout HTTPHeaders) -> WireActor {
        guard let name else { return .none }
        let actor = WireActor(name: name)
        if case .persona(let p) = actor, backend.served.spec.fixtures.persona(p) == nil {
            if headers["apikey"] == nil { headers["apikey"] = backend.anonKey }
            return .none
        }
        return actor
    }

    /// Sends one request and waits for the answer.
    /// - Parameters:
    ///   - path: e.g. `/rest/v1/cities`; `query` is sent as written (`WireRequest.Query.written`).
    ///   - as: the actor whose credentials are added (`WireActor(name:)`; nil for none).
    package func send(method: String, path: String, query: String? = nil, headers: HTTPHeaders = [:], body: Data? = nil, as actor: String? = nil) throws
        -> HTTPResponse
    {
        var h = headers
        if body != nil, h["Content-Type"] == nil { h["Content-Type"] = "application/json" }
        let who = self.actor(actor, &h)
        do {
            return try sender.send(WireRequest(method: method, path: path, query: .written(query ?? ""), headers: h, body: body ?? Data(), actor: who))
        } catch let e as WireSendError { throw TransportError(underlying: e.underlying) }
    }

    package func send(method: String, path: String, query: String? = nil, headers: HTTPHeaders = [:], json: JSONValue, as actor: String? = nil) throws
        -> HTTPResponse
    {
        try send(method: method, path: path, query: query, headers: headers, body: json.data(), as: actor)
    }
}
