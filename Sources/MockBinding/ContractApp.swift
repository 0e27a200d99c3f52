import Foundation

/// An app whose contracts ship in this package, as a client test sees it: its name and a
/// backend serving its contracts (`TeleportMeApp.makeBackend()`). What the gate needs beyond
/// that is `AppModule`.
public protocol ContractApp: Sendable {
    /// The folder name under Contracts/ (`teleportme`).
    static var name: String { get }
    /// The display name (`TeleportMe`).
    static var title: String { get }
    /// Registers the app's edge functions, database functions, triggers and views.
    static func register(on backend: MockSupabase)
}

extension ContractApp {
    /// Loads the app's contracts and returns a backend with the app's pieces registered.
    /// `folder` serves another copy of the app's contracts (`contracts serve --contracts DIR`);
    /// the app's registered pieces stay the bundled ones.
    public static func makeBackend(clock: WallClock = SystemClock(), ids: IDGenerator = SystemIDGenerator(), folder: URL? = nil) throws -> MockSupabase {
        let backend = try MockSupabase(contracts: folder ?? ContractsLocator.app(name), clock: clock, ids: ids)
        register(on: backend)
        return backend
    }
}

extension AppModule where Self: ContractApp {
    /// The mock serving the app (`makeBackend`).
    package static func makeBackendUnderTest(clock: any WallClock, ids: any IDGenerator, folder: URL?) throws -> any BackendUnderTest {
        try makeBackend(clock: clock, ids: ids, folder: folder)
    }
}
