import Foundation
import MockBinding

/// FR-014's database functions, exposed at `/rest/v1/rpc/<name>` with the signatures of
/// functions.json, and the leaderboard_stats view of FR-015.
extension NaarsCarsServer {
    /// The handler of each function, by name; registration fails loudly if functions.json names a
    /// function without one (and the gate checks the converse).
    var handlers: [String: @Sendable (RPCCall) throws -> JSONValue] {
        let s = self
        return [
            "get_user_stats": { try s.userStats($0) },
            "get_unread_counts": { try s.unreadCounts($0) },
            "mark_messages_read": { try s.markMessagesRead($0) },
            "get_or_create_request_conversation": { try s.requestConversation($0) },
            "validate_invite_code": { try s.validateInviteCode($0) },
            "get_leaderboard": { try s.leaderboardRPC($0) },
            "get_pending_reviews": { try s.pendingReviews($0) },
            "cleanup_stale_push_tokens": { try s.cleanupRPC($0) }
        ]
    }

    func registerFunctions(on backend: MockSupabase) {
        let handlers = self.handlers
        for c in functions.rpcs {
            guard let h = handlers[c.name] else {
                backend.registerRPC(
                    RPCFunction(name: c.name, parameters: [], returns: .void) { _ in
                        throw PostgresError("42883", "function public.\(c.name) is declared in functions.json but not implemented")
                    })
                continue
            }
            let params = c.params.map { RPCParameter($0.name, SQLType.parse($0.type, enums: schema.enums) ?? .text, hasDefault: $0.hasDefault) }
            let returns: RPCReturn
            switch c.returns {
            case .void: returns = .void
            case .scalar(let t): returns = .scalar(SQLType.parse(t, enums: schema.enums) ?? .text)
            case .table(let cols): returns = .rows(Self.columnSchemas(c.name, cols))
            }
            let contract = c
            let server = self
            backend.registerRPC(
                RPCFunction(name: c.name, parameters: params, returns: returns, volatile: c.volatility == "volatile") { call in
                    try server.checkCaller(contract, call)
                    return try h(call)
                })
        }
    }

    func registerViews(on backend: MockSupabase) {
        let server = self
        backend.registerView("leaderboard_stats") { db, auth in
            try server.leaderboard(db, auth, windowDays: nil).map(\.json)
        }
    }

    /// Column schemas for a TABLE(...) result, read through the schema decoder (the type's
    /// initialiser belongs to the mock).
    static func columnSchemas(_ name: String, _ cols: [(name: String, type: String)]) -> [ColumnSchema] {
        let table: JSONValue = ["name": .string(name), "columns": .array(cols.map { ["name": .string($0.name), "type": .string($0.type)] })]
        let node = SpecNode(value: ["tables": [table]], file: "Contracts/naarscars/functions.json")
        return (try? DatabaseSchema.decode(node))?.table(name)?.columns ?? []
    }

    // MARK: Callers

    /// functions.json `callers`: `self` functions act only for the caller, `service_role` ones only
    /// for the service role (EXECUTE revoked from anon and authenticated in SQL).
    func checkCaller(_ c: RPCContract, _ call: RPCCall) throws {
        switch c.callers {
        case "service_role":
            if !call.auth.bypassesRLS { throw rules.error("service_role_only", ["function": c.name]) }
        case "self":
            if call.auth.bypassesRLS { return }
            let target = call.arguments["user_id"]?.stringValue.flatMap(SQLValue.canonicalUUID)
            if target == nil || target != call.auth.userID { throw rules.error("not_self", ["function": c.name]) }
        default: return
        }
    }

    func argument(_ call: RPCCall, _ name: String, _ rpc: String) -> JSONValue {
        if let v = call.arguments[name] { return v }
        return functions.rpc(rpc)?.params.first { $0.name == name }?.defaultValue ?? .null
    }

    // MARK: get_user_stats

