import Foundation

/// A PostgREST row filter, parsed from the query string or built by a handler.
package indirect enum RowFilter: Sendable, Equatable {
    /// `column=op.value` (negated for `not.op`).
    case condition(column: String, op: FilterOp, value: FilterOperand, negated: Bool)
    /// All must hold.
    case and([RowFilter])
    /// Any must hold.
    case or([RowFilter])
    /// Negation of a group (`not.or(…)`).
    case not(RowFilter)

    /// `column = value`.
    package static func eq(_ column: String, _ value: String) -> RowFilter {
        .condition(column: column, op: .eq, value: .text(value), negated: false)
    }
}

/// PostgREST comparison operators.
package enum FilterOp: String, Sendable, CaseIterable {
    case eq, neq, gt, gte, lt, lte, like, ilike, match, imatch, `in`, `is`, cs, cd, ov, isdistinct
    /// Range operators `<<`, `>>`, `&<`, `&>`, `-|-` (PostgREST SqlFragment.hs `simpleOperator`).
    case sl, sr, nxr, nxl, adj
    /// Full-text search: `to_tsquery`, `plainto_`, `phraseto_`, `websearch_to_tsquery`.
    case fts, plfts, phfts, wfts
}

/// The right-hand side of a filter.
package enum FilterOperand: Sendable, Equatable {
    /// A scalar in PostgreSQL text form.
    case text(String)
    /// A list (`in.(a,b)`), elements in text form; nil is NULL.
    case list([String?])
    /// `is.null`, `is.true`, `is.false`, `is.unknown`.
    case isValue(String)
    /// A full-text query with its optional configuration (`fts(french).amusant`).
    case search(language: String?, query: String)
}

/// One `order=` term.
package struct OrderTerm: Sendable, Equatable {
    package var column: String
    /// Descending when true.
    package var descending: Bool
    /// NULLS FIRST when true, NULLS LAST when false, the PostgreSQL default when nil
    /// (last for ascending, first for descending).
    package var nullsFirst: Bool?

    package init(column: String, descending: Bool = false, nullsFirst: Bool? = nil) {
        self.column = column
        self.descending = descending
        self.nullsFirst = nullsFirst
    }
}

// MARK: - Compilation against a table

/// A filter bound to a table: column indexes resolved and operands parsed to the column type.
struct CompiledFilter {
    let test: ([SQLValue]) -> Bool

    static func compile(_ f: RowFilter?, table: TableSchema, colIndex: [String: Int]) throws -> CompiledFilter {
        guard let f else { return CompiledFilter { _ in true } }
        var g = f
        while case .and(let parts) = g, parts.count == 1 { g = parts[0] }
        if depth(g) <= recursionDepth {
            let fn = try build(g, table, colIndex)
            return CompiledFilter { row in fn(row) == true }
        }
        let program = try postfix(g, table, colIndex)
        return CompiledFilter { row in evaluate(program, row) == true }
    }

    /// Trees up to this deep compile to nested closures (lazy, fastest); deeper ones, which only
    /// hand-written logic trees reach, to a postfix program run on an explicit stack, so no
    /// nesting a request may carry can exhaust a thread's stack.
    static let recursionDepth = 32

    /// Nesting depth, measured without recursion.
    static func depth(_ f: RowFilter) -> Int {
        var deepest = 0
        var todo: [(RowFilter, Int)] = [(f, 1)]
        while let (g, d) = todo.popLast() {
            deepest = max(deepest, d)
            switch g {
            case .and(let fs), .or(let fs): for x in fs { todo.append((x, d + 1)) }
            case .not(let x): todo.append((x, d + 1))
            case .condition: break
            }
        }
        return deepest
    }

    enum Step {
        case test(([SQLValue]) -> Bool?)
        case all(Int)
        case any(Int)
        case not
    }

