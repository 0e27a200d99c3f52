import Foundation

/// A PostgreSQL error as PostgREST reports it: SQLSTATE or PGRST code, message, details, hint.
package struct PostgresError: Error, CustomStringConvertible, Sendable, Equatable {
    /// SQLSTATE (`23505`) or PostgREST code (`PGRST116`).
    package var code: String
    /// The primary message.
    package var message: String
    /// The DETAIL line, if any.
    package var details: String?
    /// The HINT line, if any.
    package var hint: String?
    /// Details that are a JSON document rather than a line (PostgREST's PGRST201 lists the
    /// candidate relationships); written instead of `details` when set.
    package var detailsJSON: JSONValue?

    /// An error from its parts.
    package init(_ code: String, _ message: String, details: String? = nil, hint: String? = nil) {
        self.code = code
        self.message = message
        self.details = details
        self.hint = hint
    }

    package var description: String { "\(code): \(message)" + (details.map { " (\($0))" } ?? "") }

    /// The PostgREST error body `{"code","details","hint","message"}`.
    package var json: JSONValue {
        [
            "code": .string(code), "details": detailsJSON ?? details.map(JSONValue.string) ?? .null,
            "hint": hint.map(JSONValue.string) ?? .null, "message": .string(message)
        ]
    }
}

/// A PostgreSQL column type, as far as the apps use them.
package indirect enum SQLType: Sendable, Equatable, CustomStringConvertible {
    case uuid, text, smallint, integer, bigint, real, double, boolean
    /// `numeric`, or `numeric(precision, scale)` when a precision is given (scale 0 by default).
    case numeric(precision: Int?, scale: Int)
    case timestamptz, timestamp, date, time, jsonb, json
    /// `time with time zone`, `bytea`, `interval`, `tsvector`.
    case timetz, bytea, interval, tsvector
    /// `money` (cents in an `.int`).
    case money
    /// A built-in range type (`int4range`, `numrange`, `tstzrange`, …).
    case range(PGRangeKind)
    /// A user-defined enum type with its labels in order.
    case enumeration(name: String, labels: [String])
    /// `T[]`.
    case array(SQLType)

    /// The types without parameters: the name PostgreSQL's `format_type` prints, `pg_type.typname`,
    /// and the other spellings schema.json may use.
    private static let names: [(type: SQLType, formatType: String, typname: String, aliases: [String])] = [
        (.uuid, "uuid", "uuid", []), (.text, "text", "text", ["varchar", "character varying", "citext"]), (.smallint, "smallint", "int2", []),
        (.integer, "integer", "int4", ["int", "serial"]), (.bigint, "bigint", "int8", ["bigserial"]), (.real, "real", "float4", []),
        (.double, "double precision", "float8", ["double"]), (.boolean, "boolean", "bool", []),
        (.timestamptz, "timestamp with time zone", "timestamptz", []), (.timestamp, "timestamp without time zone", "timestamp", []),
        (.date, "date", "date", []), (.time, "time without time zone", "time", []), (.timetz, "time with time zone", "timetz", []),
        (.bytea, "bytea", "bytea", []), (.interval, "interval", "interval", []), (.tsvector, "tsvector", "tsvector", []),
        (.money, "money", "money", []), (.jsonb, "jsonb", "jsonb", []), (.json, "json", "json", [])
    ]
    private static let byName = Dictionary(names.flatMap { n in ([n.formatType, n.typname] + n.aliases).map { ($0, n.type) } }) { a, _ in a }

    /// The name PostgreSQL's `format_type` prints (`double precision`, `timestamp with time zone`, `ride_status`, `text[]`).
    package var description: String {
        switch self {
        case .numeric(let p?, let s): return "numeric(\(p),\(s))"
        case .numeric: return "numeric"
        case .range(let k): return k.rawValue
        case .enumeration(let n, _): return n
        case .array(let t): return "\(t)[]"
        default: return Self.names.first { $0.type == self }!.formatType
        }
    }

    /// `pg_type.typname` (what Realtime's `columns` list carries).
    package var typname: String {
        switch self {
        case .numeric: return "numeric"
        case .range(let k): return k.rawValue
        case .enumeration(let name, _): return name
        case .array(let t): return "_" + t.typname
        default: return Self.names.first { $0.type == self }!.typname
        }
    }

    package var elementType: SQLType? { if case .array(let t) = self { return t }; return nil }

    /// Parses a type name as written in schema.json (`text`, `double precision`, `timestamptz`, `uuid[]`, or an enum name).
    package static func parse(_ raw: String, enums: [String: [String]]) -> SQLType? {
        let s = raw.trimmingCharacters(in: .whitespaces).lowercased()
        if s.hasSuffix("[]") { return parse(String(s.dropLast(2)), enums: enums).map { .array($0) } }
        if let t = byName[s] { return t }
        if s == "numeric" || s == "decimal" { return .numeric(precision: nil, scale: 0) }
        if let k = PGRangeKind(rawValue: s) { return .range(k) }
        // `numeric(p)`, `numeric(p,s)`, `decimal(p, s)`.
        for prefix in ["numeric(", "decimal("] where s.hasPrefix(prefix) && s.hasSuffix(")") {
            let args = s.dropFirst(prefix.count).dropLast().split(separator: ",").map { Int($0.trimmingCharacters(in: .whitespaces)) }
            guard (1...2).contains(args.count), let p = args[0], (1...1000).contains(p) else { return nil }
            let scale = args.count == 2 ? args[1] : 0
            guard let scale, (0...p).contains(scale) else { return nil }
            return .numeric(precision: p, scale: scale)
        }
        let name = s.hasPrefix("public.") ? String(s.dropFirst(7)) : s
        return enums[name].map { .enumeration(name: name, labels: $0) }
    }

    var pgInputName: String {
        switch self {
        case .enumeration(let n, _): return n
        case .array(let t): return t.pgInputName
        case .numeric: return "numeric"
        default: return description
        }
    }
}

