import Foundation
@_exported import MockBinding // a client importing the app gets its mock backend and the rule machinery

/// Shvil: its contracts folder and the server-side pieces it plugs into the mock.
public enum ShvilApp: ContractApp, AppModule {
    /// The contracts folder name.
    public static let name = "shvil"
    /// The display name.
    public static let title = "Shvil"

    /// Registers the app's database function and triggers. If rules.json cannot be read, the
    /// function answers with the file, JSON path and problem (XX000), not a crash.
    public static func register(on backend: MockSupabase) {
        do { try install(on: backend, rules: ShvilRules.load(folder: backend.configuration.spec.folder)) } catch {
            let message = "\(error)"
            backend.registerRPC(
                RPCFunction(
                    name: "reorder_adventure_stops", parameters: [RPCParameter("p_adventure_id", .uuid), RPCParameter("p_stop_ids", .array(.uuid))],
                    returns: .scalar(.text), volatile: true
                ) { _ in throw PostgresError("XX000", message) })
        }
    }

    /// Registers everything with explicit rules.
    package static func install(on backend: MockSupabase, rules: ShvilRules) throws {
        backend.registerTrigger("on_auth_user_created", on: "auth.users", timing: .after, events: [.insert], handler: ShvilServer.handleNewUser())
        backend.registerTrigger("users_set_updated_at", on: "users", timing: .before, events: [.update], handler: ShvilServer.setUpdatedAt())
        for table in ["adventures", "adventure_stops"] {
            backend.registerTrigger("\(table)_clamp_updated_at", on: table, timing: .before, events: [.insert, .update], handler: ShvilServer.clampUpdatedAt())
        }
        guard let stops = backend.configuration.spec.schema.table("adventure_stops") else {
            throw SpecError(file: "Contracts/shvil/schema.json", path: "$.tables", message: "missing table 'adventure_stops'")
        }
        backend.registerRPC(ShvilServer.reorderFunction(rules, stopColumns: stops.columns))
    }
}