    func userStats(_ call: RPCCall) throws -> JSONValue {
        let user = argument(call, "user_id", "get_user_stats").stringValue ?? ""
        let db = call.database, auth = call.auth
        let ratings = try db.rows("reviews", as: auth, where: .eq("fulfiller_id", user)).compactMap { $0["rating"]?.intValue }
        var fulfilled = 0
        for t in ["rides", "favors"] {
            fulfilled += try db.rows(t, as: auth, where: .and([.eq("claimed_by", user), .eq("status", rules.completedStatus)])).count
        }
        let avg = Self.roundedMean(sum: ratings.reduce(0, +), count: Int64(ratings.count), decimals: functions.ratingDecimals, absent: functions.absentAs)
        return [["avg_rating": .double(avg), "review_count": .int(Int64(ratings.count)), "fulfilled_count": .int(Int64(fulfilled))]]
    }

    // MARK: get_unread_counts

    func unreadCounts(_ call: RPCCall) throws -> JSONValue {
        let user = argument(call, "user_id", "get_unread_counts").stringValue ?? ""
        let db = call.database
        let notes = try db.rows("notifications", where: .and([.eq("user_id", user), .eq("read", "false")])).count
        var messages = 0
        for p in try db.rows("conversation_participants", where: .eq("user_id", user)) {
            guard let conv = p["conversation_id"]?.stringValue else { continue }
            for m in try db.rows("messages", where: .eq("conversation_id", conv)) where m["from_id"]?.stringValue != user {
                let readers = (m["read_by"]?.arrayValue ?? []).compactMap(\.stringValue)
                if !readers.contains(user) { messages += 1 }
            }
        }
        return [["unread_notifications": .int(Int64(notes)), "unread_messages": .int(Int64(messages))]]
    }

    // MARK: mark_messages_read

    func markMessagesRead(_ call: RPCCall) throws -> JSONValue {
        let conv = argument(call, "conversation_id", "mark_messages_read").stringValue ?? ""
        let user = argument(call, "user_id", "mark_messages_read").stringValue ?? ""
        let db = call.database
        let member = RowFilter.and([.eq("conversation_id", conv), .eq("user_id", user)])
        guard try !db.rows("conversation_participants", where: member).isEmpty else { throw rules.error("not_participant") }
        try db.atomically {
            for m in try db.rows("messages", where: .eq("conversation_id", conv), order: [OrderTerm(column: "created_at")]) {
                guard m["from_id"]?.stringValue != user, let id = m["id"]?.stringValue else { continue }
                var readers = m["read_by"]?.arrayValue ?? []
                if readers.contains(where: { $0.stringValue == user }) { continue }
                readers.append(.string(user))
                try db.update("messages", set: ["read_by": .array(readers)], where: .eq("id", id), as: .serviceRole)
            }
            try db.update("conversation_participants", set: ["last_read_at": .string(PGTime.timestamptz(db.clock.now()))], where: member, as: .serviceRole)
        }
        return .null
    }

    // MARK: get_or_create_request_conversation

    func requestConversation(_ call: RPCCall) throws -> JSONValue {
        let ride = argument(call, "ride_id", "get_or_create_request_conversation").stringValue
        let favor = argument(call, "favor_id", "get_or_create_request_conversation").stringValue
        guard (ride == nil) != (favor == nil), let requestID = ride ?? favor else { throw rules.error("one_request") }
        let (table, key, participants) = ride != nil ? ("rides", "ride_id", "ride_participants") : ("favors", "favor_id", "favor_participants")
        let db = call.database
        return try db.atomically { () -> JSONValue in
            guard let request = try db.rows(table, where: .eq("id", requestID)).first else { throw rules.error("request_not_found") }
            var members: [String] = []
            for c in ["user_id", "claimed_by"] { if let u = request[c]?.stringValue { members.append(u) } }
            members += try db.rows(participants, where: .eq(key, requestID), order: [OrderTerm(column: "created_at"), OrderTerm(column: "id")])
                .compactMap { $0["user_id"]?.stringValue }
            let caller = call.auth.userID
            if !call.auth.bypassesRLS {
                guard try Self.profileFlag(db, call.auth, "approved") else { throw rules.error("not_approved") }
                guard let caller, members.contains(caller) else { throw rules.error("not_involved") }
            }
            let convID: String
            if let existing = try db.rows("conversations", where: .eq(key, requestID)).first?["id"]?.stringValue {
                convID = existing
            } else {
                let creator = caller ?? request["user_id"]?.stringValue ?? ""
                let row = try db.insert("conversations", [[key: .string(requestID), "created_by": .string(creator)]], as: .serviceRole)
                convID = row.first?["id"]?.stringValue ?? ""
            }
            var seen = Set(try db.rows("conversation_participants", where: .eq("conversation_id", convID)).compactMap { $0["user_id"]?.stringValue })
            for u in members + (caller.map { [$0] } ?? []) where !seen.contains(u) {
                try db.insert("conversation_participants", [["conversation_id": .string(convID), "user_id": .string(u)]], as: .serviceRole)
                seen.insert(u)
            }
            return .string(convID)
        }
    }

