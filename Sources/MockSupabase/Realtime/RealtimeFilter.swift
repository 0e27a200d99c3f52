import Foundation

/// A postgres_changes `filter` as supabase/realtime parses it
/// (lib/extensions/postgres_cdc_rls/subscriptions.ex `parse_subscription_params/1`): one or more
/// `column=op.value` conditions joined by top-level commas (AND), each optionally negated with
/// `not.`; operators `eq neq lt lte gt gte in like ilike is match imatch isdistinct`; `in.(a,b)`
/// lists; a value in double quotes is unquoted. The checks `realtime.subscription_check_filters`
/// makes against the table (migration 20260626120000_readd_postgrest_filter_ops) are `validate`.
package struct RealtimeFilter: Sendable, Equatable {
    package enum Op: String, Sendable, CaseIterable {
        case eq, neq, lt, lte, gt, gte, `in`, like, ilike, `is`, match, imatch, isdistinct
    }

    package struct Condition: Sendable, Equatable {
        package var column: String
        package var op: Op
        /// One value, or the members of an `in` list.
        package var values: [String]
        /// Written with `not.`.
        package var negate: Bool
    }

    package var conditions: [Condition]

    /// Parses a filter; the failure carries Realtime's exact system message text.
    package static func parse(_ text: String) -> Result<RealtimeFilter, RealtimeSpecError> {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.isEmpty { return .success(RealtimeFilter(conditions: [])) }
        var out: [Condition] = []
        for segment in splitTopLevel(trimmed) {
            do { out.append(try parseSegment(segment).get()) } catch {
                return .failure(RealtimeSpecError(message: "Error parsing `filter` params: " + error.message))
            }
        }
        return .success(RealtimeFilter(conditions: out))
    }

    /// Splits on commas outside parentheses and double quotes (`split_top_level/6`).
    static func splitTopLevel(_ s: String) -> [String] {
        var parts: [String] = [], current = "", depth = 0, quoted = false
        var prev: Character? = nil
        var it = Array(s), i = 0
        while i < it.count {
            let c = it[i]
            if quoted {
                if c == "\\", i + 1 < it.count { current.append(c); current.append(it[i + 1]); prev = it[i + 1]; i += 2; continue }
                if c == "\"" { quoted = false }
                current.append(c)
            } else if c == "\"", let p = prev, p == "." || p == "(" || p == "," {
                quoted = true; current.append(c)
            } else if c == "(" {
                depth += 1; current.append(c)
            } else if c == ")" {
                depth = max(0, depth - 1); current.append(c)
            } else if c == ",", depth == 0 {
                parts.append(current); current = ""; prev = nil; i += 1; continue
            } else {
                current.append(c)
            }
            prev = c
            i += 1
        }
        it = []
        parts.append(current)
        return parts
    }

    /// Elixir's `inspect` of a list of strings: `["foo", "hey"]`.
    static func inspect(_ parts: [String]) -> String {
        "[" + parts.map { "\"" + $0.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\"" }.joined(separator: ", ")
            + "]"
    }

    static func parseSegment(_ raw: String) -> Result<Condition, RealtimeSpecError> {
        let segment = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        if segment.isEmpty { return .failure(RealtimeSpecError(message: "filter must not contain empty segments (check for extra commas)")) }
        guard let eq = segment.firstIndex(of: "=") else { return .failure(RealtimeSpecError(message: inspect([segment]))) }
        let column = String(segment[..<eq])
        var rest = String(segment[segment.index(after: eq)...])
        var negate = false
        if rest.hasPrefix("not.") { negate = true; rest.removeFirst(4) }
        guard let dot = rest.firstIndex(of: ".") else { return .failure(RealtimeSpecError(message: inspect([rest]))) }
        let opText = String(rest[..<dot]), value = String(rest[rest.index(after: dot)...])
        guard let op = Op(rawValue: opText) else { return .failure(RealtimeSpecError(message: inspect([opText, value]))) }
        if op == .in {
            guard value.count >= 2, value.hasPrefix("("), value.hasSuffix(")") else {
                return .failure(RealtimeSpecError(message: "`in` filter value must be wrapped by parentheses"))
            }
            // Realtime hands `{a,b}` to PostgreSQL, which splits it as an array literal.
            let inner = value.dropFirst().dropLast()
            let members = inner.isEmpty ? [] : arrayMembers(String(inner))
            return .success(Condition(column: column, op: op, values: members, negate: negate))
        }
        return .success(Condition(column: column, op: op, values: [unquote(value)], negate: negate))
    }

    /// The members of a PostgreSQL array literal's body: commas split outside double quotes,
    /// quotes and backslashes are removed, surrounding blanks of unquoted members dropped.
    static func arrayMembers(_ body: String) -> [String] {
        var out: [String] = [], current = "", quoted = false, wasQuoted = false
        var chars = Array(body), i = 0
        while i < chars.count {
            let c = chars[i]
            if c == "\\", i + 1 < chars.count { current.append(chars[i + 1]); i += 2; continue }
            if c == "\"" { quoted.toggle(); wasQuoted = true; i += 1; continue }
            if c == ",", !quoted {
                out.append(wasQuoted ? current : current.trimmingCharacters(in: .whitespaces)); current = ""; wasQuoted = false; i += 1; continue
            }
            current.append(c); i += 1
        }
        chars = []
        out.append(wasQuoted ? current : current.trimmingCharacters(in: .whitespaces))
        return out
    }

    /// `unquote_value/1`: `"a,b"` → `a,b` (backslash escapes), left as written when unbalanced.
    static func unquote(_ v: String) -> String {
        guard v.hasPrefix("\"") else { return v }
        var out = "", chars = Array(v.dropFirst()), i = 0
        while i < chars.count {
            let c = chars[i]
            if c == "\\", i + 1 < chars.count { out.append(chars[i + 1]); i += 2; continue }
            if c == "\"" { return i == chars.count - 1 ? out : v }
            out.append(c); i += 1
        }
        return v
    }

    /// The checks of `realtime.subscription_check_filters` against `table`; the exception text, or nil.
    package func validate(_ table: TableSchema) -> String? {
        for c in conditions {
            guard let col = table.columns.first(where: { $0.name == c.column }) else { return "invalid column for filter \(c.column)" }
            switch c.op {
            case .in:
                if c.values.count > 100 { return "too many values for `in` filter. Maximum 100" }
            case .is:
                let v = c.values.first ?? ""
                guard ["null", "true", "false", "unknown"].contains(v) else { return "invalid value for is filter: must be null, true, false, or unknown" }
                if v != "null", col.type != .boolean { return "is \(v) filter requires a boolean column, got \(col.type.description)" }
            case .like, .ilike, .match, .imatch:
                guard col.type == .text else { return "operator \(c.op.rawValue) requires a text-compatible column type, got \(col.type.description)" }
                if c.op == .match || c.op == .imatch, (try? NSRegularExpression(pattern: c.values.first ?? "")) == nil {
                    return "invalid regular expression for \(c.op.rawValue) filter"
                }
            default:
                break
            }
        }
        return nil
    }

    /// The filter with each value on a uuid column in PostgreSQL's canonical form, as
    /// `realtime.check_equality_op` casts both sides to the column's type before comparing
    /// (supabase/realtime priv/repo/tenant_schema/realtime/functions/check_equality_op.sql):
    /// `eq.550E8400-…` (supabase-swift writes a `UUID` filter value upper-case) matches the
    /// row's `550e8400-…`. A value that is not a UUID is left as written.
    package func castingUUIDs(in table: TableSchema) -> RealtimeFilter {
        var out = self
        for i in out.conditions.indices {
            guard table.columns.first(where: { $0.name == out.conditions[i].column })?.type == .uuid else { continue }
            out.conditions[i].values = out.conditions[i].values.map { v in UUID(uuidString: v).map { $0.uuidString.lowercased() } ?? v }
        }
        return out
    }

    /// Whether a row (JSON as the change carries it) passes every condition, as
    /// `realtime.check_equality_op` evaluates it: a comparison with NULL is NULL, so only `is null`
    /// and `isdistinct` can pass a missing or NULL column.
    package func matches(_ row: [String: JSONValue]) -> Bool {
        conditions.allSatisfy { Self.evaluate($0, row[$0.column] ?? .null) == true }
    }

    /// Three-valued result of one condition (nil is SQL NULL).
    static func evaluate(_ c: Condition, _ v: JSONValue) -> Bool? {
        let want = c.values.first ?? ""
        switch c.op {
        case .is:
            let r: Bool
            switch want {
            case "null": r = v == .null
            case "true": r = v == .bool(true)
            case "false": r = v == .bool(false)
            default: r = v == .null // IS UNKNOWN on a boolean is IS NULL
            }
            return c.negate ? !r : r
        case .isdistinct:
            let same = v != .null && compare(v, want) == 0
            return c.negate ? same : !same
        default:
            break
        }
        guard v != .null else { return nil }
        let r: Bool?
        switch c.op {
        case .eq: r = compare(v, want).map { $0 == 0 }
        case .neq: r = compare(v, want).map { $0 != 0 }
        case .lt: r = compare(v, want).map { $0 < 0 }
        case .lte: r = compare(v, want).map { $0 <= 0 }
        case .gt: r = compare(v, want).map { $0 > 0 }
        case .gte: r = compare(v, want).map { $0 >= 0 }
        case .in: r = c.values.contains { compare(v, $0) == 0 }
        case .like, .ilike: r = v.stringValue.map { like($0, want, caseInsensitive: c.op == .ilike) }
        case .match, .imatch:
            r = v.stringValue.flatMap { s in
                (try? NSRegularExpression(pattern: want, options: c.op == .imatch ? [.caseInsensitive] : []))
                    .map { $0.firstMatch(in: s, range: NSRange(s.startIndex..., in: s)) != nil }
            }
        case .is, .isdistinct: r = nil
        }
        guard let r else { return nil }
        return c.negate ? !r : r
    }

    /// The column value against the filter's text cast to the column's type.
    static func compare(_ v: JSONValue, _ want: String) -> Int? {
        switch v {
        case .int, .double, .number:
            guard let d = v.doubleValue, let w = Double(want) else { return nil }
            return d < w ? -1 : d > w ? 1 : 0
        case .bool(let b):
            let truthy = ["t", "true", "yes", "on", "1", "y"], falsy = ["f", "false", "no", "off", "0", "n"]
            let w = want.lowercased()
            guard truthy.contains(w) || falsy.contains(w) else { return nil }
            let wb = truthy.contains(w)
            return b == wb ? 0 : (b ? 1 : -1)
        default:
            let s = v.stringValue ?? v.serialized()
            return s < want ? -1 : s > want ? 1 : 0
        }
    }

    /// SQL LIKE: `%` any run, `_` one character, `\` escapes.
    static func like(_ s: String, _ pattern: String, caseInsensitive: Bool) -> Bool {
        var regex = "^"
        var chars = Array(pattern), i = 0
        while i < chars.count {
            let c = chars[i]
            if c == "\\", i + 1 < chars.count { regex += NSRegularExpression.escapedPattern(for: String(chars[i + 1])); i += 2; continue }
            regex += c == "%" ? ".*" : c == "_" ? "." : NSRegularExpression.escapedPattern(for: String(c))
            i += 1
        }
        chars = []
        regex += "$"
        guard
            let re = try? NSRegularExpression(
                pattern: regex, options: caseInsensitive ? [.caseInsensitive, .dotMatchesLineSeparators] : [.dotMatchesLineSeparators])
        else { return false }
        return re.firstMatch(in: s, range: NSRange(s.startIndex..., in: s)) != nil
    }
}
