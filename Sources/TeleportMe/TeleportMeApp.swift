import Foundation
import ContractKit

/// TeleportMe: its contracts folder and the server-side pieces it plugs into the mock.
public enum TeleportMeApp: AppModule {
    public static let name = "teleportme"
    public static let title = "TeleportMe"

    /// Registers the app's edge functions, database functions, triggers and views.
    public static func register(on backend: MockSupabase) {}
}
