import Foundation
import MockBinding

/// `search_cities(search_term text)` (§4.4): pg_trgm similarity over the configured columns,
/// rows above the threshold, best similarity first, ties by the configured columns, at most
/// `limit`. Runs as the caller (cities are public).
package struct SearchCitiesFunction: Sendable {
    package let rules: FunctionRules.Search

    package init(rules: FunctionRules.Search) { self.rules = rules }

    /// The matching rows with their best similarity, in result order.
    package func search(_ term: String, in rows: [[String: JSONValue]]) -> [(row: [String: JSONValue], similarity: Float)] {
        let t = Trigram.trigrams(term)
        if t.isEmpty { return [] }
        var hits: [(row: [String: JSONValue], similarity: Float)] = []
        for r in rows {
            var best: Float = 0
            for c in rules.columns {
                guard let s = r[c]?.stringValue else { continue }
                best = max(best, Trigram.similarity(t, Trigram.trigrams(s)))
            }
            // similarity() returns real; `real > numeric` compares in double precision, so 3/20
            // (0.15 as a real, 0.1500000059604645 widened) is above a threshold of 0.15 on
            // PostgreSQL (checked there by sql/checks.json's tie case).
            let widened = Double(best)
            if rules.inclusive ? widened >= rules.threshold : widened > rules.threshold { hits.append((r, best)) }
        }
        hits.sort { a, b in
            if a.similarity != b.similarity { return a.similarity > b.similarity }
            for c in rules.tieBreak {
                let x = a.row[c]?.stringValue ?? "", y = b.row[c]?.stringValue ?? ""
                if x != y { return x.utf8.lexicographicallyPrecedes(y.utf8) }
            }
            return false
        }
        return Array(hits.prefix(rules.limit))
    }

    /// The RPC body.
    package func handle(_ call: RPCCall) throws -> JSONValue {
        guard let term = call.arguments[rules.parameter]?.stringValue else { return .array([]) }
        let rows = try call.database.rows("cities", as: call.auth)
        return .array(search(term, in: rows).map { .object($0.row) })
    }
}

extension TeleportMeApp {
    /// `handle_new_user()`: AFTER INSERT on auth.users, as the definer, creates the profile.
    static func registerTriggers(on backend: MockSupabase, rules: FunctionRules) {
        let nameKeys = rules.nameKeys
        backend.registerTrigger("on_auth_user_created", on: "auth.users", timing: .after, events: [.insert]) { ctx in
            guard let new = ctx.new, let id = new["id"] else { return }
            var name: JSONValue = .null
            if case .object(let meta)? = new["raw_user_meta_data"] {
                for k in nameKeys { if let s = meta[k], case .string = s { name = s; break } }
            }
            try ctx.database.insert("profiles", [["id": id, "email": new["email"] ?? .null, "name": name]], as: .serviceRole)
        }
        for table in rules.updatedAtTables {
            backend.registerTrigger("update_\(table)_updated_at", on: table, timing: .before, events: [.update]) { ctx in
                ctx.new?["updated_at"] = .string(PGTime.timestamptz(ctx.now))
            }
        }
    }
}
