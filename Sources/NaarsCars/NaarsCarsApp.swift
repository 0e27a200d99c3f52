import Foundation
import ContractKit

/// NaarsCars: its contracts folder and the server-side pieces it plugs into the mock.
public enum NaarsCarsApp: AppModule {
    public static let name = "naarscars"
    public static let title = "Naar's Cars"

    /// Registers the app's edge functions, database functions, triggers and views.
    public static func register(on backend: MockSupabase) {}
}
