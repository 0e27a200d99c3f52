import Foundation

/// One item of a `select=` list.
indirect enum SelectItem: Equatable {
    /// `*`.
    case star
    /// `alias:column::cast` (alias and cast optional); `col->key`/`col->>key` allowed.
    case column(name: String, alias: String?, cast: String?)
    /// `alias:relation!hint!inner(items)`; `items` is empty for `relation()`, an embed used
    /// only to filter (not printed).
    case embed(relation: String, alias: String?, hint: String?, inner: Bool, items: [SelectItem])
    /// `...relation!hint(items)`: the related row's fields spliced into the parent.
    case spread(relation: String, hint: String?, inner: Bool, items: [SelectItem])
    /// `alias:column::inputCast.function()::cast` (`count()` has no column): an aggregate
    /// (QueryParams.hs `pFieldSelect`); `function` is `count`, `sum`, `avg`, `max` or `min`.
    case aggregate(function: String, column: String?, inputCast: String?, alias: String?, cast: String?)
}

/// `order`, `limit` and `offset` of one embedded resource (`tasks.order=name`, `tasks.limit=2`).
struct EmbedRange: Equatable {
    var order: [OrderTerm] = []
    var limit: Int?
    var offset = 0

    /// The range `db-max-rows` leaves (RangeQuery.hs `restrictRange`: the requested range cut to
    /// `maxRows` rows from its offset; `limit=0` stays empty).
    func restricted(to maxRows: Int?) -> EmbedRange {
        var r = self
        r.limit = EmbedRange.limit(limit, restrictedTo: maxRows)
        return r
    }

    /// A limit cut to `maxRows` (nil: no limit either way).
    static func limit(_ limit: Int?, restrictedTo maxRows: Int?) -> Int? {
        guard let maxRows else { return limit }
        return min(limit ?? maxRows, maxRows)
    }
}

/// The parsed query string of a PostgREST request.
struct ParsedQuery {
    var select: [SelectItem] = [.star]
    var filter: [RowFilter] = []
    /// Filters on embedded resources: relation path → filters.
    var embeddedFilters: [String: [RowFilter]] = [:]
    /// Order, limit and offset of embedded resources: relation path → range.
    var embeddedRanges: [String: EmbedRange] = [:]
    var order: [OrderTerm] = []
    var limit: Int?
    var offset: Int = 0
    var onConflict: [String]?
    var columns: [String]?
    /// Remaining name=value pairs (RPC arguments for GET).
    var others: [(String, String)] = []

    var hasFilters: Bool { !filter.isEmpty || !embeddedFilters.isEmpty }
    /// Whether `select` used an aggregate (`count()`, `col.sum()`).
    var aggregate = false
    /// With an aggregate, the select list as written (`select` then holds it with the
    /// aggregates reduced to their columns, what a read with aggregates off plans before its
    /// PGRST123).
    var aggregateSelect: [SelectItem]?

    /// PGRST123: aggregates need `db-aggregates-enabled`, off in PostgREST and on Supabase unless
    /// a project turns it on (Error.hs `AggregatesNotAllowed`). Plan.hs `readPlan` checks it
    /// after resolving relationships, so parse, range and relationship errors come first.
    func rejectAggregates() throws {
        if aggregate { throw PostgresError("PGRST123", "Use of aggregate functions is not allowed") }
    }
}

/// PostgREST's query-string grammar (`select`, filters with `not.`, `or=(…)`, `and=(…)`, `order`,
/// `limit`, `offset`, `on_conflict`, `columns`). Parse failures are PGRST100 as PostgREST words them.
enum QueryParser {
    static let reserved: Set<String> = ["select", "order", "limit", "offset", "on_conflict", "columns", "or", "and", "not.or", "not.and"]

    /// QueryParams.hs `parse` reads `order`, then the logic trees, `columns`, `select`, the
    /// filters and `on_conflict`, so the first malformed one in that order is the one reported;
    /// a negative `limit` (PGRST103) is judged after all of them (ApiRequest.hs `getRanges`).
    static func priority(_ name: String) -> Int {
        if name == "order" || name.hasSuffix(".order") { return 0 }
        if ["or", "and", "not.or", "not.and"].contains(name) || name.hasSuffix(".or") || name.hasSuffix(".and") { return 1 }
        switch name {
        case "columns": return 2
        case "select": return 3
        case "on_conflict": return 5
        case "limit", "offset": return 6
        default: return name.hasSuffix(".limit") || name.hasSuffix(".offset") ? 6 : 4
        }
    }

