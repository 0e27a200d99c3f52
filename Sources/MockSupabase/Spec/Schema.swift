import Foundation

/// A column default.
public enum ColumnDefault: Sendable, Equatable {
    /// A literal value (JSON, coerced to the column type).
    case value(JSONValue)
    /// `gen_random_uuid()`: the backend's id generator.
    case genRandomUUID
    /// `now()`: the backend's clock.
    case now
    /// `CURRENT_DATE`.
    case currentDate
    /// `auth.uid()`: the requesting user.
    case authUID

    /// The SQL spelling, as `information_schema.columns.column_default` prints it for functions.
    public var sql: String {
        switch self {
        case .value(let v): return v.serialized()
        case .genRandomUUID: return "gen_random_uuid()"
        case .now: return "now()"
        case .currentDate: return "CURRENT_DATE"
        case .authUID: return "auth.uid()"
        }
    }
}

/// One column of a table.
public struct ColumnSchema: Sendable, Equatable {
    /// Column name.
    public var name: String
    /// Column type.
    public var type: SQLType
    /// Whether NULL is allowed.
    public var nullable: Bool
    /// The default, if any.
    public var defaultValue: ColumnDefault?
    /// A column CHECK constraint (named `<table>_<column>_check`), evaluated on the new row.
    public var check: Expr?
    /// The SQL text of the check as written in the document (for reports and the catalog check).
    public var checkSQL: String?
    /// The document's words or the decision behind this column, if recorded.
    public var note: String?
}

/// A UNIQUE constraint (or the primary key).
public struct UniqueConstraint: Sendable, Equatable {
    /// Constraint name, PostgreSQL's default when not given (`<table>_<cols>_key`).
    public var name: String
    /// Columns in order.
    public var columns: [String]
}

/// What happens to referencing rows when the referenced row is deleted.
public enum OnDelete: String, Sendable, Equatable {
    case noAction = "no action", restrict, cascade, setNull = "set null", setDefault = "set default"
}

/// A FOREIGN KEY constraint.
public struct ForeignKey: Sendable, Equatable {
    /// Constraint name (`<table>_<col>_fkey` by default).
    public var name: String
    /// Referencing columns.
    public var columns: [String]
    /// Referenced table (`auth.users` for GoTrue's users).
    public var refTable: String
    /// Referenced columns.
    public var refColumns: [String]
    /// ON DELETE action.
    public var onDelete: OnDelete
}

/// A table-level CHECK constraint.
public struct CheckConstraint: Sendable, Equatable {
    /// Constraint name.
    public var name: String
    /// The condition; unknown (NULL) passes, as in SQL.
    public var expr: Expr
    /// The SQL text, if recorded.
    public var sql: String?
}

/// One table.
public struct TableSchema: Sendable, Equatable {
    /// Table name (without schema).
    public var name: String
    /// The PostgreSQL schema, `public` unless given.
    public var schema: String
    /// Columns in order.
    public var columns: [ColumnSchema]
    /// Primary key columns.
    public var primaryKey: [String]
    /// UNIQUE constraints other than the primary key.
    public var uniques: [UniqueConstraint]
    /// Foreign keys.
    public var foreignKeys: [ForeignKey]
    /// Table CHECK constraints.
    public var checks: [CheckConstraint]
    /// Whether this is a read-only view computed by the app (no writes through PostgREST).
    public var isView: Bool
    /// Decisions recorded for this table.
    public var decisions: [String]

    /// Index of a column by name.
    public func columnIndex(_ name: String) -> Int? { columns.firstIndex { $0.name == name } }

    /// The qualified name (`public.cities`).
    public var qualifiedName: String { "\(schema).\(name)" }
}

/// A database schema for one app.
public struct DatabaseSchema: Sendable, Equatable {
    /// Enum types and their labels.
    public var enums: [String: [String]]
    /// Tables in declaration (and creation) order.
    public var tables: [TableSchema]

    /// A table by name (`cities` or `auth.users`).
    public func table(_ name: String) -> TableSchema? {
        if let dot = name.firstIndex(of: ".") {
            let s = String(name[..<dot]), t = String(name[name.index(after: dot)...])
            return tables.first { $0.schema == s && $0.name == t }
        }
        return tables.first { $0.name == name && $0.schema == "public" } ?? tables.first { $0.name == name }
    }

