import Foundation

/// Writes an app's table models from its schema.json and naming overlay (models.json): one
/// `TableModel` struct per public table (every column a coding key in the schema's order,
/// optional exactly when nullable, NULL written as `null`), one Swift enum per schema enum and per
/// check-constrained text column the overlay names, and a list of all models. Run by
/// `contracts generate-models`; the freshness test compares the files with this output.
package enum ModelGenerator {
    /// The command that writes the files, named by the header and by staleness reports.
    package static let command = "swift run contracts generate-models"

    /// An overlay entry the schema does not support (a table or column that does not exist, an
    /// enum on a column without an `in` CHECK, …).
    package struct Problem: Error, CustomStringConvertible, Equatable {
        /// `Contracts/<app>/models.json: $.tables.x: …`.
        package var description: String
    }

    /// The generated file of one app.
    package struct Output: Equatable, Sendable {
        /// Path relative to the package root (`Sources/TeleportMe/Generated/TableModels.swift`).
        package var path: String
        package var text: String
    }

    /// The generated file of an app whose Swift module is `module` unless the overlay names one.
    /// `appType` is the app module's type (`TeleportMeApp`), whose `tableModels` the file implements.
    package static func generate(app: String, module: String, appType: String, schema: DatabaseSchema, overlay: ModelOverlay) throws -> Output {
        var g = Writer(app: app, module: overlay.module ?? module, appType: appType, schema: schema, overlay: overlay)
        try g.validate()
        return Output(path: "Sources/\(g.module)/Generated/TableModels.swift", text: try g.file())
    }

    /// The generated file of an app module, from its contracts folder (`root/Contracts/<app>/`).
    package static func generate(_ app: any AppModule.Type, root: URL) throws -> Output {
        let folder = root.appendingPathComponent("Contracts").appendingPathComponent(app.name)
        let spec = try AppSpec.load(folder: folder)
        let overlay = try ModelOverlay.load(folder: folder, app: app.name)
        let appType = String(describing: app)
        let module = appType.hasSuffix("App") ? String(appType.dropLast(3)) : appType
        return try generate(app: app.name, module: module, appType: appType, schema: spec.schema, overlay: overlay)
    }

    /// Each app's file whose text on disk differs from the generated text (missing counts as
    /// stale), with a line saying which and how to fix it; empty when all are fresh.
    package static func staleFiles(_ apps: [any AppModule.Type], root: URL) throws -> [String] {
        try apps.compactMap { app in
            let o = try generate(app, root: root)
            return staleness(o, onDisk: try? String(contentsOf: root.appendingPathComponent(o.path), encoding: .utf8))
        }
    }

    /// Why `onDisk` is not the generated file (nil when it is).
    package static func staleness(_ o: Output, onDisk: String?) -> String? {
        guard let onDisk else { return "\(o.path) is missing: run \(command)" }
        guard onDisk != o.text else { return nil }
        let a = onDisk.split(separator: "\n", omittingEmptySubsequences: false), b = o.text.split(separator: "\n", omittingEmptySubsequences: false)
        let line = (zip(a, b).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(a.count, b.count)) + 1
        return "\(o.path) is stale (first difference at line \(line)): run \(command)"
    }

    /// Lower camel case of a snake_case or spaced name (`avatar_url` → `avatarUrl`,
    /// `Personal Growth` → `personalGrowth`); an all-capitals word stays (`INTJ`).
    package static func lowerCamel(_ name: String) -> String {
        let words = name.split(whereSeparator: { !$0.isLetter && !$0.isNumber }).map(String.init)
        guard let first = words.first else { return "_" }
        let head = first == first.uppercased() && first.count > 1 && first.first!.isLetter ? first : first.prefix(1).lowercased() + first.dropFirst()
        let s = head + words.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
        return s.first!.isNumber ? "_" + s : s
    }

    /// Upper camel case (`ride_status` → `RideStatus`).
    package static func upperCamel(_ name: String) -> String {
        let s = lowerCamel(name)
        return s.prefix(1).uppercased() + s.dropFirst()
    }

    /// A type name from a table name: upper camel case of its singular (`ride_participants` →
    /// `RideParticipant`, `cities` → `City`).
    package static func typeName(table: String) -> String {
        var words = table.split(separator: "_").map(String.init)
        if var last = words.popLast() {
            if last.hasSuffix("ies") { last = String(last.dropLast(3)) + "y" } else if last.hasSuffix("s") && !last.hasSuffix("ss") { last.removeLast() }
            words.append(last)
        }
        return upperCamel(words.joined(separator: "_"))
    }

    static let keywords: Set<String> = [
        "default", "public", "private", "internal", "class", "struct", "enum", "case", "switch", "func",
        "var", "let", "in", "is", "as", "self", "Self", "protocol", "extension", "import", "return",
        "true", "false", "nil", "where", "while", "for", "if", "else", "do", "repeat", "static", "init", "operator", "subscript"
    ]

    static func identifier(_ s: String) -> String { keywords.contains(s) ? "`\(s)`" : s }
}

