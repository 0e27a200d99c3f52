import Foundation
import ContractKit

/// Aura: its contracts folder and the server-side pieces it plugs into the mock.
public enum AuraApp: AppModule {
    public static let name = "aura"
    public static let title = "Aura"

    /// Registers the app's edge functions, database functions, triggers and views.
    public static func register(on backend: MockSupabase) {}
}
