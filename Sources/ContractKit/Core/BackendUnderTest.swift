import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A backend the rule runners and the client-rule suites drive: requests in (a URLSession whose
/// requests it answers, or its entry point on the calling thread), faults injected, state reset.
/// The runners know no implementation: the mock is one (module `MockBinding` makes `MockSupabase`
/// one), and `AppModule.makeBackendUnderTest` builds an app's.
public protocol BackendUnderTest: AnyObject, Sendable {
    /// The project URL requests are sent to.
    var baseURL: URL { get }
    /// The anon key (the `apikey` of every request).
    var anonKey: String { get }
    /// The service-role key (bypasses row-level security).
    var serviceRoleKey: String { get }
    /// A signed access token of a fixture persona; nil for a name no persona has.
    func accessToken(persona: String) -> String?
    /// A session whose requests the backend answers.
    func makeURLSession(configuration: URLSessionConfiguration) -> URLSession
    /// Answers one request on the calling thread; throws `InjectedNetworkError` where an injected
    /// network fault matches.
    func handle(_ request: HTTPRequest) throws -> HTTPResponse
    /// Fails matching requests from now on (`InjectedFault`).
    func inject(_ fault: InjectedFault)
    /// Removes every injected fault.
    func clearFaults()
    /// Puts the backend back to its fixtures.
    func reset() throws
    /// What the runners read and change beside the wire.
    var served: ServedContract { get }
}

/// What the rule runners read and change in a backend beside its wire: the contracts it serves,
/// its rows as the service role, its outbox, its row-level security, and its database engine as
/// a target of its own. A backend builds it from its own parts (`MockBinding` for the mock).
public struct ServedContract: Sendable {
    /// The app's contracts the backend serves.
    package var spec: AppSpec
    /// The rows of a table as the service role reads them, all or those whose `column` equals `value`.
    package var rows: @Sendable (_ table: String, _ equal: (column: String, value: String)?) throws -> [[String: JSONValue]]
    /// Replaces the rows of a table whose `column` equals `value` with `rows` (as the service role).
    package var replaceRows: @Sendable (_ table: String, _ equal: (column: String, value: String), _ rows: [[String: JSONValue]]) throws -> Void
    /// The one-time code GoTrue last e-mailed to an address (`{{otp.EMAIL}}`).
    package var lastOTP: @Sendable (_ email: String) -> String?
    /// The token of the link GoTrue last e-mailed to an address (`{{emailToken.EMAIL}}`).
    package var lastEmailToken: @Sendable (_ email: String) -> String?
    /// Runs `body` as one statement of the backend's database and undoes every change it made.
    package var undoing: @Sendable (_ body: () throws -> Void) throws -> Void
    /// Enforces `policies` from now on (the RLS flip test installs a matrix with one cell flipped).
    package var installPolicies: @Sendable (PolicySet) -> Void
    /// The backend's database engine without its REST layer, as an RLS and differential target.
    package var engine: @Sendable () -> any EngineTargeting

    /// A description from its parts.
    package init(
        spec: AppSpec, rows: @escaping @Sendable (String, (column: String, value: String)?) throws -> [[String: JSONValue]],
        replaceRows: @escaping @Sendable (String, (column: String, value: String), [[String: JSONValue]]) throws -> Void,
        lastOTP: @escaping @Sendable (String) -> String?, lastEmailToken: @escaping @Sendable (String) -> String?,
        undoing: @escaping @Sendable (() throws -> Void) throws -> Void, installPolicies: @escaping @Sendable (PolicySet) -> Void,
        engine: @escaping @Sendable () -> any EngineTargeting
    ) {
        self.spec = spec
        self.rows = rows
        self.replaceRows = replaceRows
        self.lastOTP = lastOTP
        self.lastEmailToken = lastEmailToken
        self.undoing = undoing
        self.installPolicies = installPolicies
        self.engine = engine
    }
}

/// A backend's database engine as a target: runs RLS cases (`RLSPolicyInstalling`), the
/// matrix's and the differential's, as database calls, without the REST layer.
package protocol EngineTargeting: RLSPolicyInstalling {}

/// A backend's keys and its personas' tokens, as the wire senders sign with them.
package struct BackendKeys: WireCredentials {
    package let backend: any BackendUnderTest
    /// The keys of `backend`.
    package init(_ backend: any BackendUnderTest) { self.backend = backend }
    package var anonKey: String { backend.anonKey }
    package var serviceRoleKey: String { backend.serviceRoleKey }
    package func accessToken(persona: String) -> String? { backend.accessToken(persona: persona) }
}