    /// The tree in postfix order (operands before their connective), built without recursion.
    private static func postfix(_ f: RowFilter, _ t: TableSchema, _ idx: [String: Int]) throws -> [Step] {
        var out: [Step] = []
        var todo: [(RowFilter, Bool)] = [(f, false)]
        while let (g, expanded) = todo.popLast() {
            switch g {
            case .condition:
                out.append(.test(try build(g, t, idx)))
            case .and(let fs), .or(let fs):
                if expanded {
                    if case .and = g { out.append(.all(fs.count)) } else { out.append(.any(fs.count)) }
                } else {
                    todo.append((g, true))
                    for x in fs.reversed() { todo.append((x, false)) }
                }
            case .not(let x):
                if expanded { out.append(.not) } else { todo.append((g, true)); todo.append((x, false)) }
            }
        }
        return out
    }

    /// Runs a postfix program on one row (three-valued).
    private static func evaluate(_ program: [Step], _ row: [SQLValue]) -> Bool? {
        var stack: [Bool?] = []
        stack.reserveCapacity(16)
        for step in program {
            switch step {
            case .test(let fn): stack.append(fn(row))
            case .not: stack[stack.count - 1] = stack[stack.count - 1].map { !$0 }
            case .all(let n):
                let base = stack.count - n
                let v = Kleene.all(n) { stack[base + $0] }
                stack.removeLast(n)
                stack.append(v)
            case .any(let n):
                let base = stack.count - n
                let v = Kleene.any(n) { stack[base + $0] }
                stack.removeLast(n)
                stack.append(v)
            }
        }
        return stack.last ?? true
    }

    /// Three-valued: nil is unknown.
    private static func build(_ f: RowFilter, _ t: TableSchema, _ idx: [String: Int]) throws -> ([SQLValue]) -> Bool? {
        switch f {
        case .and(let fs):
            let parts = try fs.map { try build($0, t, idx) }
            return { row in Kleene.all(parts.count) { parts[$0](row) } }
        case .or(let fs):
            let parts = try fs.map { try build($0, t, idx) }
            return { row in Kleene.any(parts.count) { parts[$0](row) } }
        case .not(let g):
            let inner = try build(g, t, idx)
            return { row in inner(row).map { !$0 } }
        case .condition(let column, let op, let operand, let negated):
            let base = try condition(column, op, operand, t, idx)
            if negated { return { row in base(row).map { !$0 } } }
            return base
        }
    }

    static func columnRef(_ name: String, _ t: TableSchema, _ idx: [String: Int]) throws -> (Int, SQLType, JSONPath?) {
        // `col->a->>0`: a JSON path at any depth (see `JSONPath`); compared as text.
        if name.utf8.contains(0x3E), let (base, path) = JSONPath.split(name) {
            guard let i = idx[base] else { throw unknownColumn(base, t) }
            return (i, .text, try path.validated())
        }
        guard let i = idx[name] else { throw unknownColumn(name, t) }
        return (i, t.columns[i].type, nil)
    }

    static func unknownColumn(_ c: String, _ t: TableSchema) -> PostgresError {
        let near = closestColumns(c, t)
        let hint: String?
        switch near.count {
        case 1: hint = "Perhaps you meant to reference the column \"\(t.name).\(near[0])\"."
        case 2: hint = "Perhaps you meant to reference the column \"\(t.name).\(near[0])\" or the column \"\(t.name).\(near[1])\"."
        default: hint = nil
        }
        return PostgresError("42703", "column \(t.name).\(c) does not exist", hint: hint)
    }

    /// PostgreSQL's suggestions for a missing column (parse_relation.c `updateFuzzyAttrMatchState`):
    /// the columns at the smallest edit distance, at most 3 and at most half the typed name's
    /// length; one or two are named, three or more equally close name none.
    static func closestColumns(_ c: String, _ t: TableSchema) -> [String] {
        var best = 4
        var names: [String] = []
        for col in t.columns {
            let d = levenshtein(col.name, c)
            guard d <= 3, d <= c.count / 2, d <= best else { continue }
            if d < best { best = d; names = [] }
            names.append(col.name)
        }
        return names.count <= 2 ? names : []
    }

