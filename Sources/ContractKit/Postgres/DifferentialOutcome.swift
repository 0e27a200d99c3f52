import Foundation

extension RLSCase {
    /// A differential case (no expected outcome: two targets are compared). With
    /// `replaceOriginal`, the row holding the insert's `key` is removed first, as the service
    /// role in the same undone state, so keys and foreign keys hold and the policies alone decide.
    package init(table: String, actor: RLSActor, operation: RLSOperation, replaceOriginal key: [String: JSONValue] = [:]) {
        let setup = key.isEmpty ? [] : [RLSSetupStep.delete(table, key: key)]
        self.init(app: "", table: table, actor: actor, operation: operation, setup: setup, detail: "", dependsOn: [])
        detail = summary
    }

    /// `saved_cities · INSERT · as ben · id=… · re-insert {…}`.
    package var summary: String {
        func text(_ values: [String: JSONValue]) -> String {
            values.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value.plainText)" }.joined(separator: ",")
        }
        let replaced = setup.first?.deleteKey ?? [:]
        var s = "\(table) · \(command.rawValue) · as \(actor.name)"
        if !operation.key.isEmpty || !replaced.isEmpty {
            s += " · " + text(operation.key.isEmpty ? replaced : operation.key)
        } else if command != .insert {
            s += " · all rows"
        }
        switch operation {
        case .insert(let row, _): s += (replaced.isEmpty ? " · insert {" : " · re-insert {") + text(row) + "}"
        case .update(_, let set, _): s += " · set " + text(set)
        default: break
        }
        if command != .select && operation.returnsRows { s += " · returning" }
        return s
    }

    /// The columns whose values a write's returned rows are compared on: the key and the
    /// columns the case writes, less time-valued ones. Other columns hold defaults and trigger
    /// results (`gen_random_uuid()`, `now()`, `updated_at` maintenance) that legitimately differ
    /// between two backends with different clocks and id sources. Nil: every column (reads).
    package func comparedColumns(in schema: DatabaseSchema) -> Set<String>? {
        let written: Set<String>
        switch operation {
        case .select, .delete: return nil
        case .insert(let row, _): written = Set(row.keys)
        case .update(let key, let set, _): written = Set(key.keys).union(set.keys)
        }
        let timeColumns = Set(
            (schema.table(table)?.columns ?? []).filter {
                switch $0.type {
                case .timestamptz, .timestamp, .date, .time: return true
                default: return false
                }
            }.map(\.name))
        return written.subtracting(timeColumns)
    }
}

/// What a backend did with a case: success with the rows affected (and, for reads and
/// `returning`, the rows), or an error with SQLSTATE and message.
package struct DifferentialOutcome: Sendable, Equatable, CustomStringConvertible {
    /// The error, nil on success.
    package var error: PostgresError?
    /// Rows read, written or removed.
    package var count: Int
    /// The rows (SELECT, or a write with `returning`), normalized and sorted; nil otherwise.
    package var rows: [JSONValue]?

    /// Success.
    package static func ok(count: Int, rows: [JSONValue]? = nil) -> DifferentialOutcome {
        DifferentialOutcome(error: nil, count: count, rows: rows.map(DifferentialOutcome.normalize))
    }
    /// Failure.
    package static func failed(_ e: PostgresError) -> DifferentialOutcome { DifferentialOutcome(error: e, count: 0, rows: nil) }

    /// `ok` or `error`.
    package var statusClass: String { error == nil ? "ok" : "error" }

    /// `ok, 1 row` or `error 42501 "…"`.
    package var description: String {
        if let error { return "error \(error.code) \"\(error.message)\"" }
        return "ok, \(count) row\(count == 1 ? "" : "s")"
    }

    /// Rows in a form both backends agree on: numbers as doubles, rows sorted.
    static func normalize(_ rows: [JSONValue]) -> [JSONValue] {
        // Each row printed once, not once per comparison (the sort is stable, as before).
        rows.map { r -> (text: String, row: JSONValue) in
            let n = normalizeValue(r)
            return (n.serialized(.compact), n)
        }.sorted { $0.text < $1.text }.map(\.row)
    }

    static func normalizeValue(_ v: JSONValue) -> JSONValue {
        switch v {
        case .int(let i): return .double(Double(i))
        case .array(let a): return .array(a.map(normalizeValue))
        case .object(let o): return .object(o.mapValues(normalizeValue))
        default: return v
        }
    }

    /// The outcome with its rows reduced to some columns (all when nil).
    package func projected(_ columns: Set<String>?) -> DifferentialOutcome {
        guard let columns, let rows else { return self }
        var o = self
        o.rows = DifferentialOutcome.normalize(rows.map { r in .object((r.objectValue ?? [:]).filter { columns.contains($0.key) }) })
        return o
    }

    /// Whether two outcomes are the same: same status class, same SQLSTATE and message on
    /// error; same count, and the same rows when both report rows.
    package func agrees(with other: DifferentialOutcome) -> Bool {
        switch (error, other.error) {
        case (nil, nil):
            if count != other.count { return false }
            if let a = rows, let b = other.rows { return a == b }
            return true
        case (let a?, let b?): return a.code == b.code && a.message == b.message
        default: return false
        }
    }

    /// The first difference between two outcomes' rows, for a readable report.
    package func rowDifference(_ other: DifferentialOutcome) -> String? {
        guard let a = rows, let b = other.rows, a != b else { return nil }
        let sa = Set(a.map { $0.serialized(.compact) }), sb = Set(b.map { $0.serialized(.compact) })
        let onlyA = sa.subtracting(sb).sorted(), onlyB = sb.subtracting(sa).sorted()
        return
            "only in first: \(onlyA.prefix(2).joined(separator: " "))\(onlyA.count > 2 ? " …" : ""); only in second: \(onlyB.prefix(2).joined(separator: " "))\(onlyB.count > 2 ? " …" : "")"
    }
}

extension DifferentialOutcome {
    /// What a target observed, compared on its error (SQLSTATE and message) or its count and rows.
    package init(_ o: RLSOutcome) {
        if let code = o.code, o.status >= 400 {
            self = .failed(PostgresError(code, o.message ?? ""))
        } else {
            self = .ok(count: o.count ?? 0, rows: o.rows?.map(JSONValue.object))
        }
    }
}

extension JSONValue {
    /// The value as PostgreSQL text input (strings unquoted, numbers and booleans as printed,
    /// arrays and objects as JSON).
    package var plainText: String {
        switch self {
        case .string(let s): return s
        case .null: return "null"
        default: return serialized(.compact)
        }
    }
}
