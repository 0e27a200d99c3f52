/// The `order=` parameter read as PostgREST's `pOrder` reads it (src/library/PostgREST/
/// ApiRequest/QueryParams.hs): terms `field[->json…][.asc|.desc][.nullsfirst|.nullslast]` or
/// `relation(field)…`, separated by commas. A bad term gets the error Parsec would report: the
/// furthest position any alternative reached, the first unexpected token there (`"c"`, or `'c'`
/// when end of input was expected) and every expectation at that position, joined as Parsec joins
/// them (`id.asc.nullslasttt` → column 17, `unexpected 't' expecting "," or end of input`).
struct OrderParser {
    let chars: [Character]
    let raw: String
    var i = 0

    /// Parsec's error state: the furthest position an alternative failed at, and what was
    /// found and expected there.
    struct FurthestError {
        var pos = -1
        var found: [String] = []
        var foundAtEnd: [String] = []
        var expected: [String] = []

        mutating func add(_ p: Int, found f: String? = nil, foundAtEnd u: String? = nil, expected e: [String]) {
            if p > pos { self = FurthestError(pos: p) }
            guard p == pos else { return }
            if let f { found.append(f) }
            if let u { foundAtEnd.append(u) }
            expected += e
        }

        /// Parsec's `showErrorMessages`: the end-of-input expectations' findings if any, else
        /// the first token found, then the expectations deduplicated and joined with "or".
        func details() -> String {
            func nub(_ a: [String]) -> [String] { var seen = Set<String>(); return a.filter { !$0.isEmpty && seen.insert($0).inserted } }
            func commasOr(_ a: [String]) -> String { a.count <= 1 ? (a.first ?? "") : a.dropLast().joined(separator: ", ") + " or " + a.last! }
            var parts: [String] = []
            if !foundAtEnd.isEmpty {
                parts.append("unexpected " + commasOr(nub(foundAtEnd)))
            } else if let f = found.first {
                parts.append("unexpected " + (f.isEmpty ? "end of input" : f))
            }
            let e = nub(expected)
            if !e.isEmpty { parts.append("expecting " + commasOr(e)) }
            return parts.joined(separator: " ")
        }
    }

    init(_ raw: String) { self.raw = raw; chars = Array(raw) }

    static func parse(_ raw: String) throws -> [OrderTerm] {
        var p = OrderParser(raw)
        var out: [OrderTerm] = []
        while true {
            out.append(try p.term())
            skipWS(&p)
            if p.i < p.chars.count, p.chars[p.i] == "," { p.i += 1; continue }
            return out
        }
    }

    private static func skipWS(_ p: inout OrderParser) { while p.i < p.chars.count, p.chars[p.i] == " " || p.chars[p.i] == "\t" { p.i += 1 } }

    func shown(_ k: Int) -> String { k < chars.count ? "\"\(chars[k])\"" : "" }

    func failure(_ e: FurthestError) -> PostgresError {
        PostgresError("PGRST100", "\"failed to parse order (\(raw))\" (line 1, column \(e.pos + 1))", details: e.details())
    }

    static func isIdentChar(_ c: Character) -> Bool { c.isLetter || c.isNumber || c == "_" || c == " " || c == "$" }

    /// `pFieldName`: a quoted name (backslash escapes any character) or identifiers joined by
    /// dashes that do not start an arrow; `nil` when nothing could be read.
    mutating func fieldName(_ e: inout FurthestError) -> String? {
        if i < chars.count, chars[i] == "\"" {
            var s = ""
            var k = i + 1
            while k < chars.count, chars[k] != "\"" {
                if chars[k] == "\\", k + 1 < chars.count { k += 1 }
                s.append(chars[k]); k += 1
            }
            guard k < chars.count else { return nil }
            i = k + 1
            return s
        }
        var words: [String] = []
        while true {
            var s = ""
            while i < chars.count, Self.isIdentChar(chars[i]) { s.append(chars[i]); i += 1 }
            if s.isEmpty { return words.isEmpty ? nil : words.joined(separator: "-") }
            words.append(s.trimmingCharacters(in: .whitespaces))
            e.add(i, found: shown(i), expected: ["letter", "digit"])
            if i + 1 < chars.count, chars[i] == "-", chars[i + 1] != ">", Self.isIdentChar(chars[i + 1]) { i += 1; continue }
            e.add(i, found: shown(i), expected: ["\"-\""])
            return words.joined(separator: "-")
        }
    }

