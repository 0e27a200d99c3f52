import Foundation
import MockSupabase
import MockBinding

/// Contracts/shvil/rules.json: the stop-reordering function's errors.
package struct ShvilRules: Sendable, Equatable {
    package var reorderFunction: String
    /// Error when the adventure does not exist or is not the caller's.
    package var notFound: PostgresError
    /// Error when the ids are not exactly the adventure's stops.
    package var notPermutation: PostgresError

    /// Loads rules.json.
    package static func load(folder: URL = ContractsLocator.app(ShvilApp.name)) throws -> ShvilRules {
        try LoadedSpecs.value("shvil-rules", folder: folder) { try decode(folder: folder) }
    }

    /// Decodes rules.json (`load`, once per folder while `LoadedSpecs` are bound: every
    /// backend's registration reads it).
    private static func decode(folder: URL) throws -> ShvilRules {
        let file = try SpecNode.decode(RulesFile.self, from: folder.appendingPathComponent("rules.json"), displayName: "Contracts/shvil/rules.json")
        let r = file.reorder
        return ShvilRules(reorderFunction: r.function, notFound: r.errors.notFound.error, notPermutation: r.errors.notPermutation.error)
    }

    /// rules.json as written.
    private struct RulesFile: Decodable {
        struct ErrorSpec: Decodable {
            var code: String, message: String
            var error: PostgresError { PostgresError(code, message) }
        }
        struct Errors: Decodable { var notFound: ErrorSpec, notPermutation: ErrorSpec }
        struct Reorder: Decodable { var decision: String?, function: String, errors: Errors }
        var reorder: Reorder
        enum CodingKeys: String, CodingKey, CaseIterable { case app, source, reorder }
        init(from decoder: Decoder) throws { reorder = try decoder.container(keyedBy: CodingKeys.self).decode(Reorder.self, forKey: .reorder) }
    }
}

/// Shvil's server-side pieces for the mock, mirroring the SQL migration.
package enum ShvilServer {
    /// `on_auth_user_created` (AFTER INSERT on auth.users, SECURITY DEFINER): the public.users
    /// row, display name from the sign-up metadata.
    package static func handleNewUser() -> TriggerHandler {
        { ctx in
            guard let new = ctx.new, let id = new["id"] else { return }
            let name = new["raw_user_meta_data"]?["display_name"] ?? .null
            _ = try ctx.database.insert(
                into: "users", rows: [["id": id, "email": new["email"] ?? .null, "display_name": name]],
                as: .serviceRole, resolution: .ignore)
        }
    }

    /// `users_set_updated_at` (BEFORE UPDATE on users). The synced tables keep the writer's
    /// updated_at (the last-write-wins key) and have no such trigger.
    package static func setUpdatedAt() -> TriggerHandler {
        { ctx in ctx.new?["updated_at"] = .string(PGTime.timestamptz(ctx.now)) }
    }

    /// `<table>_clamp_updated_at` (BEFORE INSERT OR UPDATE on adventures and adventure_stops):
    /// an updated_at later than the server's clock becomes now() (sync.json futureTimestamps).
    package static func clampUpdatedAt() -> TriggerHandler {
        { ctx in
            guard let s = ctx.new?["updated_at"]?.stringValue, let t = PGTime.parseTimestamp(s, assumeUTC: true) else { return }
            let now = PGTime.micros(ctx.now)
            if t > now { ctx.new?["updated_at"] = .string(PGTime.formatTimestamp(now, withZone: true)) }
        }
    }

    /// `reorder_adventure_stops(p_adventure_id uuid, p_stop_ids uuid[]) returns setof adventure_stops`.
    package static func reorderFunction(_ rules: ShvilRules, stopColumns: [ColumnSchema]) -> RPCFunction {
        RPCFunction(
            name: rules.reorderFunction, parameters: [RPCParameter("p_adventure_id", .uuid), RPCParameter("p_stop_ids", .array(.uuid))],
            returns: .rows(stopColumns), volatile: true
        ) { call in
            let ids = call.arguments["p_stop_ids"]?.arrayValue?.compactMap(\.stringValue) ?? []
            return .array(
                try reorder(
                    adventureID: call.arguments["p_adventure_id"]?.stringValue ?? "", stopIDs: ids,
                    auth: call.auth, database: call.database, rules: rules
                ).map(JSONValue.object))
        }
    }

    /// Gives the listed stops positions 0..n-1 in list order, atomically; returns them in order.
    package static func reorder(adventureID: String, stopIDs: [String], auth: AuthContext, database db: Database, rules: ShvilRules) throws -> [[String:
        JSONValue]]
    {
        guard auth.role == "authenticated", auth.userID != nil else {
            throw PostgresError("42501", "permission denied for function \(rules.reorderFunction)")
        }
        return try db.atomically {
            guard try !db.rows("adventures", as: auth, where: .eq("id", adventureID)).isEmpty else { throw rules.notFound }
            let stops = try db.rows("adventure_stops", as: .serviceRole, where: .eq("adventure_id", adventureID))
            let current = Set(stops.compactMap { $0["id"]?.stringValue })
            guard stopIDs.count == current.count, Set(stopIDs) == current else { throw rules.notPermutation }
            let top = stops.compactMap { $0["order_index"]?.intValue }.max() ?? -1
            for (i, id) in stopIDs.enumerated() {
                try db.update("adventure_stops", set: ["order_index": .int(top + 1 + Int64(i))], where: .eq("id", id), as: .serviceRole)
            }
            let now = JSONValue.string(PGTime.timestamptz(db.clock.now()))
            for (i, id) in stopIDs.enumerated() {
                try db.update("adventure_stops", set: ["order_index": .int(Int64(i)), "updated_at": now], where: .eq("id", id), as: .serviceRole)
            }
            return try db.rows("adventure_stops", as: .serviceRole, where: .eq("adventure_id", adventureID), order: [OrderTerm(column: "order_index")])
        }
    }
}
