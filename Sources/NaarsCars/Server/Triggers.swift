import Foundation
import MockBinding

/// FR-013's triggers plus the request lifecycle and the message column guard (rules.json).
/// Names are the SQL trigger names (sql/005_triggers.sql); same-timing triggers fire in name order
/// in both.
extension NaarsCarsServer {
    func registerTriggers(on backend: MockSupabase) {
        let server = self
        // set_updated_at: every table with an updated_at column (FR-007).
        for t in schema.tables where t.schema == "public" && !t.isView && t.columnIndex("updated_at") != nil {
            backend.registerTrigger("set_updated_at", on: t.name, timing: .before, events: [.update]) { ctx in
                ctx.new?["updated_at"] = .string(PGTime.timestamptz(ctx.now))
            }
        }
        backend.registerTrigger("on_auth_user_created", on: "auth.users", timing: .after, events: [.insert]) { ctx in
            try server.createProfile(&ctx)
        }
        backend.registerTrigger("on_message_created", on: "messages", timing: .after, events: [.insert]) { ctx in
            guard let conv = ctx.new?["conversation_id"]?.stringValue else { return }
            try ctx.database.update(
                "conversations", set: ["updated_at": .string(PGTime.timestamptz(ctx.now))],
                where: .eq("id", conv), as: .serviceRole)
        }
        backend.registerTrigger("on_invite_code_used", on: "invite_codes", timing: .before, events: [.update]) { ctx in
            try server.inviteCodeUsed(&ctx)
        }
        backend.registerTrigger("protect_admin_fields", on: "profiles", timing: .before, events: [.update]) { ctx in
            try server.protectAdminFields(&ctx)
        }
        backend.registerTrigger("on_review_created", on: "reviews", timing: .before, events: [.insert]) { ctx in
            try server.reviewCreated(&ctx)
        }
        backend.registerTrigger("mark_request_reviewed", on: "reviews", timing: .after, events: [.insert]) { ctx in
            guard let new = ctx.new else { return }
            for (column, table) in [("ride_id", "rides"), ("favor_id", "favors")] {
                if let id = new[column]?.stringValue {
                    try ctx.database.update(table, set: ["reviewed": true], where: .eq("id", id), as: .serviceRole)
                }
            }
        }
        for table in rules.lifecycleTables {
            backend.registerTrigger("enforce_request_lifecycle", on: table, timing: .before, events: [.insert, .update]) { ctx in
                try server.enforceLifecycle(&ctx)
            }
        }
        backend.registerTrigger("protect_message_fields", on: "messages", timing: .before, events: [.update]) { ctx in
            try server.protectMessageFields(&ctx)
        }
    }

    /// on_auth_user_created: a profile with the user's id, email and a name (rules.json newProfile).
    func createProfile(_ ctx: inout TriggerContext) throws {
        guard let new = ctx.new, let id = new["id"]?.stringValue else { return }
        if try !ctx.database.rows("profiles", where: .eq("id", id)).isEmpty { return } // ON CONFLICT DO NOTHING
        let email = new["email"] ?? .null
        var name = new["raw_user_meta_data"]?[rules.nameMetadataKey]?.stringValue?.trimmingCharacters(in: .init(charactersIn: " ")) ?? ""
        if name.isEmpty, let e = email.stringValue { name = String(e.split(separator: "@", maxSplits: 1, omittingEmptySubsequences: false).first ?? "") }
        try ctx.database.insert("profiles", [["id": .string(id), "email": email, "name": .string(name)]], as: .serviceRole)
    }

    /// on_invite_code_used: used_at and invited_by when a code is redeemed; a used code stays used.
    func inviteCodeUsed(_ ctx: inout TriggerContext) throws {
        guard let old = ctx.old, var new = ctx.new else { return }
        let oldUser = old["used_by"]?.stringValue, newUser = new["used_by"]?.stringValue.flatMap(SQLValue.canonicalUUID)
        if !ctx.auth.bypassesRLS {
            for c in rules.inviteImmutableColumns where !Self.same(old[c], new[c], schema.table("invite_codes")?.columns.first { $0.name == c }?.type ?? .text)
            {
                throw rules.error("invite_code_immutable")
            }
            if let oldUser, oldUser != newUser { throw rules.error("invite_code_reused") }
            if oldUser == nil, let newUser, newUser == SQLValue.canonicalUUID(old["created_by"]?.stringValue ?? "") {
                throw rules.error("invite_code_own")
            }
        }
        guard oldUser == nil, let newUser else { return }
        new["used_at"] = .string(PGTime.timestamptz(ctx.now))
        ctx.new = new
        if let creator = new["created_by"]?.stringValue {
            try ctx.database.update(
                "profiles", set: ["invited_by": .string(creator)],
                where: .and([.eq("id", newUser), Self.isNull("invited_by")]), as: .serviceRole)
        }
    }

