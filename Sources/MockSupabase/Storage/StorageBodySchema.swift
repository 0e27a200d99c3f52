import Foundation

/// The part of JSON Schema (draft-07) that Storage's route bodies use, checked the way Fastify's
/// validator checks them: Ajv 8 with `coerceTypes: 'array'`, `allErrors: false`,
/// `useDefaults: true`, `removeAdditional: true` (the route schemas declare no defaults and no
/// `additionalProperties: false`, so those two change nothing here).
///
/// A schema is a value: each route's body is declared once in `StorageRouteBodies` from the
/// route file, and `validate` turns a parsed body into the coerced body or the framework's 400.
struct StorageBodySchema: Sendable {
    /// A JSON type a schema may name.
    enum JSONType: String, Sendable {
        case string, integer, number, boolean, object, array
    }

    /// One declared property, in the route file's order.
    struct Property: Sendable {
        var name: String
        var schema: StorageBodySchema
    }

    /// `type`; empty when the schema names none (then nothing is checked or coerced).
    var types: [JSONType] = []
    /// `nullable: true` (Ajv's OpenAPI keyword): `null` passes as it is.
    var nullable = false
    /// `finite: true` (Storage's own keyword, `src/http/finite.ts`): a number must be finite.
    var finite = false
    /// `enum` of strings.
    var allowed: [String]? = nil
    /// `anyOf`.
    var anyOf: [StorageBodySchema] = []
    /// `minimum`.
    var minimum: Int64? = nil
    /// `pattern` (an ECMAScript pattern that NSRegularExpression reads the same way).
    var pattern: String? = nil
    /// `maxItems`, `minItems` and `items`.
    var maxItems: Int? = nil
    var minItems: Int? = nil
    var items: [StorageBodySchema] = []
    /// `required` and `properties`.
    var required: [String] = []
    var properties: [Property] = []

    static func string(enum allowed: [String]? = nil) -> StorageBodySchema { StorageBodySchema(types: [.string], allowed: allowed) }
    static let boolean = StorageBodySchema(types: [.boolean])
    static func integer(minimum: Int64? = nil, finite: Bool = true) -> StorageBodySchema {
        StorageBodySchema(types: [.integer], finite: finite, minimum: minimum)
    }
    static func array(of item: StorageBodySchema, minItems: Int? = nil, maxItems: Int? = nil, nullable: Bool = false) -> StorageBodySchema {
        StorageBodySchema(types: [.array], nullable: nullable, maxItems: maxItems, minItems: minItems, items: [item])
    }
    static func object(_ properties: [(String, StorageBodySchema)], required: [String] = []) -> StorageBodySchema {
        StorageBodySchema(types: [.object], required: required, properties: properties.map { Property(name: $0.0, schema: $0.1) })
    }

    /// The body after coercion, or the framework's validation error: Fastify prints every Ajv
    /// error as `body<instancePath> <message>`, joined with `, ` (more than one only when an
    /// `anyOf` fails, its branches' errors coming first).
    /// `coercing: false` checks types strictly (no coercion at all): not how Storage validates,
    /// kept so that tests can show the difference is observable.
    func validate(_ body: JSONValue, coercing: Bool = true) throws -> JSONValue {
        var v = body
        let errors = check(&v, at: "body", coercing: coercing)
        if !errors.isEmpty { throw StorageError.validation(errors.joined(separator: ", ")) }
        return v
    }

    /// Checks `v` in place, coercing as Ajv does; the errors (empty when it passes). Ajv's order:
    /// `type` (with coercion), then the keywords that name no type (`enum`, `anyOf`, `finite`),
    /// then the number, string, array and object keywords, stopping at the first error.
    func check(_ v: inout JSONValue, at path: String, coercing: Bool = true) -> [String] {
        if !types.isEmpty, !(nullable && v.isNull), !types.contains(where: { StorageBodySchema.matches(v, $0) }) {
            guard coercing, let c = StorageBodySchema.coerce(v, to: types) else { return ["\(path) must be \(types.map(\.rawValue).joined(separator: ","))"] }
            v = c
        }
        if let allowed, !(v.stringValue.map(allowed.contains) ?? false) { return ["\(path) must be equal to one of the allowed values"] }
        if !anyOf.isEmpty {
            var branchErrors: [String] = []
            var passed = false
            for branch in anyOf {
                // A branch's coercion stays in the data even when the branch fails (Ajv writes
                // the coerced value back to the parent before the branch's other keywords run).
                let e = branch.check(&v, at: path, coercing: coercing)
                if e.isEmpty {
                    passed = true
                    break
                }
                branchErrors += e
            }
            if !passed { return branchErrors + ["\(path) must match a schema in anyOf"] }
        }
        if finite, let d = v.doubleValue, !d.isFinite { return ["\(path) must pass \"finite\" keyword validation"] }
        switch v {
        case .int, .double, .number:
            if let minimum, let d = v.doubleValue, d < Double(minimum) { return ["\(path) must be >= \(minimum)"] }
        case .string(let s):
            if let pattern, s.range(of: pattern, options: .regularExpression) == nil { return ["\(path) must match pattern \"\(pattern)\""] }
        case .array(var a):
            if let maxItems, a.count > maxItems { return ["\(path) must NOT have more than \(maxItems) items"] }
            if let minItems, a.count < minItems { return ["\(path) must NOT have fewer than \(minItems) items"] }
            if let item = items.first {
                for i in a.indices {
                    let e = item.check(&a[i], at: "\(path)/\(i)", coercing: coercing)
                    if !e.isEmpty { return e }
                }
                v = .array(a)
            }
        case .object(var o):
            if let missing = required.first(where: { o[$0] == nil }) { return ["\(path) must have required property '\(missing)'"] }
            for p in properties {
                guard var value = o[p.name] else { continue }
                let e = p.schema.check(&value, at: "\(path)/\(p.name)", coercing: coercing)
                o[p.name] = value
                if !e.isEmpty { return e }
            }
            v = .object(o)
        default: break
        }
        return []
    }

