import Foundation

/// PostgreSQL's jsonb ordering (documentation "jsonb Indexing": Object > Array > Boolean > Number >
/// String > Null; an object with more pairs, an array with more elements, is greater; otherwise
/// element by element, object keys in storage order: shorter first, then bytewise).
enum JSONBOrder {
    static func rank(_ v: JSONValue) -> Int {
        switch v {
        case .null: return 0
        case .string: return 1
        case .int, .double, .number: return 2
        case .bool: return 3
        case .array: return 4
        case .object: return 5
        }
    }

    static func storageOrder(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        return x.count != y.count ? x.count < y.count : x.lexicographicallyPrecedes(y)
    }

    /// Three-way comparison.
    static func compare(_ a: JSONValue, _ b: JSONValue) -> Int {
        let ra = rank(a), rb = rank(b)
        if ra != rb { return ra < rb ? -1 : 1 }
        switch (a, b) {
        case (.string(let x), .string(let y)): return x == y ? 0 : (x < y ? -1 : 1)
        case (.bool(let x), .bool(let y)): return x == y ? 0 : (x ? 1 : -1)
        case (.array(let x), .array(let y)):
            if x.count != y.count { return x.count < y.count ? -1 : 1 }
            for (p, q) in zip(x, y) { let c = compare(p, q); if c != 0 { return c } }
            return 0
        case (.object(let x), .object(let y)):
            if x.count != y.count { return x.count < y.count ? -1 : 1 }
            let kx = x.keys.sorted(by: storageOrder), ky = y.keys.sorted(by: storageOrder)
            for (k1, k2) in zip(kx, ky) {
                if k1 != k2 { return storageOrder(k1, k2) ? -1 : 1 }
                let c = compare(x[k1]!, y[k2]!)
                if c != 0 { return c }
            }
            return 0
        default:
            if case .number = a, let x = a.numericValue, let y = b.numericValue { return PGNumeric.compare(x, y) }
            if case .number = b, let x = a.numericValue, let y = b.numericValue { return PGNumeric.compare(x, y) }
            let x = a.doubleValue ?? 0, y = b.doubleValue ?? 0
            return x == y ? 0 : (x < y ? -1 : 1)
        }
    }

    /// A jsonb literal as PostgreSQL's input reads it, or 22P02 with its detail line.
    static func parse(_ text: String) throws -> JSONValue {
        if let j = try? JSONValue.parse(text) { return j }
        throw PostgresError("22P02", "invalid input syntax for type json", details: detail(text))
    }

    /// PostgreSQL's DETAIL for bad json input: an input cut short "ended unexpectedly"; otherwise
    /// the first token that cannot start a value is named.
    static func detail(_ text: String) -> String {
        var depth = 0, inString = false, escaped = false
        for ch in text {
            if inString {
                if escaped { escaped = false } else if ch == "\\" { escaped = true } else if ch == "\"" { inString = false }
                continue
            }
            switch ch {
            case "\"": inString = true
            case "{", "[": depth += 1
            case "}", "]": depth -= 1
            default: break
            }
        }
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.isEmpty || inString || depth > 0 || trimmed.hasSuffix(":") || trimmed.hasSuffix(",") { return "The input string ended unexpectedly." }
        let token = trimmed.prefix { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" || $0 == "." }
        return "Token \"\(token.isEmpty ? String(trimmed.prefix(1)) : String(token))\" is invalid."
    }
}
