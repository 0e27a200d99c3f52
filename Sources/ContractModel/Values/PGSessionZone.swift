import Foundation

/// The session `TimeZone` a request runs under (PostgREST's `Prefer: timezone=…` is a
/// `SET LOCAL timezone` for the request's transaction): `timestamptz` values print in it
/// (`2023-10-18T05:37:59.611-07:00`). UTC, as on Supabase, when unset.
///
/// Scoped to one request through a task-local value set around the request's handling (no
/// state outlives it and concurrent requests do not see each other's zone).
package enum PGSessionZone: Sendable {
    /// A fixed offset east of UTC in seconds.
    case fixed(Int32)
    /// A tz database zone (offset varies with daylight saving time).
    case named(TimeZone)

    /// The zone of the running request, nil for UTC.
    @TaskLocal package static var current: PGSessionZone?

    /// The offset east of UTC in seconds at an instant.
    package func offset(atMicros us: Int64) -> Int32 {
        switch self {
        case .fixed(let s): return s
        case .named(let tz): return Int32(tz.secondsFromGMT(for: Date(timeIntervalSince1970: Double(us.dividedReportingOverflow(by: 1_000_000).partialValue))))
        }
    }

    /// The UTC instant of a local wall-clock time in this zone (the offset in force then; in a
    /// daylight-saving gap or overlap, the offset found from the local time read as UTC).
    package func utc(fromLocal us: Int64) -> Int64 {
        let guess = us - Int64(offset(atMicros: us)) * 1_000_000
        return us - Int64(offset(atMicros: guess)) * 1_000_000
    }

    /// Reads a `timezone` setting as PostgreSQL's `check_timezone` does: a plain number is hours
    /// in ISO sign (`-4` is UTC−4); otherwise a POSIX offset (`+05:30` is 5h30 *west*, so
    /// UTC−05:30) or a tz database name (case-insensitive). Errors are PostgreSQL's 22023:
    /// an unknown zone, or an offset with seconds (`time zone "05:30:15" appears to use leap seconds`).
    package static func parse(_ raw: String) throws -> PGSessionZone {
        let invalid = PostgresError("22023", "invalid value for parameter \"TimeZone\": \"\(raw)\"")
        if let hours = Double(raw), raw.allSatisfy({ $0.isNumber || "+-.".contains($0) }) {
            guard abs(hours) < 168 else { throw invalid }
            return .fixed(Int32((hours * 3600).rounded()))
        }
        var s = Substring(raw)
        var sign: Int32 = -1 // POSIX: positive is west of Greenwich.
        if s.first == "+" || s.first == "-" { if s.first == "-" { sign = 1 }; s = s.dropFirst() }
        let parts = s.split(separator: ":", omittingEmptySubsequences: false)
        if !parts.isEmpty, parts.count <= 3, parts.allSatisfy({ !$0.isEmpty && $0.count <= 2 && $0.allSatisfy(\.isNumber) }) {
            let v = parts.map { Int32($0)! }
            if parts.count == 3, v[2] != 0 {
                throw PostgresError("22023", "time zone \"\(raw)\" appears to use leap seconds", details: "PostgreSQL does not support leap seconds.")
            }
            guard v[0] <= 24 else { throw invalid }
            let secs = v[0] * 3600 + (v.count > 1 ? v[1] * 60 : 0)
            return .fixed(sign * secs)
        }
        if raw.uppercased() == "UTC" || raw.uppercased() == "GMT" || raw.uppercased() == "Z" { return .fixed(0) }
        if let tz = TimeZone(identifier: raw) { return .named(tz) }
        if let id = TimeZone.knownTimeZoneIdentifiers.first(where: { $0.lowercased() == raw.lowercased() }), let tz = TimeZone(identifier: id) {
            return .named(tz)
        }
        throw invalid
    }
}
