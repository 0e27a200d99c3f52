import Foundation

/// A JSON document as PostgreSQL's `jsonb` and PostgREST's bodies see it.
///
/// Integers and doubles are kept apart so that `5` and `5.0` survive a round trip the way
/// PostgreSQL's `numeric`-backed jsonb keeps them.
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    /// A number a `Double` would not print back as jsonb's `numeric` does (`1.50`, `0.00000015`
    /// written `1.5e-7`, digits past a double's precision, integers past Int64): its text as
    /// PostgreSQL's numeric output prints it. The parser makes one only then, so every other
    /// number stays an `int` or a `double`.
    case number(String)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// The value at `key` when this is an object.
    public subscript(key: String) -> JSONValue? {
        if case .object(let o) = self { return o[key] }
        return nil
    }

    public var stringValue: String? { if case .string(let s) = self { return s }; return nil }
    /// The numeric payload as a `Double`, if this is a number.
    public var doubleValue: Double? {
        switch self {
        case .int(let i): return Double(i)
        case .double(let d): return d
        case .number(let t): return Double(t)
        default: return nil
        }
    }
    /// The integer payload, if this is an integral number.
    public var intValue: Int64? {
        switch self {
        case .int(let i): return i
        case .double(let d) where d.rounded() == d && abs(d) < 9.2e18: return Int64(d)
        case .number(let t): return Double(t).flatMap { $0.rounded() == $0 && abs($0) < 9.2e18 ? Int64($0) : nil }
        default: return nil
        }
    }
    /// The boolean payload, if this is a boolean.
    public var boolValue: Bool? { if case .bool(let b) = self { return b }; return nil }
    public var arrayValue: [JSONValue]? { if case .array(let a) = self { return a }; return nil }
    public var objectValue: [String: JSONValue]? { if case .object(let o) = self { return o }; return nil }
    /// Whether this is JSON `null`.
    public var isNull: Bool { if case .null = self { return true }; return false }

    /// The JSON type name used in error messages ("object", "array", …).
    package var typeName: String {
        switch self {
        case .null: return "null"
        case .bool: return "boolean"
        case .int, .double, .number: return "number"
        case .string: return "string"
        case .array: return "array"
        case .object: return "object"
        }
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int64) { self = .int(value) }
    public init(floatLiteral value: Double) { self = .double(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, b in b }))
    }
    public init(nilLiteral: ()) { self = .null }
}

// MARK: - Parsing

/// A JSON syntax error with the byte offset where parsing stopped.
package struct JSONParseError: Error, CustomStringConvertible, Sendable {
    /// Byte offset of the failure.
    package var offset: Int
    /// What was expected.
    package var reason: String
    package var description: String { "invalid JSON at byte \(offset): \(reason)" }
}

extension JSONValue {
    /// Parses UTF-8 JSON text. Rejects trailing garbage, unescaped control characters and
    /// nesting deeper than 512 levels (so hostile input cannot exhaust the stack).
    public static func parse(_ data: Data) throws -> JSONValue {
        try data.withUnsafeBytes { raw -> JSONValue in
            var p = JSONParser(bytes: raw.bindMemory(to: UInt8.self))
            p.skipWS()
            let v = try p.value(depth: 0)
            p.skipWS()
            if p.i != p.bytes.count { throw p.fail("unexpected trailing characters") }
            return v
        }
    }

    public static func parse(_ text: String) throws -> JSONValue { try parse(Data(text.utf8)) }
}

private struct JSONParser {
    let bytes: UnsafeBufferPointer<UInt8>
    var i = 0

    init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    func fail(_ reason: String) -> JSONParseError { JSONParseError(offset: i, reason: reason) }

    mutating func skipWS() {
        while i < bytes.count {
            let c = bytes[i]
            if c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 { i += 1 } else { break }
        }
    }

