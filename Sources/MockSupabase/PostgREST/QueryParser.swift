import Foundation

/// One item of a `select=` list.
indirect enum SelectItem: Equatable {
    /// `*`.
    case star
    /// `alias:column::cast` (alias and cast optional); `col->key`/`col->>key` allowed.
    case column(name: String, alias: String?, cast: String?)
    /// `alias:relation!hint!inner(items)`.
    case embed(relation: String, alias: String?, hint: String?, inner: Bool, items: [SelectItem])
}

/// The parsed query string of a PostgREST request.
struct ParsedQuery {
    var select: [SelectItem] = [.star]
    var filter: [RowFilter] = []
    /// Filters on embedded resources: relation path → filters.
    var embeddedFilters: [String: [RowFilter]] = [:]
    var order: [OrderTerm] = []
    var limit: Int?
    var offset: Int = 0
    var onConflict: [String]?
    var columns: [String]?
    /// Remaining name=value pairs (RPC arguments for GET).
    var others: [(String, String)] = []

    var hasFilters: Bool { !filter.isEmpty || !embeddedFilters.isEmpty }
}

/// PostgREST's query-string grammar (`select`, filters with `not.`, `or=(…)`, `and=(…)`, `order`,
/// `limit`, `offset`, `on_conflict`, `columns`). Parse failures are PGRST100 as PostgREST words them.
enum QueryParser {
    static let reserved: Set<String> = ["select", "order", "limit", "offset", "on_conflict", "columns", "or", "and", "not.or", "not.and"]

