import Foundation
import MockBinding

/// The app's server-side logic for the mock: triggers, database functions, the leaderboard view
/// and edge functions, all driven by the contracts (no rule lives here as a literal).
///
/// Privilege follows PostgreSQL: a statement run as the service role stands for the service key,
/// a SECURITY DEFINER function or a trigger acting as the definer (`current_user` not anon or
/// authenticated in sql/); such statements bypass RLS and the trigger rules of rules.json.
struct NaarsCarsServer: Sendable {
    let contracts: NaarsCarsContracts
    let schema: DatabaseSchema
    let apns: any APNsClient

    var rules: NaarsCarsRules { contracts.rules }
    var functions: NaarsCarsFunctions { contracts.functions }
}

/// Small helpers shared by the server pieces.
extension NaarsCarsServer {
    /// Today's date (UTC) as days since the epoch.
    static func today(_ date: Date) -> Int64 {
        let us = PGTime.micros(date)
        return us >= 0 ? us / 86_400_000_000 : (us - 86_399_999_999) / 86_400_000_000
    }

    /// `column IS NULL`.
    static func isNull(_ column: String) -> RowFilter { .condition(column: column, op: .is, value: .isValue("null"), negated: false) }

    /// Whether the caller's profile has `column = true`, read as the definer (like is_admin()).
    static func profileFlag(_ db: Database, _ auth: AuthContext, _ column: String) throws -> Bool {
        guard let uid = auth.userID else { return false }
        return try db.rows("profiles", where: .eq("id", uid)).first?[column]?.boolValue == true
    }

    /// Compares two printed values as the same SQL value of a column type (uuid case, timestamp
    /// spelling and array order matter as PostgreSQL compares them).
    static func same(_ a: JSONValue?, _ b: JSONValue?, _ type: SQLType) -> Bool {
        let x = a ?? .null, y = b ?? .null
        if x.isNull || y.isNull { return x.isNull && y.isNull }
        guard let p = try? SQLValue.coerce(json: x, to: type), let q = try? SQLValue.coerce(json: y, to: type) else { return x == y }
        return p == q || SQLValue.compare(p, q, type: type) == 0
    }

    /// Columns whose values differ between OLD and NEW.
    func changedColumns(_ table: String, old: [String: JSONValue], new: [String: JSONValue]) -> [String] {
        guard let t = schema.table(table) else { return [] }
        return t.columns.filter { !Self.same(old[$0.name], new[$0.name], $0.type) }.map(\.name)
    }

    /// ROUND(sum / count, decimals) as PostgreSQL's numeric does it (half away from zero), exactly;
    /// `absent` without any value (FR-015's COALESCE).
    static func roundedMean(sum: Int64, count: Int64, decimals: Int, absent: Int) -> Double {
        guard count > 0 else { return Double(absent) }
        var scale: Int64 = 1
        for _ in 0..<decimals { scale *= 10 }
        let num = sum * scale * 2, den = count * 2
        let q = num >= 0 ? (num + count) / den : -((-num + count) / den)
        return Double(q) / Double(scale)
    }
}
