import Foundation

/// `money` as PostgreSQL runs it under the C locale Supabase uses: a count of cents, printed
/// `$1,234.50` / `-$5.00` (cash.c `cash_out` with the C locale's defaults: `$`, `,` every three
/// digits, two fraction digits), read from `$3.99`, `1,000`, `(5)` (negative) or a plain number,
/// rounded to the cent.
package enum PGMoney {
    /// Cents, or 22P02 / 22003 as `cash_in` reports them.
    package static func parse(_ raw: String) throws -> Int64 {
        let bad = PostgresError("22P02", "invalid input syntax for type money: \"\(raw)\"")
        var s = raw.trimmingCharacters(in: .whitespaces)
        var negative = false
        if s.hasPrefix("(") && s.hasSuffix(")") { negative = true; s = String(s.dropFirst().dropLast()).trimmingCharacters(in: .whitespaces) }
        if s.hasPrefix("-") { negative.toggle(); s = String(s.dropFirst()) } else if s.hasPrefix("+") { s = String(s.dropFirst()) }
        if s.hasPrefix("$") { s = String(s.dropFirst()) }
        if s.hasPrefix("-") { negative.toggle(); s = String(s.dropFirst()) }
        s = s.replacingOccurrences(of: ",", with: "")
        guard !s.isEmpty, s.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }), let n = PGNumeric.parse(s) else { throw bad }
        let r = n.rounded(scale: 2)
        let digits = r.integer + r.fraction
        guard digits.count <= 19, let v = Int64(digits.isEmpty ? "0" : String(decoding: digits.map { $0 + 0x30 }, as: UTF8.self)) else {
            throw PostgresError("22003", "value \"\(raw)\" is out of range for type money")
        }
        return negative ? -v : v
    }

    /// `cash_out`.
    package static func format(_ cents: Int64) -> String {
        let m = cents.magnitude
        let whole = String(m / 100)
        var grouped = ""
        for (i, c) in whole.enumerated() {
            if i > 0 && (whole.count - i) % 3 == 0 { grouped += "," }
            grouped.append(c)
        }
        let frac = m % 100
        return (cents < 0 ? "-" : "") + "$" + grouped + "." + (frac < 10 ? "0" : "") + String(frac)
    }
}
