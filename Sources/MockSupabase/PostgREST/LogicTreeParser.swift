import Foundation

/// A Parsec-style parse failure: the position (0-based, in Unicode scalars) and what was found
/// and expected there. Rendered as PostgREST renders Parsec errors: the message
/// `"failed to parse … (value)" (line 1, column N)` and the details `unexpected X expecting A, B or C`.
struct ParseFailure: Error {
    var position: Int
    /// `"x"` quoted, or `end of input`.
    var unexpected: String
    var expecting: [String]
    /// Whether input was consumed before failing (Parsec's consumed error: no alternative is tried).
    var consumed: Bool

    /// Parsec's `mergeError`: the furthest failure wins; at the same position the expectations join.
    func merged(with other: ParseFailure) -> ParseFailure {
        if other.position > position { return other }
        if other.position < position { return self }
        var e = self
        for x in other.expecting where !e.expecting.contains(x) { e.expecting.append(x) }
        return e
    }

    /// `unexpected ")" expecting field name (…), negation operator (not) or logic operator (and, or)`.
    var details: String {
        var s = "unexpected \(unexpected)"
        if !expecting.isEmpty {
            s += " expecting "
            s += expecting.count == 1 ? expecting[0] : expecting.dropLast().joined(separator: ", ") + " or " + expecting.last!
        }
        return s
    }

    /// The PGRST100 error for the parameter named in `what` (`logic tree`, `filter`, `select parameter`).
    func error(_ what: String, value: String, columnOffset: Int = 0) -> PostgresError {
        PostgresError("PGRST100", "\"failed to parse \(what) (\(value))\" (line 1, column \(position + 1 - columnOffset))", details: details)
    }
}

/// Linear-time parser of PostgREST's logic trees (`or=(…)`, `and=(…)`, `not.or=(…)`) and of the
/// operator expressions inside them, following the grammar of PostgREST's
/// `src/library/PostgREST/ApiRequest/QueryParams.hs` (`pLogicTree`, `pLogicFilter`, `pOpExpr`,
/// `pLogicSingleVal`, `pListVal`): an item is tried as a filter first and otherwise read as a
/// group; a group's `(…)` holds one or more items separated by commas; whatever follows the
/// top-level tree is ignored, as Parsec's `parse` without `eof` ignores it.
///
/// Groups are kept on an explicit stack, so nesting costs no call stack and each character is
/// read a bounded number of times.
///
/// Nesting limits (decisions). PostgREST's parser has none, but each group becomes one level of
/// parentheses in the SQL it sends, and PostgreSQL's Bison grammar gives up at 10,000
/// parser-stack entries (`YYMAXDEPTH`, "memory exhausted"), so no deeper tree ever runs:
/// `maxNesting` stops there. Groups that mean the same as something shallower are folded while
/// parsing (a single item stands for itself, `or(a,or(b,c))` is `or(a,b,c)`, `not.or(not.or(x))`
/// is `x`), so a long chain of them costs nothing; trees that stay deep after folding
/// (alternating `and`/`or` groups of several items) stop at `maxDepth`, which a 512 KiB thread
/// stack (the smallest a transport thread gets) evaluates and releases with room to spare in a
/// debug build. Both answer a PGRST100 in PostgREST's shape pointing at the `(` one level too deep.
struct LogicTreeParser {
    /// Deepest group nesting accepted as written (see the type's comment).
    static let maxNesting = 10_000
    /// Deepest tree accepted once folded (see the type's comment).
    static let maxDepth = 1_000

    let s: [Unicode.Scalar]

    init(_ text: String) { s = Array(text.unicodeScalars) }

    func at(_ i: Int) -> Unicode.Scalar? { i < s.count ? s[i] : nil }

    func shown(_ i: Int) -> String {
        guard let c = at(i) else { return "end of input" }
        return "\"\(Character(c))\""
    }

    func matches(_ word: String, at i: Int) -> Bool {
        var j = i
        for c in word.unicodeScalars {
            guard j < s.count, s[j] == c else { return false }
            j += 1
        }
        return true
    }

    func skipSpaces(_ i: Int) -> Int {
        var j = i
        while j < s.count, s[j] == " " || s[j] == "\t" { j += 1 }
        return j
    }

    func fail(_ i: Int, _ expecting: [String], consumed: Bool) -> ParseFailure {
        ParseFailure(position: i, unexpected: shown(i), expecting: expecting, consumed: consumed)
    }

