import Foundation

/// The policy and CHECK expression language, one for all apps.
///
/// JSON forms (see Contracts/FORMAT.md):
/// - `true` / `"public"`: every role, anon included. `false` / `"nobody"`: no one.
/// - `"authenticated"`, `"anon"`, `"service_role"`: the request's role is that one.
/// - `{"owner": "user_id"}`: the row's column equals `auth.uid()`.
/// - `{"eq"|"neq"|"lt"|"lte"|"gt"|"gte": [A, B]}`: SQL comparison (NULL gives unknown).
/// - `{"in": [A, [v, …]]}`, `{"isNull": A}`, `{"notNull": A}`.
/// - `{"exists": {"table": "t", "where": E}}`: some row of `t` satisfies E; inside E,
///   `{"column": c}` is the inner row and `{"outer": c}` the row being checked. Lookups read the
///   data directly, as a SECURITY DEFINER helper does in SQL (so admin is checked in the data).
/// - `{"any": [E…]}`, `{"all": [E…]}`, `{"not": E}`; `{"ref": "name"}` names a definition.
/// Operands A, B: `{"column": c}`, `{"outer": c}`, `"auth.uid"`, `"auth.role"`, `"auth.email"`,
/// `{"claim": "name"}` (any JWT claim), `"now"`, `{"value": v}` or a bare number, boolean or null.
package indirect enum Expr: Sendable, Equatable {
    /// Always true or always false.
    case constant(Bool)
    /// The request's role is this one.
    case role(String)
    /// A SQL comparison.
    case compare(CompareOp, Operand, Operand)
    /// Membership in a literal list.
    case inList(Operand, [JSONValue])
    /// `IS NULL` (or `IS NOT NULL` when negated is true).
    case isNull(Operand, negated: Bool)
    /// A correlated lookup in another table.
    case exists(table: String, where: Expr)
    /// True when any is true.
    case any([Expr])
    /// True when all are true.
    case all([Expr])
    /// Negation (unknown stays unknown).
    case not(Expr)
    /// A named definition of the app's policy file.
    case ref(String)

    package enum CompareOp: String, Sendable, CaseIterable {
        case eq, neq, lt, lte, gt, gte
    }

    /// A value an expression compares.
    package enum Operand: Sendable, Equatable {
        /// A column of the current row (inside `exists`, of the inner row).
        case column(String)
        /// Inside `exists`: a column of the enclosing row.
        case outer(String)
        /// A JWT claim (`sub` for auth.uid(), `role`, `email`, …).
        case claim(String)
        /// The clock's current time.
        case now
        /// A literal.
        case value(JSONValue)
    }
}

extension Expr: Decodable {
    /// `public`, `nobody`, a role name, or an object of one key (`owner`, a comparison, `in`,
    /// `isNull`, `notNull`, `exists`, `any`, `all`, `not`, `ref`).
    package init(from decoder: Decoder) throws {
        let value = try decoder.singleValueContainer().decode(JSONValue.self)
        switch value {
        case .bool(let b): self = .constant(b)
        case .string(let s):
            switch s {
            case "public": self = .constant(true)
            case "nobody": self = .constant(false)
            case "authenticated", "anon", "service_role": self = .role(s)
            default: throw decoder.fail("unknown expression '\(s)' (expected public, nobody, authenticated, anon, service_role or an object)")
            }
        case .object(let o):
            guard o.count == 1, let key = o.keys.first else {
                throw decoder.fail("an expression object has exactly one key, found \(o.keys.sorted())")
            }
            let c = try decoder.container(keyedBy: AnyKey.self), k = AnyKey(key)
            if let op = CompareOp(rawValue: key) {
                var parts = try c.nestedUnkeyedContainer(forKey: k)
                guard parts.count == 2 else { throw c.fail(k, "'\(key)' takes two operands") }
                self = .compare(op, try parts.decode(Operand.self), try parts.decode(Operand.self))
                return
            }
            switch key {
            case "owner": self = .compare(.eq, .column(try c.decode(String.self, forKey: k)), .claim("sub"))
            case "in":
                var parts = try c.nestedUnkeyedContainer(forKey: k)
                guard parts.count == 2 else { throw c.fail(k, "'in' takes an operand and a list") }
                let operand = try parts.decode(Operand.self)
                guard case .array(let list) = try parts.decode(JSONValue.self) else { throw c.fail([k, AnyKey(intValue: 1)!], "expected a list of values") }
                self = .inList(operand, list)
            case "isNull": self = .isNull(try c.decode(Operand.self, forKey: k), negated: false)
            case "notNull": self = .isNull(try c.decode(Operand.self, forKey: k), negated: true)
            case "exists":
                let e = try c.decode(Exists.self, forKey: k)
                self = .exists(table: e.table, where: e.where)
            case "any": self = .any(try c.decode([Expr].self, forKey: k))
            case "all": self = .all(try c.decode([Expr].self, forKey: k))
            case "not": self = .not(try c.decode(Expr.self, forKey: k))
            case "ref": self = .ref(try c.decode(String.self, forKey: k))
            default:
                throw decoder.fail("unknown expression '\(key)' (expected owner, eq, neq, lt, lte, gt, gte, in, isNull, notNull, exists, any, all, not, ref)")
            }
        default:
            throw decoder.fail("expected an expression, found \(value.typeName)")
        }
    }

