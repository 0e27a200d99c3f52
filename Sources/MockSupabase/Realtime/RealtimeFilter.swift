import Foundation

/// A postgres_changes `filter`: `column=op.value` with op `eq neq lt lte gt gte in`
/// (`in.(a,b,c)`), as supabase/realtime accepts (lib/extensions/postgres_cdc_rls/subscriptions.ex
/// parses it; `realtime.is_visible_through_filters` casts the value to the column's type).
public struct RealtimeFilter: Sendable, Equatable {
    public enum Op: String, Sendable { case eq, neq, lt, lte, gt, gte, `in` }
    public var column: String
    public var op: Op
    public var values: [String]

    /// Parses a filter; nil (with the reason) when it is malformed.
    public static func parse(_ text: String) -> Result<RealtimeFilter, RealtimeSpecError> {
        guard let eq = text.firstIndex(of: "=") else { return .failure(RealtimeSpecError(message: "Error parsing `filter` params: \(text)")) }
        let column = String(text[..<eq])
        let rest = text[text.index(after: eq)...]
        guard let dot = rest.firstIndex(of: "."), let op = Op(rawValue: String(rest[..<dot])), !column.isEmpty else {
            return .failure(RealtimeSpecError(message: "Error parsing `filter` params: \(text)"))
        }
        let value = String(rest[rest.index(after: dot)...])
        if op == .in {
            guard value.hasPrefix("("), value.hasSuffix(")") else { return .failure(RealtimeSpecError(message: "Error parsing `filter` params: \(text)")) }
            let inner = value.dropFirst().dropLast()
            return .success(RealtimeFilter(column: column, op: op, values: inner.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }))
        }
        return .success(RealtimeFilter(column: column, op: op, values: [value]))
    }

    /// Whether a row (JSON as the change carries it) passes; a missing or NULL column never does.
    public func matches(_ row: [String: JSONValue]) -> Bool {
        guard let v = row[column], v != .null else { return false }
        func compare(_ want: String) -> Int? {
            switch v {
            case .int(let i):
                guard let w = Double(want) else { return nil }
                return Double(i) < w ? -1 : Double(i) > w ? 1 : 0
            case .double(let d):
                guard let w = Double(want) else { return nil }
                return d < w ? -1 : d > w ? 1 : 0
            case .bool(let b):
                guard let w = Bool(want.lowercased()) else { return nil }
                return b == w ? 0 : (b ? 1 : -1)
            case .string(let s):
                return s < want ? -1 : s > want ? 1 : 0
            default:
                let s = v.serialized()
                return s < want ? -1 : s > want ? 1 : 0
            }
        }
        switch op {
        case .eq: return compare(values[0]) == 0
        case .neq: return compare(values[0]).map { $0 != 0 } ?? false
        case .lt: return compare(values[0]).map { $0 < 0 } ?? false
        case .lte: return compare(values[0]).map { $0 <= 0 } ?? false
        case .gt: return compare(values[0]).map { $0 > 0 } ?? false
        case .gte: return compare(values[0]).map { $0 >= 0 } ?? false
        case .in: return values.contains { compare($0) == 0 }
        }
    }
}