    mutating func value(depth: Int) throws -> JSONValue {
        guard depth < 512 else { throw fail("nesting too deep") }
        guard i < bytes.count else { throw fail("unexpected end of input") }
        switch bytes[i] {
        case UInt8(ascii: "{"):
            i += 1
            var obj: [String: JSONValue] = [:]
            skipWS()
            if i < bytes.count, bytes[i] == UInt8(ascii: "}") { i += 1; return .object(obj) }
            while true {
                skipWS()
                guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else { throw fail("expected a string key") }
                let k = try string()
                skipWS()
                guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { throw fail("expected ':'") }
                i += 1
                skipWS()
                obj[k] = try value(depth: depth + 1)
                skipWS()
                guard i < bytes.count else { throw fail("unexpected end of input") }
                if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
                if bytes[i] == UInt8(ascii: "}") { i += 1; return .object(obj) }
                throw fail("expected ',' or '}'")
            }
        case UInt8(ascii: "["):
            i += 1
            var arr: [JSONValue] = []
            skipWS()
            if i < bytes.count, bytes[i] == UInt8(ascii: "]") { i += 1; return .array(arr) }
            while true {
                skipWS()
                arr.append(try value(depth: depth + 1))
                skipWS()
                guard i < bytes.count else { throw fail("unexpected end of input") }
                if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
                if bytes[i] == UInt8(ascii: "]") { i += 1; return .array(arr) }
                throw fail("expected ',' or ']'")
            }
        case UInt8(ascii: "\""):
            return .string(try string())
        case UInt8(ascii: "t"):
            try literal("true"); return .bool(true)
        case UInt8(ascii: "f"):
            try literal("false"); return .bool(false)
        case UInt8(ascii: "n"):
            try literal("null"); return .null
        default:
            return try number()
        }
    }

    mutating func literal(_ word: StaticString) throws {
        let n = word.utf8CodeUnitCount
        guard i + n <= bytes.count else { throw fail("invalid literal") }
        let w = word.utf8Start
        for k in 0..<n where bytes[i + k] != w[k] { throw fail("invalid literal") }
        i += n
    }

    mutating func number() throws -> JSONValue {
        let start = i
        var isInt = true
        if i < bytes.count, bytes[i] == UInt8(ascii: "-") { i += 1 }
        guard i < bytes.count, bytes[i] >= 0x30, bytes[i] <= 0x39 else { throw fail("invalid value") }
        if bytes[i] == 0x30 { i += 1 } else { while i < bytes.count, bytes[i] >= 0x30, bytes[i] <= 0x39 { i += 1 } }
        if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
            isInt = false
            i += 1
            guard i < bytes.count, bytes[i] >= 0x30, bytes[i] <= 0x39 else { throw fail("invalid number") }
            while i < bytes.count, bytes[i] >= 0x30, bytes[i] <= 0x39 { i += 1 }
        }
        if i < bytes.count, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
            isInt = false
            i += 1
            if i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { i += 1 }
            guard i < bytes.count, bytes[i] >= 0x30, bytes[i] <= 0x39 else { throw fail("invalid number") }
            while i < bytes.count, bytes[i] >= 0x30, bytes[i] <= 0x39 { i += 1 }
        }
        if isInt, let v = integer(from: start) { return .int(v) }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<i]), as: UTF8.self)
        return try JSONValue.number(text: text, orFail: fail("number out of range"))
    }

    /// The integer `bytes[start..<i]` spells (an optional `-`, then digits), nil past Int64:
    /// what `Int64(text)` gives, read from the bytes without making the text.
    func integer(from start: Int) -> Int64? {
        var p = start
        let negative = bytes[p] == 0x2D
        if negative { p += 1 }
        var v = 0
        while p < i {
            let digit = Int(bytes[p]) - 0x30
            let (times10, o1) = v.multipliedReportingOverflow(by: 10)
            let (next, o2) = negative ? times10.subtractingReportingOverflow(digit) : times10.addingReportingOverflow(digit)
            if o1 || o2 { return nil }
            v = next
            p += 1
        }
        return Int64(v)
    }

    mutating func string() throws -> String {
        // A string without escapes (most are) is its bytes as they stand.
        var end = i + 1
        while end < bytes.count {
            let c = bytes[end]
            if c == 0x22 || c == 0x5C || c < 0x20 { break }
            end += 1
        }
        if end < bytes.count, bytes[end] == 0x22 {
            let start = i + 1
            i = end + 1
            guard let s = String(validating: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self) else { throw fail("invalid UTF-8") }
            return s
        }
        i += 1 // opening quote
        var out = [UInt8]()
        while true {
            guard i < bytes.count else { throw fail("unterminated string") }
            let c = bytes[i]
            if c == UInt8(ascii: "\"") { i += 1; break }
            if c < 0x20 { throw fail("control character in string") }
            if c == UInt8(ascii: "\\") {
                i += 1
                guard i < bytes.count else { throw fail("unterminated escape") }
                let e = bytes[i]
                i += 1
                switch e {
                case UInt8(ascii: "\""): out.append(0x22)
                case UInt8(ascii: "\\"): out.append(0x5C)
                case UInt8(ascii: "/"): out.append(0x2F)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try hex4()
                    if (0xD800...0xDBFF).contains(scalar) {
                        guard i + 1 < bytes.count, bytes[i] == UInt8(ascii: "\\"), bytes[i + 1] == UInt8(ascii: "u") else {
                            throw fail("unpaired surrogate")
                        }
                        i += 2
                        let low = try hex4()
                        guard (0xDC00...0xDFFF).contains(low) else { throw fail("unpaired surrogate") }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    } else if (0xDC00...0xDFFF).contains(scalar) {
                        throw fail("unpaired surrogate")
                    }
                    guard let u = Unicode.Scalar(scalar) else { throw fail("invalid unicode escape") }
                    out.append(contentsOf: Array(String(Character(u)).utf8))
                default: throw fail("invalid escape")
                }
            } else {
                out.append(c)
                i += 1
            }
        }
        guard let s = String(validating: out, as: UTF8.self) else { throw fail("invalid UTF-8") }
        return s
    }

    mutating func hex4() throws -> UInt32 {
        guard i + 4 <= bytes.count else { throw fail("invalid unicode escape") }
        var v: UInt32 = 0
        for _ in 0..<4 {
            guard let d = bytes[i].hexDigitValue else { throw fail("invalid unicode escape") }
            v = v * 16 + UInt32(d)
            i += 1
        }
        return v
    }
}