    /// GoTrue's `auth.users`, which every app's schema contains implicitly.
    public static let authUsers = TableSchema(
        name: "users", schema: "auth",
        columns: [
            ColumnSchema(name: "id", type: .uuid, nullable: false, defaultValue: .genRandomUUID),
            ColumnSchema(name: "aud", type: .text, nullable: true, defaultValue: .value("authenticated")),
            ColumnSchema(name: "role", type: .text, nullable: true, defaultValue: .value("authenticated")),
            ColumnSchema(name: "email", type: .text, nullable: true),
            ColumnSchema(name: "encrypted_password", type: .text, nullable: true),
            ColumnSchema(name: "email_confirmed_at", type: .timestamptz, nullable: true),
            ColumnSchema(name: "last_sign_in_at", type: .timestamptz, nullable: true),
            ColumnSchema(name: "raw_app_meta_data", type: .jsonb, nullable: true),
            ColumnSchema(name: "raw_user_meta_data", type: .jsonb, nullable: true),
            ColumnSchema(name: "phone", type: .text, nullable: true),
            ColumnSchema(name: "is_anonymous", type: .boolean, nullable: false, defaultValue: .value(false)),
            ColumnSchema(name: "created_at", type: .timestamptz, nullable: true, defaultValue: .now),
            ColumnSchema(name: "updated_at", type: .timestamptz, nullable: true, defaultValue: .now),
        ],
        primaryKey: ["id"],
        uniques: [UniqueConstraint(name: "users_email_partial_key", columns: ["email"])],
        foreignKeys: [], checks: [], isView: false, decisions: [])
}

extension DatabaseSchema {
    /// Decodes `schema.json`. Unknown keys, unknown types and dangling references are errors
    /// naming the file and JSON path.
    public static func decode(_ root: SpecNode) throws -> DatabaseSchema {
        try root.object { o in
            _ = o.optional("app")
            _ = o.optional("source")
            _ = o.optional("decisions")
            var enums: [String: [String]] = [:]
            if let e = o.optional("enums") {
                for (k, v) in try e.map() { enums[k] = try v.strings() }
            }
            var tables: [TableSchema] = []
            for t in try o.required("tables").array() {
                tables.append(try decodeTable(t, enums: enums))
            }
            var schema = DatabaseSchema(enums: enums, tables: [DatabaseSchema.authUsers] + tables)
            // Validate references.
            let tNodes = try o.required("tables").array()
            for (ti, table) in tables.enumerated() {
                let names = Set(table.columns.map(\.name))
                for (fi, fk) in table.foreignKeys.enumerated() {
                    let at = SpecNode(value: .null, file: root.file, path: "\(tNodes[ti].path).foreignKeys[\(fi)]")
                    for c in fk.columns where !names.contains(c) { throw at.fail("unknown column '\(c)' in table '\(table.name)'") }
                    guard let ref = schema.table(fk.refTable) else { throw at.fail("references unknown table '\(fk.refTable)'") }
                    for c in fk.refColumns where ref.columnIndex(c) == nil { throw at.fail("references unknown column '\(fk.refTable).\(c)'") }
                }
                for c in table.primaryKey where !names.contains(c) {
                    throw tNodes[ti].fail("primary key names unknown column '\(c)'")
                }
                for u in table.uniques { for c in u.columns where !names.contains(c) { throw tNodes[ti].fail("unique constraint '\(u.name)' names unknown column '\(c)'") } }
            }
            schema.tables = schema.tables.map { $0 }
            return schema
        }
    }