    static func parse(_ items: [(name: String, value: String)], forRPC: Bool = false) throws -> ParsedQuery {
        var q = ParsedQuery()
        for (name, value) in items {
            switch name {
            case "select":
                q.select = try parseSelect(value)
            case "order":
                q.order = try parseOrder(value)
            case "limit":
                guard let n = Int(value), n >= 0 else {
                    throw PostgresError("PGRST100", "\"failed to parse limit parameter (\(value))\" (line 1, column 1)", details: "unexpected \"\(value.prefix(1))\" expecting digit")
                }
                q.limit = n
            case "offset":
                guard let n = Int(value), n >= 0, n < 1 << 40 else {
                    throw PostgresError("PGRST100", "\"failed to parse offset parameter (\(value))\" (line 1, column 1)", details: "unexpected \"\(value.prefix(1))\" expecting digit")
                }
                q.offset = n
            case "on_conflict":
                q.onConflict = value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            case "columns":
                q.columns = value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\"")) }
            case "or", "and", "not.or", "not.and":
                let isOr = name.hasSuffix("or")
                let parts = try parseLogicBody(value, op: name)
                var f: RowFilter = isOr ? .or(parts) : .and(parts)
                if name.hasPrefix("not.") { f = .not(f) }
                q.filter.append(f)
            default:
                if name.hasSuffix(".or") || name.hasSuffix(".and") {
                    // Logic tree on an embedded resource: `rel.or=(…)`.
                    let isOr = name.hasSuffix(".or")
                    let rel = String(name.dropLast(isOr ? 3 : 4))
                    let parts = try parseLogicBody(value, op: isOr ? "or" : "and")
                    q.embeddedFilters[rel, default: []].append(isOr ? .or(parts) : .and(parts))
                    continue
                }
                if forRPC && !looksLikeFilter(value) {
                    q.others.append((name, value))
                    continue
                }
                let f = try parseFilter(column: name, value)
                if name.utf8.contains(0x2E), let dot = name.lastIndex(of: "."), !name.utf8.contains(0x3E) {
                    let rel = String(name[..<dot])
                    let col = String(name[name.index(after: dot)...])
                    if case .condition(_, let op, let v, let neg) = f {
                        q.embeddedFilters[rel, default: []].append(.condition(column: col, op: op, value: v, negated: neg))
                    }
                } else {
                    q.filter.append(f)
                }
            }
        }
        return q
    }

    static func looksLikeFilter(_ value: String) -> Bool {
        var v = Substring(value)
        if v.hasPrefix("not.") { v = v.dropFirst(4) }
        guard let dot = v.firstIndex(of: ".") else { return false }
        let op = v[..<dot].split(separator: "(").first.map(String.init) ?? ""
        return FilterOp(rawValue: op) != nil || ["fts", "plfts", "phfts", "wfts"].contains(op)
    }

    static func filterError(_ text: String, expecting: String = "\"not\" or operator (eq, gt, ...)") -> PostgresError {
        PostgresError("PGRST100", "\"failed to parse filter (\(text))\" (line 1, column \(min(text.count, 1) + 0))",
                      details: "unexpected \"\(text.prefix(1))\" expecting \(expecting)")
    }

    /// `op.value`, `not.op.value`, `in.(a,b)`, `is.null`.
    static func parseFilter(column: String, _ raw: String) throws -> RowFilter {
        var v = Substring(raw)
        var negated = false
        if v.hasPrefix("not.") { negated = true; v = v.dropFirst(4) }
        guard let dot = v.firstIndex(of: ".") else { throw filterError(raw) }
        var opText = String(v[..<dot])
        let rest = String(v[v.index(after: dot)...])
        // Modifiers like eq(any) are not supported by the apps; reject precisely.
        if let paren = opText.firstIndex(of: "(") { opText = String(opText[..<paren]) }
        guard let op = FilterOp(rawValue: opText) else {
            throw PostgresError("PGRST100", "\"failed to parse filter (\(raw))\" (line 1, column 1)",
                                details: "unexpected \"\(raw.prefix(1))\" expecting \"not\" or operator (eq, gt, ...)")
        }
        switch op {
        case .in:
            guard rest.hasPrefix("("), rest.hasSuffix(")") else {
                throw PostgresError("PGRST100", "\"failed to parse filter (\(raw))\" (line 1, column \(raw.count + 1))", details: "unexpected end of input expecting \"(\"")
            }
            let items = try splitList(String(rest.dropFirst().dropLast()), raw: raw)
            return .condition(column: column, op: .in, value: .list(items.map { $0.quoted ? $0.text : ($0.text.lowercased() == "null" ? nil : $0.text) }), negated: negated)
        case .is:
            let w = rest.lowercased()
            guard ["null", "true", "false", "unknown", "not_null"].contains(w) else {
                throw PostgresError("PGRST100", "\"failed to parse filter (\(raw))\" (line 1, column 4)", details: "unexpected \"\(rest.prefix(1))\" expecting null or trilean value (unknown, true, false)")
            }
            if w == "not_null" { return .condition(column: column, op: .is, value: .isValue("null"), negated: !negated) }
            return .condition(column: column, op: .is, value: .isValue(w), negated: negated)
        case .cs, .cd, .ov:
            // `{a,b}` array literal or a JSON document for jsonb; `(a,b)` ranges are unsupported.
            return .condition(column: column, op: op, value: .text(rest), negated: negated)
        default:
            var text = rest
            if text.count >= 2, text.hasPrefix("\""), text.hasSuffix("\"") { text = String(text.dropFirst().dropLast()) }
            return .condition(column: column, op: op, value: .text(text), negated: negated)
        }
    }

    struct ListItem { var text: String; var quoted: Bool }

    /// Splits `a,"b,c",d` honouring double quotes and backslash escapes.
    static func splitList(_ s: String, raw: String) throws -> [ListItem] {
        if s.isEmpty { return [] }
        var out: [ListItem] = []
        var cur = ""
        var quoted = false, wasQuoted = false, esc = false
        for ch in s {
            if esc { cur.append(ch); esc = false; continue }
            if ch == "\\" && quoted { esc = true; continue }
            if ch == "\"" { quoted.toggle(); wasQuoted = true; continue }
            if ch == "," && !quoted {
                out.append(ListItem(text: wasQuoted ? cur : cur.trimmingCharacters(in: .whitespaces), quoted: wasQuoted))
                cur = ""; wasQuoted = false
                continue
            }
            cur.append(ch)
        }
        if quoted { throw PostgresError("PGRST100", "\"failed to parse filter (\(raw))\" (line 1, column \(raw.count + 1))", details: "unexpected end of input expecting \"\\\"\"") }
        out.append(ListItem(text: wasQuoted ? cur : cur.trimmingCharacters(in: .whitespaces), quoted: wasQuoted))
        return out
    }

    /// `(a.eq.1,and(b.gt.2,c.is.null),not.d.eq.3)`.
    static func parseLogicBody(_ raw: String, op: String) throws -> [RowFilter] {
        let s = raw.trimmingCharacters(in: .whitespaces)
        // PostgREST parses `op + value` (`or(…`), so columns count from the operator; see
        // pRequestLogicTree / pLogicTree in src/PostgREST/ApiRequest/QueryParams.hs.
        func treeError(_ column: Int, _ found: Character?, _ expecting: String) -> PostgresError {
            PostgresError("PGRST100", "\"failed to parse logic tree (\(raw))\" (line 1, column \(column))",
                          details: "unexpected \(found.map { "\"\($0)\"" } ?? "end of input") expecting \(expecting)")
        }
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        let lead = raw.prefix(while: isSpace).count
        guard s.hasPrefix("(") else { throw treeError(op.count + lead + 1, s.first, "\"(\"") }
        let afterParen = raw.dropFirst(lead + 1)
        let gap = afterParen.prefix(while: isSpace).count
        if let first = afterParen.dropFirst(gap).first, first != ")" && first != "," {
            // an element starts here; the rest is checked below
        } else {
            throw treeError(op.count + lead + 2 + gap, afterParen.dropFirst(gap).first,
                            "field name (* or [a..z0..9_$]), negation operator (not) or logic operator (and, or)")
        }
        guard s.hasSuffix(")") else {
            throw PostgresError("PGRST100", "\"failed to parse logic tree (\(raw))\" (line 1, column \(op.count + raw.count + 1))", details: "unexpected end of input expecting \")\"")
        }
        let inner = String(s.dropFirst().dropLast())
        var parts: [String] = []
        var depth = 0, quoted = false
        var cur = ""
        for ch in inner {
            if ch == "\"" { quoted.toggle() }
            if !quoted {
                if ch == "(" { depth += 1 }
                if ch == ")" { depth -= 1; if depth < 0 { throw PostgresError("PGRST100", "\"failed to parse logic tree (\(raw))\" (line 1, column 1)", details: "unbalanced parentheses") } }
                if ch == "," && depth == 0 { parts.append(cur); cur = ""; continue }
            }
            cur.append(ch)
        }
        if depth != 0 || quoted { throw PostgresError("PGRST100", "\"failed to parse logic tree (\(raw))\" (line 1, column \(raw.count + 1))", details: "unexpected end of input expecting \")\"") }
        parts.append(cur)
        return try parts.map { p -> RowFilter in
            let t = p.trimmingCharacters(in: .whitespaces)
            for (prefix, isOr, neg) in [("or(", true, false), ("and(", false, false), ("not.or(", true, true), ("not.and(", false, true)] where t.hasPrefix(prefix) {
                let body = String(t.dropFirst(prefix.count - 1))
                let sub = try parseLogicBody(body, op: isOr ? "or" : "and")
                let f: RowFilter = isOr ? .or(sub) : .and(sub)
                return neg ? .not(f) : f
            }
            // column.op.value (column may not contain dots except json arrows)
            guard let dot = t.firstIndex(of: ".") else {
                throw PostgresError("PGRST100", "\"failed to parse logic tree (\(raw))\" (line 1, column 1)", details: "unexpected \"\(t.prefix(1))\" expecting field name (* or [a..z0..9_$])")
            }
            let col = String(t[..<dot])
            return try parseFilter(column: col, String(t[t.index(after: dot)...]))
        }
    }

    /// `col.desc.nullslast,other`.
    static func parseOrder(_ raw: String) throws -> [OrderTerm] {
        var out: [OrderTerm] = []
        for term in raw.split(separator: ",", omittingEmptySubsequences: false) {
            let parts = term.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            guard let col = parts.first, !col.isEmpty, parts.count <= 3 else {
                throw PostgresError("PGRST100", "\"failed to parse order (\(raw))\" (line 1, column 1)", details: "unexpected \"\(raw.prefix(1))\" expecting field name (* or [a..z0..9_$])")
            }
            var t = OrderTerm(column: col)
            for mod in parts.dropFirst() {
                switch mod {
                case "asc": t.descending = false
                case "desc": t.descending = true
                case "nullsfirst": t.nullsFirst = true
                case "nullslast": t.nullsFirst = false
                default:
                    throw PostgresError("PGRST100", "\"failed to parse order (\(raw))\" (line 1, column \(col.count + 2))", details: "unexpected \"\(mod.prefix(1))\" expecting \"asc\", \"desc\", \"nullsfirst\" or \"nullslast\"")
                }
            }
            out.append(t)
        }
        return out
    }

    /// `*,alias:col::text,rel!fk(a,b),other!inner(*)`.
    static func parseSelect(_ raw: String) throws -> [SelectItem] {
        var p = SelectParser(chars: Array(raw), raw: raw)
        let items = try p.list(topLevel: true)
        return items.isEmpty ? [.star] : items
    }

    struct SelectParser {
        let chars: [Character]
        let raw: String
        var i = 0

        func fail(_ expecting: String) -> PostgresError {
            let found = i < chars.count ? "\"\(chars[i])\"" : "end of input"
            return PostgresError("PGRST100", "\"failed to parse select parameter (\(raw))\" (line 1, column \(i + 1))", details: "unexpected \(found) expecting \(expecting)")
        }

        mutating func skipSpaces() { while i < chars.count, chars[i] == " " { i += 1 } }

        mutating func list(topLevel: Bool) throws -> [SelectItem] {
            var items: [SelectItem] = []
            skipSpaces()
            if i >= chars.count { return items }
            while true {
                skipSpaces()
                items.append(try item())
                skipSpaces()
                if i >= chars.count {
                    if !topLevel { throw fail("\")\"") }
                    return items
                }
                if chars[i] == "," { i += 1; continue }
                if chars[i] == ")" && !topLevel { return items }
                throw fail("\",\" or end of input")
            }
        }

        mutating func identifier() -> String {
            var s = ""
            if i < chars.count, chars[i] == "\"" {
                i += 1
                while i < chars.count, chars[i] != "\"" { s.append(chars[i]); i += 1 }
                if i < chars.count { i += 1 }
                return s
            }
            while i < chars.count, chars[i].isLetter || chars[i].isNumber || chars[i] == "_" || chars[i] == "$" { s.append(chars[i]); i += 1 }
            return s
        }

        mutating func item() throws -> SelectItem {
            if i < chars.count, chars[i] == "*" { i += 1; return .star }
            var name = identifier()
            guard !name.isEmpty else { throw fail("field name (* or [a..z0..9_$])") }
            var alias: String?
            if i < chars.count, chars[i] == ":", i + 1 < chars.count, chars[i + 1] != ":" {
                i += 1
                alias = name
                name = identifier()
                guard !name.isEmpty else { throw fail("field name (* or [a..z0..9_$])") }
            }
            // json arrows
            while i + 1 < chars.count, chars[i] == "-", chars[i + 1] == ">" {
                var arrow = "->"
                i += 2
                if i < chars.count, chars[i] == ">" { arrow = "->>"; i += 1 }
                let key = identifier()
                guard !key.isEmpty else { throw fail("field name") }
                name += arrow + key
            }
            var hint: String?
            var inner = false
            while i < chars.count, chars[i] == "!" {
                i += 1
                let h = identifier()
                if h == "inner" { inner = true } else if h == "left" { inner = false } else { hint = h }
            }
            if i < chars.count, chars[i] == "(" {
                i += 1
                let sub = try list(topLevel: false)
                guard i < chars.count, chars[i] == ")" else { throw fail("\")\"") }
                i += 1
                return .embed(relation: name, alias: alias, hint: hint, inner: inner, items: sub.isEmpty ? [.star] : sub)
            }
            var cast: String?
            if i + 1 < chars.count, chars[i] == ":", chars[i + 1] == ":" {
                i += 2
                cast = identifier()
            }
            return .column(name: name, alias: alias, cast: cast)
        }
    }
}