    // MARK: validate_invite_code

    /// upper(btrim(code)): spaces only, as SQL's btrim.
    static func normalizeCode(_ s: String) -> String {
        var t = Substring(s)
        while t.hasPrefix(" ") { t = t.dropFirst() }
        while t.hasSuffix(" ") { t = t.dropLast() }
        return t.uppercased()
    }

    func validateInviteCode(_ call: RPCCall) throws -> JSONValue {
        let code = Self.normalizeCode(argument(call, "code", "validate_invite_code").stringValue ?? "")
        let hit = try call.database.rows("invite_codes", where: .and([.eq("code", code), Self.isNull("used_by")])).first
        return [["is_valid": .bool(hit != nil), "code_id": hit?["id"] ?? .null, "created_by": hit?["created_by"] ?? .null]]
    }

    // MARK: get_leaderboard and leaderboard_stats

    func leaderboardRPC(_ call: RPCCall) throws -> JSONValue {
        let filter = argument(call, "time_filter", "get_leaderboard").stringValue ?? functions.defaultTimeFilter
        guard let window = functions.timeFilters[filter] else { throw rules.error("invalid_time_filter", ["value": filter]) }
        let limit = Int(argument(call, "limit_count", "get_leaderboard").intValue ?? Int64(functions.defaultLimit))
        guard (1...functions.maxLimit).contains(limit) else { throw rules.error("invalid_limit", ["max": String(functions.maxLimit)]) }
        return .array(try leaderboard(call.database, call.auth, windowDays: window).prefix(limit).map { .object($0.json) })
    }

    struct BoardRow {
        var userID: String, name: String, avatar: JSONValue, fulfilled: Int, ratingSum: Int64, ratings: Int64, rank: Int, average: Double
        var json: [String: JSONValue] {
            [
                "user_id": .string(userID), "name": .string(name), "avatar_url": avatar, "fulfilled_count": .int(Int64(fulfilled)),
                "average_rating": .double(average), "review_count": .int(ratings), "rank": .int(Int64(rank))
            ]
        }
    }

