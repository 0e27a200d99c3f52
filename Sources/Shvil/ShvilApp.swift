import Foundation
import ContractKit

/// Shvil: its contracts folder and the server-side pieces it plugs into the mock.
public enum ShvilApp: AppModule {
    public static let name = "shvil"
    public static let title = "Shvil"

    /// Registers the app's edge functions, database functions, triggers and views.
    public static func register(on backend: MockSupabase) {}
}
