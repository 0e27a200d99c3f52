import Foundation

/// Rows to put back in one table straight through the backend's database: `delete` by primary
/// key, and `upsert` written as they are (whether or not a row with the key is there).
package struct LiveTableRestore: Sendable {
    package var table: TableSchema
    /// Rows to write as they are.
    package var upsert: [[String: JSONValue]]
    /// Rows to delete (by primary key).
    package var delete: [[String: JSONValue]]

    package init(table: TableSchema, upsert: [[String: JSONValue]], delete: [[String: JSONValue]]) {
        self.table = table
        self.upsert = upsert
        self.delete = delete
    }
}

/// The backend's own database, for what PostgREST cannot put back: a column a trigger stamps on
/// every write (`updated_at = now()`) on a row other rows refer to. `contracts verify --target URL
/// --restore-database URL` (supabase start: `postgresql://postgres:postgres@127.0.0.1:54322/postgres`)
/// writes what each case left different there in one transaction with triggers off
/// (`session_replication_role = replica`, as Supabase's guide to restoring a dump does), so the
/// rows are exactly as before.
package protocol LiveDatabaseWriter: Sendable {
    /// Applies the restores in one transaction with triggers off; throws (and changes nothing)
    /// when any statement fails.
    func apply(_ restores: [LiveTableRestore]) throws
}

/// The SQL of a `LiveTableRestore`, for any PostgreSQL: rows travel as one JSON array per
/// statement (`json_populate_recordset` turns them into the table's row type, so every value
/// takes the column's type as PostgREST would).
package enum LiveRestoreSQL {
    /// `"public"."conversations"`.
    static func name(_ t: TableSchema) -> String { quote(t.schema) + "." + quote(t.name) }

    static func quote(_ identifier: String) -> String { "\"" + identifier.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }

    /// A dollar-quoted literal whose tag does not occur in the text.
    static func literal(_ text: String) -> String {
        var tag = "sc"
        while text.contains("$\(tag)$") { tag += "x" }
        return "$\(tag)$" + text + "$\(tag)$"
    }

    /// The statements (without the transaction around them) of one table's restore: the rows to
    /// delete and the rows to write are deleted by primary key, then the rows to write are
    /// inserted as they are (one insert per set of columns). Deleting first frees unique keys
    /// two rows swapped; with triggers off (`session_replication_role = replica`) a delete
    /// cascades nowhere, since foreign-key actions are triggers too.
    package static func statements(_ r: LiveTableRestore) -> [String] {
        let t = r.table, table = name(t)
        let known = Set(t.columns.map(\.name))
        var out: [String] = []
        let gone = r.delete + r.upsert
        if !gone.isEmpty {
            let keys = gone.map { row in JSONValue.object(row.filter { t.primaryKey.contains($0.key) }) }
            let match = t.primaryKey.map { "t.\(quote($0)) = d.\(quote($0))" }.joined(separator: " and ")
            out.append(
                "delete from \(table) t using json_populate_recordset(null::\(table), \(literal(JSONValue.array(keys).serialized(.compact)))::json) d where \(match)"
            )
        }
        var groups: [[String]: [JSONValue]] = [:]
        for row in r.upsert {
            let cols = row.keys.filter { known.contains($0) }.sorted()
            groups[cols, default: []].append(.object(row.filter { known.contains($0.key) }))
        }
        for (cols, rows) in groups.sorted(by: { $0.key.joined(separator: ",") < $1.key.joined(separator: ",") }) {
            let list = cols.map(quote).joined(separator: ", ")
            out.append(
                "insert into \(table) (\(list)) select \(list) from json_populate_recordset(null::\(table), \(literal(JSONValue.array(rows).serialized(.compact)))::json)"
            )
        }
        return out
    }
}
