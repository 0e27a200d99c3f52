import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Something RLS cases run against: the mock over the wire, the mock's database engine, a real
/// PostgreSQL with the app's migrations.
///
/// The contract is small on purpose: a case in, what happened out.
/// - Start from the fixture state (fixtures.json loaded, triggers off while loading).
/// - Run `rlsCase.setup` as the service role, then `rlsCase.operation` as `rlsCase.actor`
///   (anon key; a persona's JWT with `sub`, `email`, `role = authenticated`; the service-role
///   key). `RLSCase.request` is the PostgREST rendering; a SQL target runs the equivalent
///   statement under the actor's role and `request.jwt.claims`.
/// - Report the outcome as PostgREST shows it: status, rows returned (a JSON array body, or the
///   rows of RETURNING), and for an error its SQLSTATE and message. A SQL target maps SQLSTATE to
///   the status with PostgREST's table (`PostgRESTStatusTable`).
/// - Leave the state as found (roll back, or reset), so cases are independent and can run in
///   any order.
package protocol RLSTarget {
    /// Runs one case from the fixture state and returns what was observed. Throws only when the
    /// target itself fails (transport down, setup statement refused), not for a refused case.
    func execute(_ rlsCase: RLSCase) throws -> RLSOutcome
    /// Runs cases in order, each as `execute` would, its outcome (or the target's failure) at its
    /// index. A target may send them together (`PostgresTarget` pipelines them through its psql
    /// session); each case is still run and judged on its own.
    func executeAll(_ cases: [RLSCase]) -> [Result<RLSOutcome, any Error>]
}

extension RLSTarget {
    /// One `execute` after another.
    package func executeAll(_ cases: [RLSCase]) -> [Result<RLSOutcome, any Error>] {
        cases.map { c in Result { try execute(c) } }
    }
}

/// A target whose policies can be replaced: the flip test installs a matrix with one cell
/// flipped and checks that some case notices.
package protocol RLSPolicyInstalling: RLSTarget {
    /// Enforces `policies` from now on (until the next install).
    func install(_ policies: PolicySet) throws
}

/// A target failure (not a case failure): a setup step refused, a transport error.
package struct RLSTargetError: Error, CustomStringConvertible, Sendable {
    /// What went wrong.
    package var message: String
    package init(_ message: String) { self.message = message }
    /// `RLS target: <message>`.
    package var description: String { "RLS target: \(message)" }
}

/// The mock backend over its wire protocol: every case becomes the HTTP request a Supabase
/// client sends (`apikey` + `Authorization: Bearer <JWT>`, PostgREST path, query, `Prefer`,
/// JSON body) and the outcome is read back from the HTTP response.
///
/// Two transports, one line apart (`MockTarget(backend: b, transport: .inProcess)`):
/// - `.urlSession` (default): a real `URLSession` through the `MockURLProtocol` transport, as a
///   client app's networking stack sends it. The handler runs on the session's thread, so a case
///   cannot be rolled back; instead the backend is reset (`backend.reset()`) right after a case
///   that may have changed the data (a write that succeeded, or a setup step). Reads and refused
///   writes need no reset.
/// - `.inProcess`: `backend.handle`, the entry point the URLProtocol calls, on the calling
///   thread. Each case (setup and statement) runs inside one `Database.atomically` block that is
///   then undone: about a tenth of a millisecond instead of a reset.
package final class MockTarget: RLSPolicyInstalling, @unchecked Sendable {
    /// How requests reach the backend.
    package enum Transport: Sendable {
        /// `URLSession` → `MockURLProtocol` → backend; isolation by reset after a change.
        case urlSession
        /// `backend.handle` on the calling thread; isolation by rollback.
        case inProcess
    }

    package let backend: any BackendUnderTest
    package let transport: Transport
    /// Where requests go (`URLSessionSender` or `InProcessSender`), signing with the backend's
    /// keys and each persona's token, signed once.
    package let sender: any WireSender
    private let lock = NSLock()
    private var dirty = false
    /// How many times the backend was reset between cases (for reports and benchmarks).
    package private(set) var resets = 0

    package init(backend: any BackendUnderTest, transport: Transport = .urlSession) {
        self.backend = backend
        self.transport = transport
        let credentials = TokenMemo(BackendKeys(backend))
        sender =
            transport == .urlSession
            ? URLSessionSender(backend: backend, credentials: credentials)
            : InProcessSender(backend: backend, credentials: credentials)
    }

    /// Sends one request over the chosen transport.
    package func send(_ request: WireRequest) throws -> HTTPResponse {
        do { return try sender.send(request) } catch let e as WireSendError {
            throw RLSTargetError("transport: \(e.underlying)")
        } catch let e as MissingTokenError {
            throw RLSTargetError("no persona '\(e.persona)' in the backend's fixtures")
        }
    }

    private func runCase(_ rlsCase: RLSCase, _ setup: [WireRequest], _ main: WireRequest) throws -> RLSOutcome {
        for (step, request) in zip(rlsCase.setup, setup) {
            let r = try send(request)
            if step.insertRow != nil {
                // A witness row the app's own code refuses: that refusal is the case's outcome.
                if r.status != 201 { return RLSOutcome(response: r) }
                continue
            }
            guard (200..<300).contains(r.status), let rows = r.jsonBody?.arrayValue, rows.count == 1 else {
                throw RLSTargetError("setup of '\(rlsCase.name)': \(request.method) \(step.table) as service_role gave \(r.status) \(r.text)")
            }
        }
        return RLSOutcome(response: try send(main))
    }

    /// Sends the case's setup steps as the service role, then its request as its actor, and
    /// leaves the backend with its fixtures.
    package func execute(_ rlsCase: RLSCase) throws -> RLSOutcome {
        let main = RLSCase.wireRequest(for: rlsCase.operation, table: rlsCase.table, as: rlsCase.actor.wire)
        let setup = rlsCase.setup.map { RLSCase.wireRequest(for: $0.operation, table: $0.table, as: .serviceRole) }
        switch transport {
        case .inProcess:
            var outcome: Result<RLSOutcome, any Error>?
            try backend.served.undoing { outcome = Result { try runCase(rlsCase, setup, main) } }
            return try outcome!.get()
        case .urlSession:
            lock.lock(); defer { lock.unlock() }
            if dirty { try settle() }
            // Reset right after a case that may have changed the data, so the backend is left
            // with its fixtures whatever runs next.
            dirty = !setup.isEmpty
            defer { if dirty { try? settle() } }
            let outcome = try runCase(rlsCase, setup, main)
            if rlsCase.operation.command != .select && (200..<300).contains(outcome.status) && outcome.rows?.isEmpty != true { dirty = true }
            return outcome
        }
    }

    private func settle() throws {
        try backend.reset()
        resets += 1
        dirty = false
    }

    /// Installs a matrix in the backend's database.
    package func install(_ policies: PolicySet) throws { backend.served.installPolicies(policies) }
}
