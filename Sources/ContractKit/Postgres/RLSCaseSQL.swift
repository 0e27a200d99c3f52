import Foundation

/// The SQL of an RLS case on PostgreSQL, and how what the server answered becomes the case's
/// outcome: the one rendering both ways `PostgresTarget` runs cases share (a psql script per
/// case, or many cases in one call of `PostgresCaseBatch`'s function), so the two send the same
/// statements and read the same outcome.
struct RLSCaseSQL {
    /// The case.
    let rlsCase: RLSCase
    /// Its setup steps, run as the superuser (removing the original row, inserting a witness),
    /// without their semicolons.
    let setup: [String]
    /// The role switch PostgREST performs for the actor (`set local role …`,
    /// `set local request.jwt.claims to …`).
    let actAs: [String]
    /// The statement the actor runs; for a case that returns rows, a query of one `jsonb` array.
    let statement: String
    /// Whether the statement's answer is the rows (`select`, a write with `returning`).
    let returnsRows: Bool
    /// PostgREST's status for a success (201 for an insert, else 200).
    let okStatus: Int
    /// The actor's role (`anon` maps 42501 to 401 rather than 403).
    let role: String

    init(_ rlsCase: RLSCase) {
        self.rlsCase = rlsCase
        let qt = PostgresTarget.qualified(rlsCase.table)
        func insert(_ table: String, _ row: [String: JSONValue]) -> String {
            let q = PostgresTarget.qualified(table)
            let cols = row.keys.sorted().map(\.sqlIdentifier).joined(separator: ", ")
            return
                "insert into \(q) as t (\(cols)) select \(cols) from jsonb_populate_record(null::\(q), \(JSONValue.object(row).serialized(.compact).sqlLiteral)::jsonb)"
        }
        setup = rlsCase.setup.map { step in
            if let row = step.insertRow { return insert(step.table, row) }
            return "delete from \(PostgresTarget.qualified(step.table)) as t\(PostgresTarget.condition(step.deleteKey ?? [:]))"
        }
        func rows(_ dml: String) -> String { "with w as (\(dml) returning t.*) select coalesce(jsonb_agg(to_jsonb(w)), '[]'::jsonb) from w" }
        returnsRows = rlsCase.operation.returnsRows
        var ok = 200
        switch rlsCase.operation {
        case .select(let key):
            statement = "select coalesce(jsonb_agg(to_jsonb(t)), '[]'::jsonb) from \(qt) as t\(PostgresTarget.condition(key))"
        case .insert(let row, let returning):
            statement = returning ? rows(insert(rlsCase.table, row)) : insert(rlsCase.table, row)
            ok = 201
        case .update(let key, let set, let returning):
            let assigns = set.keys.sorted().map { "\($0.sqlIdentifier) = s.\($0.sqlIdentifier)" }.joined(separator: ", ")
            let dml =
                "update \(qt) as t set \(assigns) from jsonb_populate_record(null::\(qt), \(JSONValue.object(set).serialized(.compact).sqlLiteral)::jsonb) as s\(PostgresTarget.condition(key))"
            statement = returning ? rows(dml) : dml
        case .delete(let key, let returning):
            let dml = "delete from \(qt) as t\(PostgresTarget.condition(key))"
            statement = returning ? rows(dml) : dml
        }
        okStatus = ok
        role = rlsCase.actor.role
        actAs = PostgresTarget.actAsStatements(AuthContext(role: rlsCase.actor.role, claims: rlsCase.actor.claims))
    }

    /// The outcome as PostgREST shows it: an error (of a setup step or of the statement) mapped
    /// to its status by PostgREST's table; a success with the rows affected, or with the rows of
    /// `rows` (a JSON array) when the case returns rows.
    func outcome(_ answer: Result<(count: Int, rows: JSONValue?), PostgresError>, statuses: PostgRESTStatusTable) throws -> RLSOutcome {
        switch answer {
        case .failure(let e):
            return RLSOutcome(status: statuses.status(for: e.code, anonymous: role == "anon", message: e.message), code: e.code, message: e.message)
        case .success(let (count, rows)):
            guard returnsRows else { return RLSOutcome(status: okStatus, count: count) }
            guard case .array(let items)? = rows else { throw RLSTargetError("unexpected reply to \(rlsCase.name): \(rows.map { "\($0)" } ?? "no rows")") }
            return RLSOutcome(status: okStatus, rows: items.map { $0.objectValue ?? [:] })
        }
    }
}
