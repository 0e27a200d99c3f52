import Foundation

/// PostgreSQL full-text search as PostgREST's `fts`, `plfts`, `phfts` and `wfts` operators use
/// it on text and json columns: `to_tsvector([lang,] col) @@ to_tsquery([lang,] value)` and its
/// `plainto_`, `phraseto_` and `websearch_to_tsquery` siblings (PostgREST SqlFragment.hs
/// `ftsOperator`, Plan.hs `cfToTsVector`: the filter's language configures both sides; without
/// one PostgreSQL's `default_text_search_config`, `english` on Supabase, applies).
///
/// Configurations: `english` stems with the Snowball English (Porter2) stemmer and drops the
/// Snowball English stop words, as PostgreSQL's `english_stem` dictionary does; `french` likewise
/// with the Snowball French stemmer and stop words (`FrenchStemmer`); `simple` only
/// lower-cases. Decision: the other configurations PostgreSQL ships (`german`, …) are
/// accepted and lower-case without stemming or stop words (German folds `ß` to `ss` as its stemmer
/// does), which matches PostgreSQL whenever query and document use the same word forms; an
/// unknown configuration is PostgreSQL's 42704.
enum TextSearch {
    /// A parsed `tsvector`: lexeme → positions (1-based).
    typealias Vector = [String: [Int]]

    /// A `tsquery`.
    indirect enum Query: Equatable {
        case lexeme(String, prefix: Bool)
        case and(Query, Query)
        case or(Query, Query)
        case not(Query)
        /// `left <distance> right`.
        case phrase(Query, Query, Int)
    }

    enum Function: String { case fts, plfts, phfts, wfts }

    static let configurations: Set<String> = [
        "simple", "arabic", "armenian", "basque", "catalan", "danish", "dutch", "english", "finnish", "french",
        "german", "greek", "hindi", "hungarian", "indonesian", "irish", "italian", "lithuanian", "nepali",
        "norwegian", "portuguese", "romanian", "russian", "serbian", "spanish", "swedish", "tamil", "turkish", "yiddish"
    ]

    /// Resolves a configuration name (`pg_catalog.` prefix allowed) or throws PostgreSQL's error.
    static func configuration(_ name: String?) throws -> String {
        guard let name else { return "english" }
        let n = name.lowercased().hasPrefix("pg_catalog.") ? String(name.lowercased().dropFirst(11)) : name.lowercased()
        guard configurations.contains(n) else {
            throw PostgresError("42704", "text search configuration \"\(name)\" does not exist")
        }
        return n
    }

    // MARK: Parsing text into tokens

    struct Token { var text: String; var position: Int; var isNumber: Bool }

    /// Splits text as PostgreSQL's default parser does for words: runs of letters and digits
    /// (apostrophes and other punctuation separate them); a hyphenated word yields the compound
    /// and then its parts. Every token takes a position.
    static func tokens(_ text: String) -> [Token] {
        var words: [[String]] = [] // each entry: parts of one (possibly hyphenated) word
        var current = ""
        var parts: [String] = []
        let chars = Array(text)
        var i = 0
        func flushWord() {
            if !current.isEmpty { parts.append(current); current = "" }
            if !parts.isEmpty { words.append(parts); parts = [] }
        }
        while i < chars.count {
            let c = chars[i]
            if c.isLetter || c.isNumber {
                current.append(c)
            } else if c == "-", !current.isEmpty, i + 1 < chars.count, chars[i + 1].isLetter || chars[i + 1].isNumber {
                parts.append(current)
                current = ""
            } else {
                flushWord()
            }
            i += 1
        }
        flushWord()
        var out: [Token] = []
        var pos = 0
        for w in words {
            if w.count > 1 {
                pos += 1
                out.append(Token(text: w.joined(separator: "-"), position: pos, isNumber: false))
            }
            for p in w {
                pos += 1
                out.append(Token(text: p, position: pos, isNumber: p.allSatisfy(\.isNumber)))
            }
        }
        return out
    }

    /// The lexeme a configuration makes of a token, nil for a stop word.
    static func lexeme(_ token: Token, _ config: String) -> String? {
        let lower = token.text.lowercased()
        if token.isNumber || config == "simple" { return lower }
        switch config {
        case "english":
            if englishStopWords.contains(lower) { return nil }
            if lower.unicodeScalars.allSatisfy({ $0.isASCII }) { return EnglishStemmer.stem(lower) }
            return lower
        case "french":
            if FrenchStemmer.stopWords.contains(lower) { return nil }
            return FrenchStemmer.stem(lower)
        case "german":
            return lower.replacingOccurrences(of: "ß", with: "ss")
        default:
            return lower
        }
    }

    /// `to_tsvector(config, text)`.
    static func vector(_ text: String, _ config: String) -> Vector {
        var v: Vector = [:]
        for t in tokens(text) {
            if let l = lexeme(t, config) { v[l, default: []].append(t.position) }
        }
        return v
    }

