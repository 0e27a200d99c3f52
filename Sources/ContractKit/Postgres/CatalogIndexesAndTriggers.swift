import Foundation

/// An index as PostgreSQL's catalog has it (`pg_index`, `pg_am`, `pg_opclass`), in the terms of
/// schema.json's `indexDefinitions`.
package struct CatalogIndex: Sendable, Equatable {
    package var name: String
    /// The access method (`btree`, `gin`, …).
    package var method: String
    /// `indisunique`.
    package var unique: Bool
    /// The key columns in order (operator class only when it is not the type's default).
    package var keys: [IndexDefinition.Key]
    /// `pg_get_expr(indpred)`, nil for a full index.
    package var predicate: String?

    init(json: JSONValue) {
        name = json["name"]?.stringValue ?? ""
        method = json["method"]?.stringValue ?? ""
        unique = json["unique"]?.boolValue ?? false
        keys = (json["keys"]?.arrayValue ?? []).map { k in
            var column = k["column"]?.stringValue ?? ""
            if column.count >= 2, column.hasPrefix("\""), column.hasSuffix("\"") { column = String(column.dropFirst().dropLast()) }
            return IndexDefinition.Key(column: column, descending: k["desc"]?.boolValue ?? false, opclass: k["opclass"]?.stringValue)
        }
        predicate = json["predicate"]?.stringValue
    }

    var definition: IndexDefinition { IndexDefinition(name: name, method: method, keys: keys, unique: unique, predicate: predicate) }

    /// A predicate in comparable form: casts (`::ride_status`), brackets, quotes around
    /// identifiers, case and spacing are PostgreSQL's printing, not meaning.
    static func normalized(_ predicate: String?) -> String? {
        guard var p = predicate else { return nil }
        p = p.replacingOccurrences(of: #"::[A-Za-z_][A-Za-z0-9_ ]*(\[\])?"#, with: "", options: .regularExpression)
        p = p.replacingOccurrences(of: "(", with: " ").replacingOccurrences(of: ")", with: " ").replacingOccurrences(of: "\"", with: "")
        return p.lowercased().split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// Differences between the indexes schema.json states for a table and the catalog's.
    package static func compare(_ want: [IndexDefinition], _ have: [CatalogIndex]) -> [String] {
        var diffs: [String] = []
        for w in want {
            guard let h = have.first(where: { $0.name == w.name }) else {
                diffs.append("index \(w.name): missing in PostgreSQL (schema.json \(w.summary))")
                continue
            }
            let same = h.method == w.method && h.unique == w.unique && h.keys == w.keys && normalized(h.predicate) == normalized(w.predicate)
            if !same { diffs.append("index \(w.name): schema.json \(w.summary), PostgreSQL \(h.definition.summary)") }
        }
        for h in have where !want.contains(where: { $0.name == h.name }) {
            diffs.append("index \(h.name): in PostgreSQL (\(h.definition.summary)), not in schema.json")
        }
        return diffs
    }
}

/// A trigger as PostgreSQL's catalog has it (`pg_trigger.tgtype`, the function it runs).
package struct CatalogTrigger: Sendable, Equatable {
    package var name: String
    /// `tgtype`: row 1, before 2, insert 4, delete 8, update 16, truncate 32, instead 64.
    package var type: Int
    /// The function, schema-qualified unless in `public`.
    package var function: String

    init(json: JSONValue) {
        name = json["name"]?.stringValue ?? ""
        type = Int(json["type"]?.intValue ?? 0)
        function = json["function"]?.stringValue ?? ""
    }

    /// `before`, `after` or `instead of`.
    package var timing: String { type & 64 != 0 ? "instead of" : type & 2 != 0 ? "before" : "after" }
    /// Events in PostgreSQL's order.
    package var events: [String] {
        [(4, "insert"), (8, "delete"), (16, "update"), (32, "truncate")].filter { type & $0.0 != 0 }.map(\.1)
    }
    /// `row` or `statement`.
    package var level: String { type & 1 != 0 ? "row" : "statement" }

    func summary(table: String) -> String {
        TriggerDefinition(name: name, table: table, timing: timing, events: events, level: level, function: function).summary
    }

    /// Differences between the triggers schema.json states on one table and the catalog's.
    package static func compare(_ want: [TriggerDefinition], _ have: [CatalogTrigger]) -> [String] {
        var diffs: [String] = []
        for w in want {
            guard let h = have.first(where: { $0.name == w.name }) else {
                diffs.append("trigger \(w.name): missing in PostgreSQL (schema.json \(w.summary))")
                continue
            }
            if h.timing != w.timing || h.events != w.events || h.level != w.level || h.function != w.function {
                diffs.append("trigger \(w.name): schema.json \(w.summary), PostgreSQL \(h.summary(table: w.qualifiedTable))")
            }
        }
        for h in have where !want.contains(where: { $0.name == h.name }) {
            diffs.append(
                "trigger \(h.name): in PostgreSQL (\(h.timing.uppercased()) \(h.events.map { $0.uppercased() }.joined(separator: " OR ")), \(h.function)()), not in schema.json"
            )
        }
        return diffs
    }
}