    /// `{"table", "where"}` of `exists`.
    private struct Exists: Decodable {
        var table: String
        var `where`: Expr
    }

    /// The expression in its canonical JSON form.
    package var json: JSONValue {
        switch self {
        case .constant(let b): return b ? "public" : "nobody"
        case .role(let r): return .string(r)
        case .compare(.eq, .column(let c), .claim("sub")): return ["owner": .string(c)]
        case .compare(let op, let a, let b): return .object([op.rawValue: [a.json, b.json]])
        case .inList(let a, let l): return ["in": [a.json, .array(l)]]
        case .isNull(let a, let neg): return .object([neg ? "notNull" : "isNull": a.json])
        case .exists(let t, let w): return ["exists": ["table": .string(t), "where": w.json]]
        case .any(let es): return ["any": .array(es.map(\.json))]
        case .all(let es): return ["all": .array(es.map(\.json))]
        case .not(let e): return ["not": e.json]
        case .ref(let r): return ["ref": .string(r)]
        }
    }

    /// Every table an expression reads through `exists` (following definitions).
    package func referencedTables(definitions: [String: Expr]) -> Set<String> {
        switch self {
        case .exists(let t, let w): return Set([t]).union(w.referencedTables(definitions: definitions))
        case .any(let es), .all(let es): return es.reduce(into: Set()) { $0.formUnion($1.referencedTables(definitions: definitions)) }
        case .not(let e): return e.referencedTables(definitions: definitions)
        case .ref(let r): return definitions[r]?.referencedTables(definitions: definitions) ?? []
        default: return []
        }
    }
}

extension Expr.Operand: Decodable {
    /// `auth.uid`, `auth.role`, `auth.email`, `now`, a JSON scalar, or `{"column" | "outer" |
    /// "claim" | "value": …}`.
    package init(from decoder: Decoder) throws {
        let value = try decoder.singleValueContainer().decode(JSONValue.self)
        switch value {
        case .string(let s):
            switch s {
            case "auth.uid": self = .claim("sub")
            case "auth.role": self = .claim("role")
            case "auth.email": self = .claim("email")
            case "now": self = .now
            default: throw decoder.fail("unknown operand '\(s)' (strings must be auth.uid, auth.role, auth.email or now; write literals as {\"value\": …})")
            }
        case .int, .double, .number, .bool, .null: self = .value(value)
        case .object(let o):
            guard o.count == 1, let key = o.keys.first else { throw decoder.fail("an operand object has exactly one key") }
            let c = try decoder.container(keyedBy: AnyKey.self), k = AnyKey(key)
            switch key {
            case "column": self = .column(try c.decode(String.self, forKey: k))
            case "outer": self = .outer(try c.decode(String.self, forKey: k))
            case "claim": self = .claim(try c.decode(String.self, forKey: k))
            case "value": self = .value(try c.decode(JSONValue.self, forKey: k))
            default: throw decoder.fail("unknown operand '\(key)' (expected column, outer, claim or value)")
            }
        default: throw decoder.fail("expected an operand, found \(value.typeName)")
        }
    }

    /// The operand in canonical JSON form.
    package var json: JSONValue {
        switch self {
        case .column(let c): return ["column": .string(c)]
        case .outer(let c): return ["outer": .string(c)]
        case .claim("sub"): return "auth.uid"
        case .claim("role"): return "auth.role"
        case .claim("email"): return "auth.email"
        case .claim(let c): return ["claim": .string(c)]
        case .now: return "now"
        case .value(let v): return ["value": v]
        }
    }
}

extension Expr.CompareOp {
    /// Whether the operator holds for a three-way comparison result (<0, 0, >0).
    package func holds(_ c: Int) -> Bool {
        switch self {
        case .eq: return c == 0
        case .neq: return c != 0
        case .lt: return c < 0
        case .lte: return c <= 0
        case .gt: return c > 0
        case .gte: return c >= 0
        }
    }
}