    static func parse(_ items: [(name: String, value: String)], forRPC: Bool = false) throws -> ParsedQuery {
        var q = ParsedQuery()
        var rangeError: PostgresError?
        func limitValue(_ v: String) -> Int? {
            do { return try QueryParser.limitValue(v) } catch let e as PostgresError { if rangeError == nil { rangeError = e }; return nil } catch {
                return nil
            }
        }
        let ordered = items.enumerated().sorted { (priority($0.element.name), $0.offset) < (priority($1.element.name), $1.offset) }.map(\.element)
        for (name, value) in ordered {
            switch name {
            case "select":
                let parsed = try parseSelectItems(value)
                (q.select, q.aggregate) = (parsed.items, parsed.aggregate)
                if parsed.aggregate { q.aggregateSelect = parsed.written }
            case "order":
                q.order = try parseOrder(value)
            case "limit":
                if let n = limitValue(value) { q.limit = n }
            case "offset":
                if let n = offsetValue(value) { q.offset = n }
            case "on_conflict":
                q.onConflict = value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            case "columns":
                if value.trimmingCharacters(in: CharacterSet(charactersIn: " \t")).isEmpty {
                    throw PostgresError(
                        "PGRST100", "\"failed to parse columns parameter (\(value))\" (line 1, column \(value.count + 1))",
                        details: "unexpected end of input expecting field name (* or [a..z0..9_$])")
                }
                q.columns = value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\"")) }
            case "or", "and", "not.or", "not.and":
                q.filter.append(try parseLogicTree(op: name, value))
            default:
                if let dot = name.lastIndex(of: "."), ["order", "limit", "offset"].contains(name[name.index(after: dot)...]) {
                    let rel = String(name[..<dot])
                    switch name[name.index(after: dot)...] {
                    case "order": q.embeddedRanges[rel, default: EmbedRange()].order = try parseOrder(value)
                    case "limit":
                        if let n = limitValue(value) { q.embeddedRanges[rel, default: EmbedRange()].limit = n }
                    default:
                        if let n = offsetValue(value) { q.embeddedRanges[rel, default: EmbedRange()].offset = n }
                    }
                    continue
                }
                if name.hasSuffix(".or") || name.hasSuffix(".and") {
                    // Logic tree on an embedded resource: `rel.or=(…)`.
                    let isOr = name.hasSuffix(".or")
                    var rel = String(name.dropLast(isOr ? 3 : 4))
                    var op = isOr ? "or" : "and"
                    if rel.hasSuffix(".not") { rel = String(rel.dropLast(4)); op = "not." + op }
                    q.embeddedFilters[rel, default: []].append(try parseLogicTree(op: op, value))
                    continue
                }
                if forRPC && !looksLikeFilter(value) {
                    q.others.append((name, value))
                    continue
                }
                // A quoted field name (`"*id*"`, `"a.dotted.column"`) is one column of this table
                // (QueryParams.hs `pFieldName`), dots and arrows inside it included.
                if name.count >= 2, name.hasPrefix("\""), name.hasSuffix("\""), !name.dropFirst().dropLast().contains("\"") {
                    q.filter.append(try parseFilter(column: String(name.dropFirst().dropLast()), value))
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
        if let rangeError { throw rangeError }
        return q
    }

    /// `limit=`: PostgREST reads it with `readMaybe` (QueryParams.hs): text that is not a number
    /// sets no limit; a negative one is PGRST103 (416).
    static func limitValue(_ value: String) throws -> Int? {
        guard let n = Int(value) else { return nil }
        if n < 0 {
            throw PostgresError("PGRST103", "Requested range not satisfiable", details: "Limit should be greater than or equal to zero.")
        }
        return n
    }

    /// `offset=`: not a number or negative is no offset (`rangeGeq` of a negative bound).
    static func offsetValue(_ value: String) -> Int? {
        guard let n = Int(value) else { return nil }
        return min(max(n, 0), 1 << 40)
    }

