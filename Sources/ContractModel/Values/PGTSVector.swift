import Foundation

/// `tsvector` text: the text form `tsvector_in` reads and `tsvector_out` prints. Lexemes are
/// stored as written (no stemming: a `tsvector` literal is already lexemes), sorted bytewise,
/// duplicates merged, positions sorted and deduplicated. Weights (`1A`) are kept as PostgreSQL's
/// `WordEntryPos` keeps them, in the two bits above the 14-bit position (A = 3 … D = 0, D
/// printed as nothing; a position written twice keeps its highest weight, tsvector.c
/// `uniquePos`); `position(_:)` reads the position alone.
package enum PGTSVector {
    /// Lexeme → positions, each with its weight in bits 14–15.
    package typealias Vector = [String: [Int]]

    /// The position of an entry without its weight.
    package static func position(_ entry: Int) -> Int { entry & 0x3FFF }

    /// Parses `'a':1 'b':2,3 c`; nil when malformed (PostgreSQL's 42601 syntax error).
    package static func parse(_ s: String) -> Vector? {
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
                    var weight = 0
                    while i < b.count, "ABCDabcd*".unicodeScalars.contains(b[i]) {
                        switch b[i] {
                        case "A", "a": weight = 3
                        case "B", "b": weight = 2
                        case "C", "c": weight = 1
                        case "D", "d": weight = 0
                        default: break
                        }
                        i += 1
                    }
                    positions.append(min(max(n, 1), 16383) | weight << 14)
                } while i < b.count && b[i] == ","
            }
            v[lex, default: []] += positions
        }
        return v.mapValues { entries in
            var best: [Int: Int] = [:]
            for e in entries { best[position(e)] = max(best[position(e)] ?? 0, e >> 14) }
            return best.keys.sorted().map { $0 | best[$0]! << 14 }
        }
    }

    /// `tsvector_out`: `'lexeme'` (quotes and backslashes doubled) with `:positions`, lexemes in
    /// byte order, separated by a space.
    package static func format(_ v: Vector) -> String {
        v.keys.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }.map { k in
            var out = "'" + k.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "''") + "'"
            let p = v[k] ?? []
            if !p.isEmpty { out += ":" + p.map { String(position($0)) + ["", "C", "B", "A"][$0 >> 14 & 3] }.joined(separator: ",") }
            return out
        }.joined(separator: " ")
    }
}
