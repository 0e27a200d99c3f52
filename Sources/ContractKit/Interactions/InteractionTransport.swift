import Foundation

/// How the replay engine reaches a backend: sends one request as an actor (persona name, `anon`,
/// `service_role`, or `none`) and returns the response. The shape is `WireClient.send`'s.
public protocol InteractionTransport {
    /// The personas actors and `{{persona.…}}` templates refer to.
    var personas: [Persona] { get }
    /// Sends a request; the actor's `apikey` and `Authorization` headers are added unless
    /// `headers` names them. `query` is the query string without `?`.
    func send(method: String, path: String, query: String?, headers: HTTPHeaders, body: Data?, as actor: String) throws -> HTTPResponse
    /// Reads the one-time code GoTrue last emailed to an address (`{{otp.EMAIL}}`); nil when the
    /// transport cannot read the backend's mail (the default).
    var mailbox: (@Sendable (_ email: String) -> String?)? { get }
    /// Reads the token of the link GoTrue last e-mailed to an address (`{{emailToken.EMAIL}}`,
    /// `pkce_`-prefixed in the PKCE flow); nil when the transport cannot read the backend's mail.
    var emailTokens: (@Sendable (_ email: String) -> String?)? { get }
}

/// An actor the transport does not know.
public struct UnknownActorError: Error, CustomStringConvertible, Sendable {
    /// The name.
    public var actor: String
    /// Known names.
    public var known: [String]
    public var description: String { "unknown actor '\(actor)' (known: \(known.joined(separator: ", ")))" }
}

extension InteractionTransport {
    /// No mailbox.
    public var mailbox: (@Sendable (_ email: String) -> String?)? { nil }
    /// No mailbox.
    public var emailTokens: (@Sendable (_ email: String) -> String?)? { nil }

    /// Fails for an actor that is neither a persona nor `anon`, `service_role`, `none`.
    func checkActor(_ actor: String) throws {
        if ["anon", "service_role", "none"].contains(actor) || personas.contains(where: { $0.name == actor }) { return }
        throw UnknownActorError(actor: actor, known: ["anon", "service_role", "none"] + personas.map(\.name))
    }
}

/// Sends over the wire: a real `URLSession` through the mock's URLProtocol transport
/// (`WireClient`), as a client app's networking stack would.
public struct WireTransport: InteractionTransport {
    /// The client.
    public let client: WireClient

    /// A transport to `backend`.
    public init(_ backend: MockSupabase) { client = WireClient(backend) }

    public var personas: [Persona] { client.backend.configuration.spec.fixtures.personas }

    /// The mock's outbox (`MockSupabase.lastOTP(for:)`).
    public var mailbox: (@Sendable (_ email: String) -> String?)? { { [backend = client.backend] in backend.lastOTP(for: $0) } }
    /// The mock's outbox (`MockSupabase.lastEmail(to:)`).
    public var emailTokens: (@Sendable (_ email: String) -> String?)? { { [backend = client.backend] in backend.lastEmail(to: $0)?.tokenHash } }

    public func send(method: String, path: String, query: String?, headers: HTTPHeaders, body: Data?, as actor: String) throws -> HTTPResponse {
        try checkActor(actor)
        return try client.send(method: method, path: path, query: query, headers: headers, body: body, as: actor == "none" ? nil : actor)
    }
}

/// Dispatches in process through `MockSupabase.handle` (`InProcessSender`), with the actor's
/// credentials signed by the backend's keys (no URLSession; for debugging the engine itself).
public struct InProcessTransport: InteractionTransport {
    /// The backend.
    public let backend: MockSupabase

    /// A transport to `backend`.
    public init(_ backend: MockSupabase) { self.backend = backend }

    public var personas: [Persona] { backend.configuration.spec.fixtures.personas }

    /// The mock's outbox (`MockSupabase.lastOTP(for:)`).
    public var mailbox: (@Sendable (_ email: String) -> String?)? { { [backend] in backend.lastOTP(for: $0) } }
    /// The mock's outbox (`MockSupabase.lastEmail(to:)`).
    public var emailTokens: (@Sendable (_ email: String) -> String?)? { { [backend] in backend.lastEmail(to: $0)?.tokenHash } }

    public func send(method: String, path: String, query: String?, headers: HTTPHeaders, body: Data?, as actor: String) throws -> HTTPResponse {
        try checkActor(actor)
        var h = headers
        if body != nil, h["Content-Type"] == nil { h["Content-Type"] = "application/json" }
        return try InProcessSender(backend: backend).send(WireRequest(method: method, path: path, query: .written(query ?? ""), headers: h,
                                                                      body: body ?? Data(), actor: WireActor(name: actor)))
    }
}