    static func looksLikeFilter(_ value: String) -> Bool {
        var v = Substring(value)
        if v.hasPrefix("not.") { v = v.dropFirst(4) }
        guard let dot = v.firstIndex(of: ".") else { return false }
        let op = v[..<dot].split(separator: "(").first.map(String.init) ?? ""
        return FilterOp(rawValue: op) != nil || ["fts", "plfts", "phfts", "wfts"].contains(op)
    }

    /// A top-level filter `column=[not.]op.value`: PostgREST's `pOpExpr pSingleVal`, where the
    /// value is the rest of the text, quotes and all.
    static func parseFilter(column: String, _ raw: String) throws -> RowFilter {
        let p = LogicTreeParser(raw)
        switch p.opExpr(0, logic: false) {
        case .failure(let f): throw f.error("filter", value: raw)
        case .success(let (expr, _)):
            do { return try rowFilter(column: column, expr) } catch let f as ParseFailure { throw f.error("filter", value: raw) }
        }
    }

    /// Binds an operator expression to a column. Operators PostgREST has and the engine does not
    /// evaluate (`sl`, `fts`, …) are refused as an unknown operator.
    static func rowFilter(column: String, _ e: LogicTreeParser.OpExpr) throws -> RowFilter {
        switch e.value {
        case .list(let items):
            // `in.()` is the list `[""]`, which PostgREST sends as `= ANY('{}')` (SqlFragment.hs).
            if items.count == 1, items[0].text.isEmpty { return .condition(column: column, op: .in, value: .list([]), negated: e.negated) }
            return .condition(
                column: column, op: .in, value: .list(items.map { $0.quoted ? $0.text : ($0.text.lowercased() == "null" ? nil : $0.text) }), negated: e.negated)
        case .isValue(let w):
            if w == "not_null" { return .condition(column: column, op: .is, value: .isValue("null"), negated: !e.negated) }
            return .condition(column: column, op: .is, value: .isValue(w), negated: e.negated)
        case .single(let text):
            if LogicTreeParser.ftsOps.contains(e.op), let op = FilterOp(rawValue: e.op) {
                // `fts(lang).value`: the parser keeps the language where a quantifier would be.
                return .condition(column: column, op: op, value: .search(language: e.quantifier, query: text), negated: e.negated)
            }
            guard let op = FilterOp(rawValue: e.op) else {
                throw ParseFailure(position: 0, unexpected: "\"\(e.op.prefix(1))\"", expecting: ["\"not\" or operator (eq, gt, ...)"], consumed: true)
            }
            if let q = e.quantifier, q == "any" || q == "all" {
                // `eq(any).{a,b}`: the value is an array literal; any/all of its elements.
                let elements = try arrayLiteralElements(text)
                let parts = elements.map { RowFilter.condition(column: column, op: op, value: .text($0), negated: false) }
                let g: RowFilter = q == "any" ? .or(parts) : .and(parts)
                return e.negated ? .not(g) : g
            }
            return .condition(column: column, op: op, value: .text(text), negated: e.negated)
        }
    }

    /// The elements of a PostgreSQL array literal `{a,"b c"}` (as `ANY('{…}')` reads it).
    static func arrayLiteralElements(_ text: String) throws -> [String] {
        let t = text.trimmingCharacters(in: .whitespaces)
        guard t.hasPrefix("{"), t.hasSuffix("}") else {
            throw PostgresError("22P02", "malformed array literal: \"\(text)\"", details: "Array value must start with \"{\" or dimension information.")
        }
        return try splitList(String(t.dropFirst().dropLast()), raw: text).map(\.text)
    }