/// A stored value. Text, uuid and enum labels are `.text`; timestamps are microseconds since the
/// Unix epoch (UTC); dates are days since the epoch; times are microseconds since midnight.
package enum SQLValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case text(String)
    case timestamp(Int64)
    case date(Int32)
    case time(Int64)
    /// A `jsonb` value (and a JSON path's result read as jsonb).
    case json(JSONValue)
    /// A `json` value: its text as written, printed back verbatim.
    case jsonText(PGJSONText)
    case array([SQLValue])
    /// `numeric`: exact digits and display scale.
    case numeric(PGNumeric)
    case interval(PGInterval)
    /// `time with time zone`.
    case timetz(PGTimeTZ)
    indirect case range(PGRange)

    package var isNull: Bool { if case .null = self { return true }; return false }

    /// The text payload for text-like values.
    package var textValue: String? { if case .text(let s) = self { return s }; return nil }
}

// MARK: - Ordering and comparison (SQL semantics; NULL handled by callers)

extension SQLValue {
    /// Compares two non-null values of the same column type. Returns nil when incomparable.
    package static func compare(_ a: SQLValue, _ b: SQLValue, type: SQLType? = nil) -> Int? {
        switch (a, b) {
        case (.bool(let x), .bool(let y)): return x == y ? 0 : (x ? 1 : -1)
        case (.int(let x), .int(let y)): return x == y ? 0 : (x < y ? -1 : 1)
        case (.int(let x), .double(let y)): return cmp(Double(x), y)
        case (.numeric(let x), .numeric(let y)): return PGNumeric.compare(x, y)
        case (.numeric(let x), .int(let y)): return PGNumeric.compare(x, PGNumeric(y))
        case (.int(let x), .numeric(let y)): return PGNumeric.compare(PGNumeric(x), y)
        case (.numeric(let x), .double(let y)): return PGNumeric.compare(x, PGNumeric(y))
        case (.double(let x), .numeric(let y)): return PGNumeric.compare(PGNumeric(x), y)
        case (.interval(let x), .interval(let y)): return PGInterval.compare(x, y)
        case (.timetz(let x), .timetz(let y)): return PGTimeTZ.compare(x, y)
        case (.range(let x), .range(let y)):
            if case .range(let k)? = type { return PGRange.compare(x, y, k.element) }
            return PGRange.compare(x, y, .text)
        case (.double(let x), .int(let y)): return cmp(x, Double(y))
        case (.double(let x), .double(let y)): return cmp(x, y)
        case (.text(let x), .text(let y)):
            if case .enumeration(_, let labels)? = type, let i = labels.firstIndex(of: x), let j = labels.firstIndex(of: y) {
                return i == j ? 0 : (i < j ? -1 : 1)
            }
            if x == y { return 0 }
            // C collation: bytewise, as Supabase's databases sort by default.
            return bytewise(x, y)
        case (.timestamp(let x), .timestamp(let y)): return x == y ? 0 : (x < y ? -1 : 1)
        case (.date(let x), .date(let y)): return x == y ? 0 : (x < y ? -1 : 1)
        case (.time(let x), .time(let y)): return x == y ? 0 : (x < y ? -1 : 1)
        case (.json(let x), .json(let y)): return x == y ? 0 : (x.serialized(.jsonb) < y.serialized(.jsonb) ? -1 : 1)
        // `json` has no ordering operator; callers that order by one report PostgreSQL's error.
        case (.jsonText(let x), .jsonText(let y)): return x.text == y.text ? 0 : (x.text.utf8.lexicographicallyPrecedes(y.text.utf8) ? -1 : 1)
        case (.array(let x), .array(let y)):
            let elem = type?.elementType
            for (p, q) in zip(x, y) {
                guard let c = compare(p, q, type: elem) else { return nil }
                if c != 0 { return c }
            }
            return x.count == y.count ? 0 : (x.count < y.count ? -1 : 1)
        default: return nil
        }
    }

    private static func cmp(_ x: Double, _ y: Double) -> Int { x == y ? 0 : (x < y ? -1 : 1) }

    /// The order of two strings' UTF-8 bytes, as unsigned bytes (what `utf8.lexicographicallyPrecedes`
    /// says, with one `memcmp` over contiguous bytes instead of a generic walk: ORDER BY a text
    /// key compares the same keys many times).
    package static func bytewise(_ x: String, _ y: String) -> Int {
        var x = x, y = y
        return x.withUTF8 { a in
            y.withUTF8 { b in
                let n = min(a.count, b.count)
                let c = n == 0 ? 0 : memcmp(a.baseAddress!, b.baseAddress!, n)
                if c != 0 { return c < 0 ? -1 : 1 }
                return a.count == b.count ? 0 : (a.count < b.count ? -1 : 1)
            }
        }
    }
}