    /// `to_tsvector(config, json)`: every string value, in document order, positions continuing
    /// across values.
    static func vector(json: JSONValue, _ config: String) -> Vector {
        var v: Vector = [:]
        var offset = 0
        func walk(_ j: JSONValue) {
            switch j {
            case .string(let s):
                var last = 0
                for t in tokens(s) {
                    last = max(last, t.position)
                    if let l = lexeme(t, config) { v[l, default: []].append(t.position + offset) }
                }
                if last > 0 { offset += last + 1 }
            case .array(let a): a.forEach(walk)
            case .object(let o): for k in o.keys.sorted() { walk(o[k]!) }
            default: break
            }
        }
        walk(json)
        return v
    }

    // MARK: Queries

    /// Lexemes of a text in order with their positions (stop words dropped, positions kept).
    static func lexemes(_ text: String, _ config: String) -> [(String, Int)] {
        tokens(text).compactMap { t in lexeme(t, config).map { ($0, t.position) } }
    }

    /// Joins lexemes into a phrase whose distances follow their positions.
    static func phrase(_ ls: [(String, Int)], prefix: Bool = false) -> Query? {
        guard var q = ls.first.map({ Query.lexeme($0.0, prefix: prefix && ls.count == 1) }) else { return nil }
        for k in 1..<max(1, ls.count) where k < ls.count {
            q = .phrase(q, .lexeme(ls[k].0, prefix: prefix && k == ls.count - 1), ls[k].1 - ls[k - 1].1)
        }
        return q
    }

    /// The query a PostgREST fts operator builds from its value; nil when only stop words remain
    /// (PostgreSQL's NOTICE "text-search query doesn't contain lexemes": nothing matches).
    static func query(_ fn: Function, _ text: String, _ config: String) throws -> Query? {
        switch fn {
        case .plfts:
            let ls = lexemes(text, config)
            guard var q = ls.first.map({ Query.lexeme($0.0, prefix: false) }) else { return nil }
            for l in ls.dropFirst() { q = .and(q, .lexeme(l.0, prefix: false)) }
            return q
        case .phfts:
            return phrase(lexemes(text, config))
        case .wfts:
            return websearch(text, config)
        case .fts:
            var p = TSQueryParser(chars: Array(text), raw: text, config: config)
            return try p.parse()
        }
    }

    /// `websearch_to_tsquery`: words are ANDed, `"…"` is a phrase, `or` between terms is OR,
    /// a leading `-` negates.
    static func websearch(_ text: String, _ config: String) -> Query? {
        let chars = Array(text)
        var i = 0
        var groups: [[Query]] = [[]] // OR of ANDs
        var pendingOr = false
        while i < chars.count {
            let c = chars[i]
            if c.isWhitespace { i += 1; continue }
            var negate = false
            if c == "-" { negate = true; i += 1 }
            var term: Query?
            if i < chars.count, chars[i] == "\"" {
                i += 1
                var s = ""
                while i < chars.count, chars[i] != "\"" { s.append(chars[i]); i += 1 }
                i += 1
                term = phrase(lexemes(s, config))
            } else {
                var s = ""
                while i < chars.count, !chars[i].isWhitespace, chars[i] != "\"" { s.append(chars[i]); i += 1 }
                if !negate && s.lowercased() == "or" {
                    if !(groups.last?.isEmpty ?? true) { pendingOr = true }
                    continue
                }
                term = phrase(lexemes(s, config))
            }
            guard var t = term else { continue }
            if negate { t = .not(t) }
            if pendingOr { groups.append([]); pendingOr = false }
            groups[groups.count - 1].append(t)
        }
        let ands = groups.compactMap { g -> Query? in
            guard var q = g.first else { return nil }
            for x in g.dropFirst() { q = .and(q, x) }
            return q
        }
        guard var q = ands.first else { return nil }
        for x in ands.dropFirst() { q = .or(q, x) }
        return q
    }

    /// `to_tsquery`'s syntax: `!` binds tightest, then `<->`/`<N>`, then `&`, then `|`;
    /// parentheses; `:*` marks a prefix (weights after `:` are read and ignored). Each operand is
    /// normalized by the configuration: a stop word drops out of its operator, several lexemes
    /// become a phrase. A malformed query is PostgreSQL's 42601.
    struct TSQueryParser {
        let chars: [Character]
        let raw: String
        let config: String
        var i = 0

        var syntaxError: PostgresError { PostgresError("42601", "syntax error in tsquery: \"\(raw)\"") }

        mutating func skip() { while i < chars.count, chars[i].isWhitespace { i += 1 } }

        mutating func parse() throws -> Query? {
            skip()
            if i >= chars.count {
                return nil
            }
            let q = try or()
            skip()
            if i < chars.count { throw syntaxError }
            return q
        }