    /// The SQL operator PostgREST writes for `op` (SqlFragment.hs `simpleOperator`; `in` is
    /// `= ANY`, `isdistinct` compares with `=`), nil for the operators that take a json operand.
    static func jsonOperatorSymbol(_ op: FilterOp) -> String? {
        switch op {
        case .eq, .in, .isdistinct: return "="
        case .neq: return "<>"
        case .gt: return ">"
        case .gte: return ">="
        case .lt: return "<"
        case .lte: return "<="
        case .like: return "~~"
        case .ilike: return "~~*"
        case .match: return "~"
        case .imatch: return "~*"
        case .cs: return "@>"
        case .cd: return "<@"
        case .ov: return "&&"
        case .sl: return "<<"
        case .sr: return ">>"
        case .nxr: return "&<"
        case .nxl: return "&>"
        case .adj: return "-|-"
        case .is, .fts, .plfts, .phfts, .wfts: return nil
        }
    }

    private static func condition(_ column: String, _ op: FilterOp, _ operand: FilterOperand, _ t: TableSchema, _ idx: [String: Int]) throws -> ([SQLValue]) ->
        Bool?
    {
        let (i, type, jsonPath) = try columnRef(column, t, idx)
        let baseType = t.columns[i].type
        func value(_ row: [SQLValue]) -> SQLValue {
            let v = row[i]
            guard let path = jsonPath else { return v }
            let r = path.evaluate(v, type: baseType)
            if case .json(let j) = r.value { return j.isNull ? .null : .text(j.serialized(.jsonb)) }
            if case .jsonText(let j) = r.value { return .text(j.text) }
            return r.value
        }
        func parse(_ s: String) throws -> SQLValue { try SQLValue.parse(text: s, as: type) }
        // A `json` operand (the column, or `->` on it) has no comparison, pattern or containment
        // operator in PostgreSQL, unlike jsonb: only `is` and full-text search apply.
        let isJSON = jsonPath.map { $0.steps.last?.asText == false && baseType == .json } ?? (type == .json)
        if isJSON, let symbol = Self.jsonOperatorSymbol(op) {
            if op == .cd {
                throw PostgresError(
                    "42725", "operator is not unique: json <@ unknown",
                    hint: "Could not choose a best candidate operator. You might need to add explicit type casts.")
            }
            throw PostgresError(
                "42883", "operator does not exist: json \(symbol) unknown",
                hint: "No operator matches the given name and argument types. You might need to add explicit type casts.")
        }

        switch op {
        case .is:
            guard case .isValue(let w) = operand else { throw PostgresError("PGRST100", "\"failed to parse filter (is.\(operand))\"") }
            switch w {
            case "null": return { row in value(row).isNull }
            case "true": return { row in value(row) == .bool(true) }
            case "false": return { row in value(row) == .bool(false) }
            case "unknown": return { row in value(row).isNull }
            default:
                throw PostgresError(
                    "PGRST100", "\"failed to parse filter (is.\(w))\" (line 1, column 4)",
                    details: "unexpected \"\(w.prefix(1))\" expecting null or trilean value (unknown, true, false)")
            }
        case .in:
            guard case .list(let items) = operand else { throw PostgresError("PGRST100", "\"failed to parse filter (in)\"") }
            let vals = try items.map { try $0.map(parse) }
            let nonNull = vals.compactMap { $0 }
            let hasNull = nonNull.count != vals.count
            return { row in
                let v = value(row)
                if v.isNull { return nil }
                for x in nonNull where SQLValue.compare(v, x, type: type) == 0 { return true }
                return hasNull ? nil : false
            }
        case .like, .ilike:
            guard case .text(let pat) = operand else { throw PostgresError("PGRST100", "\"failed to parse filter\"") }
            // PostgREST accepts `*` as `%` in like patterns.
            let pattern = pat.replacingOccurrences(of: "*", with: "%")
            let ci = op == .ilike
            let m = LikeMatcher(pattern: ci ? pattern.lowercased() : pattern)
            return { row in
                let v = value(row)
                if v.isNull { return nil }
                guard let s = v.textValue ?? Optional(v.pgText(as: type)) else { return nil }
                return m.matches(ci ? s.lowercased() : s)
            }
        case .match, .imatch:
            guard case .text(let pat) = operand else { throw PostgresError("PGRST100", "\"failed to parse filter\"") }
            let re: NSRegularExpression
            do { re = try NSRegularExpression(pattern: pat, options: op == .imatch ? [.caseInsensitive] : []) } catch {
                throw PostgresError("2201B", "invalid regular expression: \(pat)")
            }
            return { row in
                let v = value(row)
                if v.isNull { return nil }
                let s = v.textValue ?? v.pgText(as: type)
                return re.firstMatch(in: s, range: NSRange(s.startIndex..., in: s)) != nil
            }
        case .cs, .cd, .ov:
            guard case .text(let lit) = operand else { throw PostgresError("PGRST100", "\"failed to parse filter\"") }
            if case .jsonb = type {
                let j = try JSONBOrder.parse(lit)
                return { row in
                    guard case .json(let v) = value(row) else { return nil }
                    return op == .cs ? jsonContains(v, j) : jsonContains(j, v)
                }
            }
            if case .range(let kind) = type {
                // `range @> '[1,2]'`: the literal is read as the column's range type.
                guard case .range(let rhs) = try parse(lit) else { return { _ in nil } }
                return { row in
                    guard case .range(let v) = value(row) else { return nil }
                    return PGRange.holds(op, v, rhs, kind.element)
                }
            }
            guard case .array = type else {
                let sym = op == .cs ? "@>" : op == .cd ? "<@" : "&&"
                throw PostgresError(
                    "42883", "operator does not exist: \(type) \(sym) unknown",
                    hint: "No operator matches the given name and argument types. You might need to add explicit type casts.")
            }
            let rhs = try parse(lit)
            guard case .array(let r) = rhs else { return { _ in nil } }
            return { row in
                guard case .array(let l) = value(row) else { return nil }
                switch op {
                case .cs: return r.allSatisfy { x in l.contains(x) }
                case .cd: return l.allSatisfy { x in r.contains(x) }
                default: return l.contains { x in r.contains(x) }
                }
            }
        case .fts, .plfts, .phfts, .wfts:
            guard case .search(let language, let text) = operand else { throw PostgresError("PGRST100", "\"failed to parse filter\"") }
            // Plan.hs `cfToTsVector`: a text or json column becomes `to_tsvector([lang,] col)`.
            switch type {
            case .text, .json, .jsonb, .tsvector: break
            default:
                throw PostgresError(
                    "42883", "function to_tsvector(\(language == nil ? "" : "unknown, ")\(type)) does not exist",
                    hint: "No function matches the given name and argument types. You might need to add explicit type casts.")
            }
            let config = try TextSearch.configuration(language)
            let query = try TextSearch.query(TextSearch.Function(rawValue: op.rawValue)!, text, config)
            return { row in
                let v = value(row)
                if v.isNull { return nil }
                guard let query else { return false }
                let vector: TextSearch.Vector
                if case .json(let j) = v {
                    vector = TextSearch.vector(json: j, config)
                } else if case .jsonText(let j) = v {
                    vector = TextSearch.vector(json: j.value, config)
                } else if case .tsvector = type {
                    vector = TextSearch.parseVector(v.textValue ?? "") ?? [:]
                } else {
                    vector = TextSearch.vector(v.textValue ?? v.pgText(as: type), config)
                }
                return TextSearch.matches(vector, query)
            }
        case .sl, .sr, .nxr, .nxl, .adj:
            // The contract format holds no range types: on the columns it can hold PostgreSQL
            // finds no such operator (`<<`/`>>` on integers are bit shifts, not a condition).
            let sym = ["sl": "<<", "sr": ">>", "nxr": "&<", "nxl": "&>", "adj": "-|-"][op.rawValue]!
            if case .range(let kind) = type {
                guard case .text(let lit) = operand, case .range(let rhs) = try parse(lit) else {
                    throw PostgresError("PGRST100", "\"failed to parse filter\"")
                }
                return { row in
                    guard case .range(let v) = value(row) else { return nil }
                    return PGRange.holds(op, v, rhs, kind.element)
                }
            }
            if [.smallint, .integer, .bigint].contains(type) && (op == .sl || op == .sr) {
                // `int << int` is a shift: the literal is read as an integer first.
                if case .text(let lit) = operand { _ = try parse(lit) }
                throw PostgresError("42804", "argument of WHERE must be type boolean, not type \(type)")
            }
            throw PostgresError(
                "42883", "operator does not exist: \(type) \(sym) unknown",
                hint: "No operator matches the given name and argument types. You might need to add explicit type casts.")
        case .isdistinct:
            guard case .text(let s) = operand else { throw PostgresError("PGRST100", "\"failed to parse filter\"") }
            let rhs = try parse(s)
            return { row in
                let v = value(row)
                if v.isNull { return !rhs.isNull }
                if rhs.isNull { return true }
                return SQLValue.compare(v, rhs, type: type) != 0
            }
        case .eq, .neq, .gt, .gte, .lt, .lte:
            guard case .text(let s) = operand else { throw PostgresError("PGRST100", "\"failed to parse filter\"") }
            if let path = jsonPath, path.steps.last?.asText == false {
                // `col->key` is jsonb: the literal is read as jsonb and compared in jsonb order
                // (`"data"->'a' = '{"b":2}'`, SqlFragment.hs `pgFmtFilter`).
                let rhs = try JSONBOrder.parse(s)
                let cmp = Expr.CompareOp(rawValue: op.rawValue)!
                return { row in
                    // A missing key is SQL NULL; a json `null` is a jsonb value.
                    guard case .json(let j) = path.evaluate(row[i], type: baseType).value else { return nil }
                    return cmp.holds(JSONBOrder.compare(j, rhs))
                }
            }
            let rhs = try parse(s)
            if jsonPath == nil, op == .eq || op == .neq, !rhs.isNull {
                // Equality fast path: values of one column type compare equal exactly when they
                // are equal as stored (floating point excepted: -0 = 0, NaN = NaN in PostgreSQL).
                let wantEqual = op == .eq
                switch type {
                case .real, .double, .numeric, .interval: break
                default:
                    if case .text(let want) = rhs {
                        // `col=eq.text`, the most common filter: a stored text compares as its
                        // string (what `==` on the values does), read in place rather than
                        // copied out of the row for the enum's generic equality.
                        return { row in
                            switch row[i] {
                            case .text(let x): return (x == want) == wantEqual
                            case .null: return nil
                            default: return (row[i] == rhs) == wantEqual
                            }
                        }
                    }
                    return { row in
                        let v = row[i]
                        if v.isNull { return nil }
                        return (v == rhs) == wantEqual
                    }
                }
            }
            return { row in
                let v = value(row)
                if v.isNull || rhs.isNull { return nil }
                guard let c = SQLValue.compare(v, rhs, type: type) else { return nil }
                return Expr.CompareOp(rawValue: op.rawValue)!.holds(c)
            }
        }
    }
}

