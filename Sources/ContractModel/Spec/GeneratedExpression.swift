import Foundation

/// The value a stored generated column computes from the other columns of its row
/// (`GENERATED ALWAYS AS (expr) STORED`).
///
/// JSON forms (Contracts/FORMAT.md, "Generated columns"):
/// - an operand of the expression language: `{"column": c}`, `{"value": v}` or a bare number,
///   boolean or null;
/// - `{"case": [{"when": E, "then": V}, …], "else": V}`: the `then` of the first `when` that is
///   true (unknown is not true), else `else` (NULL when absent); `E` is the expression language;
/// - `{"coalesce": [V, …]}`: the first value that is not NULL;
/// - `{"concat": [V, …]}`: text concatenation as `||` does it (NULL when any part is NULL).
package indirect enum GeneratedExpression: Sendable, Equatable {
    /// A column of the same row or a literal.
    case operand(Expr.Operand)
    /// `CASE WHEN … THEN … ELSE … END`.
    case cases([Branch], otherwise: GeneratedExpression?)
    /// `COALESCE(…)`.
    case coalesce([GeneratedExpression])
    /// `a || b || …` on text.
    case concat([GeneratedExpression])

    /// One `WHEN condition THEN value`.
    package struct Branch: Sendable, Equatable {
        package var when: Expr
        package var then: GeneratedExpression
    }

    /// The columns the expression reads (PostgreSQL refuses a generated column reading another
    /// generated column; schema.json is checked for that when decoded).
    package var columns: Set<String> {
        switch self {
        case .operand(.column(let c)): return [c]
        case .operand: return []
        case .cases(let branches, let otherwise):
            var out = otherwise?.columns ?? []
            for b in branches { out.formUnion(b.then.columns); out.formUnion(b.when.columnsRead) }
            return out
        case .coalesce(let parts), .concat(let parts): return parts.reduce(into: Set()) { $0.formUnion($1.columns) }
        }
    }
}

extension GeneratedExpression: Decodable {
    package init(from decoder: Decoder) throws {
        let value = try decoder.singleValueContainer().decode(JSONValue.self)
        guard case .object(let o) = value, o.count <= 2, let key = o.keys.first(where: { $0 != "else" }) else {
            self = .operand(try decoder.singleValueContainer().decode(Expr.Operand.self))
            return
        }
        let c = try decoder.container(keyedBy: AnyKey.self), k = AnyKey(key)
        switch key {
        case "case":
            let branches = try c.decode([BranchEntry].self, forKey: k).map { Branch(when: $0.when, then: $0.then) }
            guard !branches.isEmpty else { throw c.fail(k, "'case' needs at least one {\"when\", \"then\"}") }
            self = .cases(branches, otherwise: try c.decodeIfPresent(GeneratedExpression.self, forKey: AnyKey("else")))
        case "coalesce", "concat":
            guard o.count == 1 else { throw decoder.fail("'\(key)' takes no other key") }
            let parts = try c.decode([GeneratedExpression].self, forKey: k)
            guard !parts.isEmpty else { throw c.fail(k, "'\(key)' needs at least one value") }
            self = key == "coalesce" ? .coalesce(parts) : .concat(parts)
        default:
            guard o.count == 1 else { throw decoder.fail("a generated expression is case, coalesce, concat or an operand, found \(o.keys.sorted())") }
            self = .operand(try decoder.singleValueContainer().decode(Expr.Operand.self))
        }
    }

    /// `{"when": E, "then": V}` of `case`.
    private struct BranchEntry: Decodable {
        var when: Expr
        var then: GeneratedExpression
    }
}

extension Expr {
    /// The columns of the row under test the expression reads (not those inside `exists`, which
    /// belong to the looked-up table, nor definitions behind `ref`).
    package var columnsRead: Set<String> {
        func of(_ o: Operand) -> Set<String> { if case .column(let c) = o { return [c] }; return [] }
        switch self {
        case .compare(_, let a, let b): return of(a).union(of(b))
        case .inList(let a, _), .isNull(let a, _): return of(a)
        case .any(let xs), .all(let xs): return xs.reduce(into: Set()) { $0.formUnion($1.columnsRead) }
        case .not(let x): return x.columnsRead
        default: return []
        }
    }
}