/// Builds one file's text.
private struct Writer {
    let app: String
    let module: String
    let appType: String
    let schema: DatabaseSchema
    let overlay: ModelOverlay
    var lines: [String] = []

    var overlayFile: String { "Contracts/\(app)/models.json" }
    var tables: [TableSchema] { schema.tables.filter { $0.schema == "public" && (overlay.tables[$0.name]?.emit ?? true) } }

    func fail(_ path: String, _ message: String) -> ModelGenerator.Problem { .init(description: "\(overlayFile): \(path): \(message)") }

    /// Every overlay entry names something the schema has, and each option fits its column.
    func validate() throws {
        for name in overlay.enums.keys.sorted() where schema.enums[name] == nil { throw fail("$.enums.\(name)", "schema.json has no enum '\(name)'") }
        for (name, t) in overlay.tables.sorted(by: { $0.key < $1.key }) {
            guard let table = schema.tables.first(where: { $0.schema == "public" && $0.name == name }) else {
                throw fail("$.tables.\(name)", "schema.json has no public table '\(name)'")
            }
            for (col, c) in t.columns.sorted(by: { $0.key < $1.key }) {
                let path = "$.tables.\(name).columns.\(col)"
                guard let column = table.columns.first(where: { $0.name == col }) else { throw fail(path, "\(name) has no column '\(col)'") }
                if c.type != nil, !column.type.isJSON {
                    throw fail(path + ".type", "a Swift type can be given only for a jsonb or json column (\(col) is \(column.type))")
                }
                if c.enumType != nil, labels(column) == nil { throw fail(path + ".enum", "\(col) is not a text column whose CHECK is an `in` list of strings") }
                if c.nullable != nil, !table.isView {
                    throw fail(path + ".nullable", "nullability comes from schema.json for a table; only a view column's can be chosen")
                }
            }
        }
        for (name, p) in overlay.payloads.sorted(by: { $0.key < $1.key }) {
            guard let table = schema.tables.first(where: { $0.schema == "public" && $0.name == p.table }) else {
                throw fail("$.payloads.\(name).table", "schema.json has no public table '\(p.table)'")
            }
            for col in p.columns + p.optional where table.columns.first(where: { $0.name == col }) == nil {
                throw fail("$.payloads.\(name)", "\(p.table) has no column '\(col)'")
            }
            for col in p.optional where !p.columns.contains(col) { throw fail("$.payloads.\(name).optional", "'\(col)' is not one of the payload's columns") }
            if p.columns.isEmpty { throw fail("$.payloads.\(name).columns", "a payload needs at least one column") }
        }
    }

    /// The labels of a text column's `in` CHECK (also inside an `all`).
    func labels(_ c: ColumnSchema) -> [String]? {
        guard c.type == .text, let check = c.check else { return nil }
        func find(_ e: Expr) -> [String]? {
            switch e {
            case .inList(.column(let n), let values) where n == c.name:
                let s = values.compactMap(\.stringValue)
                return s.count == values.count ? s : nil
            case .all(let es): return es.lazy.compactMap(find).first
            default: return nil
            }
        }
        return find(check)
    }