    /// Ajv's type test (`checkDataType`): an integer is a number with no fraction.
    static func matches(_ v: JSONValue, _ t: JSONType) -> Bool {
        switch (t, v) {
        case (.string, .string), (.boolean, .bool), (.object, .object), (.array, .array): return true
        case (.number, .int), (.number, .double), (.number, .number): return true
        case (.integer, .int): return true
        case (.integer, .double), (.integer, .number): return v.doubleValue.map { $0.isFinite && $0.rounded(.towardZero) == $0 } ?? false
        default: return false
        }
    }

    /// Ajv's `coerceData` with `coerceTypes: 'array'` (lib/compile/validate/dataType.ts): a
    /// one-element array stands for its element; then the first declared type that takes the value
    /// wins (null → "", 0, false; number/boolean → string; numeric string/boolean → number;
    /// "true"/"false"/1/0 → boolean; a scalar or null → a one-element array). Nil: a type error.
    static func coerce(_ value: JSONValue, to types: [JSONType]) -> JSONValue? {
        var v = value
        if case .array(let a) = v, a.count == 1 {
            v = a[0]
            if types.contains(where: { matches(v, $0) }) { return v }
        }
        for t in types {
            switch t {
            case .string:
                switch v {
                case .int, .double, .number: if let d = v.doubleValue { return .string(jsString(d)) }
                case .bool(let b): return .string(b ? "true" : "false")
                case .null: return .string("")
                default: break
                }
            case .number, .integer:
                var d: Double?
                switch v {
                case .bool(let b): d = b ? 1 : 0
                case .null: d = 0
                case .string(let s) where !s.isEmpty: d = jsNumber(s)
                default: break
                }
                if let d, t == .number || !d.isFinite || d.rounded(.towardZero) == d { return number(d) }
            case .boolean:
                switch v {
                case .string("false"), .null: return .bool(false)
                case .string("true"): return .bool(true)
                case .int, .double, .number:
                    if v.doubleValue == 0 { return .bool(false) }
                    if v.doubleValue == 1 { return .bool(true) }
                default: break
                }
            case .array:
                switch v {
                case .string, .int, .double, .number, .bool, .null: return .array([v])
                default: break
                }
            case .object: break
            }
        }
        return nil
    }

    /// A number as JSON holds it: an integer when it has no fraction and fits.
    static func number(_ d: Double) -> JSONValue {
        d.isFinite && d.rounded(.towardZero) == d && abs(d) < 9.2e18 ? .int(Int64(d)) : .double(d)
    }

    /// JavaScript's `"" + n` for the numbers JSON carries.
    static func jsString(_ d: Double) -> String {
        if d.rounded(.towardZero) == d && abs(d) < 1e21 { return d == 0 ? "0" : String(format: "%.0f", d) }
        return "\(d)"
    }

    /// JavaScript's unary `+` on a string (`StringToNumber`): surrounding white space ignored, an
    /// empty string 0, `0x`/`0o`/`0b` integers, `Infinity`, a decimal literal; else NaN (nil).
    static func jsNumber(_ s: String) -> Double? {
        let t = s.trimmingCharacters(in: .whitespacesAndNewlines)
        if t.isEmpty { return 0 }
        for (prefix, radix) in [("0x", 16), ("0X", 16), ("0o", 8), ("0O", 8), ("0b", 2), ("0B", 2)] where t.hasPrefix(prefix) {
            return UInt64(t.dropFirst(2), radix: radix).map(Double.init)
        }
        switch t {
        case "Infinity", "+Infinity": return .infinity
        case "-Infinity": return -.infinity
        default: break
        }
        guard t.range(of: #"^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$"#, options: .regularExpression) != nil else { return nil }
        return Double(t)
    }
}
