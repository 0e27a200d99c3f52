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
        package var column: String
        /// `DESC` ordering.
        package var descending: Bool
        /// A non-default operator class (`gin_trgm_ops`).
        package var opclass: String?
        package var description: String { column + (opclass.map { " \($0)" } ?? "") + (descending ? " DESC" : "") }
        package init(column: String, descending: Bool = false, opclass: String? = nil) {
            self.column = column
            self.descending = descending
            self.opclass = opclass
        }
    }
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

    package init(name: String, method: String = "btree", keys: [Key], unique: Bool = false, predicate: String? = nil) {
        self.name = name
        self.method = method
        self.keys = keys
        self.unique = unique
        self.predicate = predicate
    }

    static let methods: Set<String> = ["btree", "gin", "gist", "hash", "brin", "spgist"]
}

extension IndexDefinition: Decodable {
    /// Where the decoder's values hold the table's column names (`Set<String>`).
    package static let columnsValue = "index.columns"

    enum CodingKeys: String, CodingKey, CaseIterable { case name, method, columns, unique, `where`, doc, decision }

    /// One `indexDefinitions` entry; every key names a column of the table.
    package init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let columns = decoder.contractState?.values[Self.columnsValue] as? Set<String> ?? []
        method = try c.decodeIfPresent(String.self, forKey: .method) ?? "btree"
        if !Self.methods.contains(method) { throw c.fail("unknown index method '\(method)' (known: \(Self.methods.sorted().joined(separator: ", ")))") }
        keys = try c.decode([Key].self, forKey: .columns)
        if keys.isEmpty { throw c.fail("an index needs at least one column") }
        for (i, key) in keys.enumerated() where !columns.contains(key.column) {
            throw c.fail([CodingKeys.columns, AnyKey(intValue: i)!], "unknown column '\(key.column)'")
        }
        name = try c.decode(String.self, forKey: .name)
        unique = try c.decodeIfPresent(Bool.self, forKey: .unique) ?? false
        predicate = try c.decodeIfPresent(String.self, forKey: .where)
    }
}

extension IndexDefinition.Key: Decodable {
    enum CodingKeys: String, CodingKey, CaseIterable { case column, order, opclass }

    /// A column name, or `{"column", "order": "asc" | "desc", "opclass"}`.
    package init(from decoder: Decoder) throws {
        if case .string(let s) = try decoder.singleValueContainer().decode(JSONValue.self) {
            self.init(column: s, descending: false, opclass: nil)
            return
        }
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let order = try c.decodeIfPresent(String.self, forKey: .order) ?? "asc"
        guard order == "asc" || order == "desc" else { throw c.fail("order is 'asc' or 'desc', not '\(order)'") }
        self.init(
            column: try c.decode(String.self, forKey: .column), descending: order == "desc", opclass: try c.decodeIfPresent(String.self, forKey: .opclass))
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

    package init(name: String, table: String, timing: String, events: [String], level: String = "row", function: String) {
        self.name = name
        self.table = table
        self.timing = timing
        self.events = events
        self.level = level
        self.function = function
    }

    static let eventOrder = ["insert", "delete", "update", "truncate"]
}

extension TriggerDefinition: Decodable {
    /// Where the decoder's values hold the `DatabaseSchema` the trigger's table must be in.
    package static let schemaValue = "trigger.schema"

    enum CodingKeys: String, CodingKey, CaseIterable { case name, table, timing, events, level, function, doc, decision }

    /// One `triggers` entry of schema.json, on a table of the schema.
    package init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        table = try c.decode(String.self, forKey: .table)
        if (decoder.contractState?.values[Self.schemaValue] as? DatabaseSchema)?.table(table) == nil {
            throw c.fail(.table, "unknown table '\(table)'")
        }
        timing = try c.decode(String.self, forKey: .timing)
        guard ["before", "after", "instead of"].contains(timing) else {
            throw c.fail(.timing, "timing is 'before', 'after' or 'instead of', not '\(timing)'")
        }
        let events = try c.decode([String].self, forKey: .events)
        for e in events where !Self.eventOrder.contains(e) { throw c.fail(.events, "unknown event '\(e)' (insert, update, delete, truncate)") }
        if events.isEmpty { throw c.fail(.events, "a trigger needs at least one event") }
        self.events = Self.eventOrder.filter(events.contains)
        level = try c.decodeIfPresent(String.self, forKey: .level) ?? "row"
        guard level == "row" || level == "statement" else { throw c.fail("level is 'row' or 'statement', not '\(level)'") }
        name = try c.decode(String.self, forKey: .name)
        function = try c.decode(String.self, forKey: .function)
    }
}