// MARK: - Output (what PostgREST prints)

extension SQLValue {
    /// The JSON PostgREST prints for this value in a column of `type`.
    package func json(as type: SQLType) -> JSONValue {
        switch self {
        case .null: return .null
        case .bool(let b): return .bool(b)
        case .int(let i): return type == .money ? .string(PGMoney.format(i)) : .int(i)
        case .double(let d): return .double(d)
        case .text(let s): return .string(s)
        case .timestamp(let us):
            if case .timestamp = type { return .string(PGTime.formatTimestamp(us, withZone: false)) }
            return .string(PGTime.formatTimestamp(us, withZone: true))
        case .date(let d): return .string(PGTime.formatDate(d))
        case .time(let t): return .string(PGTime.formatTime(t))
        case .json(let j): return j
        case .jsonText(let t): return t.value
        case .numeric(let n):
            if n.special != nil { return .string(n.description) }
            if n.scale == 0, let i = n.int64Value { return .int(i) }
            return .double(n.doubleValue)
        case .interval(let v): return .string(v.description)
        case .timetz(let v): return .string(v.jsonText)
        case .range(let r):
            if case .range(let k) = type { return .string(r.text(element: k.element)) }
            return .string(r.description)
        case .array(let a):
            let elem = type.elementType ?? .text
            return .array(a.map { $0.json(as: elem) })
        }
    }

    /// Writes the value as PostgREST's `json_agg(row)` does (jsonb members in jsonb style).
    package func write(to out: inout String, as type: SQLType) {
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .int(let i):
            if type == .money { JSONValue.writeString(PGMoney.format(i), to: &out) } else { out += String(i) }
        case .double(let d): out += JSONValue.formatDouble(d)
        case .text(let s): JSONValue.writeString(s, to: &out)
        case .json(let j): j.write(to: &out, style: .jsonb, indent: 0)
        // `json_agg` appends a json datum's text as it is (json.c `datum_to_json_internal`).
        case .jsonText(let t): out += t.text
        case .numeric(let n): out += n.jsonText
        // Digits and separators only: quoted as they are, with no escaping pass.
        case .timestamp(let us):
            out += "\""
            if case .timestamp = type { out += PGTime.formatTimestamp(us, withZone: false) } else { out += PGTime.formatTimestamp(us, withZone: true) }
            out += "\""
        case .date(let d): out += "\""; out += PGTime.formatDate(d); out += "\""
        case .time(let t): out += "\""; out += PGTime.formatTime(t); out += "\""
        case .array(let a):
            let elem = type.elementType ?? .text
            out += "["
            for (i, v) in a.enumerated() {
                if i > 0 { out += "," }
                v.write(to: &out, as: elem)
            }
            out += "]"
        default: json(as: type).write(to: &out, style: .compact, indent: 0)
        }
    }

    /// The value as PostgreSQL's text output (used in error details such as `Key (id)=(…)`).
    package func pgText(as type: SQLType) -> String {
        switch self {
        case .null: return "null"
        case .bool(let b): return b ? "t" : "f"
        case .int(let i): return type == .money ? PGMoney.format(i) : String(i)
        case .double(let d): return JSONValue.formatDouble(d)
        case .text(let s): return s
        case .timestamp(let us):
            if case .timestamp = type { return PGTime.formatTimestamp(us, withZone: false, sqlStyle: true) }
            return PGTime.formatTimestamp(us, withZone: true, sqlStyle: true)
        case .date(let d): return PGTime.formatDate(d)
        case .time(let t): return PGTime.formatTime(t)
        case .json(let j): return j.serialized(.jsonb)
        case .jsonText(let t): return t.text
        case .numeric(let n): return n.description
        case .interval(let v): return v.description
        case .timetz(let v): return v.description
        case .range(let r):
            if case .range(let k) = type { return r.text(element: k.element) }
            return r.description
        case .array(let a):
            let elem = type.elementType ?? .text
            return "{" + a.map { $0.pgText(as: elem) }.joined(separator: ",") + "}"
        }
    }
}

// MARK: - Input (coercion from JSON bodies and from query-string text)

extension SQLValue {
    /// A `json` value holding a document that came without its text (fixtures, defaults,
    /// triggers): the jsonb text, as `'…'::jsonb::json` or the seed SQL (`SeedSQL`) store it.
    private static func jsonText(_ j: JSONValue) -> SQLValue { .jsonText(PGJSONText(text: j.serialized(.jsonb), value: j)) }

    /// Coerces a JSON body member into a column of `type` given the member's text in the body
    /// (`PGJSONText.bodyMembers`): a `json` column keeps that text, except a string, which
    /// `populate_scalar` de-escapes and writes back with `escape_json`. JSON `null` is SQL NULL.
    package static func coerce(json: JSONValue, to type: SQLType, text: String?) throws -> SQLValue {
        guard case .json = type, let text, !json.isNull else { return try coerce(json: json, to: type) }
        if case .string = json { return .jsonText(PGJSONText(text: json.serialized(.compact), value: json)) }
        return .jsonText(PGJSONText(text: text, value: json))
    }

