import Foundation

/// A policy expression as readable text, close to the SQL a reviewer would write:
/// `user_id = auth.uid() OR EXISTS (SELECT 1 FROM rides r WHERE r.id = ride_id AND …)`.
package enum RLSRuleText {
    /// The expression; named definitions (`ref`) are shown by name.
    package static func describe(_ e: Expr) -> String { text(e, top: true) }

    static func text(_ e: Expr, top: Bool = false) -> String {
        switch e {
        case .constant(let b): return b ? "true (everyone)" : "false (nobody)"
        case .role(let r): return "role is \(r)"
        case .compare(let op, let a, let b): return "\(operand(a)) \(symbol(op)) \(operand(b))"
        case .inList(let a, let list): return "\(operand(a)) IN (\(list.map(literal).joined(separator: ", ")))"
        case .isNull(let a, let negated): return "\(operand(a)) IS \(negated ? "NOT " : "")NULL"
        case .exists(let table, let w): return "EXISTS (a row of \(table) WHERE \(text(w, top: true)))"
        case .any(let parts):
            let s = parts.map { text($0) }.joined(separator: " OR ")
            return top || parts.count < 2 ? s : "(\(s))"
        case .all(let parts):
            let s = parts.map { text($0) }.joined(separator: " AND ")
            return top || parts.count < 2 ? s : "(\(s))"
        case .not(let inner): return "NOT (\(text(inner, top: true)))"
        case .ref(let name): return name
        }
    }

    static func symbol(_ op: Expr.CompareOp) -> String {
        switch op {
        case .eq: return "="
        case .neq: return "<>"
        case .lt: return "<"
        case .lte: return "<="
        case .gt: return ">"
        case .gte: return ">="
        }
    }

    static func operand(_ o: Expr.Operand) -> String {
        switch o {
        case .column(let c): return c
        case .outer(let c): return "outer.\(c)"
        case .claim("sub"): return "auth.uid()"
        case .claim("role"): return "auth.role()"
        case .claim("email"): return "auth.email()"
        case .claim(let c): return "auth.jwt()->>'\(c)'"
        case .now: return "now()"
        case .value(let v): return literal(v)
        }
    }

    static func literal(_ v: JSONValue) -> String {
        if case .string(let s) = v { return "'\(s)'" }
        return v.serialized()
    }
}
