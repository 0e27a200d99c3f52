import Foundation
import ContractKit

/// NaarsCars: its contracts folder and the server-side pieces it plugs into the mock.
public enum NaarsCarsApp: AppModule {
    public static let name = "naarscars"
    public static let title = "NaarsCars"

    /// Registers the app's triggers (FR-013 and the request lifecycle), database functions
    /// (FR-014), the leaderboard_stats view (FR-015) and edge functions (FR-019), with a fresh
    /// deterministic fake APNs.
    public static func register(on backend: MockSupabase) {
        register(on: backend, apns: FakeAPNs())
    }

    /// Registers everything, sending pushes through `apns` (inspect a `FakeAPNs` in tests).
    /// A contracts file that cannot be read is a programming error of the package: it stops here
    /// with the file and JSON path (the gate loads the same files strictly).
    public static func register(on backend: MockSupabase, apns: any APNsClient) {
        let contracts: NaarsCarsContracts
        do { contracts = try NaarsCarsContracts.load(folder: backend.configuration.spec.folder) } catch {
            preconditionFailure("Contracts/naarscars: \(error)")
        }
        let server = NaarsCarsServer(contracts: contracts, schema: backend.configuration.spec.schema, apns: apns)
        server.registerTriggers(on: backend)
        server.registerFunctions(on: backend)
        server.registerViews(on: backend)
        server.registerEdgeFunctions(on: backend)
    }

    /// A backend with the app's contracts, fixtures and server pieces, sending pushes through `apns`.
    public static func makeBackend(clock: Clock = SystemClock(), ids: IDGenerator = SystemIDGenerator(), apns: any APNsClient) throws -> MockSupabase {
        let backend = try MockSupabase(contracts: ContractsLocator.app(name), clock: clock, ids: ids)
        register(on: backend, apns: apns)
        return backend
    }
}