// MARK: - Serialising

/// How a JSON value is printed.
public enum JSONStyle: Sendable {
    /// No spaces, keys sorted bytewise: PostgREST's `row_to_json` framing and compact bodies.
    case compact
    /// PostgreSQL's `jsonb::text`: `", "` and `": "` separators, keys ordered by length then bytes.
    case jsonb
    /// Two-space indentation, keys sorted bytewise: golden files and reports.
    case pretty
}

extension JSONValue {
    /// The value as JSON text in the given style.
    public func serialized(_ style: JSONStyle = .compact) -> String {
        var out = ""
        write(to: &out, style: style, indent: 0)
        return out
    }

    /// The value as UTF-8 JSON data.
    public func data(_ style: JSONStyle = .compact) -> Data { Data(serialized(style).utf8) }

    /// Appends this value's JSON text to `out`.
    package func write(to out: inout String, style: JSONStyle, indent: Int) {
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .int(let i): out += String(i)
        case .number(let t): out += t
        case .double(let d):
            out += JSONValue.formatDouble(d)
            // jsonb keeps numbers as numeric, which keeps the scale: 7.0 stays 7.0 (float8 prints 7).
            if style != .compact, d.isFinite, d == d.rounded(), abs(d) < 1e15 { out += ".0" }
        case .string(let s): JSONValue.writeString(s, to: &out)
        case .array(let a):
            if a.isEmpty { out += "[]"; return }
            out += "["
            var n = 0
            while n < a.count {
                if n > 0 { out += style == .jsonb ? ", " : "," }
                if style == .pretty { out += "\n" + String(repeating: "  ", count: indent + 1) }
                a[n].write(to: &out, style: style, indent: indent + 1)
                n += 1
            }
            if style == .pretty { out += "\n" + String(repeating: "  ", count: indent) }
            out += "]"
        case .object(let o):
            if o.isEmpty { out += "{}"; return }
            // Bytewise key order compares the UTF-8 views in place (no copies per comparison).
            // For ASCII keys String's own `<` is that order (ASCII is in normal form, which String
            // compares by its UTF-8 bytes), and much cheaper than a generic comparison per byte
            // in a debug build.
            let fields: [(key: String, value: JSONValue)]
            let ascii = JSONValue.asciiKeys(o)
            if style == .jsonb {
                fields = o.sorted { a, b in
                    let la = a.key.utf8.count, lb = b.key.utf8.count
                    if la != lb { return la < lb }
                    return ascii ? a.key < b.key : a.key.utf8.lexicographicallyPrecedes(b.key.utf8)
                }
            } else if ascii {
                fields = o.sorted { $0.key < $1.key }
            } else {
                fields = o.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
            }
            out += "{"
            var n = 0
            while n < fields.count {
                if n > 0 { out += style == .jsonb ? ", " : "," }
                if style == .pretty { out += "\n" + String(repeating: "  ", count: indent + 1) }
                JSONValue.writeString(fields[n].key, to: &out)
                out += style == .compact ? ":" : ": "
                fields[n].value.write(to: &out, style: style, indent: indent + 1)
                n += 1
            }
            if style == .pretty { out += "\n" + String(repeating: "  ", count: indent) }
            out += "}"
        }
    }

    /// A JSON number that is not an Int64 literal, as jsonb keeps it: PostgreSQL reads JSON
    /// numbers as `numeric` (jsonb.c via `numeric_in`), so `1.50` keeps its scale, `1e2` is
    /// `100` and `1.5e-7` prints `0.00000015`. An `int` when the numeric is integral and fits, a
    /// `double` when the double prints the same text, otherwise `.number` with numeric's text.
    static func number(text: String, orFail failure: @autoclosure () -> Error) throws -> JSONValue {
        guard let n = PGNumeric.parse(text), n.special == nil else { throw failure() }
        let canonical = n.description
        if !canonical.contains("."), let v = Int64(canonical) { return .int(v) }
        if let d = Double(text), d.isFinite {
            var printed = formatDouble(d)
            if d == d.rounded(), abs(d) < 1e15 { printed += ".0" }
            if printed == canonical { return .double(d) }
        }
        return .number(canonical)
    }

    /// Formats a double the way PostgreSQL 12+ prints `double precision` (shortest round-trip,
    /// no trailing `.0`, `1e+20` style exponents).
    package static func formatDouble(_ d: Double) -> String {
        if d.isNaN { return "\"NaN\"" }
        if d.isInfinite { return d > 0 ? "\"Infinity\"" : "\"-Infinity\"" }
        if d == d.rounded(), abs(d) < 1e15 { return String(Int64(d)) }
        var s = "\(d)"
        if let eIdx = s.firstIndex(of: "e") {
            var mant = String(s[..<eIdx])
            var exp = String(s[s.index(after: eIdx)...])
            if mant.hasSuffix(".0") { mant.removeLast(2) }
            if !exp.hasPrefix("-") && !exp.hasPrefix("+") { exp = "+" + exp }
            if exp.count == 2 { exp.insert("0", at: exp.index(after: exp.startIndex)) }
            s = mant + "e" + exp
        }
        return s
    }

    /// Whether every key of `o` is ASCII.
    static func asciiKeys(_ o: [String: JSONValue]) -> Bool {
        for key in o.keys where !(scan(key) { $0 < 0x80 }) { return false }
        return true
    }

    /// Whether every UTF-8 byte of `s` satisfies `accept`, read in place when the string is
    /// contiguous (a native string is): a debug build iterating `utf8` pays for a generic
    /// iterator per byte.
    static func scan(_ s: String, _ accept: (UInt8) -> Bool) -> Bool {
        if let all = s.utf8.withContiguousStorageIfAvailable({ b -> Bool in
            guard let p = b.baseAddress else { return true }
            var i = 0
            while i < b.count {
                if !accept(p[i]) { return false }
                i += 1
            }
            return true
        }) {
            return all
        }
        for u in s.utf8 where !accept(u) { return false }
        return true
    }

    /// Appends `s` as a JSON string literal, escaping as PostgreSQL does.
    package static func writeString(_ s: String, to out: inout String) {
        out += "\""
        if scan(s, { $0 >= 0x20 && $0 != 0x22 && $0 != 0x5C }) { out += s; out += "\""; return }
        for ch in s.unicodeScalars {
            switch ch {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{08}": out += "\\b"
            case "\u{0C}": out += "\\f"
            default:
                if ch.value < 0x20 {
                    out += "\\u" + String(repeating: "0", count: 4 - String(ch.value, radix: 16).count) + String(ch.value, radix: 16)
                } else {
                    out.unicodeScalars.append(ch)
                }
            }
        }
        out += "\""
    }
}

extension JSONValue: CustomStringConvertible {
    public var description: String { serialized(.compact) }
}

extension JSONValue: Codable {
    public init(from decoder: Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() {
            self = .null
        } else if let b = try? c.decode(Bool.self) {
            self = .bool(b)
        } else if let i = try? c.decode(Int64.self) {
            self = .int(i)
        } else if let d = try? c.decode(Double.self) {
            self = .double(d)
        } else if let s = try? c.decode(String.self) {
            self = .string(s)
        } else if let a = try? c.decode([JSONValue].self) {
            self = .array(a)
        } else {
            self = .object(try c.decode([String: JSONValue].self))
        }
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        switch self {
        case .null: try c.encodeNil()
        case .bool(let b): try c.encode(b)
        case .int(let i): try c.encode(i)
        case .double(let d): try c.encode(d)
        case .number(let t): try c.encode(Decimal(string: t) ?? 0)
        case .string(let s): try c.encode(s)
        case .array(let a): try c.encode(a)
        case .object(let o): try c.encode(o)
        }
    }
}