    // MARK: Field names (pFieldName, pJsonPath)

    static func isIdentifierChar(_ c: Unicode.Scalar) -> Bool {
        c.properties.isAlphabetic || c.properties.numericType != nil || c == "_" || c == " " || c == "$"
    }

    /// `pFieldName`: a quoted name or identifiers joined by `-` not followed by `>`.
    func fieldName(_ i: Int) -> (String, Int)? {
        if at(i) == "\"" {
            var j = i + 1
            var out = ""
            while let c = at(j), c != "\"" { out.unicodeScalars.append(c); j += 1 }
            guard at(j) == "\"" else { return nil }
            return (out, j + 1)
        }
        var j = i
        var out = ""
        while true {
            let start = j
            while let c = at(j), Self.isIdentifierChar(c) { j += 1 }
            guard j > start else { return nil }
            out += String(String.UnicodeScalarView(s[start..<j])).trimmingCharacters(in: .whitespaces)
            if at(j) == "-", at(j + 1) != ">", let c = at(j + 1), Self.isIdentifierChar(c) {
                out += "-"
                j += 1
                continue
            }
            return (out, j)
        }
    }

    /// `pJsonPath`: `->key`, `->>key`, `->0`, `->-1`, repeated; returned as text (`->a->>0`).
    func jsonPath(_ i: Int) -> (String, Int) {
        var j = i
        var out = ""
        while matches("->", at: j) {
            let arrow = matches("->>", at: j) ? "->>" : "->"
            var k = j + arrow.unicodeScalars.count
            let start = k
            // A key runs until the next arrow, cast, delimiter, comma or the end (pJKey's pEnd),
            // and also stops at the brackets that close a group or an embed.
            while let c = at(k), !matches("->", at: k), !matches("::", at: k), c != ".", c != ",", c != ")", c != "(" { k += 1 }
            guard k > start else { break }
            out += arrow + String(String.UnicodeScalarView(s[start..<k]))
            j = k
        }
        return (out, j)
    }

    // MARK: Operator expressions (pOpExpr)

    /// One parsed operator expression.
    struct OpExpr {
        var negated: Bool
        var op: String
        /// `any`/`all` after a quantifiable operator.
        var quantifier: String?
        var value: Value
        enum Value { case single(String), list([QueryParser.ListItem]), isValue(String) }
    }

    static let quantOps = ["eq", "gte", "gt", "lte", "lt", "like", "ilike", "match", "imatch"]
    static let simpleOps = ["neq", "cs", "cd", "ov", "sl", "sr", "nxr", "nxl", "adj"]
    static let ftsOps = ["fts", "plfts", "phfts", "wfts"]

    /// `pOpExpr`: `[not.]op[(any|all)].value`, `in.(…)`, `is.null`. In a logic tree (`logic`)
    /// a single value ends at `,` or `)` (`pLogicSingleVal`); otherwise it is the rest of the input.
    func opExpr(_ i: Int, logic: Bool) -> Result<(OpExpr, Int), ParseFailure> {
        var j = i
        var negated = false
        if matches("not.", at: j) { negated = true; j += 4 }
        let opStart = j
        let expectOp = ["operator (eq, gt, ...)"]
        if matches("in.", at: j) {
            return listValue(j + 3).map { (OpExpr(negated: negated, op: "in", quantifier: nil, value: .list($0.0)), $0.1) }
        }
        if matches("is.", at: j) {
            let k = j + 3
            for w in ["null", "not_null", "true", "false", "unknown"] {
                let n = w.unicodeScalars.count
                if k + n <= s.count, String(String.UnicodeScalarView(s[k..<(k + n)])).lowercased() == w {
                    return .success((OpExpr(negated: negated, op: "is", quantifier: nil, value: .isValue(w)), k + n))
                }
            }
            return .failure(fail(k, ["isVal: (null, not_null, true, false, unknown)"], consumed: true))
        }
        if matches("isdistinct.", at: j) {
            let (v, e) = singleValue(j + 11, logic: logic)
            return .success((OpExpr(negated: negated, op: "isdistinct", quantifier: nil, value: .single(v)), e))
        }
        for op in Self.ftsOps where matches(op, at: j) {
            var k = j + op.unicodeScalars.count
            var lang: String?
            if at(k) == "(" {
                var m = k + 1
                while let c = at(m), Self.isIdentifierChar(c) { m += 1 }
                if at(m) == ")", m > k + 1 { lang = String(String.UnicodeScalarView(s[(k + 1)..<m])); k = m + 1 }
            }
            guard at(k) == "." else { continue }
            let (v, e) = singleValue(k + 1, logic: logic)
            return .success((OpExpr(negated: negated, op: op, quantifier: lang, value: .single(v)), e))
        }
        for op in Self.simpleOps where matches(op + ".", at: j) {
            let (v, e) = singleValue(j + op.unicodeScalars.count + 1, logic: logic)
            return .success((OpExpr(negated: negated, op: op, quantifier: nil, value: .single(v)), e))
        }
        for op in Self.quantOps where matches(op, at: j) {
            var k = j + op.unicodeScalars.count
            var quant: String?
            if matches("(any)", at: k) { quant = "any"; k += 5 } else if matches("(all)", at: k) { quant = "all"; k += 5 }
            guard at(k) == "." else { continue }
            let (v, e) = singleValue(k + 1, logic: logic)
            return .success((OpExpr(negated: negated, op: op, quantifier: quant, value: .single(v)), e))
        }
        return .failure(fail(opStart, negated ? expectOp : ["\"not\" or " + expectOp[0]], consumed: negated))
    }