    static func decodeTable(_ node: SpecNode, enums: [String: [String]]) throws -> TableSchema {
        try node.object { o in
            let name = try o.required("name").string()
            let schemaName = try o.optional("schema")?.string() ?? "public"
            var pk: [String] = try o.optional("primaryKey")?.strings() ?? []
            var columns: [ColumnSchema] = []
            var checks: [CheckConstraint] = []
            for c in try o.required("columns").array() {
                let col = try c.object { co -> ColumnSchema in
                    let cname = try co.required("name").string()
                    let typeNode = try co.required("type")
                    let typeName = try typeNode.string()
                    guard let type = SQLType.parse(typeName, enums: enums) else {
                        throw typeNode.fail("unknown type '\(typeName)' (declare enums under $.enums)")
                    }
                    var nullable = try co.optional("nullable")?.bool() ?? true
                    if try co.optional("primaryKey")?.bool() == true { pk.append(cname); nullable = false }
                    var def: ColumnDefault?
                    if let d = co.optional("default") {
                        def = try d.object { dd -> ColumnDefault in
                            if let f = dd.optional("fn") {
                                switch try f.string() {
                                case "gen_random_uuid()", "uuid_generate_v4()": return .genRandomUUID
                                case "now()", "CURRENT_TIMESTAMP": return .now
                                case "CURRENT_DATE", "current_date": return .currentDate
                                case "auth.uid()": return .authUID
                                case let other: throw f.fail("unknown default function '\(other)'")
                                }
                            }
                            let v = try dd.required("value")
                            _ = try SQLValue.coerce(json: v.value, to: type)
                            return .value(v.value)
                        }
                    }
                    var check: Expr?
                    if let ch = co.optional("check") { check = try Expr.decode(ch) }
                    let checkSQL = try co.optional("checkSQL")?.string()
                    let note = try co.optional("note")?.string() ?? co.optional("decision")?.string()
                    return ColumnSchema(name: cname, type: type, nullable: nullable, defaultValue: def, check: check, checkSQL: checkSQL, note: note)
                }
                if columns.contains(where: { $0.name == col.name }) { throw c.fail("duplicate column '\(col.name)'") }
                columns.append(col)
            }
            for (i, c) in columns.enumerated() where pk.contains(c.name) { columns[i].nullable = false }
            var uniques: [UniqueConstraint] = []
            if let us = o.optional("unique") {
                for u in try us.array() {
                    if case .array = u.value {
                        let cols = try u.strings()
                        uniques.append(UniqueConstraint(name: "\(name)_\(cols.joined(separator: "_"))_key", columns: cols))
                    } else {
                        uniques.append(try u.object { uo in
                            let cols = try uo.required("columns").strings()
                            return UniqueConstraint(name: try uo.optional("name")?.string() ?? "\(name)_\(cols.joined(separator: "_"))_key", columns: cols)
                        })
                    }
                }
            }
            var fks: [ForeignKey] = []
            if let fs = o.optional("foreignKeys") {
                for f in try fs.array() {
                    fks.append(try f.object { fo in
                        let cols = try fo.required("columns").strings()
                        let refNode = try fo.required("references")
                        let (rt, rc) = try refNode.object { r in (try r.required("table").string(), try r.required("columns").strings()) }
                        var od = OnDelete.noAction
                        if let odn = fo.optional("onDelete") {
                            guard let v = OnDelete(rawValue: try odn.string().lowercased()) else {
                                throw odn.fail("unknown ON DELETE action '\(try odn.string())' (cascade, set null, set default, restrict, no action)")
                            }
                            od = v
                        }
                        return ForeignKey(name: try fo.optional("name")?.string() ?? "\(name)_\(cols.joined(separator: "_"))_fkey",
                                          columns: cols, refTable: rt, refColumns: rc, onDelete: od)
                    })
                }
            }
            if let cs = o.optional("checks") {
                for c in try cs.array() {
                    checks.append(try c.object { co in
                        CheckConstraint(name: try co.required("name").string(), expr: try Expr.decode(try co.required("expr")), sql: try co.optional("sql")?.string())
                    })
                }
            }
            let isView = try o.optional("view")?.bool() ?? false
            var decisions: [String] = []
            if let d = o.optional("decision") { decisions.append(try d.string()) }
            if let d = o.optional("decisions") { decisions += try d.strings() }
            _ = o.optional("doc")
            _ = o.optional("source")
            _ = o.optional("indexes")
            return TableSchema(name: name, schema: schemaName, columns: columns, primaryKey: pk, uniques: uniques,
                               foreignKeys: fks, checks: checks, isView: isView, decisions: decisions)
        }
    }
}
