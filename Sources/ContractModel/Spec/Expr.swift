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

    /// Comparison operators.
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

extension Expr {
    /// Decodes an expression from a contract file node.
    package static func decode(_ node: SpecNode) throws -> Expr {
        switch node.value {
        case .bool(let b): return .constant(b)
        case .string(let s):
            switch s {
            case "public": return .constant(true)
            case "nobody": return .constant(false)
            case "authenticated", "anon", "service_role": return .role(s)
            default: throw node.fail("unknown expression '\(s)' (expected public, nobody, authenticated, anon, service_role or an object)")
            }
        case .object(let o):
            guard o.count == 1, let key = o.keys.first else {
                throw node.fail("an expression object has exactly one key, found \(o.keys.sorted())")
            }
            return try node.object { obj in
                let arg = try obj.required(key)
                if let op = CompareOp(rawValue: key) {
                    let parts = try arg.array()
                    guard parts.count == 2 else { throw arg.fail("'\(key)' takes two operands") }
                    return .compare(op, try Operand.decode(parts[0]), try Operand.decode(parts[1]))
                }
                switch key {
                case "owner":
                    return .compare(.eq, .column(try arg.string()), .claim("sub"))
                case "in":
                    let parts = try arg.array()
                    guard parts.count == 2 else { throw arg.fail("'in' takes an operand and a list") }
                    guard case .array(let list) = parts[1].value else { throw parts[1].fail("expected a list of values") }
                    return .inList(try Operand.decode(parts[0]), list)
                case "isNull": return .isNull(try Operand.decode(arg), negated: false)
                case "notNull": return .isNull(try Operand.decode(arg), negated: true)
                case "exists":
                    return try arg.object { e in
                        .exists(table: try e.required("table").string(), where: try Expr.decode(try e.required("where")))
                    }
                case "any": return .any(try arg.array().map(Expr.decode))
                case "all": return .all(try arg.array().map(Expr.decode))
                case "not": return .not(try Expr.decode(arg))
                case "ref": return .ref(try arg.string())
                default:
                    throw node.fail("unknown expression '\(key)' (expected owner, eq, neq, lt, lte, gt, gte, in, isNull, notNull, exists, any, all, not, ref)")
                }
            }
        default:
            throw node.fail("expected an expression, found \(node.value.typeName)")
        }
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

extension Expr.Operand {
    /// Decodes an operand.
    package static func decode(_ node: SpecNode) throws -> Expr.Operand {
        switch node.value {
        case .string(let s):
            switch s {
            case "auth.uid": return .claim("sub")
            case "auth.role": return .claim("role")
            case "auth.email": return .claim("email")
            case "now": return .now
            default: throw node.fail("unknown operand '\(s)' (strings must be auth.uid, auth.role, auth.email or now; write literals as {\"value\": …})")
            }
        case .int, .double, .bool, .null: return .value(node.value)
        case .object(let o):
            guard o.count == 1, let key = o.keys.first else { throw node.fail("an operand object has exactly one key") }
            return try node.object { obj in
                let arg = try obj.required(key)
                switch key {
                case "column": return .column(try arg.string())
                case "outer": return .outer(try arg.string())
                case "claim": return .claim(try arg.string())
                case "value": return .value(arg.value)
                default: throw node.fail("unknown operand '\(key)' (expected column, outer, claim or value)")
                }
            }
        default: throw node.fail("expected an operand, found \(node.value.typeName)")
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