    /// `pSingleVal` (rest of input) or `pLogicSingleVal` (a quoted value, a `{…}` array, or text up to `,`/`)`).
    func singleValue(_ i: Int, logic: Bool) -> (String, Int) {
        guard logic else { return (String(String.UnicodeScalarView(s[min(i, s.count)...])), s.count) }
        if at(i) == "\"", let (q, e) = quoted(i), at(e) == nil || at(e) == "," || at(e) == ")" { return (q, e) }
        if at(i) == "{" {
            var k = i + 1
            while let c = at(k), c != "{", c != "}" { k += 1 }
            if at(k) == "}" { return (String(String.UnicodeScalarView(s[i...k])), k + 1) }
        }
        var k = i
        while let c = at(k), c != ",", c != ")" { k += 1 }
        return (String(String.UnicodeScalarView(s[i..<k])), k)
    }

    /// `pQuotedValue`: `"…"` with backslash escapes.
    func quoted(_ i: Int) -> (String, Int)? {
        var k = i + 1
        var out = ""
        while let c = at(k) {
            if c == "\"" { return (out, k + 1) }
            if c == "\\" {
                guard let n = at(k + 1) else { return nil }
                out.unicodeScalars.append(n)
                k += 2
                continue
            }
            out.unicodeScalars.append(c)
            k += 1
        }
        return nil
    }

    /// `pListVal`: `(a,"b,c",d)`.
    func listValue(_ i: Int) -> Result<([QueryParser.ListItem], Int), ParseFailure> {
        var k = skipSpaces(i)
        guard at(k) == "(" else { return .failure(fail(k, ["\"(\""], consumed: true)) }
        k = skipSpaces(k + 1)
        var items: [QueryParser.ListItem] = []
        while true {
            if at(k) == "\"", let (q, e) = quoted(k), at(e) == nil || at(e) == "," || at(e) == ")" {
                items.append(.init(text: q, quoted: true))
                k = e
            } else {
                let start = k
                while let c = at(k), c != ",", c != ")" { k += 1 }
                items.append(.init(text: String(String.UnicodeScalarView(s[start..<k])), quoted: false))
            }
            if at(k) == "," { k += 1; continue }
            if at(k) == ")" { return .success((items, skipSpaces(k + 1))) }
            return .failure(fail(k, ["\",\"", "\")\""], consumed: true))
        }
    }

    // MARK: Logic trees (pLogicTree)

    /// `pLogicFilter`: `field[->path].opexpr` with a logic single value.
    func logicFilter(_ i: Int) -> Result<(RowFilter, Int), ParseFailure> {
        var j = skipSpaces(i)
        guard let (name, e) = fieldName(j) else {
            return .failure(fail(j, ["field name (* or [a..z0..9_$])"], consumed: false))
        }
        let (path, e2) = jsonPath(e)
        j = skipSpaces(e2)
        guard at(j) == "." else { return .failure(fail(j, ["delimiter (.)"], consumed: false)) }
        switch opExpr(j + 1, logic: true) {
        case .failure(let f): return .failure(f)
        case .success(let (expr, end)):
            do {
                return .success((try QueryParser.rowFilter(column: name + path, expr), end))
            } catch let f as ParseFailure {
                return .failure(f)
            } catch {
                return .failure(fail(j + 1, ["operator (eq, gt, ...)"], consumed: true))
            }
        }
    }

