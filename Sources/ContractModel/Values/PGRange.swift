import Foundation

/// The built-in range types and their element types.
package enum PGRangeKind: String, Sendable, Equatable, CaseIterable {
    case int4range, int8range, numrange, daterange, tsrange, tstzrange

    package var element: SQLType {
        switch self {
        case .int4range: return .integer
        case .int8range: return .bigint
        case .numrange: return .numeric(precision: nil, scale: 0)
        case .daterange: return .date
        case .tsrange: return .timestamp
        case .tstzrange: return .timestamptz
        }
    }

    /// Discrete ranges are canonicalized to `[a,b)` (rangetypes.c `int4range_canonical`…).
    var discrete: Bool { self == .int4range || self == .int8range || self == .daterange }
}

/// A range value (rangetypes.c): empty, or two bounds each unbounded or a value with
/// inclusivity. Discrete kinds are stored canonical, so equality is structural.
package struct PGRange: Sendable, Hashable, CustomStringConvertible {
    package struct Bound: Sendable, Hashable {
        /// nil: unbounded (infinite).
        package var value: SQLValue?
        package var inclusive: Bool
    }

    package var isEmpty: Bool
    package var lower: Bound
    package var upper: Bound

    static let empty = PGRange(isEmpty: true, lower: Bound(value: nil, inclusive: false), upper: Bound(value: nil, inclusive: false))

    /// `range_out`: `empty`, or `[1,5)` with each bound's text output, double-quoted when it holds
    /// a character range syntax uses or white space (`["2024-01-01 10:00:00+00",…)`).
    package var description: String { text(element: nil) }

    func text(element: SQLType?) -> String {
        if isEmpty { return "empty" }
        func bound(_ b: Bound) -> String {
            guard let v = b.value else { return "" }
            let s = v.pgText(as: element ?? .text)
            let special = s.isEmpty || s.contains { "\"\\,()[] \t\n".contains($0) }
            guard special else { return s }
            return "\"" + s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
        }
        return (lower.inclusive ? "[" : "(") + bound(lower) + "," + bound(upper) + (upper.inclusive ? "]" : ")")
    }

    /// `range_in`: `empty`, or `[`/`(` lower `,` upper `]`/`)` (bounds may be double-quoted,
    /// an empty bound is unbounded), then canonicalized. PostgreSQL's errors: 22P02 `malformed
    /// range literal` with its detail, 22000 when the lower bound is above the upper.
    package static func parse(_ raw: String, _ kind: PGRangeKind) throws -> PGRange {
        func malformed(_ detail: String) -> PostgresError {
            PostgresError("22P02", "malformed range literal: \"\(raw)\"", details: detail)
        }
        let t = Array(raw.trimmingCharacters(in: .whitespaces))
        if String(t).lowercased() == "empty" { return .empty }
        guard let open = t.first, open == "[" || open == "(" else { throw malformed("Missing left parenthesis or bracket.") }
        var i = 1
        func readBound(_ stops: Set<Character>) -> (String, quoted: Bool) {
            var out = "", quoted = false, inQuote = false
            while i < t.count {
                let c = t[i]
                if c == "\\", i + 1 < t.count { out.append(t[i + 1]); i += 2; quoted = true; continue }
                if c == "\"" {
                    if inQuote, i + 1 < t.count, t[i + 1] == "\"" { out.append("\""); i += 2; continue }
                    inQuote.toggle(); quoted = true; i += 1; continue
                }
                if !inQuote && stops.contains(c) { break }
                out.append(c)
                i += 1
            }
            return (out, quoted)
        }
        let (lo, loQuoted) = readBound([",", ")", "]"])
        guard i < t.count, t[i] == "," else { throw malformed("Missing comma after lower bound.") }
        i += 1
        let (hi, hiQuoted) = readBound([",", ")", "]"])
        guard i < t.count else { throw malformed("Missing right parenthesis or bracket.") }
        if t[i] == "," { throw malformed("Too many commas.") }
        let close = t[i]
        i += 1
        guard i == t.count else { throw malformed("Junk after right parenthesis or bracket.") }
        let elem = kind.element
        let lower = Bound(value: lo.isEmpty && !loQuoted ? nil : try SQLValue.parse(text: lo, as: elem), inclusive: open == "[" && !(lo.isEmpty && !loQuoted))
        let upper = Bound(value: hi.isEmpty && !hiQuoted ? nil : try SQLValue.parse(text: hi, as: elem), inclusive: close == "]" && !(hi.isEmpty && !hiQuoted))
        return try make(lower, upper, kind)
    }

    /// Builds a range as `range_serialize` does: 22000 when lower > upper, canonical form for
    /// discrete kinds, empty when the bounds meet without both being inclusive.
    static func make(_ lower0: Bound, _ upper0: Bound, _ kind: PGRangeKind) throws -> PGRange {
        var lower = lower0, upper = upper0
        if let l = lower.value, let u = upper.value, let c = SQLValue.compare(l, u, type: kind.element) {
            if c > 0 { throw PostgresError("22000", "range lower bound must be less than or equal to range upper bound") }
            if c == 0 && !(lower.inclusive && upper.inclusive) { return .empty }
        }
        if kind.discrete {
            if let l = lower.value, !lower.inclusive { lower = Bound(value: successor(l), inclusive: true) }
            if let u = upper.value, upper.inclusive { upper = Bound(value: successor(u), inclusive: false) }
            if let l = lower.value, let u = upper.value, SQLValue.compare(l, u, type: kind.element) == 0 { return .empty }
        }
        return PGRange(isEmpty: false, lower: lower, upper: upper)
    }

    static func successor(_ v: SQLValue) -> SQLValue {
        switch v {
        case .int(let i): return .int(i &+ 1)
        case .date(let d): return .date(d &+ 1)
        default: return v
        }
    }

    /// rangetypes.c `range_cmp_bounds`: orders two bounds, either of which may be a lower or an
    /// upper one.
    package static func cmpBounds(_ a: Bound, aLower: Bool, _ b: Bound, bLower: Bool, _ type: SQLType) -> Int {
        switch (a.value, b.value) {
        case (nil, nil): return aLower == bLower ? 0 : (aLower ? -1 : 1)
        case (nil, _): return aLower ? -1 : 1
        case (_, nil): return bLower ? 1 : -1
        case (let x?, let y?):
            let r = SQLValue.compare(x, y, type: type) ?? 0
            if r != 0 { return r }
            if !a.inclusive && !b.inclusive { return aLower == bLower ? 0 : (aLower ? 1 : -1) }
            if !a.inclusive { return aLower ? 1 : -1 }
            if !b.inclusive { return bLower ? -1 : 1 }
            return 0
        }
    }

    /// `range_cmp`: empty first, then by lower bound, then by upper bound.
    package static func compare(_ a: PGRange, _ b: PGRange, _ type: SQLType) -> Int {
        if a.isEmpty || b.isEmpty { return a.isEmpty == b.isEmpty ? 0 : (a.isEmpty ? -1 : 1) }
        let l = cmpBounds(a.lower, aLower: true, b.lower, bLower: true, type)
        return l != 0 ? l : cmpBounds(a.upper, aLower: false, b.upper, bLower: false, type)
    }

    /// `@>` with a range on the right.
    package static func contains(_ a: PGRange, _ b: PGRange, _ t: SQLType) -> Bool {
        if b.isEmpty { return true }
        if a.isEmpty { return false }
        return cmpBounds(a.lower, aLower: true, b.lower, bLower: true, t) <= 0 && cmpBounds(a.upper, aLower: false, b.upper, bLower: false, t) >= 0
    }

    /// `&&`.
    package static func overlaps(_ a: PGRange, _ b: PGRange, _ t: SQLType) -> Bool {
        if a.isEmpty || b.isEmpty { return false }
        if cmpBounds(a.lower, aLower: true, b.lower, bLower: true, t) >= 0 && cmpBounds(a.lower, aLower: true, b.upper, bLower: false, t) <= 0 { return true }
        if cmpBounds(b.lower, aLower: true, a.lower, bLower: true, t) >= 0 && cmpBounds(b.lower, aLower: true, a.upper, bLower: false, t) <= 0 { return true }
        return false
    }

    /// `-|-`: an upper bound meets a lower bound with exactly one of them inclusive.
    package static func adjacent(_ a: PGRange, _ b: PGRange, _ t: SQLType) -> Bool {
        if a.isEmpty || b.isEmpty { return false }
        func meets(_ upper: Bound, _ lower: Bound) -> Bool {
            guard let u = upper.value, let l = lower.value, SQLValue.compare(u, l, type: t) == 0 else { return false }
            return upper.inclusive != lower.inclusive
        }
        return meets(a.upper, b.lower) || meets(b.upper, a.lower)
    }
}
