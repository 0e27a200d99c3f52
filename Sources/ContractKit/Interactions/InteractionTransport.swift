import Foundation

/// How the replay engine reaches a backend: sends one step's request (`WireRequest`, its actor a
/// persona name, `anon`, `service_role` or `none`) and returns the response.
/// `InteractionEndpoint` is the implementation over any `WireSender`; tests script their own.
package protocol InteractionTransport {
    /// The personas actors and `{{persona.…}}` templates refer to.
    var personas: [Persona] { get }
    /// Sends a request; the actor's `apikey` and `Authorization` are added unless the request
    /// names them.
    func send(_ request: WireRequest) throws -> HTTPResponse
    /// Reads the one-time code GoTrue last emailed to an address (`{{otp.EMAIL}}`); nil when the
    /// transport cannot read the backend's mail (the default).
    var mailbox: (@Sendable (_ email: String) -> String?)? { get }
    /// Reads the token of the link GoTrue last e-mailed to an address (`{{emailToken.EMAIL}}`,
    /// `pkce_`-prefixed in the PKCE flow); nil when the transport cannot read the backend's mail.
    var emailTokens: (@Sendable (_ email: String) -> String?)? { get }
}

/// An actor the transport does not know.
package struct UnknownActorError: Error, CustomStringConvertible, Sendable {
    /// The name.
    package var actor: String
    package var known: [String]
    package var description: String { "unknown actor '\(actor)' (known: \(known.joined(separator: ", ")))" }
}

extension InteractionTransport {
    package var mailbox: (@Sendable (_ email: String) -> String?)? { nil }
    /// No mailbox.
    package var emailTokens: (@Sendable (_ email: String) -> String?)? { nil }

    /// Fails for an actor that is neither a persona nor `anon`, `service_role`, `none`.
    func checkActor(_ actor: WireActor) throws {
        guard case .persona(let name) = actor, !personas.contains(where: { $0.name == name }) else { return }
        throw UnknownActorError(actor: name, known: ["anon", "service_role", "none"] + personas.map(\.name))
    }
}

/// Interactions over a `WireSender` (the mock's URLProtocol or `handle`, a loopback server, a
/// live URL), with the personas of the contracts and, where the backend has one, its outbox.
package struct InteractionEndpoint: InteractionTransport {
    /// Where requests go.
    package let sender: any WireSender
    package let personas: [Persona]
    package let mailbox: (@Sendable (_ email: String) -> String?)?
    package let emailTokens: (@Sendable (_ email: String) -> String?)?

    /// An endpoint from its parts.
    package init(
        sender: any WireSender, personas: [Persona], mailbox: (@Sendable (_ email: String) -> String?)? = nil,
        emailTokens: (@Sendable (_ email: String) -> String?)? = nil
    ) {
        self.sender = sender
        self.personas = personas
        self.mailbox = mailbox
        self.emailTokens = emailTokens
    }

    package func send(_ request: WireRequest) throws -> HTTPResponse {
        try checkActor(request.actor)
        return try sender.send(request)
    }
}