/// `@>` on jsonb.
func jsonContains(_ a: JSONValue, _ b: JSONValue) -> Bool {
    switch (a, b) {
    case (.object(let x), .object(let y)):
        return y.allSatisfy { k, v in x[k].map { jsonContains($0, v) } ?? false }
    case (.array(let x), .array(let y)):
        return y.allSatisfy { v in x.contains { jsonContains($0, v) } }
    case (.array(let x), _):
        return x.contains(b)
    default:
        if let p = a.doubleValue, let q = b.doubleValue { return p == q }
        return a == b
    }
}

/// SQL LIKE with `%` and `_`, backslash escapes.
struct LikeMatcher {
    enum Token: Equatable { case lit(Character), one, any }
    let tokens: [Token]

    init(pattern: String) {
        var t: [Token] = []
        var esc = false
        for ch in pattern {
            if esc { t.append(.lit(ch)); esc = false; continue }
            switch ch {
            case "\\": esc = true
            case "%": if t.last != .any { t.append(.any) }
            case "_": t.append(.one)
            default: t.append(.lit(ch))
            }
        }
        tokens = t
    }

    func matches(_ s: String) -> Bool {
        let chars = Array(s)
        // Iterative wildcard matching with backtracking to the last `%`.
        var ti = 0, si = 0
        var star = -1, mark = 0
        while si < chars.count {
            if ti < tokens.count {
                switch tokens[ti] {
                case .lit(let c) where c == chars[si]: ti += 1; si += 1; continue
                case .one: ti += 1; si += 1; continue
                case .any: star = ti; mark = si; ti += 1; continue
                default: break
                }
            }
            if star >= 0 { ti = star + 1; mark += 1; si = mark; continue }
            return false
        }
        while ti < tokens.count, tokens[ti] == .any { ti += 1 }
        return ti == tokens.count
    }
}
