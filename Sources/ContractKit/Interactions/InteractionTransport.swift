import Foundation

/// How the replay engine reaches a backend: sends one request as an actor (persona name, `anon`,
/// `service_role`, or `none`) and returns the response.
public protocol InteractionTransport {
    /// The personas the actor names and `{{persona.…}}` templates refer to.
    var personas: [Persona] { get }
    /// Sends a request; the transport adds the actor's `apikey` and `Authorization` headers
    /// unless the request already names them.
    func send(_ request: HTTPRequest, as actor: String) throws -> HTTPResponse
}

/// An actor the transport does not know.
public struct UnknownActorError: Error, CustomStringConvertible, Sendable {
    /// The name.
    public var actor: String
    /// Known names.
    public var known: [String]
    public var description: String { "unknown actor '\(actor)' (known: \(known.joined(separator: ", ")))" }
}

/// Dispatches in process through `MockSupabase.handle`, signing the actor's tokens with the
/// backend's keys.
public struct InProcessTransport: InteractionTransport {
    /// The backend.
    public let backend: MockSupabase

    /// A transport to `backend`.
    public init(_ backend: MockSupabase) { self.backend = backend }

    public var personas: [Persona] { backend.configuration.spec.fixtures.personas }

    /// The `apikey` and bearer token of an actor (nil for `none`).
    public func credentials(_ actor: String) throws -> (apikey: String, bearer: String)? {
        switch actor {
        case "none": return nil
        case "anon": return (backend.anonKey, backend.anonKey)
        case "service_role": return (backend.serviceRoleKey, backend.serviceRoleKey)
        default:
            guard let token = backend.accessToken(persona: actor) else {
                throw UnknownActorError(actor: actor, known: ["anon", "service_role", "none"] + personas.map(\.name))
            }
            return (backend.anonKey, token)
        }
    }

    public func send(_ request: HTTPRequest, as actor: String) throws -> HTTPResponse {
        var r = request
        if let c = try credentials(actor) {
            if r.headers["apikey"] == nil { r.headers["apikey"] = c.apikey }
            if r.headers["Authorization"] == nil { r.headers["Authorization"] = "Bearer \(c.bearer)" }
        }
        return try backend.handle(r)
    }
}
