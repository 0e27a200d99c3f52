import Foundation

/// Documented interactions over a live backend: each step's actor is the anon key, the
/// service-role key or a persona signed in by `LiveBackend`. The e-mails GoTrue sent are read
/// from the backend's `GET /__admin/inbox` when it has one (`contracts serve`); otherwise steps
/// that need them cannot run there.
package struct LiveTransport: InteractionTransport {
    package let backend: LiveBackend
    /// Whether `GET /__admin/inbox` answers.
    package let hasInbox: Bool

    /// A transport; probes the inbox once.
    package init(_ backend: LiveBackend) {
        self.backend = backend
        let probe = try? backend.endpoint.send(HTTPRequest(method: "GET", path: "/__admin/inbox", query: [("email", "probe@example.com")]), as: "service_role")
        hasInbox = probe?.status == 200
    }

    package var personas: [Persona] { backend.spec.fixtures.personas }

    /// The newest e-mail sent to an address, from the backend's inbox.
    static func newest(_ endpoint: LiveEndpoint, _ email: String) -> JSONValue? {
        let r = try? endpoint.send(HTTPRequest(method: "GET", path: "/__admin/inbox", query: [("email", email)]), as: "service_role")
        return r?.jsonBody?.arrayValue?.first
    }

    package var mailbox: (@Sendable (_ email: String) -> String?)? {
        guard hasInbox else { return nil }
        let endpoint = backend.endpoint
        return { @Sendable email in LiveTransport.newest(endpoint, email)?["otp"]?.stringValue }
    }

    package var emailTokens: (@Sendable (_ email: String) -> String?)? {
        guard hasInbox else { return nil }
        let endpoint = backend.endpoint
        return { @Sendable email in LiveTransport.newest(endpoint, email)?["token_hash"]?.stringValue }
    }

    package func send(_ request: WireRequest) throws -> HTTPResponse {
        try checkActor(request.actor)
        return try backend.endpoint.send(request)
    }
}

/// RLS cases over a live backend: the PostgREST request of each case (`RLSCase.request`, as
/// `MockTarget` sends it) as its actor, setup steps as the service role, and the backend put back
/// (`LiveBackend.restore`) after a case that may have changed it.
package final class LiveRLSTarget: RLSTarget, @unchecked Sendable {
    package let backend: LiveBackend

    package init(_ backend: LiveBackend) { self.backend = backend }

    func request(_ op: RLSOperation, table: String) -> HTTPRequest {
        let r = RLSCase.request(for: op, table: table)
        var h = HTTPHeaders()
        for (n, v) in r.headers { h.add(n, v) }
        return HTTPRequest(method: r.method, path: r.path, query: r.query, headers: h, body: r.body.map { $0.data() } ?? Data())
    }

    package func execute(_ rlsCase: RLSCase) throws -> RLSOutcome {
        var dirty = !rlsCase.setup.isEmpty
        defer { if dirty { try? backend.restore() } }
        for step in rlsCase.setup {
            let r = try backend.endpoint.send(request(step.operation, table: step.table), as: "service_role")
            if step.insertRow != nil {
                if r.status != 201 { return RLSOutcome(response: r) }
                continue
            }
            guard (200..<300).contains(r.status), let rows = r.jsonBody?.arrayValue, rows.count == 1 else {
                throw RLSTargetError(
                    "setup of '\(rlsCase.name)': \(step.operation.command.rawValue) \(step.table) as service_role gave \(r.status) \(r.text.prefix(200))")
            }
        }
        let outcome = RLSOutcome(response: try backend.endpoint.send(request(rlsCase.operation, table: rlsCase.table), as: rlsCase.actor.name))
        if rlsCase.operation.command != .select && (200..<300).contains(outcome.status) && outcome.rows?.isEmpty != true { dirty = true }
        return outcome
    }
}