    func representation(_ type: String) -> ModelOverlay.Representation { overlay.representations[type] ?? .shared }

    /// The Swift type of a column's values (without the optional).
    func swiftType(_ t: SQLType, column: ColumnSchema, naming: ModelOverlay.ColumnNaming?) throws -> String {
        if let type = naming?.type { return type }
        if let e = naming?.enumType { return e }
        switch t {
        case .uuid: return representation("uuid") == .string ? "String" : "PGUUID"
        case .text: return "String"
        case .smallint, .integer, .bigint: return "Int"
        case .real, .double: return "Double"
        case .numeric: return "PGNumeric"
        case .boolean: return "Bool"
        case .timestamptz: return "PGTimestamp"
        case .timestamp: return "PGLocalTimestamp"
        case .date: return "PGDate"
        case .time: return "PGTimeOfDay"
        case .timetz, .bytea, .interval, .tsvector, .range, .money: return "String"
        case .jsonb, .json: return "JSONValue"
        case .enumeration(let name, _): return enumTypeName(name)
        case .array(let element): return "[\(try swiftType(element, column: column, naming: nil))]"
        }
    }

    func enumTypeName(_ name: String) -> String { overlay.enums[name]?.type ?? ModelGenerator.upperCamel(name) }

    /// The longest line written (`lineLength` of .swift-format).
    static let lineLength = 160

    mutating func emit(_ s: String = "") { lines.append(s) }

    /// Emits `items` as many per line as fit in `lineLength` columns: `lead` starts the first line,
    /// `continuation` the others, `separator` joins items on a line and `lineEnd` ends a line
    /// that more items follow; `last` ends the last line.
    mutating func wrap(_ items: [String], lead: String, separator: String, continuation: String, lineEnd: String, last: String = "") {
        var rows: [[String]] = [[]]
        var width = lead.count
        for item in items {
            if !rows[rows.count - 1].isEmpty && width + separator.count + item.count + max(lineEnd.count, last.count) > Self.lineLength {
                rows.append([])
                width = continuation.count
            }
            width += (rows[rows.count - 1].isEmpty ? 0 : separator.count) + item.count
            rows[rows.count - 1].append(item)
        }
        for (i, row) in rows.enumerated() {
            emit((i == 0 ? lead : continuation) + row.joined(separator: separator) + (i == rows.count - 1 ? last : lineEnd))
        }
    }

    mutating func file() throws -> String {
        emit("// Generated by `\(ModelGenerator.command)` from Contracts/\(app)/schema.json and models.json. Do not edit:")
        emit("// change the schema or the overlay and run the command (the freshness test fails until then).")
        emit("import Foundation")
        emit("import ContractKit")
        for name in schema.enums.keys.sorted()
        where schema.tables.contains(where: { $0.schema == "public" && $0.columns.contains { $0.type.enumName == name } }) {
            let naming = overlay.enums[name]
            emitEnum(
                enumTypeName(name), labels: schema.enums[name]!, cases: naming?.cases ?? [:],
                doc: naming?.doc ?? "The `\(name)` enum: \(schema.enums[name]!.joined(separator: ", ")).")
        }
        var emitted: Set<String> = []
        for t in tables {
            for c in t.columns {
                guard let n = overlay.tables[t.name]?.columns[c.name], let e = n.enumType, !emitted.contains(e), let labels = labels(c) else { continue }
                emitted.insert(e)
                emitEnum(e, labels: labels, cases: n.cases, doc: "The `\(t.name).\(c.name)` CHECK list: \(labels.joined(separator: ", ")).")
            }
        }
        for t in tables { try emitModel(t) }
        for (name, p) in overlay.payloads.sorted(by: { $0.key < $1.key }) { try emitPayload(name, p) }
        emit()
        emit("extension \(appType) {")
        emit("    /// Every table model of \(app), one per public table in schema.json's order (checked by the `models` kind).")
        wrap(
            tables.map { "\(typeName($0)).self" }, lead: "    public static var tableModels: [any TableModel.Type] { [", separator: ", ",
            continuation: "        ", lineEnd: ",", last: "] }")
        emit("}")
        return lines.joined(separator: "\n") + "\n"
    }