    /// The leaderboard as the caller may compute it (security_invoker): approved profiles, their
    /// fulfilled requests and received reviews within the window; RANK() by fulfilled count;
    /// ordered by rank, name, user id.
    func leaderboard(_ db: Database, _ auth: AuthContext, windowDays: Int?) throws -> [BoardRow] {
        let now = db.clock.now()
        let firstDay: Int64? = windowDays.map { Self.today(now) - Int64($0) }
        func inWindow(date: JSONValue?) -> Bool {
            guard let firstDay else { return true }
            guard let s = date?.stringValue, let d = PGTime.parseDate(s) else { return false }
            return Int64(d) >= firstDay
        }
        func inWindow(timestamp: JSONValue?) -> Bool {
            guard let firstDay else { return true }
            guard let s = timestamp?.stringValue, let us = PGTime.parseTimestamp(s, assumeUTC: true) else { return false }
            return Self.today(PGTime.date(micros: us)) >= firstDay
        }
        var fulfilled: [String: Int] = [:]
        for t in ["rides", "favors"] {
            for r in try db.rows(t, as: auth, where: .eq("status", rules.completedStatus)) where inWindow(date: r["date"]) {
                if let u = r["claimed_by"]?.stringValue { fulfilled[u, default: 0] += 1 }
            }
        }
        var sums: [String: (Int64, Int64)] = [:]
        for r in try db.rows("reviews", as: auth) where inWindow(timestamp: r["created_at"]) {
            if let u = r["fulfiller_id"]?.stringValue, let v = r["rating"]?.intValue {
                let s = sums[u] ?? (0, 0)
                sums[u] = (s.0 + v, s.1 + 1)
            }
        }
        var rows = try db.rows("profiles", as: auth, where: .eq("approved", "true")).map { p -> BoardRow in
            let id = p["id"]?.stringValue ?? ""
            let (sum, n) = sums[id] ?? (0, 0)
            return BoardRow(
                userID: id, name: p["name"]?.stringValue ?? "", avatar: p["avatar_url"] ?? .null, fulfilled: fulfilled[id] ?? functions.absentAs,
                ratingSum: sum, ratings: n, rank: 0,
                average: Self.roundedMean(sum: sum, count: n, decimals: functions.ratingDecimals, absent: functions.absentAs))
        }
        for i in rows.indices { rows[i].rank = 1 + rows.filter { $0.fulfilled > rows[i].fulfilled }.count }
        rows.sort { a, b in
            if a.rank != b.rank { return a.rank < b.rank }
            if a.name != b.name { return a.name.utf8.lexicographicallyPrecedes(b.name.utf8) }
            return a.userID < b.userID
        }
        return rows
    }

    // MARK: get_pending_reviews

    func pendingReviews(_ call: RPCCall) throws -> JSONValue {
        let user = argument(call, "user_id", "get_pending_reviews").stringValue ?? ""
        let db = call.database
        var out: [(date: Int32, id: String, row: JSONValue)] = []
        for (type, table) in [("ride", "rides"), ("favor", "favors")] {
            let rows = try db.rows(table, where: .and([.eq("user_id", user), .eq("status", rules.completedStatus), .eq("reviewed", "false")]))
            for r in rows where r["review_skipped"]?.boolValue != true {
                guard let fulfiller = r["claimed_by"]?.stringValue, let id = r["id"]?.stringValue else { continue }
                let name = try db.rows("profiles", where: .eq("id", fulfiller)).first?["name"]?.stringValue ?? ""
                var values: [String: String] = [:]
                for (k, v) in r { if let s = v.stringValue { values[k] = s } }
                let title = RuleError.fill(rules.pendingReviewTitle[type] ?? "", values)
                let date = r["date"] ?? .null
                out.append(
                    (
                        PGTime.parseDate(date.stringValue ?? "") ?? 0, id,
                        [
                            "request_type": .string(type), "request_id": .string(id), "fulfiller_id": .string(fulfiller),
                            "fulfiller_name": .string(name), "title": .string(title), "date": date
                        ]
                    ))
            }
        }
        out.sort { $0.date != $1.date ? $0.date > $1.date : $0.id < $1.id }
        return .array(out.map(\.row))
    }

    // MARK: cleanup_stale_push_tokens

    /// Deletes tokens not refreshed for functions.json's staleAfterDays; returns how many.
    func cleanupStaleTokens(_ db: Database) throws -> Int {
        let cutoff = PGTime.micros(db.clock.now()) - Int64(functions.staleTokenDays) * 86_400_000_000
        let cut = PGTime.formatTimestamp(cutoff, withZone: true)
        let stale = RowFilter.condition(column: "updated_at", op: .lt, value: .text(cut), negated: false)
        return try db.delete("push_tokens", where: stale, as: .serviceRole).count
    }

    func cleanupRPC(_ call: RPCCall) throws -> JSONValue { .int(Int64(try cleanupStaleTokens(call.database))) }
}
