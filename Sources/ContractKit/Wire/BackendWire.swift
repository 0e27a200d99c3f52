import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// A backend under test as a wire endpoint: its keys and personas' tokens are the credentials,
// its URLSession and its `handle` the two ways in.

extension URLSessionSender {
    /// Requests into `backend` through its URLSession (the mock's answers in process), as a client
    /// app's networking stack sends them.
    package init(backend: any BackendUnderTest, credentials: (any WireCredentials)? = nil, timeout: TimeInterval? = nil) {
        self.init(
            session: backend.makeURLSession(configuration: .ephemeral), baseURL: backend.baseURL, credentials: credentials ?? BackendKeys(backend),
            timeout: timeout)
    }
}

extension InProcessSender {
    /// Requests handed to `backend.handle` on the calling thread.
    package init(backend: any BackendUnderTest, credentials: (any WireCredentials)? = nil) {
        self.init(credentials: credentials ?? BackendKeys(backend), handle: { try backend.handle($0) })
    }
}

/// A backend's credentials with each persona's token signed once and kept (thousands of RLS
/// cases act as a handful of personas).
final class TokenMemo: WireCredentials, @unchecked Sendable {
    let base: any WireCredentials
    private let lock = NSLock()
    private var tokens: [String: String] = [:]

    init(_ base: any WireCredentials) { self.base = base }

    var anonKey: String { base.anonKey }
    var serviceRoleKey: String { base.serviceRoleKey }

    func accessToken(persona: String) -> String? {
        lock.lock(); defer { lock.unlock() }
        if let t = tokens[persona] { return t }
        let t = base.accessToken(persona: persona)
        if let t { tokens[persona] = t }
        return t
    }
}

extension URLSessionSender {
    /// Requests over HTTP to a server on the loopback interface (`HTTPServer(backend:)`, what
    /// `contracts serve` runs) at `port`.
    package static func loopback(port: UInt16, credentials: any WireCredentials, timeout: TimeInterval? = nil) -> URLSessionSender {
        URLSessionSender(
            session: URLSession(configuration: .ephemeral), baseURL: URL(string: "http://127.0.0.1:\(port)")!,
            credentials: credentials, timeout: timeout)
    }
}

extension InteractionEndpoint {
    /// Interactions into `backend`: over the wire (URLSession through its URLProtocol, as a client
    /// app's networking stack sends them) or, `inProcess`, through `backend.handle` (for
    /// debugging the engine itself); the mock's outbox answers `{{otp.…}}` and `{{emailToken.…}}`.
    package static func mock(_ backend: any BackendUnderTest, inProcess: Bool = false) -> InteractionEndpoint {
        InteractionEndpoint(
            sender: inProcess ? InProcessSender(backend: backend) : URLSessionSender(backend: backend),
            personas: backend.served.spec.fixtures.personas,
            mailbox: backend.served.lastOTP, emailTokens: backend.served.lastEmailToken)
    }
}