        mutating func or() throws -> Query? {
            var l = try and()
            skip()
            while i < chars.count, chars[i] == "|" {
                i += 1
                let r = try and()
                l = combine(l, r) { .or($0, $1) }
                skip()
            }
            return l
        }

        mutating func and() throws -> Query? {
            var l = try phraseExpr()
            skip()
            while i < chars.count, chars[i] == "&" {
                i += 1
                let r = try phraseExpr()
                l = combine(l, r) { .and($0, $1) }
                skip()
            }
            return l
        }

        mutating func phraseExpr() throws -> Query? {
            var l = try unary()
            skip()
            while i < chars.count, chars[i] == "<" {
                i += 1
                var d = ""
                while i < chars.count, chars[i] != ">" { d.append(chars[i]); i += 1 }
                guard i < chars.count else { throw syntaxError }
                i += 1
                let dist: Int
                if d == "-" { dist = 1 } else if let n = Int(d), n >= 0 { dist = n } else { throw syntaxError }
                let r = try unary()
                l = combine(l, r) { .phrase($0, $1, dist) }
                skip()
            }
            return l
        }

        mutating func unary() throws -> Query? {
            skip()
            guard i < chars.count else { throw syntaxError }
            if chars[i] == "!" {
                i += 1
                return try unary().map { .not($0) }
            }
            if chars[i] == "(" {
                i += 1
                let q = try or()
                skip()
                guard i < chars.count, chars[i] == ")" else { throw syntaxError }
                i += 1
                return q
            }
            var s = ""
            while i < chars.count, !"&|!()<: \t\n".contains(chars[i]) { s.append(chars[i]); i += 1 }
            if s.isEmpty { throw syntaxError }
            var prefix = false
            if i < chars.count, chars[i] == ":" {
                i += 1
                while i < chars.count, "*aAbBcCdD".contains(chars[i]) {
                    if chars[i] == "*" { prefix = true }
                    i += 1
                }
            }
            return TextSearch.phrase(TextSearch.lexemes(s, config), prefix: prefix)
        }

        func combine(_ l: Query?, _ r: Query?, _ f: (Query, Query) -> Query) -> Query? {
            switch (l, r) {
            case let (a?, b?): return f(a, b)
            case let (a?, nil): return a
            case let (nil, b?): return b
            default: return nil
            }
        }
    }

    // MARK: Matching

    /// `vector @@ query`.
    static func matches(_ v: Vector, _ q: Query) -> Bool {
        switch q {
        case .lexeme(let l, let prefix):
            return prefix ? v.keys.contains { $0.hasPrefix(l) } : v[l] != nil
        case .and(let a, let b): return matches(v, a) && matches(v, b)
        case .or(let a, let b): return matches(v, a) || matches(v, b)
        case .not(let a): return !matches(v, a)
        case .phrase: return !positions(v, q).isEmpty
        }
    }

    /// Positions where a phrase operand ends (TS_phrase_execute, simplified for `!` inside a
    /// phrase: it matches wherever its operand does not).
    static func positions(_ v: Vector, _ q: Query) -> Set<Int> {
        switch q {
        case .lexeme(let l, let prefix):
            if prefix { return Set(v.filter { $0.key.hasPrefix(l) }.flatMap(\.value)) }
            return Set(v[l] ?? [])
        case .or(let a, let b): return positions(v, a).union(positions(v, b))
        case .and(let a, let b): return positions(v, a).intersection(positions(v, b))
        case .not(let a):
            let all = Set(v.values.flatMap { $0 })
            return all.subtracting(positions(v, a))
        case .phrase(let a, let b, let d):
            let left = positions(v, a)
            return Set(positions(v, b).filter { left.contains($0 - d) })
        }
    }

    /// PostgreSQL's `english.stop` list (Snowball's English stop words).
    static let englishStopWords: Set<String> = [
        "i", "me", "my", "myself", "we", "our", "ours", "ourselves", "you", "your", "yours", "yourself", "yourselves",
        "he", "him", "his", "himself", "she", "her", "hers", "herself", "it", "its", "itself", "they", "them", "their",
        "theirs", "themselves", "what", "which", "who", "whom", "this", "that", "these", "those", "am", "is", "are",
        "was", "were", "be", "been", "being", "have", "has", "had", "having", "do", "does", "did", "doing", "a", "an",
        "the", "and", "but", "if", "or", "because", "as", "until", "while", "of", "at", "by", "for", "with", "about",
        "against", "between", "into", "through", "during", "before", "after", "above", "below", "to", "from", "up",
        "down", "in", "out", "on", "off", "over", "under", "again", "further", "then", "once", "here", "there", "when",
        "where", "why", "how", "all", "any", "both", "each", "few", "more", "most", "other", "some", "such", "no", "nor",
        "not", "only", "own", "same", "so", "than", "too", "very", "s", "t", "can", "will", "just", "don", "should", "now"
    ]
}