    private struct Frame { var isOr: Bool; var negated: Bool; var open: Int; var items: [(RowFilter, Int)] }

    /// Parses a whole tree: the text is the operator followed by the parameter's value
    /// (`or(a.eq.1,b.eq.2)`), as PostgREST concatenates them.
    func tree() -> Result<RowFilter, ParseFailure> {
        var stack: [Frame] = []
        var pos = 0
        while true {
            // One item at `pos`: a filter, or the head of a group.
            var done: (RowFilter, Int)
            switch logicFilter(pos) {
            case .success(let (f, end)):
                done = (f, 0)
                pos = end
            case .failure(let filterFailure):
                var q = pos
                var negated = false
                if matches("not.", at: q) { negated = true; q += 4 }
                let isOr: Bool
                if matches("and", at: q) {
                    isOr = false; q += 3
                } else if matches("or", at: q) {
                    isOr = true; q += 2
                } else if at(q) == "o" || (at(q) == "a" && at(q + 1) == "n") {
                    // `string` consumed a prefix: Parsec reports at the word's start.
                    let bad = at(q + 1) == nil ? q + 1 : (at(q) == "o" ? q + 1 : (at(q + 2) == "d" ? q + 3 : q + 2))
                    return .failure(ParseFailure(position: q, unexpected: shown(bad), expecting: [at(q) == "o" ? "\"or\"" : "\"and\""], consumed: true))
                } else if negated {
                    return .failure(fail(q, ["logic operator (and, or)"], consumed: true))
                } else {
                    if filterFailure.consumed { return .failure(filterFailure) }
                    return .failure(filterFailure.merged(with: fail(q, ["negation operator (not)", "logic operator (and, or)"], consumed: false)))
                }
                q = skipSpaces(q)
                guard at(q) == "(" else { return .failure(fail(q, ["\"(\""], consumed: true)) }
                guard stack.count < Self.maxNesting else { return .failure(tooDeep(q, Self.maxNesting)) }
                stack.append(Frame(isOr: isOr, negated: negated, open: q, items: []))
                pos = skipSpaces(q + 1)
                continue
            }
            // After an item: `,` starts the next one, `)` closes the group.
            while true {
                guard !stack.isEmpty else { return .success(done.0) }
                stack[stack.count - 1].items.append(done)
                let q = skipSpaces(pos)
                if at(q) == "," { pos = skipSpaces(q + 1); break }
                guard at(q) == ")" else { return .failure(fail(q, ["\",\"", "\")\""], consumed: true)) }
                pos = skipSpaces(q + 1)
                let frame = stack.removeLast()
                done = Self.group(frame.isOr, frame.negated, frame.items)
                if done.1 > Self.maxDepth { return .failure(tooDeep(frame.open, Self.maxDepth)) }
            }
        }
    }

    func tooDeep(_ open: Int, _ limit: Int) -> ParseFailure {
        ParseFailure(position: open, unexpected: shown(open), expecting: ["a logic tree nested at most \(limit) levels deep"], consumed: true)
    }

    /// A group's filter and its depth, folding what means the same shallower: a single item
    /// stands for itself, an item of the same connective joins its parent (`or(a,or(b,c))` is
    /// `or(a,b,c)`), and a negated negation is its operand.
    static func group(_ isOr: Bool, _ negated: Bool, _ items: [(RowFilter, Int)]) -> (RowFilter, Int) {
        var flat: [RowFilter] = []
        var depth = 0
        for (item, d) in items {
            switch item {
            case .or(let sub) where isOr: flat += sub; depth = max(depth, d)
            case .and(let sub) where !isOr: flat += sub; depth = max(depth, d)
            default: flat.append(item); depth = max(depth, d + 1)
            }
        }
        let g: (RowFilter, Int) = flat.count == 1 ? (flat[0], items[0].1) : (isOr ? .or(flat) : .and(flat), depth)
        guard negated else { return g }
        if case .not(let inner) = g.0 { return (inner, max(0, g.1 - 1)) }
        return (.not(g.0), g.1 + 1)
    }
}