/// `Prefer` header values, any order and any case, several headers merged.
struct Preferences {
    enum Return { case minimal, representation, headersOnly }
    var returning: Return?
    var count = false
    var resolution: Database.ConflictResolution = .error
    var missingDefault = false
    var applied: [String] = []

    init(_ headers: HTTPHeaders) {
        for value in headers.values("Prefer") {
            for part in value.split(separator: ",") {
                let p = part.trimmingCharacters(in: .whitespaces)
                let kv = p.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
                guard kv.count == 2 else { continue }
                switch (kv[0], kv[1]) {
                case ("return", "minimal"): returning = .minimal; applied.append("return=minimal")
                case ("return", "representation"): returning = .representation; applied.append("return=representation")
                case ("return", "headers-only"): returning = .headersOnly; applied.append("return=headers-only")
                case ("count", "exact"), ("count", "planned"), ("count", "estimated"): count = true; applied.append("count=\(kv[1])")
                case ("resolution", "merge-duplicates"): resolution = .merge; applied.append("resolution=merge-duplicates")
                case ("resolution", "ignore-duplicates"): resolution = .ignore; applied.append("resolution=ignore-duplicates")
                case ("missing", "default"): missingDefault = true; applied.append("missing=default")
                default: break
                }
            }
        }
    }
}
