import Foundation

/// Stored generated columns (`GENERATED ALWAYS AS (expr) STORED`): PostgreSQL refuses a value
/// written to one when it rewrites the statement (rewriteHandler.c `rewriteTargetListIU`: before
/// any row is read, so a statement touching no row fails too) and computes it for every row an
/// INSERT or UPDATE writes, after the BEFORE ROW triggers and before the constraints
/// (nodeModifyTable.c `ExecComputeStoredGenerated`).
extension DatabaseEngine {
    /// 428C9 when an INSERT's column list names a generated column (PostgREST lists every column
    /// of the body or of `columns=`; even a NULL or a missing value is not DEFAULT there).
    func refuseGeneratedInsert(_ t: Table, columns: [String]) throws {
        for c in t.schema.columns where c.generated != nil && columns.contains(c.name) {
            throw PostgresError(
                "428C9", "cannot insert a non-DEFAULT value into column \"\(c.name)\"", details: "Column \"\(c.name)\" is a generated column.")
        }
    }

    /// 428C9 when an UPDATE assigns a generated column.
    func refuseGeneratedUpdate(_ t: Table, columns: [String]) throws {
        for c in t.schema.columns where c.generated != nil && columns.contains(c.name) {
            throw PostgresError("428C9", "column \"\(c.name)\" can only be updated to DEFAULT", details: "Column \"\(c.name)\" is a generated column.")
        }
    }

    /// The row with every generated column computed from the others.
    func computeGenerated(_ t: Table, _ row: [SQLValue]) throws -> [SQLValue] {
        guard t.schema.columns.contains(where: { $0.generated != nil }) else { return row }
        var out = row
        let ev = PolicyEvaluator(db: self, auth: .serviceRole, definitions: [:])
        for (i, c) in t.schema.columns.enumerated() {
            guard let g = c.generated else { continue }
            let value = try GeneratedValue.compile(g, t, ev)(row)
            out[i] = try c.fitLength(value.cast(to: c.type))
            try c.domain?.check(out[i])
        }
        return out
    }
}

/// A generation expression's value before it is cast to its column's type: a typed value read
/// from the row, or a literal of the document.
enum GeneratedValue {
    case typed(SQLValue, SQLType)
    case literal(JSONValue)

    var isNull: Bool {
        switch self {
        case .typed(let v, _): return v.isNull
        case .literal(let j): return j == .null
        }
    }

    /// The value as text, as `||` reads it.
    var text: String? {
        switch self {
        case .typed(let v, let type): return v.isNull ? nil : v.pgText(as: type)
        case .literal(.null): return nil
        case .literal(.string(let s)): return s
        case .literal(let j): return j.serialized()
        }
    }

    /// The value as the column's type stores it (an assignment cast through its text).
    func cast(to type: SQLType) throws -> SQLValue {
        switch self {
        case .typed(let v, let from):
            if v.isNull { return .null }
            return from == type ? v : try SQLValue.coerce(json: v.json(as: from), to: type)
        case .literal(let j): return try SQLValue.coerce(json: j, to: type)
        }
    }

    /// The expression as a function of the row.
    static func compile(_ e: GeneratedExpression, _ t: Database.Table, _ ev: PolicyEvaluator) throws -> ([SQLValue]) -> GeneratedValue {
        switch e {
        case .operand(.column(let c)):
            guard let i = t.colIndex[c] else { throw PostgresError("42703", "column \"\(c)\" does not exist") }
            let type = t.schema.columns[i].type
            return { row in .typed(row[i], type) }
        case .operand(.value(let j)): return { _ in .literal(j) }
        case .operand: throw PostgresError("42P17", "generation expression is not immutable")
        case .cases(let branches, let otherwise):
            let compiled = try branches.map { (try ev.compile($0.when, t, outer: nil), try compile($0.then, t, ev)) }
            let fallback = try otherwise.map { try compile($0, t, ev) }
            return { row in
                for (when, then) in compiled where when(row, nil) == true { return then(row) }
                return fallback?(row) ?? .literal(.null)
            }
        case .coalesce(let parts):
            let fs = try parts.map { try compile($0, t, ev) }
            return { row in
                for f in fs {
                    let v = f(row)
                    if !v.isNull { return v }
                }
                return .literal(.null)
            }
        case .concat(let parts):
            let fs = try parts.map { try compile($0, t, ev) }
            return { row in
                var out = ""
                for f in fs {
                    guard let s = f(row).text else { return .literal(.null) }
                    out += s
                }
                return .typed(.text(out), .text)
            }
        }
    }
}