    /// Coerces a JSON body value into a column of `type`, as `json_populate_record` does.
    package static func coerce(json: JSONValue, to type: SQLType) throws -> SQLValue {
        switch json {
        case .null: return .null
        case .string(let s):
            if case .jsonb = type {
                if containsNUL(json) { throw PostgresError("22P05", "unsupported Unicode escape sequence", details: "\\u0000 cannot be converted to text.") }
                return .json(json)
            }
            if case .json = type { return jsonText(json) }
            if hasNUL(s) { throw PostgresError("22021", "invalid byte sequence for encoding \"UTF8\": 0x00") }
            return try parse(text: s, as: type)
        case .bool(let b):
            switch type {
            case .boolean: return .bool(b)
            case .jsonb: return .json(json)
            case .json: return jsonText(json)
            case .text: return .text(b ? "true" : "false")
            default: return try parse(text: b ? "true" : "false", as: type)
            }
        case .int(let i):
            switch type {
            case .smallint, .integer, .bigint: return try checkRange(i, type)
            case .money: return .int(try PGMoney.parse(String(i)))
            case .numeric(let p, let s): return .numeric(try typmod(PGNumeric(i), p, s))
            case .real, .double: return .double(Double(i))
            case .jsonb: return .json(json)
            case .json: return jsonText(json)
            default: return try parse(text: String(i), as: type)
            }
        case .number(let t):
            // jsonb's numeric text: a numeric column keeps its digits and scale (`1.50`).
            switch type {
            case .numeric(let p, let s): return .numeric(try typmod(PGNumeric.parse(t) ?? PGNumeric(Int64(0)), p, s))
            case .money: return .int(try PGMoney.parse(t))
            case .real, .double: return .double(Double(t) ?? 0)
            case .jsonb: return .json(json)
            case .json: return jsonText(json)
            default: return try parse(text: t, as: type)
            }
        case .double(let d):
            switch type {
            case .numeric(let p, let s): return .numeric(try typmod(PGNumeric(d), p, s))
            case .money: return .int(try PGMoney.parse(PGNumeric(d).description))
            case .real, .double: return .double(d)
            case .jsonb: return .json(json)
            case .json: return jsonText(json)
            default: return try parse(text: JSONValue.formatDouble(d), as: type)
            }
        case .array(let a):
            switch type {
            case .array(let elem): return .array(try a.map { try coerce(json: $0, to: elem) })
            case .jsonb:
                if containsNUL(json) { throw PostgresError("22P05", "unsupported Unicode escape sequence", details: "\\u0000 cannot be converted to text.") }
                return .json(json)
            case .json: return jsonText(json)
            default:
                throw PostgresError("22P02", "invalid input syntax for type \(type.pgInputName): \"\(json.serialized(.jsonb))\"")
            }
        case .object:
            switch type {
            case .jsonb:
                if containsNUL(json) { throw PostgresError("22P05", "unsupported Unicode escape sequence", details: "\\u0000 cannot be converted to text.") }
                return .json(json)
            case .json: return jsonText(json)
            case .text: return .text(json.serialized(.jsonb))
            default:
                if case .array = type {
                    throw PostgresError(
                        "22P02", "malformed array literal: \"\(json.serialized(.jsonb))\"",
                        details: "Array value must start with \"{\" or dimension information.")
                }
                throw PostgresError("22P02", "invalid input syntax for type \(type.pgInputName): \"\(json.serialized(.jsonb))\"")
            }
        }
    }

    static func containsNUL(_ j: JSONValue) -> Bool {
        switch j {
        case .string(let s): return hasNUL(s)
        case .array(let a): return a.contains(where: containsNUL)
        case .object(let o): return o.contains { hasNUL($0.key) || containsNUL($0.value) }
        default: return false
        }
    }

    /// Whether a string holds a NUL byte: one `memchr` over its UTF-8 storage (a byte-by-byte
    /// generic search costs a debug build a call per byte, on every text value written).
    static func hasNUL(_ s: String) -> Bool {
        s.utf8.withContiguousStorageIfAvailable { b -> Bool in
            guard let base = b.baseAddress, !b.isEmpty else { return false }
            return memchr(base, 0, b.count) != nil
        } ?? s.utf8.contains(0)
    }

    /// `numeric(p,s)` rounds and bounds its input; plain `numeric` keeps it as written.
    static func typmod(_ n: PGNumeric, _ p: Int?, _ s: Int) throws -> PGNumeric {
        guard let p else { return n }
        return try n.applying(precision: p, scale: s)
    }

    static func checkRange(_ i: Int64, _ type: SQLType) throws -> SQLValue {
        switch type {
        case .smallint where i < Int64(Int16.min) || i > Int64(Int16.max):
            throw PostgresError("22003", "value \"\(i)\" is out of range for type smallint")
        case .integer where i < Int64(Int32.min) || i > Int64(Int32.max):
            throw PostgresError("22003", "value \"\(i)\" is out of range for type integer")
        default: return .int(i)
        }
    }

