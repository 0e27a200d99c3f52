import Foundation
import MockSupabase

/// CivicForge's triggers, as the SQL migration defines them (same names, so same firing order).
/// Each factory takes its thresholds from `CivicForgeRules`, never from literals.
package enum CivicForgeTriggers {
    static func isClient(_ auth: AuthContext) -> Bool { auth.role == "authenticated" || auth.role == "anon" }

    static func timestamp(_ date: Date) -> JSONValue { .string(PGTime.timestamptz(date)) }

    static func one(_ db: Database, _ table: String, _ column: String, _ value: JSONValue?) throws -> [String: JSONValue]? {
        guard let v = value?.stringValue else { return nil }
        return try db.rows(table, as: .serviceRole, where: .eq(column, v)).first
    }

    /// `<table>_guard_server_columns` (BEFORE INSERT OR UPDATE): a client may not set the
    /// server-managed columns (INSERT: only their default; UPDATE: unchanged) nor change the
    /// immutable ones. Raises the rules' error (42501).
    package static func guardServerColumns(_ guarded: ServerManagedColumns, table: TableSchema, error: CivicForgeErrorSpec) -> TriggerHandler {
        var defaults: [String: JSONValue] = [:]
        for c in guarded.columns {
            if let col = table.columns.first(where: { $0.name == c }), case .value(let v)? = col.defaultValue,
                let sql = try? SQLValue.coerce(json: v, to: col.type)
            {
                defaults[c] = sql.json(as: col.type)
            }
        }
        return { ctx in
            guard isClient(ctx.auth), let new = ctx.new else { return }
            if ctx.event == .insert {
                for c in guarded.columns where (new[c] ?? .null) != (defaults[c] ?? .null) {
                    throw error.error(["column": c, "table": guarded.table])
                }
            } else if let old = ctx.old {
                for c in guarded.columns + guarded.immutable where (new[c] ?? .null) != (old[c] ?? .null) {
                    throw error.error(["column": c, "table": guarded.table])
                }
            }
        }
    }

    /// `<table>_set_updated_at` (BEFORE UPDATE): `updated_at = now()`.
    package static func setUpdatedAt() -> TriggerHandler {
        { ctx in ctx.new?["updated_at"] = timestamp(ctx.now) }
    }

    /// `profiles_create_companions` (AFTER INSERT on profiles): the profile's reputation and
    /// notification_preferences rows, with their defaults.
    package static func createCompanions() -> TriggerHandler {
        { ctx in
            guard let id = ctx.new?["id"] else { return }
            for table in ["reputation", "notification_preferences"] {
                _ = try ctx.database.insert(into: table, rows: [["user_id": id]], as: .serviceRole, resolution: .ignore)
            }
        }
    }

    /// `posts_fill_neighborhood` (BEFORE INSERT on posts): a post without neighborhood_id
    /// gets its author's.
    package static func fillPostNeighborhood() -> TriggerHandler {
        { ctx in
            guard var new = ctx.new, (new["neighborhood_id"] ?? .null).isNull else { return }
            if let author = try one(ctx.database, "profiles", "id", new["author_id"]) {
                new["neighborhood_id"] = author["neighborhood_id"] ?? .null
                ctx.new = new
            }
        }
    }

    /// `post_flags_auto_hide` (AFTER INSERT on post_flags, SECURITY DEFINER): the post's
    /// flag_count becomes its number of flags; at `flagThresholdHide` it is hidden and queued for
    /// review.
    package static func autoHide(_ rules: CivicForgeRules) -> TriggerHandler {
        { ctx in
            guard let postID = ctx.new?["post_id"]?.stringValue else { return }
            let count = try ctx.database.rows("post_flags", as: .serviceRole, where: .eq("post_id", postID)).count
            guard let post = try one(ctx.database, "posts", "id", .string(postID)) else { return }
            var set: [String: JSONValue] = ["flag_count": .int(Int64(count))]
            if count >= rules.flagThresholdHide, post["hidden"] != .bool(true) {
                set["hidden"] = true
                set["review_status"] = .string(rules.reviewStatusWhenHidden)
            }
            try ctx.database.update("posts", set: set, where: .eq("id", postID), as: .serviceRole)
        }
    }

    /// `thanks_add_reputation` (AFTER INSERT on thanks, SECURITY DEFINER): the recipient's
    /// score grows by `pointsPerThanks`, thanks_received by one.
    package static func addReputation(_ rules: CivicForgeRules) -> TriggerHandler {
        { ctx in
            guard let to = ctx.new?["to_user_id"]?.stringValue else { return }
            if let rep = try one(ctx.database, "reputation", "user_id", .string(to)) {
                let score = (rep["score"]?.intValue ?? 0) + Int64(rules.pointsPerThanks)
                let received = (rep["thanks_received"]?.intValue ?? 0) + 1
                try ctx.database.update(
                    "reputation", set: ["score": .int(score), "thanks_received": .int(received), "updated_at": timestamp(ctx.now)],
                    where: .eq("user_id", to), as: .serviceRole)
            } else {
                try ctx.database.insert(
                    "reputation", [["user_id": .string(to), "score": .int(Int64(rules.pointsPerThanks)), "thanks_received": 1]], as: .serviceRole)
            }
        }
    }

    /// `invitations_fill_defaults` (BEFORE INSERT on invitations): a code of `codeLength`
    /// upper-case hex characters, the inviter's neighbourhood, expiry `validDays` after now.
    package static func fillInvitationDefaults(_ rules: CivicForgeRules) -> TriggerHandler {
        { ctx in
            guard var new = ctx.new else { return }
            if (new["code"] ?? .null).isNull {
                let bytes = ctx.database.ids.bytes((rules.invitationCodeLength + 1) / 2)
                let hex = bytes.map { String(format: "%02X", $0) }.joined()
                new["code"] = .string(String(hex.prefix(rules.invitationCodeLength)))
            }
            if (new["neighborhood_id"] ?? .null).isNull, let inviter = try one(ctx.database, "profiles", "id", new["inviter_id"]) {
                new["neighborhood_id"] = inviter["neighborhood_id"] ?? .null
            }
            if (new["expires_at"] ?? .null).isNull {
                new["expires_at"] = timestamp(ctx.now.addingTimeInterval(Double(rules.invitationValidDays) * 86_400))
            }
            ctx.new = new
        }
    }
}
