import Foundation

/// `tsvector` text: the text form `tsvector_in` reads and `tsvector_out` prints. Lexemes are
/// stored as written (no stemming: a `tsvector` literal is already lexemes), sorted bytewise,
/// duplicates merged, positions sorted and deduplicated. Decision: weights (`1A`) are read and
/// dropped, so a weighted vector prints without them.
public enum PGTSVector {
    /// Lexeme → positions.
    public typealias Vector = [String: [Int]]

    /// Parses `'a':1 'b':2,3 c`; nil when malformed (PostgreSQL's 42601 syntax error).
    public static func parse(_ s: String) -> Vector? {
        var v: Vector = [:]
        let b = Array(s.unicodeScalars)
        var i = 0
        func isSpace(_ c: Unicode.Scalar) -> Bool { c == " " || c == "\t" || c == "\n" || c == "\r" }
        while i < b.count {
            if isSpace(b[i]) { i += 1; continue }
            var lex = ""
            if b[i] == "'" {
                i += 1
                var closed = false
                while i < b.count {
                    if b[i] == "\\", i + 1 < b.count { lex.unicodeScalars.append(b[i + 1]); i += 2; continue }
                    if b[i] == "'" {
                        if i + 1 < b.count, b[i + 1] == "'" { lex += "'"; i += 2; continue }
                        closed = true
                        i += 1
                        break
                    }
                    lex.unicodeScalars.append(b[i])
                    i += 1
                }
                guard closed, !lex.isEmpty else { return nil }
            } else {
                while i < b.count, !isSpace(b[i]), b[i] != ":" {
                    if b[i] == "\\", i + 1 < b.count { lex.unicodeScalars.append(b[i + 1]); i += 2; continue }
                    if b[i] == "'" { return nil }
                    lex.unicodeScalars.append(b[i])
                    i += 1
                }
            }
            var positions: [Int] = []
            if i < b.count, b[i] == ":" {
                i += 1
                repeat {
                    if i < b.count, b[i] == "," { i += 1 }
                    var n = 0, digits = 0
                    while i < b.count, let d = Int(String(b[i])), b[i].isASCII { n = n * 10 + d; digits += 1; i += 1 }
                    guard digits > 0 else { return nil }
                    while i < b.count, "ABCDabcd*".unicodeScalars.contains(b[i]) { i += 1 }
                    positions.append(min(max(n, 1), 16383))
                } while i < b.count && b[i] == ","
            }
            v[lex, default: []] += positions
        }
        return v.mapValues { Array(Set($0)).sorted() }
    }

    /// `tsvector_out`: `'lexeme'` (quotes and backslashes doubled) with `:positions`, lexemes in
    /// byte order, separated by a space.
    public static func format(_ v: Vector) -> String {
        v.keys.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }.map { k in
            var out = "'" + k.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "''") + "'"
            let p = v[k] ?? []
            if !p.isEmpty { out += ":" + p.map(String.init).joined(separator: ",") }
            return out
        }.joined(separator: " ")
    }
}
