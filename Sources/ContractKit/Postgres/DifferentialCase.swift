import Foundation

/// What a case does to its table.
package enum DifferentialOperation: Sendable, Equatable {
    /// Reads the rows matching the key (every row when the key is empty).
    case select
    /// Inserts a row; with `replaceOriginal` the row holding the case's key is removed first (as
    /// the service role, in the same rolled-back transaction) so keys and foreign keys hold and
    /// the policies alone decide.
    case insert(row: [String: JSONValue], replaceOriginal: Bool)
    /// Sets columns on the rows matching the key.
    case update(set: [String: JSONValue])
    /// Deletes the rows matching the key.
    case delete

    /// The SQL command.
    package var command: PolicyCommand {
        switch self {
        case .select: return .select
        case .insert: return .insert
        case .update: return .update
        case .delete: return .delete
        }
    }
}

/// One concrete RLS case: an actor runs one statement on one table, in a transaction that is
/// rolled back afterwards, so every case starts from the fixtures.
package struct DifferentialCase: Sendable, Equatable, CustomStringConvertible {
    /// The table (`saved_cities`).
    package var table: String
    /// Who acts.
    package var actor: RLSActor
    /// What is done.
    package var operation: DifferentialOperation
    /// Equality conditions selecting the target rows (the primary key of a fixture row); empty
    /// means the whole table. For an insert with `replaceOriginal`, the row removed first.
    package var key: [String: JSONValue]
    /// Whether the statement returns the rows it wrote (PostgREST's `return=representation`,
    /// which makes PostgreSQL apply the SELECT policies to them).
    package var returning: Bool

    package init(table: String, actor: RLSActor, operation: DifferentialOperation, key: [String: JSONValue], returning: Bool = false) {
        self.table = table
        self.actor = actor
        self.operation = operation
        self.key = key
        self.returning = returning
    }

    /// `saved_cities · INSERT · as ben · id=… · re-insert {…}`.
    package var description: String {
        var s = "\(table) · \(operation.command.rawValue) · as \(actor.name)"
        if !key.isEmpty {
            s += " · " + key.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value.plainText)" }.joined(separator: ",")
        } else if operation.command != .insert {
            s += " · all rows"
        }
        switch operation {
        case .insert(let row, let replace):
            let shown = row.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value.plainText)" }.joined(separator: ",")
            s += replace ? " · re-insert {\(shown)}" : " · insert {\(shown)}"
        case .update(let set):
            s += " · set " + set.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value.plainText)" }.joined(separator: ",")
        default: break
        }
        if returning { s += " · returning" }
        return s
    }
}

extension DifferentialCase {
    /// The columns whose values a write's returned rows are compared on: the key and the
    /// columns the case writes, less time-valued ones. Other columns hold defaults and trigger
    /// results (`gen_random_uuid()`, `now()`, `updated_at` maintenance) that legitimately differ
    /// between two backends with different clocks and id sources. Nil: every column (reads).
    package func comparedColumns(in schema: DatabaseSchema) -> Set<String>? {
        let written: Set<String>
        switch operation {
        case .select, .delete: return nil
        case .insert(let row, _): written = Set(row.keys)
        case .update(let set): written = Set(key.keys).union(set.keys)
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

/// Something that runs RLS cases: the mock's database engine or a PostgreSQL.
package protocol DifferentialTarget: AnyObject {
    /// `mock` or `postgres`.
    var name: String { get }
    /// Runs one case and rolls back its effects.
    func run(_ c: DifferentialCase) throws -> DifferentialOutcome
    /// Runs cases in order, each as `run` would, its outcome at its index (a target may send
    /// them together: `PostgresTarget` pipelines them through its psql session).
    func runAll(_ cases: [DifferentialCase]) throws -> [DifferentialOutcome]
}

extension DifferentialTarget {
    /// One `run` after another.
    package func runAll(_ cases: [DifferentialCase]) throws -> [DifferentialOutcome] { try cases.map(run) }
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