    func typeName(_ t: TableSchema) -> String { overlay.tables[t.name]?.type ?? ModelGenerator.typeName(table: t.name) }

    mutating func emitEnum(_ name: String, labels: [String], cases: [String: String], doc: String) {
        emit()
        emit("/// \(doc)")
        let items = labels.map { l in
            let c = cases[l] ?? ModelGenerator.lowerCamel(l)
            return c == l ? ModelGenerator.identifier(c) : "\(ModelGenerator.identifier(c)) = \(JSONValue.string(l).serialized())"
        }
        block("public enum \(name): String, Codable, CaseIterable, Sendable {", items, lead: "    case ", separator: ", ", close: "}")
    }

    /// Emits `head`, `items` joined and `close` on one line when it fits in `lineLength` columns, else
    /// `head`, the items wrapped under `lead` and `close` on lines of their own.
    mutating func block(_ head: String, _ items: [String], lead: String, separator: String, close: String) {
        let indent = String(head.prefix { $0 == " " })
        let line = head + " " + lead.drop { $0 == " " } + items.joined(separator: separator) + " " + close.drop { $0 == " " }
        if line.count <= Self.lineLength {
            emit(line)
            return
        }
        emit(head)
        wrap(items, lead: lead, separator: separator, continuation: lead, lineEnd: "")
        emit(indent + close.drop { $0 == " " })
    }

    struct Field {
        var column: ColumnSchema
        var property: String
        var type: String
        var optional: Bool
        var doc: String?
    }

    /// A column's field as the table's model declares it.
    func field(_ t: TableSchema, _ c: ColumnSchema) throws -> Field {
        let n = overlay.tables[t.name]?.columns[c.name]
        var doc = "`\(c.name)` (\(c.type.schemaSpelling)\(c.nullable ? "" : ", not null"))."
        if let note = c.note { doc += " \(note)" }
        // A doc that only restates the declaration (a `text` column as `String`, NULL as `?`) is left out.
        let restated = c.note == nil && n?.type == nil && n?.enumType == nil && n?.nullable == nil && impliedBySwiftType(c.type)
        return Field(
            column: c, property: n?.property ?? ModelGenerator.lowerCamel(c.name), type: try swiftType(c.type, column: c, naming: n),
            optional: n?.nullable ?? c.nullable, doc: n?.doc ?? (restated ? nil : doc))
    }

    /// Whether the Swift type of a column names its SQL type unambiguously (`text` is `String`,
    /// `timestamptz` is `PGTimestamp`, an enum its generated type), so a doc would add nothing.
    func impliedBySwiftType(_ t: SQLType) -> Bool {
        switch t {
        case .text, .boolean, .integer, .double, .timestamptz, .timestamp, .date, .time, .jsonb, .enumeration: return true
        case .numeric(let precision, _): return precision == nil
        case .uuid: return representation("uuid") != .string
        case .array(let element): return impliedBySwiftType(element)
        default: return false
        }
    }

    mutating func emitModel(_ t: TableSchema) throws {
        let doc = overlay.tables[t.name]?.doc ?? "A row of `\(t.name)`\(t.isView ? " (a view)" : "")."
        try emitStruct(
            typeName(t), doc: doc, conformances: ["TableModel", "ColumnEncodable"] + overlay.conformances, table: t.name,
            fields: t.columns.map { try field(t, $0) }, writesNulls: true)
    }

    mutating func emitPayload(_ name: String, _ p: ModelOverlay.PayloadNaming) throws {
        let t = schema.tables.first { $0.schema == "public" && $0.name == p.table }!
        let fields = try p.columns.map { col in
            var f = try field(t, t.columns.first { $0.name == col }!)
            f.optional = p.optional.contains(col)
            return f
        }
        try emitStruct(
            name, doc: p.doc ?? "A body of `\(p.table)` columns.",
            conformances: ["Codable", "Equatable", "Sendable"] + (p.writeNulls ? ["ColumnEncodable"] : []) + p.conformances, table: nil, fields: fields,
            writesNulls: p.writeNulls)
    }