    struct ListItem: Equatable { var text: String; var quoted: Bool }

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
        if quoted {
            throw PostgresError(
                "PGRST100", "\"failed to parse filter (\(raw))\" (line 1, column \(raw.count + 1))", details: "unexpected end of input expecting \"\\\"\"")
        }
        out.append(ListItem(text: wasQuoted ? cur : cur.trimmingCharacters(in: .whitespaces), quoted: wasQuoted))
        return out
    }

    /// A logic tree parameter (`or`, `and`, `not.or`, `not.and`) with its value `(…)`, parsed as
    /// PostgREST parses `op <> value` (see `LogicTreeParser`).
    static func parseLogicTree(op: String, _ value: String) throws -> RowFilter {
        switch LogicTreeParser(op + value).tree() {
        case .success(let f): return f
        case .failure(let e): throw e.error("logic tree", value: value)
        }
    }

    /// `col.desc.nullslast,other`.
    /// `order=`, read by `OrderParser` as PostgREST's `pOrder` reads it.
    static func parseOrder(_ raw: String) throws -> [OrderTerm] { try OrderParser.parse(raw) }

    /// The select list (`*,alias:col::text,rel!fk(a,b),other!inner(*)`) with its aggregates
    /// reduced to their columns, whether it used an aggregate (judged later, see
    /// `rejectAggregates`), and the list as written.
    static func parseSelectItems(_ raw: String) throws -> (items: [SelectItem], aggregate: Bool, written: [SelectItem]) {
        var p = SelectParser(chars: Array(raw), raw: raw)
        let items = try p.list(topLevel: true)
        // With aggregates off an aggregate is only a marker: the request is refused later
        // (PGRST123) and the rest of the list still resolves relationships first.
        func dropCounts(_ list: [SelectItem]) -> [SelectItem] {
            list.compactMap { item in
                switch item {
                case .aggregate(_, nil, _, _, _): return nil
                case .aggregate(_, let column?, _, let alias, let cast): return .column(name: column, alias: alias, cast: cast)
                case .embed(let r, let a, let h, let inner, let sub): return .embed(relation: r, alias: a, hint: h, inner: inner, items: dropCounts(sub))
                case .spread(let r, let h, let inner, let sub): return .spread(relation: r, hint: h, inner: inner, items: dropCounts(sub))
                default: return item
                }
            }
        }
        let kept = p.aggregate ? dropCounts(items) : items
        return (kept.isEmpty ? [.star] : kept, p.aggregate, items)
    }

    struct SelectParser {
        let chars: [Character]
        let raw: String
        var i = 0
        /// Embedding depth of the list being read.
        var depth = 0
        /// Whether an aggregate (`count()`, `col.sum()`) was read.
        var aggregate = false
        static let aggregates = ["count", "sum", "avg", "max", "min"]

        /// `()` after an aggregate's name, consumed when present.
        mutating func emptyParens() -> Bool {
            guard i + 1 < chars.count, chars[i] == "(", chars[i + 1] == ")" else { return false }
            i += 2
            return true
        }
        /// Deepest embedding read (a decision, like `LogicTreeParser.maxDepth`: PostgREST has no
        /// limit, each level is a lateral subquery PostgreSQL plans recursively; the mock refuses
        /// deeper lists with a PGRST100 before its recursive planning could exhaust a thread's stack).
        static let maxDepth = 200

        func fail(_ expecting: String) -> PostgresError {
            let found = i < chars.count ? "\"\(chars[i])\"" : "end of input"
            return PostgresError(
                "PGRST100", "\"failed to parse select parameter (\(raw))\" (line 1, column \(i + 1))", details: "unexpected \(found) expecting \(expecting)")
        }

        mutating func skipSpaces() { while i < chars.count, chars[i] == " " { i += 1 } }

        mutating func list(topLevel: Bool) throws -> [SelectItem] {
            var items: [SelectItem] = []
            skipSpaces()
            if i >= chars.count { return items }
            if !topLevel && chars[i] == ")" { return items }
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
                // PostgREST parses the top-level list with `sepBy` and no `eof` (QueryParams.hs
                // `pRequestSelect`): what follows a complete list is ignored (`a,b(c))` reads `a,b(c)`).
                if topLevel { return items }
                throw fail("\",\" or end of input")
            }
        }

        /// `pFieldName`: a quoted name (a backslash escapes any character) or identifiers of
        /// letters, digits, `_`, `$` and spaces (trimmed) joined by dashes that do not start an
        /// arrow (`field-with_sep`).
        mutating func identifier() -> String {
            var s = ""
            if i < chars.count, chars[i] == "\"" {
                i += 1
                while i < chars.count, chars[i] != "\"" {
                    if chars[i] == "\\", i + 1 < chars.count { i += 1 }
                    s.append(chars[i]); i += 1
                }
                if i < chars.count { i += 1 }
                return s
            }
            func isIdent(_ c: Character) -> Bool { c.isLetter || c.isNumber || c == "_" || c == "$" || c == " " }
            var words: [String] = []
            while true {
                var w = ""
                while i < chars.count, isIdent(chars[i]) { w.append(chars[i]); i += 1 }
                guard !w.isEmpty else { break }
                words.append(w.trimmingCharacters(in: .whitespaces))
                if i + 1 < chars.count, chars[i] == "-", chars[i + 1] != ">", isIdent(chars[i + 1]) { i += 1 } else { break }
            }
            s = words.joined(separator: "-")
            return s
        }

        /// `pJsonOperand`: an index (`0`, `-1`), a quoted key, or key characters (none of
        /// `(-:.,>)`) joined by dashes not starting an arrow.
        mutating func jsonKey() -> String {
            if i < chars.count, chars[i] == "\"" {
                var s = ""
                i += 1
                while i < chars.count, chars[i] != "\"" { s.append(chars[i]); i += 1 }
                if i < chars.count { i += 1 }
                return s
            }
            var s = ""
            if i < chars.count, chars[i] == "-" { s = "-"; i += 1 }
            while i < chars.count {
                let c = chars[i]
                if "(:.,>)".contains(c) { break }
                if c == "-" {
                    if i + 1 < chars.count, chars[i + 1] == ">" { break }
                    if s.isEmpty || s == "-" { break }
                }
                s.append(c)
                i += 1
            }
            return s == "-" ? "" : s
        }

        mutating func item() throws -> SelectItem {
            if i < chars.count, chars[i] == "*" { i += 1; return .star }
            var spread = false
            if i + 2 < chars.count, chars[i] == ".", chars[i + 1] == ".", chars[i + 2] == "." { spread = true; i += 3 }
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
                // QueryParams.hs `pJsonOperand`: an index (optional `-`, digits) is tried before a
                // key, so a dash not followed by a digit fails where the digit was expected.
                if i < chars.count, chars[i] == "-", !(i + 1 < chars.count && ("0"..."9").contains(chars[i + 1])) {
                    i += 1
                    throw fail("digit")
                }
                let key = jsonKey()
                guard !key.isEmpty else { throw fail("\"-\", digit or any non reserved character different from: .,>()") }
                name += arrow + key
            }
            var hint: String?
            var inner = false
            while i < chars.count, chars[i] == "!" {
                i += 1
                let h = identifier()
                if h == "inner" { inner = true } else if h == "left" { inner = false } else { hint = h }
            }
            if name == "count", hint == nil, !spread, emptyParens() {
                // `count()`: the row count aggregate.
                aggregate = true
                var cast: String?
                if i + 1 < chars.count, chars[i] == ":", chars[i + 1] == ":" { i += 2; cast = identifier() }
                return .aggregate(function: "count", column: nil, inputCast: nil, alias: alias, cast: cast)
            }
            if i < chars.count, chars[i] == "(" {
                guard depth < SelectParser.maxDepth else { throw fail("an embedding nested at most \(SelectParser.maxDepth) levels deep") }
                i += 1
                depth += 1
                let sub = try list(topLevel: false)
                depth -= 1
                guard i < chars.count, chars[i] == ")" else { throw fail("\")\"") }
                i += 1
                if spread { return .spread(relation: name, hint: hint, inner: inner, items: sub) }
                return .embed(relation: name, alias: alias, hint: hint, inner: inner, items: sub)
            }
            if spread { throw fail("\"(\"") }
            var cast: String?
            if i + 1 < chars.count, chars[i] == ":", chars[i + 1] == ":" {
                i += 2
                cast = identifier()
            }
            // `col::cast.sum()::cast`: an aggregate over a column, the first cast its input's.
            if i < chars.count, chars[i] == "." {
                let save = i
                i += 1
                let fn = identifier()
                if SelectParser.aggregates.contains(fn), emptyParens() {
                    aggregate = true
                    var outCast: String?
                    if i + 1 < chars.count, chars[i] == ":", chars[i + 1] == ":" {
                        i += 2
                        outCast = identifier()
                    }
                    return .aggregate(function: fn, column: name, inputCast: cast, alias: alias, cast: outCast)
                }
                i = save
            }
            return .column(name: name, alias: alias, cast: cast)
        }
    }
}
