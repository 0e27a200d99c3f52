import Foundation

/// Compiles policy and CHECK expressions into row tests under SQL three-valued logic.
///
/// `exists` lookups read the inner table directly (RLS not applied), as the SECURITY DEFINER
/// helper functions of the SQL implementation do. A lookup that does not mention the outer row is
/// evaluated once per statement, not once per row.
struct PolicyEvaluator {
    let db: DatabaseEngine
    let auth: AuthContext
    let definitions: [String: Expr]

    typealias RowTest = ([SQLValue], [SQLValue]?) -> Bool?

    final class Memo { var value: Bool?? = nil }

    func compile(_ e: Expr, _ t: Database.Table, outer: Database.Table?, depth: Int = 0) throws -> RowTest {
        guard depth < 32 else { throw PostgresError("54001", "policy expression nests too deeply (recursive definition?)") }
        switch e {
        case .constant(let b): return { _, _ in b }
        case .role(let r):
            let ok = auth.role == r
            return { _, _ in ok }
        case .ref(let name):
            guard let d = definitions[name] else { throw PostgresError("42883", "function \(name)() does not exist") }
            return try compile(d, t, outer: outer, depth: depth + 1)
        case .not(let x):
            let f = try compile(x, t, outer: outer, depth: depth + 1)
            return { r, o in f(r, o).map { !$0 } }
        case .any(let xs):
            let fs = try xs.map { try compile($0, t, outer: outer, depth: depth + 1) }
            return { r, o in Kleene.any(fs.count) { fs[$0](r, o) } }
        case .all(let xs):
            let fs = try xs.map { try compile($0, t, outer: outer, depth: depth + 1) }
            return { r, o in Kleene.all(fs.count) { fs[$0](r, o) } }
        case .isNull(let a, let negated):
            let (get, _) = try operand(a, t, outer)
            return { r, o in get(r, o).isNull != negated }
        case .inList(let a, let list):
            let (get, type) = try operand(a, t, outer)
            let values = list.map { v -> SQLValue? in type.flatMap { try? SQLValue.coerce(json: v, to: $0) } ?? jsonToSQL(v) }
            return { r, o in
                let v = get(r, o)
                if v.isNull { return nil }
                var unknown = false
                for x in values {
                    guard let x, !x.isNull else { unknown = true; continue }
                    if SQLValue.compare(v, x, type: type) == 0 { return true }
                }
                return unknown ? nil : false
            }
        case .compare(let op, let a, let b):
            var (ga, ta) = try operand(a, t, outer)
            var (gb, tb) = try operand(b, t, outer)
            // Literals and claims take the type of the column they meet.
            if ta == nil, let tb { ga = coerced(ga, a, tb); ta = tb }
            if tb == nil, let ta { gb = coerced(gb, b, ta); tb = ta }
            let type = ta
            return { r, o in
                let x = ga(r, o), y = gb(r, o)
                if x.isNull || y.isNull { return nil }
                guard let c = SQLValue.compare(x, y, type: type) else { return nil }
                return op.holds(c)
            }
        case .exists(let tableName, let whereExpr):
            let inner = try db.table(tableName)
            let test = try compile(whereExpr, inner, outer: t, depth: depth + 1)
            let correlated = mentionsOuter(whereExpr)
            if !correlated {
                let memo = Memo()
                return { _, _ in
                    if let v = memo.value { return v }
                    let rows = (try? db.table(tableName).rows) ?? []
                    let v = rows.contains { test($0, nil) == true }
                    memo.value = v
                    return v
                }
            }
            return { r, _ in
                let rows = (try? db.table(tableName).rows) ?? []
                return rows.contains { test($0, r) == true }
            }
        }
    }

    func mentionsOuter(_ e: Expr) -> Bool {
        func op(_ o: Expr.Operand) -> Bool { if case .outer = o { return true }; return false }
        switch e {
        case .compare(_, let a, let b): return op(a) || op(b)
        case .inList(let a, _), .isNull(let a, _): return op(a)
        case .any(let xs), .all(let xs): return xs.contains(where: mentionsOuter)
        case .not(let x): return mentionsOuter(x)
        case .ref(let n): return definitions[n].map(mentionsOuter) ?? false
        case .exists: return false // a nested exists binds its own outer
        default: return false
        }
    }

    func coerced(_ get: @escaping ([SQLValue], [SQLValue]?) -> SQLValue, _ a: Expr.Operand, _ type: SQLType) -> ([SQLValue], [SQLValue]?) -> SQLValue {
        switch a {
        case .value(let j):
            let v = (try? SQLValue.coerce(json: j, to: type)) ?? .null
            return { _, _ in v }
        case .claim(let name):
            let v: SQLValue = auth.claims[name].flatMap { try? SQLValue.coerce(json: $0, to: type) } ?? .null
            return { _, _ in v }
        default: return get
        }
    }

    func jsonToSQL(_ j: JSONValue) -> SQLValue {
        switch j {
        case .null: return .null
        case .bool(let b): return .bool(b)
        case .int(let i): return .int(i)
        case .double(let d): return .double(d)
        case .number(let t): return PGNumeric.parse(t).map(SQLValue.numeric) ?? .double(Double(t) ?? 0)
        case .string(let s): return .text(s)
        default: return .json(j)
        }
    }

    func operand(_ a: Expr.Operand, _ t: Database.Table, _ outer: Database.Table?) throws -> (([SQLValue], [SQLValue]?) -> SQLValue, SQLType?) {
        switch a {
        case .column(let c):
            guard let i = t.colIndex[c] else { throw PostgresError("42703", "column \"\(c)\" does not exist") }
            return ({ r, _ in r[i] }, t.schema.columns[i].type)
        case .outer(let c):
            guard let o = outer, let i = o.colIndex[c] else { throw PostgresError("42703", "column \"\(c)\" does not exist") }
            return ({ _, or in or?[i] ?? .null }, o.schema.columns[i].type)
        case .claim(let name):
            let v = auth.claims[name].map(jsonToSQL) ?? .null
            if name == "role" { let r = SQLValue.text(auth.role); return ({ _, _ in r }, .text) }
            return ({ _, _ in v }, nil)
        case .now:
            db.seedRecorder?.clockReads += 1
            let v = SQLValue.timestamp(PGTime.micros(db.clock.now()))
            return ({ _, _ in v }, .timestamptz)
        case .value(let j):
            let v = jsonToSQL(j)
            return ({ _, _ in v }, nil)
        }
    }
}