    /// `pJsonPath` after a field: `->key`, `->>key`, `->0`, `->-1`, kept in the column's text.
    mutating func jsonPath(_ e: inout FurthestError) -> String {
        var s = ""
        while i + 1 < chars.count, chars[i] == "-", chars[i + 1] == ">" {
            let arrow = i + 2 < chars.count && chars[i + 2] == ">" ? "->>" : "->"
            var k = i + arrow.count
            var key = ""
            if k < chars.count, chars[k] == "\"" {
                k += 1
                while k < chars.count, chars[k] != "\"" { key.append(chars[k]); k += 1 }
                if k < chars.count { k += 1 }
                key = "\"\(key)\""
            } else {
                if k < chars.count, chars[k] == "-" { key = "-"; k += 1 }
                while k < chars.count, !"(-:.,>)".contains(chars[k]) { key.append(chars[k]); k += 1 }
            }
            if key.isEmpty || key == "-" { break }
            s += arrow + key
            i = k
        }
        e.add(i, found: shown(i), expected: ["\"->>\"", "\"->\""])
        return s
    }

    /// One of `words` after a `.`; on a mismatch the error Parsec's `string` reports (at the
    /// word's start, the first differing character of the first word tried).
    mutating func keyword(_ words: [String], _ e: inout FurthestError) -> String? {
        guard i < chars.count, chars[i] == "." else {
            e.add(i, found: shown(i), expected: ["delimiter (.)"])
            return nil
        }
        let start = i + 1
        for w in words {
            let end = start + w.count
            if end <= chars.count, String(chars[start..<end]) == w { i = end; return w }
        }
        // Parsec's `tokens`: the first character of the input that differs from the first word.
        let first = Array(words[0])
        var k = 0
        while k < first.count, start + k < chars.count, chars[start + k] == first[k] { k += 1 }
        e.add(start, found: start + k < chars.count ? "\"\(chars[start + k])\"" : "", expected: words.map { "\"\($0)\"" })
        return nil
    }

    /// `(field[->json…])` after a relation's name, or `nil` (position unspecified) when absent.
    mutating func relatedField() -> String? {
        guard i < chars.count, chars[i] == "(" else { return nil }
        i += 1
        var ignored = FurthestError()
        Self.skipWS(&self)
        guard let field = fieldName(&ignored) else { return nil }
        let path = jsonPath(&ignored)
        Self.skipWS(&self)
        guard i < chars.count, chars[i] == ")" else { return nil }
        i += 1
        return "(\(field)\(path))"
    }

    mutating func term() throws -> OrderTerm {
        var e = FurthestError()
        Self.skipWS(&self)
        let start = i
        guard var column = fieldName(&e) else {
            e.add(start, found: shown(start), expected: ["field name (* or [a..z0..9_$])"])
            throw failure(e)
        }
        let afterName = i
        if let related = relatedField() {
            // `relation(field)`: ordering by a to-one embedded resource's column.
            column += related
            e = FurthestError()
        } else {
            // Not a related term (`try pOrderRelationTerm` backtracks): read as a plain field.
            i = afterName
            column += jsonPath(&e)
        }
        Self.skipWS(&self)
        e.add(i, found: shown(i), expected: ["delimiter (.)"])
        var t = OrderTerm(column: column)
        if let dir = keyword(["asc", "desc"], &e) { t.descending = dir == "desc" }
        if let n = keyword(["nullsfirst", "nullslast"], &e) { t.nullsFirst = n == "nullsfirst" }
        // `pEnd`: a comma or the end must follow.
        if i < chars.count, chars[i] != "," {
            e.add(i, found: shown(i), foundAtEnd: "'\(chars[i])'", expected: ["\",\"", "end of input"])
            throw failure(e)
        }
        return t
    }
}
