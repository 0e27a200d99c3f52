import Foundation
import ContractKit

/// CivicForge: its contracts folder and the server-side pieces it plugs into the mock.
public enum CivicForgeApp: AppModule {
    public static let name = "civicforge"
    public static let title = "CivicForge"

    /// Registers the app's edge functions, database functions, triggers and views.
    public static func register(on backend: MockSupabase) {}
}
