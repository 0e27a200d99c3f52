import Foundation

/// The `Prefer` header as PostgREST reads it (ApiRequest/Preferences.hs `fromHeaders`): every
/// `Prefer` header is split on commas and trimmed; for each kind of preference the FIRST accepted
/// value wins; anything not accepted (nor `timezone=…`/`max-affected=…`) is an invalid
/// preference, refused with PGRST122 only under `handling=strict`.
struct Preferences {
    enum Return: String { case minimal = "return=minimal", representation = "return=representation", headersOnly = "return=headers-only" }

    /// The request's action, which decides the preferences echoed in `Preference-Applied`
    /// (Response.hs `responsePreferences`).
    enum Action { case read, create(keyed: Bool), update, delete, put, call }

    var returning: Return?
    /// `count=exact|planned|estimated`: reads count exactly for `exact`, estimate for `planned`
    /// where `PlannedCount` has a model, and for `estimated` count exactly up to `db-max-rows`
    /// and past it take the larger of that and the estimate (`restRead`).
    var countMode: String?
    var resolutionPref: Database.ConflictResolution?
    /// `missing=default|null`.
    var missing: String?
    /// `handling=strict|lenient`.
    var handling: String?
    /// `tx=commit|rollback`: accepted but not applied, as PostgREST does unless `db-tx-end`
    /// allows the override (Supabase keeps the default `commit`).
    var timezone: String?
    var maxAffected: Int64?
    /// Preferences PostgREST does not know, in the order given.
    var invalid: [String] = []

    var count: Bool { countMode != nil }
    var resolution: Database.ConflictResolution { resolutionPref ?? .error }
    var missingDefault: Bool { missing == "default" }
    var strict: Bool { handling == "strict" }

    static let accepted: Set<String> = [
        "resolution=merge-duplicates", "resolution=ignore-duplicates",
        "return=representation", "return=minimal", "return=headers-only",
        "count=exact", "count=planned", "count=estimated",
        "tx=commit", "tx=rollback",
        "missing=default", "missing=null",
        "handling=strict", "handling=lenient"
    ]

    init(_ headers: HTTPHeaders) {
        let prefs = headers.values("Prefer").flatMap { $0.split(separator: ",", omittingEmptySubsequences: false) }
            .map { $0.trimmingCharacters(in: .whitespaces) }
        for p in prefs {
            switch p {
            case "return=minimal", "return=representation", "return=headers-only":
                if returning == nil { returning = Return(rawValue: p) }
            case "count=exact", "count=planned", "count=estimated":
                if countMode == nil { countMode = String(p.dropFirst(6)) }
            case "resolution=merge-duplicates": if resolutionPref == nil { resolutionPref = .merge }
            case "resolution=ignore-duplicates": if resolutionPref == nil { resolutionPref = .ignore }
            case "missing=default", "missing=null": if missing == nil { missing = String(p.dropFirst(8)) }
            case "handling=strict", "handling=lenient": if handling == nil { handling = String(p.dropFirst(9)) }
            case "tx=commit", "tx=rollback": break
            default:
                if p.hasPrefix("timezone=") {
                    if timezone == nil { timezone = String(p.dropFirst(9)) }
                } else if p.hasPrefix("max-affected=") {
                    // `readMaybe`: text that is not a number sets nothing (and is not invalid).
                    if maxAffected == nil, let n = Int64(p.dropFirst(13)) { maxAffected = n }
                } else {
                    invalid.append(p)
                }
            }
        }
    }

    /// PGRST122 when `handling=strict` meets preferences PostgREST does not know (Plan.hs), and
    /// 22023 for a time zone PostgreSQL would not accept (`SET timezone` fails before the query).
    func validate() throws {
        if strict && !invalid.isEmpty {
            throw PostgresError(
                "PGRST122", "Invalid preferences given with handling=strict", details: "Invalid preferences: " + invalid.joined(separator: ", "))
        }
        if let tz = timezone { _ = try PGSessionZone.parse(tz) }
    }

    /// PGRST124 under `handling=strict` when a write touched more rows than `max-affected`
    /// (MainTx.hs `failExceedsMaxAffectedPref`); the caller rolls the statement back.
    func checkMaxAffected(_ n: Int) throws {
        if strict, let m = maxAffected, Int64(n) > m {
            throw PostgresError("PGRST124", "Query result exceeds max-affected preference constraint", details: "The query affects \(n) rows")
        }
    }

    /// `Preference-Applied` for an action, in PostgREST's order (Preferences.hs
    /// `prefAppliedHeader` over Response.hs `responsePreferences`): resolution (inserts on a table
    /// with a key or `on_conflict`), missing (inserts, updates), return (writes), count,
    /// handling, timezone, and max-affected (updates, deletes, calls; only with handling=strict).
    func appliedHeader(_ action: Action) -> String? {
        var out: [String] = []
        if case .create(let keyed) = action, keyed, let r = resolutionPref {
            out.append(r == .merge ? "resolution=merge-duplicates" : "resolution=ignore-duplicates")
        }
        var writes = true, missingApplies = false, maxApplies = false
        switch action {
        case .read: writes = false
        case .call: writes = false; maxApplies = true
        case .create: missingApplies = true
        case .update: missingApplies = true; maxApplies = true
        case .delete: maxApplies = true
        case .put: break
        }
        if missingApplies, let m = missing { out.append("missing=" + m) }
        if writes, let r = returning { out.append(r.rawValue) }
        if let c = countMode { out.append("count=" + c) }
        if let h = handling { out.append("handling=" + h) }
        if let tz = timezone { out.append("timezone=" + tz) }
        if maxApplies, strict, let m = maxAffected { out.append("max-affected=\(m)") }
        return out.isEmpty ? nil : out.joined(separator: ", ")
    }
}
