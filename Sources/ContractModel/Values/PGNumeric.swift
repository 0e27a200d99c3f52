import Foundation

/// A `numeric` value as PostgreSQL keeps it: exact decimal digits with a display scale, so
/// `150.00` stays `150.00` (a `Double` would print `150`) and `0.1 + 0.2` has no binary error.
/// Equality and hashing ignore the display scale (`1.0 = 1.00` in PostgreSQL).
public struct PGNumeric: Sendable, Hashable, CustomStringConvertible {
    /// The values `numeric` holds beyond finite decimals (PostgreSQL 14+ has the infinities).
    package enum Special: Sendable, Hashable { case nan, infinity, negativeInfinity }

    /// Set for NaN and the infinities; the digits are then empty.
    package let special: Special?
    /// The sign of a non-zero finite value (zero is never negative, as PostgreSQL prints it).
    package let negative: Bool
    /// Integer digits (0…9) without leading zeros; empty for a zero integer part.
    package let integer: [UInt8]
    /// Fraction digits; their count is the display scale.
    package let fraction: [UInt8]

    init(special: Special?, negative: Bool, integer: [UInt8], fraction: [UInt8]) {
        var i = integer[...]
        while i.first == 0 { i = i.dropFirst() }
        self.special = special
        self.integer = Array(i)
        self.fraction = fraction
        self.negative = special == nil ? negative && !(i.isEmpty && fraction.allSatisfy { $0 == 0 }) : negative
    }

    /// The display scale (digits after the point).
    package var scale: Int { fraction.count }

    /// PostgreSQL's text output (`-12.50`, `0.001`, `NaN`, `Infinity`).
    public var description: String {
        switch special {
        case .nan?: return "NaN"
        case .infinity?: return "Infinity"
        case .negativeInfinity?: return "-Infinity"
        case nil: break
        }
        var s = negative ? "-" : ""
        s += integer.isEmpty ? "0" : String(decoding: integer.map { $0 + 0x30 }, as: UTF8.self)
        if !fraction.isEmpty { s += "." + String(decoding: fraction.map { $0 + 0x30 }, as: UTF8.self) }
        return s
    }

    /// The value as a JSON number text (`to_json` quotes the non-finite ones: `"NaN"`).
    package var jsonText: String { special == nil ? description : "\"\(description)\"" }

    /// The nearest `Double`.
    public var doubleValue: Double {
        switch special {
        case .nan?: return .nan
        case .infinity?: return .infinity
        case .negativeInfinity?: return -.infinity
        case nil: return Double(description) ?? 0
        }
    }

    /// The value when it is a whole number within `Int64`.
    public var int64Value: Int64? {
        guard special == nil, fraction.allSatisfy({ $0 == 0 }) else { return nil }
        return Int64((negative ? "-" : "") + (integer.isEmpty ? "0" : String(decoding: integer.map { $0 + 0x30 }, as: UTF8.self)))
    }

    public init(_ i: Int64) { self = PGNumeric.parse(String(i))! }

    /// Reads `numeric_in`'s input: optional white space and sign, digits with an optional point,
    /// an optional exponent (`1.5e2` is `150`, scale `max(0, fraction digits − exponent)`), or
    /// `NaN`, `Infinity`/`inf` with a sign, any case. Nil for anything else.
    package static func parse(_ raw: String) -> PGNumeric? {
        let t = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        var b = Substring(t)
        var negative = false
        if b.first == "+" || b.first == "-" { negative = b.first == "-"; b = b.dropFirst() }
        switch b.lowercased() {
        case "nan": return t.count == 3 ? PGNumeric(special: .nan, negative: false, integer: [], fraction: []) : nil
        case "infinity", "inf":
            return PGNumeric(special: negative ? .negativeInfinity : .infinity, negative: negative, integer: [], fraction: [])
        default: break
        }
        var intDigits: [UInt8] = [], fracDigits: [UInt8] = []
        var seenPoint = false
        var rest = b[...]
        while let c = rest.first, c.isASCII, c.isNumber || (c == "." && !seenPoint) {
            if c == "." { seenPoint = true } else if seenPoint { fracDigits.append(c.asciiValue! - 0x30) } else { intDigits.append(c.asciiValue! - 0x30) }
            rest = rest.dropFirst()
        }
        guard !intDigits.isEmpty || !fracDigits.isEmpty else { return nil }
        var exponent = 0
        if let e = rest.first, e == "e" || e == "E" {
            rest = rest.dropFirst()
            var expNegative = false
            if rest.first == "+" || rest.first == "-" { expNegative = rest.first == "-"; rest = rest.dropFirst() }
            guard !rest.isEmpty, rest.allSatisfy({ $0.isASCII && $0.isNumber }), let v = Int(rest), v <= 1000 else { return nil }
            exponent = expNegative ? -v : v
            rest = rest.dropLast(rest.count)
        }
        guard rest.isEmpty else { return nil }
        var digits = intDigits + fracDigits
        var scale = fracDigits.count - exponent
        if scale < 0 { digits += [UInt8](repeating: 0, count: -scale); scale = 0 }
        if digits.count < scale { digits = [UInt8](repeating: 0, count: scale - digits.count) + digits }
        return PGNumeric(special: nil, negative: negative, integer: Array(digits.dropLast(scale)), fraction: Array(digits.suffix(scale)))
    }

