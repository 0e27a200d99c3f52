import Foundation
@_exported import MockBinding // a client importing the app gets its mock backend and the rule machinery

/// NaarsCars: its contracts folder and the server-side pieces it plugs into the mock.
public enum NaarsCarsApp: ContractApp, AppModule {
    /// The folder under Contracts/.
    public static let name = "naarscars"
    /// The display name.
    public static let title = "Naar's Cars"

    /// The database-function and edge-function payloads (the row models are added by name);
    /// the models code their own values, so Foundation's plain coders do.
    package static var modelRegistry: ModelRegistry {
        var r = ModelRegistry()
        func add<T: NaarsCarsPayload>(_ t: T.Type) { r.register(T.self) }
        for p in NaarsCarsModels.payloads { add(p) }
        return r
    }

    /// Registers the app's triggers (FR-013 and the request lifecycle), database functions
    /// (FR-014), the leaderboard_stats view (FR-015) and edge functions (FR-019), with a fresh
    /// deterministic fake APNs.
    public static func register(on backend: MockSupabase) {
        register(on: backend, apns: FakeAPNs())
    }

    /// Database functions and edge functions the app serves (names only; signatures and rules
    /// are in functions.json).
    package static let functionNames = [
        "get_user_stats", "get_unread_counts", "mark_messages_read", "get_or_create_request_conversation",
        "validate_invite_code", "get_leaderboard", "get_pending_reviews", "cleanup_stale_push_tokens"
    ]
    package static let edgeFunctionNames = ["send-push-notification", "cleanup-tokens", "refresh-leaderboard"]

    /// Registers everything, sending pushes through `apns` (inspect a `FakeAPNs` in tests).
    ///
    /// If a rules file cannot be read, every function and edge function answers 500 naming the
    /// file and JSON path, so the error surfaces on the first call (the gate loads the same files
    /// strictly and fails first).
    package static func register(on backend: MockSupabase, apns: any APNsClient) {
        let contracts: NaarsCarsContracts
        do { contracts = try NaarsCarsContracts.load(folder: backend.configuration.spec.folder) } catch {
            let message = "\(error)"
            for n in functionNames {
                backend.registerRPC(RPCFunction(name: n, parameters: [], returns: .void) { _ in throw PostgresError("XX000", message) })
            }
            for n in edgeFunctionNames { backend.registerFunction(n) { _ in .json(500, ["error": .string(message)]) } }
            return
        }
        let server = NaarsCarsServer(contracts: contracts, schema: backend.configuration.spec.schema, apns: apns)
        server.registerTriggers(on: backend)
        server.registerFunctions(on: backend)
        server.registerViews(on: backend)
        server.registerEdgeFunctions(on: backend)
    }

    /// A backend with the app's contracts, fixtures and server pieces, sending pushes through `apns`.
    package static func makeBackend(clock: WallClock = SystemClock(), ids: IDGenerator = SystemIDGenerator(), apns: any APNsClient) throws -> MockSupabase {
        let backend = try MockSupabase(contracts: ContractsLocator.app(name), clock: clock, ids: ids)
        register(on: backend, apns: apns)
        return backend
    }
}
