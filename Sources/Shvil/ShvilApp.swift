import Foundation
import ContractKit

/// Shvil: its contracts folder and the server-side pieces it plugs into the mock.
public enum ShvilApp: AppModule {
    public static let name = "shvil"
    public static let title = "Shvil"

    /// Registers the app's database function and triggers. A broken rules file stops here with
    /// its file and path.
    public static func register(on backend: MockSupabase) {
        do { try install(on: backend, rules: ShvilRules.load()) } catch {
            preconditionFailure("\(error)")
        }
    }

    /// Registers everything with explicit rules.
    public static func install(on backend: MockSupabase, rules: ShvilRules) throws {
        backend.registerTrigger("on_auth_user_created", on: "auth.users", timing: .after, events: [.insert], handler: ShvilServer.handleNewUser())
        backend.registerTrigger("users_set_updated_at", on: "users", timing: .before, events: [.update], handler: ShvilServer.setUpdatedAt())
        guard let stops = backend.configuration.spec.schema.table("adventure_stops") else {
            throw SpecError(file: "Contracts/shvil/schema.json", path: "$.tables", message: "missing table 'adventure_stops'")
        }
        backend.registerRPC(ShvilServer.reorderFunction(rules, stopColumns: stops.columns))
    }
}
