import Foundation

/// An index of a table as schema.json's `indexDefinitions` states it (the document's words
/// made structured), compared with PostgreSQL's catalog by the `postgres` rule kind.
/// ```json
/// { "name": "cities_name_trgm_idx", "method": "gin", "columns": [{ "column": "name", "opclass": "gin_trgm_ops" }] }
/// { "name": "rides_status_idx", "columns": ["status"], "where": "status = 'open'" }
/// { "name": "engagement_events_user_event_created", "columns": ["user_id", "event_type", { "column": "created_at", "order": "desc" }] }
/// ```
package struct IndexDefinition: Sendable, Equatable {
    /// One key column, in order.
    package struct Key: Sendable, Equatable, CustomStringConvertible {
        /// The column.
        package var column: String
        /// `DESC` ordering.
        package var descending: Bool
        /// A non-default operator class (`gin_trgm_ops`).
        package var opclass: String?
        package var description: String { column + (opclass.map { " \($0)" } ?? "") + (descending ? " DESC" : "") }
        /// A key column.
        package init(column: String, descending: Bool = false, opclass: String? = nil) {
            self.column = column
            self.descending = descending
            self.opclass = opclass
        }
    }
    /// The index's name.
    package var name: String
    /// The access method (`btree` unless given; `gin`, `gist`, `hash`, `brin`).
    package var method: String
    /// Key columns in order.
    package var keys: [Key]
    /// `CREATE UNIQUE INDEX`.
    package var unique: Bool
    /// The partial index's predicate (`status = 'open'`), nil for a full index.
    package var predicate: String?

    /// `name USING gin (name gin_trgm_ops) WHERE …`, for messages.
    package var summary: String {
        "\(unique ? "UNIQUE " : "")\(name) USING \(method) (\(keys.map(\.description).joined(separator: ", ")))" + (predicate.map { " WHERE \($0)" } ?? "")
    }

    /// An index.
    package init(name: String, method: String = "btree", keys: [Key], unique: Bool = false, predicate: String? = nil) {
        self.name = name
        self.method = method
        self.keys = keys
        self.unique = unique
        self.predicate = predicate
    }

    static let methods: Set<String> = ["btree", "gin", "gist", "hash", "brin", "spgist"]

    static func decode(_ node: SpecNode, columns: Set<String>) throws -> IndexDefinition {
        try node.object { o in
            let method = try o.optional("method")?.string() ?? "btree"
            if !methods.contains(method) { throw node.fail("unknown index method '\(method)' (known: \(methods.sorted().joined(separator: ", ")))") }
            var keys: [Key] = []
            let cols = try o.required("columns").array()
            if cols.isEmpty { throw node.fail("an index needs at least one column") }
            for c in cols {
                let key: Key
                if case .string(let s) = c.value {
                    key = Key(column: s, descending: false, opclass: nil)
                } else {
                    key = try c.object { co in
                        let order = try co.optional("order")?.string() ?? "asc"
                        guard order == "asc" || order == "desc" else { throw co.this.fail("order is 'asc' or 'desc', not '\(order)'") }
                        return Key(column: try co.required("column").string(), descending: order == "desc", opclass: try co.optional("opclass")?.string())
                    }
                }
                if !columns.contains(key.column) { throw c.fail("unknown column '\(key.column)'") }
                keys.append(key)
            }
            _ = o.optional("doc")
            _ = o.optional("decision")
            return IndexDefinition(
                name: try o.required("name").string(), method: method, keys: keys,
                unique: try o.optional("unique")?.bool() ?? false, predicate: try o.optional("where")?.string())
        }
    }
}

/// A trigger as schema.json's top-level `triggers` states it, compared with PostgreSQL's
/// catalog (`pg_trigger`) by the `postgres` rule kind: timing, events, level and function.
/// ```json
/// { "name": "on_message_created", "table": "messages", "timing": "after", "events": ["insert"], "function": "handle_new_message" }
/// ```
package struct TriggerDefinition: Sendable, Equatable {
    /// The trigger's name (unique per table).
    package var name: String
    /// The table, `public` unless qualified (`auth.users`).
    package var table: String
    /// `before`, `after` or `instead of`.
    package var timing: String
    /// `insert`, `update`, `delete`, `truncate`, in that order.
    package var events: [String]
    /// `row` (default) or `statement`.
    package var level: String
    /// The function, qualified when it is not in `public` (`civicforge_private.set_updated_at`).
    package var function: String

    /// `public.messages`.
    package var qualifiedTable: String { table.contains(".") ? table : "public.\(table)" }

    /// `AFTER INSERT ON public.messages FOR EACH ROW EXECUTE FUNCTION handle_new_message()`.
    package var summary: String {
        "\(timing.uppercased()) \(events.map { $0.uppercased() }.joined(separator: " OR ")) ON \(qualifiedTable) FOR EACH \(level.uppercased()) EXECUTE FUNCTION \(function)()"
    }

    /// A trigger.
    package init(name: String, table: String, timing: String, events: [String], level: String = "row", function: String) {
        self.name = name
        self.table = table
        self.timing = timing
        self.events = events
        self.level = level
        self.function = function
    }

    static let eventOrder = ["insert", "delete", "update", "truncate"]

    static func decode(_ node: SpecNode, schema: DatabaseSchema) throws -> TriggerDefinition {
        try node.object { o in
            let tableNode = try o.required("table")
            let table = try tableNode.string()
            if schema.table(table) == nil { throw tableNode.fail("unknown table '\(table)'") }
            let timingNode = try o.required("timing")
            let timing = try timingNode.string()
            guard ["before", "after", "instead of"].contains(timing) else {
                throw timingNode.fail("timing is 'before', 'after' or 'instead of', not '\(timing)'")
            }
            let eventsNode = try o.required("events")
            let events = try eventsNode.strings()
            for e in events where !eventOrder.contains(e) { throw eventsNode.fail("unknown event '\(e)' (insert, update, delete, truncate)") }
            if events.isEmpty { throw eventsNode.fail("a trigger needs at least one event") }
            let level = try o.optional("level")?.string() ?? "row"
            guard level == "row" || level == "statement" else { throw node.fail("level is 'row' or 'statement', not '\(level)'") }
            _ = o.optional("doc")
            _ = o.optional("decision")
            return TriggerDefinition(
                name: try o.required("name").string(), table: table, timing: timing,
                events: eventOrder.filter(events.contains), level: level, function: try o.required("function").string())
        }
    }
}
