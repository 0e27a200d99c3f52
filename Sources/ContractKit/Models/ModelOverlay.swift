import Foundation

/// `Contracts/<app>/models.json`: the naming an app's generated table models use where the
/// schema's names are not enough (type names, property renames, enum types for check-constrained
/// text, the Swift type of a jsonb column, which tables to emit). Every key is optional and the
/// file itself may be absent: without it every public table gets a model named from its table.
/// Format: Contracts/FORMAT.md, "models.json".
package struct ModelOverlay: Sendable, Equatable {
    /// The Swift representation chosen for a PostgreSQL type across the app's models.
    package enum Representation: String, Sendable, CaseIterable {
        /// The shared value type (`PGUUID`), the default.
        case shared
        /// `String` (uuid only): the text as received, a case-preserving round trip.
        case string
    }

    /// One enum of schema.json's `enums` or of a check-constrained text column.
    package struct EnumNaming: Sendable, Equatable {
        /// The Swift type name (`RideStatus`).
        package var type: String?
        /// Case names by label, where the default (lower camel case of the label) does not fit.
        package var cases: [String: String] = [:]
        /// The doc comment.
        package var doc: String?
    }

    /// One column.
    package struct ColumnNaming: Sendable, Equatable {
        /// The property name (default: lower camel case of the column).
        package var property: String?
        /// A Codable Swift type for a `jsonb` column (a hand-written payload such as `[CityMatch]`).
        package var type: String?
        /// For a text column whose CHECK is an `in` list: the enum type its labels become.
        package var enumType: String?
        /// Case names by label for `enumType`.
        package var cases: [String: String] = [:]
        /// A view column's nullability (PostgreSQL cannot declare a view column NOT NULL).
        package var nullable: Bool?
        /// The doc comment (default: the column's name, type and schema note).
        package var doc: String?
    }

    /// One table.
    package struct TableNaming: Sendable, Equatable {
        /// The Swift type name (default: upper camel case of the singular table name).
        package var type: String?
        /// False to emit no model for the table.
        package var emit: Bool = true
        /// The doc comment.
        package var doc: String?
        /// Columns by name.
        package var columns: [String: ColumnNaming] = [:]
    }

    /// A request body made of some of a table's columns (an insert, upsert or update).
    package struct PayloadNaming: Sendable, Equatable {
        /// The table whose columns (names, Swift types, property names) the body uses.
        package var table: String
        /// The columns, in the body's order.
        package var columns: [String]
        /// The columns the client may leave out (optional properties); the others are required.
        package var optional: [String] = []
        /// Whether an absent optional is written as `null` (default: left out, so the column's
        /// default applies on insert and the stored value stays on update).
        package var writeNulls: Bool = false
        /// Protocols the payload adopts besides `Codable, Equatable, Sendable`.
        package var conformances: [String] = []
        /// The doc comment.
        package var doc: String?
    }

    /// The Swift module (folder under `Sources/`) the models are written into.
    package var module: String?
    /// Representations by PostgreSQL type (`uuid`).
    package var representations: [String: Representation] = [:]
    /// Protocols every model adopts besides `TableModel`.
    package var conformances: [String] = []
    /// Enums by schema.json enum name.
    package var enums: [String: EnumNaming] = [:]
    /// Tables by name.
    package var tables: [String: TableNaming] = [:]
    /// Request bodies to emit, by Swift type name.
    package var payloads: [String: PayloadNaming] = [:]

    /// An empty overlay: every name from the schema.
    package init() {}

    /// Reads `models.json` from an app's contracts folder; an absent file is the empty overlay.
    /// Unknown keys and wrong types are errors naming the file and JSON path.
    package static func load(folder: URL, app: String) throws -> ModelOverlay {
        let url = folder.appendingPathComponent("models.json")
        guard FileManager.default.fileExists(atPath: url.path) else { return ModelOverlay() }
        return try decode(SpecNode.load(url, displayName: "Contracts/\(app)/models.json"))
    }

    /// Decodes an overlay strictly.
    package static func decode(_ root: SpecNode) throws -> ModelOverlay {
        try root.object { o in
            var m = ModelOverlay()
            _ = o.optional("app")
            m.module = try o.optional("module")?.string()
            if let r = o.optional("representations") {
                for (type, node) in try r.map() {
                    guard type == "uuid" else { throw node.fail("no representation choice for type '\(type)' (only uuid)") }
                    let raw = try node.string()
                    guard let rep = Representation(rawValue: raw) else { throw node.fail("unknown representation '\(raw)' for uuid (shared, string)") }
                    m.representations[type] = rep
                }
            }
            m.conformances = try o.optional("conformances")?.strings() ?? []
            if let e = o.optional("enums") {
                for (name, node) in try e.map() {
                    m.enums[name] = try node.object { eo in
                        EnumNaming(type: try eo.optional("type")?.string(), cases: try cases(eo.optional("cases")), doc: try eo.optional("doc")?.string())
                    }
                }
            }
            if let t = o.optional("tables") {
                for (name, node) in try t.map() { m.tables[name] = try table(node) }
            }
            if let p = o.optional("payloads") {
                for (name, node) in try p.map() {
                    m.payloads[name] = try node.object { po in
                        PayloadNaming(
                            table: try po.required("table").string(), columns: try po.required("columns").strings(),
                            optional: try po.optional("optional")?.strings() ?? [], writeNulls: try po.optional("writeNulls")?.bool() ?? false,
                            conformances: try po.optional("conformances")?.strings() ?? [], doc: try po.optional("doc")?.string())
                    }
                }
            }
            return m
        }
    }

    static func table(_ node: SpecNode) throws -> TableNaming {
        try node.object { o in
            var t = TableNaming()
            t.type = try o.optional("type")?.string()
            t.emit = try o.optional("emit")?.bool() ?? true
            t.doc = try o.optional("doc")?.string()
            if let cs = o.optional("columns") {
                for (name, cn) in try cs.map() {
                    t.columns[name] = try cn.object { co in
                        ColumnNaming(
                            property: try co.optional("property")?.string(), type: try co.optional("type")?.string(),
                            enumType: try co.optional("enum")?.string(), cases: try cases(co.optional("cases")),
                            nullable: try co.optional("nullable")?.bool(), doc: try co.optional("doc")?.string())
                    }
                }
            }
            return t
        }
    }

    static func cases(_ node: SpecNode?) throws -> [String: String] {
        guard let node else { return [:] }
        var out: [String: String] = [:]
        for (label, n) in try node.map() { out[label] = try n.string() }
        return out
    }
}