    /// Parses PostgreSQL text input (query-string filter values, JSON strings) as `type`.
    package static func parse(text s: String, as type: SQLType) throws -> SQLValue {
        func bad(_ code: String = "22P02") -> PostgresError {
            PostgresError(code, "invalid input syntax for type \(type.pgInputName): \"\(s)\"")
        }
        switch type {
        case .text: return .text(s)
        case .uuid:
            guard let u = canonicalUUID(s) else { throw bad() }
            return .text(u)
        case .enumeration(let name, let labels):
            guard labels.contains(s) else { throw PostgresError("22P02", "invalid input value for enum \(name): \"\(s)\"") }
            return .text(s)
        case .smallint, .integer, .bigint:
            let t = s.trimmingCharacters(in: .whitespaces)
            guard !t.isEmpty, t.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == "-" || $0 == "+") }) else { throw bad() }
            guard let i = Int64(t) else {
                throw PostgresError("22003", "value \"\(s)\" is out of range for type \(type.pgInputName)")
            }
            return try checkRange(i, type)
        case .numeric(let p, let scale):
            guard let n = PGNumeric.parse(s) else { throw bad() }
            return .numeric(try typmod(n, p, scale))
        case .interval:
            guard let v = PGInterval.parse(s) else { throw bad("22007") }
            return .interval(v)
        case .timetz:
            guard
                let v = PGTimeTZ.parse(s, defaultOffset: PGSessionZone.current?.offset(atMicros: 0) ?? 0)
                    ?? PGTime.parseTimestamp(s, assumeUTC: true).map({
                        PGTimeTZ(micros: (($0 % PGTime.usPerDay) + PGTime.usPerDay) % PGTime.usPerDay, offset: 0)
                    })
            else { throw bad("22007") }
            return .timetz(v)
        case .bytea:
            return .text(PGBytea.hex(try PGBytea.parse(s)))
        case .range(let k):
            return .range(try PGRange.parse(s, k))
        case .money:
            return .int(try PGMoney.parse(s))
        case .tsvector:
            guard let v = PGTSVector.parse(s) else { throw PostgresError("42601", "syntax error in tsvector: \"\(s)\"") }
            return .text(PGTSVector.format(v))
        case .real, .double:
            let t = s.trimmingCharacters(in: .whitespaces)
            switch t.lowercased() {
            case "nan": return .double(.nan)
            case "infinity", "+infinity": return .double(.infinity)
            case "-infinity": return .double(-.infinity)
            default: break
            }
            guard !t.isEmpty, t.allSatisfy({ $0.isASCII && ($0.isNumber || "+-.eE".contains($0)) }), let d = Double(t) else { throw bad() }
            return .double(d)
        case .boolean:
            switch s.trimmingCharacters(in: .whitespaces).lowercased() {
            case "t", "true", "yes", "y", "on", "1": return .bool(true)
            case "f", "false", "no", "n", "off", "0": return .bool(false)
            default: throw bad()
            }
        case .timestamptz, .timestamp:
            guard let us = PGTime.parseTimestamp(s, assumeUTC: true) else { throw bad("22007") }
            // A timestamptz written without a zone is local time of the session's zone.
            if case .timestamptz = type, let zone = PGSessionZone.current, !PGTime.hasZone(s) {
                return .timestamp(zone.utc(fromLocal: us))
            }
            return .timestamp(us)
        case .date:
            guard let d = PGTime.parseDate(s) else { throw bad("22007") }
            return .date(d)
        case .time:
            guard let t = PGTime.parseTime(s) else { throw bad("22007") }
            return .time(t)
        case .jsonb, .json:
            guard let j = try? JSONValue.parse(s) else {
                throw PostgresError("22P02", "invalid input syntax for type json", details: "Token \"\(s.prefix(20))\" is invalid.")
            }
            // `json_in` keeps the text as written, surrounding white space included.
            if case .json = type { return .jsonText(PGJSONText(text: s, value: j)) }
            return .json(j)
        case .array(let elem):
            guard let items = parseArrayLiteral(s) else {
                throw PostgresError("22P02", "malformed array literal: \"\(s)\"", details: "Array value must start with \"{\" or dimension information.")
            }
            return .array(try items.map { $0 == nil ? .null : try parse(text: $0!, as: elem) })
        }
    }

    /// Canonical lower-case hyphenated form of a UUID in any of PostgreSQL's accepted spellings.
    package static func canonicalUUID(_ s: String) -> String? {
        if isCanonicalUUID(s) { return s }
        var hex: [UInt8] = []
        hex.reserveCapacity(32)
        var body = Substring(s)
        if body.hasPrefix("{") && body.hasSuffix("}") { body = body.dropFirst().dropLast() }
        for u in body.utf8 {
            switch u {
            case 0x30...0x39, 0x61...0x66: hex.append(u)
            case 0x41...0x46: hex.append(u + 32)
            case 0x2D: continue
            default: return nil
            }
        }
        guard hex.count == 32 else { return nil }
        // Hyphens only at group boundaries (PostgreSQL accepts them after any group of 4).
        if body.utf8.count != 32 {
            var groups = 0
            var run = 0
            var prevHyphen = true
            for u in body.utf8 {
                if u == 0x2D {
                    if prevHyphen || run % 4 != 0 { return nil }
                    prevHyphen = true
                    groups += 1
                } else {
                    run += 1; prevHyphen = false
                }
            }
            if prevHyphen { return nil }
        }
        var out = [UInt8]()
        out.reserveCapacity(36)
        for (i, c) in hex.enumerated() {
            if i == 8 || i == 12 || i == 16 || i == 20 { out.append(0x2D) }
            out.append(c)
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Whether `s` is already in the canonical form (36 bytes, lower-case hex, hyphens after
    /// the 8th, 12th, 16th and 20th digit): most UUIDs the mock reads are (fixtures, its own
    /// ids), and this check reads the bytes once without building a copy.
    static func isCanonicalUUID(_ s: String) -> Bool {
        guard s.utf8.count == 36 else { return false }
        return s.utf8.withContiguousStorageIfAvailable { b -> Bool in
            var i = 0
            while i < 36 {
                let u = b[i]
                if i == 8 || i == 13 || i == 18 || i == 23 {
                    if u != 0x2D { return false }
                } else if !(u >= 0x30 && u <= 0x39 || u >= 0x61 && u <= 0x66) {
                    return false
                }
                i += 1
            }
            return true
        } ?? false
    }

    /// Parses `{a,b,"c d",NULL}`; nil when malformed.
    static func parseArrayLiteral(_ s: String) -> [String?]? {
        let t = s.trimmingCharacters(in: .whitespaces)
        guard t.hasPrefix("{"), t.hasSuffix("}") else { return nil }
        let inner = t.dropFirst().dropLast()
        if inner.trimmingCharacters(in: .whitespaces).isEmpty { return [] }
        var items: [String?] = []
        var cur = ""
        var quoted = false
        var wasQuoted = false
        var escape = false
        for ch in inner {
            if escape { cur.append(ch); escape = false; continue }
            if ch == "\\" { escape = true; continue }
            if ch == "\"" { quoted.toggle(); wasQuoted = true; continue }
            if ch == "," && !quoted {
                let v = wasQuoted ? cur : cur.trimmingCharacters(in: .whitespaces)
                items.append(!wasQuoted && v.uppercased() == "NULL" ? nil : v)
                cur = ""
                wasQuoted = false
                continue
            }
            if ch == "{" && !quoted { return nil }
            cur.append(ch)
        }
        if quoted || escape { return nil }
        let v = wasQuoted ? cur : cur.trimmingCharacters(in: .whitespaces)
        items.append(!wasQuoted && v.uppercased() == "NULL" ? nil : v)
        return items
    }
}

// MARK: - Time formatting and parsing

/// PostgreSQL's date and time text formats.
package enum PGTime {
    static let usPerSecond: Int64 = 1_000_000
    package static let usPerDay: Int64 = 86_400_000_000

    /// Days from 1970-01-01 to a civil date (proleptic Gregorian).
    package static func daysFromCivil(_ y0: Int, _ m: Int, _ d: Int) -> Int {
        let y = m <= 2 ? y0 - 1 : y0
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (m + 9) % 12
        let doy = (153 * mp + 2) / 5 + d - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146097 + doe - 719468
    }

    package static func civilFromDays(_ z0: Int) -> (Int, Int, Int) {
        let z = z0 + 719468
        let era = (z >= 0 ? z : z - 146096) / 146097
        let doe = z - era * 146097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365
        let y = yoe + era * 400
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (m <= 2 ? y + 1 : y, m, d)
    }

    static func pad(_ v: Int, _ w: Int) -> String {
        let s = String(v)
        return s.count >= w ? s : String(repeating: "0", count: w - s.count) + s
    }

    static func fraction(_ us: Int64) -> String {
        guard us != 0 else { return "" }
        var s = pad(Int(us), 6)
        while s.hasSuffix("0") { s.removeLast() }
        return "." + s
    }

    /// `2024-01-15T10:30:00.123456+00:00` (JSON) or `2024-01-15 10:30:00.123456+00` (SQL text).
    package static func formatTimestamp(_ us0: Int64, withZone: Bool, sqlStyle: Bool = false) -> String {
        // A timestamptz prints in the session's zone (`Prefer: timezone=…`), UTC by default.
        let offset: Int32 = withZone ? (PGSessionZone.current?.offset(atMicros: us0) ?? 0) : 0
        let us = us0 &+ Int64(offset) * usPerSecond
        var days = us / usPerDay
        var rem = us % usPerDay
        if rem < 0 { rem += usPerDay; days -= 1 }
        let (y, m, d) = civilFromDays(Int(days))
        let secs = Int(rem / usPerSecond)
        let frac = Int(rem % usPerSecond)
        // Written byte by byte into one allocation: this runs for every timestamp a response prints.
        return String(unsafeUninitializedCapacity: 48) { buf in
            var w = DigitWriter(buf: buf)
            w.digits(y > 0 ? y : 1 - y, 4); w.byte(0x2D); w.digits(m, 2); w.byte(0x2D); w.digits(d, 2)
            w.byte(sqlStyle ? 0x20 : 0x54)
            w.digits(secs / 3600, 2); w.byte(0x3A); w.digits(secs / 60 % 60, 2); w.byte(0x3A); w.digits(secs % 60, 2)
            w.fraction(frac)
            if withZone { w.zone(offset, xsd: !sqlStyle) }
            if y <= 0 { w.byte(0x20); w.byte(0x42); w.byte(0x43) } // " BC"
            return w.n
        }
    }

    /// `2024-01-15`.
    package static func formatDate(_ days: Int32) -> String {
        let (y, m, d) = civilFromDays(Int(days))
        return String(unsafeUninitializedCapacity: 24) { buf in
            var w = DigitWriter(buf: buf)
            w.digits(y, 4); w.byte(0x2D); w.digits(m, 2); w.byte(0x2D); w.digits(d, 2)
            return w.n
        }
    }

    /// `10:30:00` or `10:30:00.5`.
    package static func formatTime(_ us: Int64) -> String {
        let secs = Int(us / usPerSecond)
        return String(unsafeUninitializedCapacity: 48) { buf in
            var w = DigitWriter(buf: buf)
            w.digits(secs / 3600, 2); w.byte(0x3A); w.digits(secs / 60 % 60, 2); w.byte(0x3A); w.digits(secs % 60, 2)
            w.fraction(Int(us % usPerSecond))
            return w.n
        }
    }

    /// Writes ASCII into a buffer the caller sized: the pieces of `pad`, `fraction` and
    /// `PGTimeTZ.zone`, byte for byte, without intermediate strings.
    struct DigitWriter {
        let buf: UnsafeMutableBufferPointer<UInt8>
        var n = 0

        mutating func byte(_ b: UInt8) { buf[n] = b; n += 1 }

        /// `pad(v, width)`: the decimal digits of `v`, zero-padded on the left to `width`.
        mutating func digits(_ v: Int, _ width: Int) {
            if v < 0 {
                // `pad` of a negative number pads its text ("-5" → "-5" for width 2); not reached by
                // the callers above but kept exact.
                let s = PGTime.pad(v, width)
                for u in s.utf8 { byte(u) }
                return
            }
            var tmp:
                (
                    UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                    UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8
                ) =
                    (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
            var count = 0
            var x = v
            withUnsafeMutableBytes(of: &tmp) { t in
                repeat { t[count] = UInt8(truncatingIfNeeded: 0x30 + x % 10); x /= 10; count += 1 } while x > 0
                for _ in count..<max(width, count) { byte(0x30) }
                for k in stride(from: count - 1, through: 0, by: -1) { byte(t[k]) }
            }
        }

        /// `fraction(us)`: empty for 0, else `.` and six digits without trailing zeros.
        mutating func fraction(_ us: Int) {
            guard us != 0 else { return }
            var x = us, width = 6
            while x % 10 == 0 { x /= 10; width -= 1 }
            byte(0x2E)
            digits(x, width)
        }

        /// `PGTimeTZ.zone(offset, xsd:)`: `+HH`, `+HH:MM` (always when `xsd`), `+HH:MM:SS`.
        mutating func zone(_ offset: Int32, xsd: Bool) {
            let mag = Int(offset.magnitude)
            let h = mag / 3600, mi = mag / 60 % 60, s = mag % 60
            byte(offset < 0 ? 0x2D : 0x2B)
            digits(h, 2)
            if xsd || mi != 0 || s != 0 { byte(0x3A); digits(mi, 2) }
            if s != 0 { byte(0x3A); digits(s, 2) }
        }
    }

    /// Whether timestamp text names its zone (`Z`, `UTC`, or an offset after the time).
    static func hasZone(_ s: String) -> Bool {
        let t = s.trimmingCharacters(in: .whitespaces)
        guard t.count > 10 else { return false }
        let tail = t.dropFirst(10)
        if tail.hasSuffix("Z") || tail.hasSuffix("z") || tail.uppercased().hasSuffix("UTC") { return true }
        return tail.contains("+") || tail.contains("-")
    }

    /// Microseconds since the epoch for a `Date`.
    package static func micros(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1_000_000).rounded()) }

    /// An instant as a timestamptz prints in JSON in a UTC session (`2024-01-15T10:30:00.5+00:00`).
    package static func timestamptz(_ date: Date) -> String { formatTimestamp(micros(date), withZone: true) }

    /// The `Date` of a microsecond timestamp.
    package static func date(micros: Int64) -> Date { Date(timeIntervalSince1970: Double(micros) / 1_000_000) }

    /// Parses `YYYY-MM-DD`, or a whole timestamp whose date part is kept as written: PostgreSQL's
    /// `date_in` reads every datetime field and drops the time and the zone without converting,
    /// so `'1992-08-23T00:00:00Z'::date` and `'1992-08-23T23:30:00-05:00'::date` are 1992-08-23.
    package static func parseDate(_ s: String) -> Int32? {
        let t = s.trimmingCharacters(in: .whitespaces)
        var sc = Scanner(Array(t.utf8))
        guard let (y, m, d) = sc.date() else { return nil }
        guard sc.atEnd || parseTimestamp(t, assumeUTC: true) != nil else { return nil }
        return Int32(daysFromCivil(y, m, d))
    }

    /// Parses `HH:MM[:SS[.ffffff]]`, with a zone (`time_in` ignores it for `time without time
    /// zone`), or a whole timestamp whose time part is kept as written
    /// (`'2024-01-01T10:30:00Z'::time` is 10:30:00).
    package static func parseTime(_ s: String) -> Int64? {
        let t = s.trimmingCharacters(in: .whitespaces)
        var sc = Scanner(Array(t.utf8))
        if let v = sc.time() {
            if sc.atEnd { return v }
            // A zone after the time: valid when the same text parses as a timestamp's tail.
            return parseTimestamp("2000-01-01T" + t, assumeUTC: true) != nil ? v : nil
        }
        var ts = Scanner(Array(t.utf8))
        guard ts.date() != nil, let sep = ts.peek, sep == UInt8(ascii: "T") || sep == UInt8(ascii: " ") || sep == UInt8(ascii: "t") else { return nil }
        ts.i += 1
        guard let v = ts.time(), parseTimestamp(t, assumeUTC: true) != nil else { return nil }
        return v
    }

    /// Parses ISO 8601 and PostgreSQL timestamps: `T` or space separator, optional fraction,
    /// `Z`, `+HH`, `+HH:MM`, `+HHMM` offsets; a bare date is midnight; no zone means UTC.
    package static func parseTimestamp(_ s: String, assumeUTC: Bool) -> Int64? {
        var sc = Scanner(Array(s.trimmingCharacters(in: .whitespaces).utf8))
        guard let (y, m, d) = sc.date() else { return nil }
        var us = Int64(daysFromCivil(y, m, d)) * usPerDay
        if sc.atEnd { return us }
        guard sc.peek == UInt8(ascii: "T") || sc.peek == UInt8(ascii: " ") || sc.peek == UInt8(ascii: "t") else { return nil }
        sc.i += 1
        guard let t = sc.time() else { return nil }
        us += t
        if sc.peek == UInt8(ascii: " ") { sc.i += 1 }
        if sc.atEnd { return us }
        if sc.peek == UInt8(ascii: "Z") || sc.peek == UInt8(ascii: "z") { sc.i += 1; return sc.atEnd ? us : nil }
        if sc.rest == "UTC" || sc.rest == "utc" { return us }
        guard let sign = sc.peek, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") else { return nil }
        sc.i += 1
        guard let hh = sc.digits(2) else { return nil }
        var mm = 0
        if sc.peek == UInt8(ascii: ":") { sc.i += 1; guard let v = sc.digits(2) else { return nil }; mm = v } else if let v = sc.digits(2) { mm = v }
        guard sc.atEnd, hh <= 15, mm < 60 else { return nil }
        let off = Int64(hh * 3600 + mm * 60) * usPerSecond
        return sign == UInt8(ascii: "+") ? us - off : us + off
    }

    struct Scanner {
        let b: [UInt8]
        var i = 0
        init(_ b: [UInt8]) { self.b = b }
        var atEnd: Bool { i >= b.count }
        var peek: UInt8? { i < b.count ? b[i] : nil }
        var rest: String { String(decoding: b[min(i, b.count)...], as: UTF8.self) }
        mutating func digits(_ n: Int) -> Int? {
            guard i + n <= b.count else { return nil }
            var v = 0
            for k in 0..<n {
                let c = b[i + k]
                guard c >= 0x30, c <= 0x39 else { return nil }
                v = v * 10 + Int(c - 0x30)
            }
            i += n
            return v
        }
        /// `YYYY-MM-DD`, or ISO 8601's basic `YYYYMMDD` (eight digits, which PostgreSQL's
        /// datetime parser reads as a concatenated date: `'20250101 00:00'::timestamp`).
        mutating func date() -> (Int, Int, Int)? {
            guard let y = digits(4) else { return nil }
            let m: Int, d: Int
            if peek == UInt8(ascii: "-") {
                i += 1
                guard let mm = digits(2), peek == UInt8(ascii: "-") else { return nil }
                i += 1
                guard let dd = digits(2) else { return nil }
                (m, d) = (mm, dd)
            } else {
                guard let mm = digits(2), let dd = digits(2) else { return nil }
                if let c = peek, c >= 0x30, c <= 0x39 { return nil }
                (m, d) = (mm, dd)
            }
            guard (1...12).contains(m), d >= 1 else { return nil }
            let dim = [31, (y % 4 == 0 && (y % 100 != 0 || y % 400 == 0)) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1]
            guard d <= dim else { return nil }
            return (y, m, d)
        }
        mutating func time() -> Int64? {
            guard let h = digits(2), peek == UInt8(ascii: ":") else { return nil }
            i += 1
            guard let mi = digits(2) else { return nil }
            var sec = 0
            var frac: Int64 = 0
            if peek == UInt8(ascii: ":") {
                i += 1
                guard let s = digits(2) else { return nil }
                sec = s
                if peek == UInt8(ascii: ".") {
                    i += 1
                    var n = 0
                    var f: Int64 = 0
                    while let c = peek, c >= 0x30, c <= 0x39 {
                        if n < 6 { f = f * 10 + Int64(c - 0x30) } else if n == 6, c >= 0x35 { f += 1 }
                        n += 1
                        i += 1
                    }
                    guard n > 0 else { return nil }
                    if n < 6 { for _ in n..<6 { f *= 10 } }
                    frac = f
                }
            }
            guard h < 24 || (h == 24 && mi == 0 && sec == 0 && frac == 0), mi < 60, sec < 60 else { return nil }
            return Int64(h * 3600 + mi * 60 + sec) * PGTime.usPerSecond + frac
        }
    }
}