    /// A double as `float8::numeric` converts it (its shortest text).
    public init(_ d: Double) {
        if d.isNaN { self.init(special: .nan, negative: false, integer: [], fraction: []); return }
        if d.isInfinite { self.init(special: d > 0 ? .infinity : .negativeInfinity, negative: d < 0, integer: [], fraction: []); return }
        self = PGNumeric.parse(JSONValue.formatDouble(d)) ?? PGNumeric(Int64(0))
    }

    /// Rounds to `scale` fraction digits, half away from zero (`round(numeric, s)`), padding
    /// with zeros when the value has fewer.
    package func rounded(scale s: Int) -> PGNumeric {
        guard special == nil else { return self }
        if fraction.count <= s {
            return PGNumeric(special: nil, negative: negative, integer: integer, fraction: fraction + [UInt8](repeating: 0, count: s - fraction.count))
        }
        var digits = integer + fraction.prefix(s)
        if fraction[s] >= 5 {
            var k = digits.count - 1
            while k >= 0 {
                if digits[k] == 9 { digits[k] = 0; k -= 1 } else { digits[k] += 1; break }
            }
            if k < 0 { digits.insert(1, at: 0) }
        }
        return PGNumeric(special: nil, negative: negative, integer: Array(digits.dropLast(s)), fraction: Array(digits.suffix(s)))
    }

    /// `numeric(precision, scale)`'s input rule (numeric.c `apply_typmod`): round to the scale,
    /// then 22003 `numeric field overflow` when the integer digits exceed `precision − scale`;
    /// infinities are refused, NaN is kept.
    package func applying(precision p: Int, scale s: Int) throws -> PGNumeric {
        if special == .nan { return self }
        if special != nil {
            throw PostgresError("22003", "numeric field overflow", details: "A field with precision \(p), scale \(s) cannot hold an infinite value.")
        }
        let r = rounded(scale: s)
        let maxDigits = p - s
        if r.integer.count > maxDigits {
            let bound = maxDigits > 0 ? "10^\(maxDigits)" : "1"
            throw PostgresError(
                "22003", "numeric field overflow", details: "A field with precision \(p), scale \(s) must round to an absolute value less than \(bound).")
        }
        return r
    }

    /// PostgreSQL's order: finite values by value, then `Infinity`, then `NaN` (which equals
    /// itself); `-Infinity` first.
    package static func compare(_ a: PGNumeric, _ b: PGNumeric) -> Int {
        func rank(_ x: PGNumeric) -> Int {
            switch x.special {
            case .negativeInfinity?: return 0;
            case nil: return 1;
            case .infinity?: return 2;
            case .nan?: return 3
            }
        }
        let ra = rank(a), rb = rank(b)
        if ra != rb || ra != 1 { return ra == rb ? 0 : (ra < rb ? -1 : 1) }
        let za = a.isZero, zb = b.isZero
        let sa = za ? 0 : (a.negative ? -1 : 1), sb = zb ? 0 : (b.negative ? -1 : 1)
        if sa != sb { return sa < sb ? -1 : 1 }
        if sa == 0 { return 0 }
        let m = magnitude(a, b)
        return sa > 0 ? m : -m
    }

    var isZero: Bool { special == nil && integer.isEmpty && fraction.allSatisfy { $0 == 0 } }

    private static func magnitude(_ a: PGNumeric, _ b: PGNumeric) -> Int {
        if a.integer.count != b.integer.count { return a.integer.count < b.integer.count ? -1 : 1 }
        for (x, y) in zip(a.integer, b.integer) where x != y { return x < y ? -1 : 1 }
        let n = max(a.fraction.count, b.fraction.count)
        for k in 0..<n {
            let x = k < a.fraction.count ? a.fraction[k] : 0, y = k < b.fraction.count ? b.fraction[k] : 0
            if x != y { return x < y ? -1 : 1 }
        }
        return 0
    }

    public static func == (a: PGNumeric, b: PGNumeric) -> Bool { compare(a, b) == 0 }

    public func hash(into h: inout Hasher) {
        h.combine(special)
        h.combine(isZero ? false : negative)
        h.combine(integer)
        var f = fraction[...]
        while f.last == 0 { f = f.dropLast() }
        h.combine(Array(f))
    }
}

/// `numeric` in a model (the generated table models, payloads): PostgREST prints it as a JSON
/// number and clients also send it as a string (`"12.50"`) to keep digits a double would lose.
/// Both decode; it encodes as a JSON number written from the digits (through `Decimal`, so no
/// binary floating point in between; NaN and the infinities, which JSON numbers cannot hold,
/// encode as PostgREST prints them, as strings).
extension PGNumeric: Codable, Comparable {
    public init(_ value: Decimal) { self = PGNumeric.parse("\(value)")! }

    /// Parses decimal text (`-12.50`, `1e3`, `NaN`); nil otherwise.
    public init?(_ text: String) {
        guard let v = PGNumeric.parse(text.trimmingCharacters(in: .whitespaces)) else { return nil }
        self = v
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.singleValueContainer()
        if let text = try? c.decode(String.self) {
            guard let v = PGNumeric(text) else {
                throw DecodingError.dataCorruptedError(in: c, debugDescription: "'\(text)' is not a PostgreSQL numeric")
            }
            self = v
        } else {
            self = PGNumeric(try c.decode(Decimal.self))
        }
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        if special != nil {
            try c.encode(description)
        } else {
            try c.encode(Decimal(string: description, locale: Locale(identifier: "en_US_POSIX"))!)
        }
    }

    public static func < (a: PGNumeric, b: PGNumeric) -> Bool { compare(a, b) < 0 }
}