    /// A struct of `fields` with coding keys and a memberwise initializer. A row (`table` set)
    /// and a payload that `writesNulls` write every column, NULL as `null` (`ColumnEncodable`);
    /// other payloads leave absent optionals out (synthesized encoding) so column defaults apply.
    mutating func emitStruct(_ name: String, doc: String, conformances: [String], table: String?, fields: [Field], writesNulls: Bool) throws {
        emit()
        emit("/// \(doc)")
        emit("public struct \(name): \(conformances.joined(separator: ", ")) {")
        if let table { emit("    public static let table = \(JSONValue.string(table).serialized())") }
        if table != nil || writesNulls { emit("    public static var columns: [String] { CodingKeys.allCases.map(\\.rawValue) }") }
        for f in fields {
            if let doc = f.doc { emit("    /// \(doc)") }
            emit("    public var \(ModelGenerator.identifier(f.property)): \(f.type)\(f.optional ? "?" : "")")
        }
        emit()
        let keys = fields.map { f in
            let id = ModelGenerator.identifier(f.property)
            return f.property == f.column.name ? id : "\(id) = \(JSONValue.string(f.column.name).serialized())"
        }
        block("    package enum CodingKeys: String, CodingKey, CaseIterable {", keys, lead: "        case ", separator: ", ", close: "    }")
        emit()
        let params = fields.map { "\(ModelGenerator.identifier($0.property)): \($0.type)\($0.optional ? "? = nil" : "")" }
        let assignments = fields.map { "self.\($0.property) = \(ModelGenerator.identifier($0.property))" }
        let oneLine = "    public init(\(params.joined(separator: ", "))) { \(assignments.joined(separator: "; ")) }"
        if oneLine.count <= Self.lineLength {
            emit(oneLine)
        } else {
            wrap(params, lead: "    public init(", separator: ", ", continuation: "                ", lineEnd: ",", last: ") {")
            wrap(assignments, lead: "        ", separator: "; ", continuation: "        ", lineEnd: "")
            emit("    }")
        }
        // Foundation's synthesized decoding already reads NULL only into optionals; only a NOT
        // NULL jsonb column needs more (JSONValue itself accepts null).
        if fields.contains(where: { $0.type == "JSONValue" && !$0.optional }) {
            emit()
            emit(
                "    /// Decodes \(table == nil ? "the body" : "a row as PostgREST prints it") (NULL only where the \(table == nil ? "field is optional" : "column is nullable"))."
            )
            emit("    public init(from decoder: Decoder) throws {")
            emit("        let c = try decoder.container(keyedBy: CodingKeys.self)")
            for f in fields {
                let key = ModelGenerator.identifier(f.property)
                let expr: String
                switch (f.type, f.optional) {
                case ("JSONValue", false): expr = "try c.decodeJSONNotNull(forKey: .\(key))"
                case (_, false): expr = "try c.decode(\(f.type).self, forKey: .\(key))"
                case (_, true): expr = "try c.decodeIfPresent(\(f.type).self, forKey: .\(key))"
                }
                emit("        \(f.property) = \(expr)")
            }
            emit("    }")
        }
        emit("}")
    }
}

extension SQLType {
    /// The type as schema.json writes it (`timestamptz`, `uuid[]`).
    var schemaSpelling: String {
        switch self {
        case .timestamptz: return "timestamptz"
        case .timestamp: return "timestamp"
        case .time: return "time"
        case .array(let e): return e.schemaSpelling + "[]"
        default: return description
        }
    }
    var isJSON: Bool { self == .jsonb || self == .json }
    var enumName: String? {
        switch self {
        case .enumeration(let n, _): return n
        case .array(let e): return e.enumName
        default: return nil
        }
    }
}