    /// protect_admin_fields: only admins (checked in the data) change is_admin / approved (SEC-DB-005).
    func protectAdminFields(_ ctx: inout TriggerContext) throws {
        guard !ctx.auth.bypassesRLS, let old = ctx.old, let new = ctx.new else { return }
        let changed = rules.adminColumns.contains { !Self.same(old[$0], new[$0], .boolean) }
        if changed, try !Self.profileFlag(ctx.database, ctx.auth, "is_admin") { throw rules.error("admin_fields") }
    }

    /// on_review_created: the review's town hall post, linked through town_hall_post_id.
    func reviewCreated(_ ctx: inout TriggerContext) throws {
        guard var new = ctx.new, let reviewer = new["reviewer_id"]?.stringValue, let fulfiller = new["fulfiller_id"]?.stringValue else { return }
        func name(_ id: String) throws -> String {
            try ctx.database.rows("profiles", where: .eq("id", id)).first?["name"]?.stringValue ?? ""
        }
        let rating = Int(new["rating"]?.intValue ?? 0)
        let values = [
            "reviewer": try name(reviewer), "fulfiller": try name(fulfiller),
            "stars": String(repeating: rules.reviewStar, count: max(rating, 0)),
            "comment": new["comment"]?.stringValue ?? ""
        ]
        var content = RuleError.fill(rules.reviewPostContent, values)
        while content.hasSuffix(" ") { content.removeLast() }
        let post = try ctx.database.insert(
            "town_hall_posts",
            [
                [
                    "user_id": .string(reviewer), "title": .string(RuleError.fill(rules.reviewPostTitle, values)), "content": .string(content)
                ]
            ], as: .serviceRole)
        new["town_hall_post_id"] = post.first?["id"] ?? .null
        ctx.new = new
    }

    /// enforce_request_lifecycle: new requests start open; rules.json's transitions, actors and
    /// owner-only columns on update. Privileged statements bypass it.
    func enforceLifecycle(_ ctx: inout TriggerContext) throws {
        guard !ctx.auth.bypassesRLS, let new = ctx.new else { return }
        guard let old = ctx.old else {
            if new["status"]?.stringValue != rules.initialStatus || !(new["claimed_by"] ?? .null).isNull {
                throw rules.error("request_not_open")
            }
            return
        }
        let uid = ctx.auth.userID
        let isOwner = uid != nil && SQLValue.canonicalUUID(old["user_id"]?.stringValue ?? "") == uid
        let changed = changedColumns(ctx.table, old: old, new: new)
        for c in rules.immutableColumns where changed.contains(c) { throw rules.error("immutable_column", ["column": c]) }
        if !isOwner, let c = changed.first(where: { !rules.nonOwnerMayChange.contains($0) }) {
            throw rules.error("owner_only_column", ["column": c])
        }
        let from = old["status"]?.stringValue ?? "", to = new["status"]?.stringValue ?? ""
        let oldClaimer = old["claimed_by"]?.stringValue.flatMap(SQLValue.canonicalUUID)
        let newClaimer = new["claimed_by"]?.stringValue.flatMap(SQLValue.canonicalUUID)
        if from == to {
            if oldClaimer != newClaimer { throw rules.error("claimed_by_without_status") }
            return
        }
        guard let t = rules.transition(from: from, to: to) else {
            throw rules.error("invalid_transition", ["from": from, "to": to])
        }
        switch t.claimedBy {
        case .caller: if newClaimer == nil || newClaimer != uid { throw rules.error("claim_not_caller") }
        case .keep: if oldClaimer == nil || newClaimer != oldClaimer { throw rules.error("claimer_changed", ["from": from, "to": to]) }
        case .clear: if newClaimer != nil { throw rules.error("unclaim_not_cleared") }
        }
        let claimer = t.claimedBy == .caller ? newClaimer : oldClaimer
        let allowed = t.by.contains { actor in
            switch actor {
            case .owner: return isOwner
            case .claimer: return uid != nil && claimer == uid
            }
        }
        if !allowed {
            throw rules.error("transition_actor", ["actors": t.by.map(\.rawValue).joined(separator: " or "), "from": from, "to": to])
        }
    }

    /// protect_message_fields: clients change only read_by, and only their own id in it.
    func protectMessageFields(_ ctx: inout TriggerContext) throws {
        guard !ctx.auth.bypassesRLS, let old = ctx.old, let new = ctx.new else { return }
        if changedColumns("messages", old: old, new: new).contains(where: { !rules.messageClientColumns.contains($0) }) {
            throw rules.error("message_column")
        }
        func ids(_ v: JSONValue?) -> Set<String> { Set((v?.arrayValue ?? []).compactMap { $0.stringValue.flatMap(SQLValue.canonicalUUID) }) }
        let diff = ids(old["read_by"]).symmetricDifference(ids(new["read_by"]))
        if let uid = ctx.auth.userID, diff.subtracting([uid]).isEmpty { return }
        if diff.isEmpty { return }
        throw rules.error("read_by_other")
    }
}
