import Foundation

/// A `select=` list bound to a table: output fields in order, embedded resources resolved
/// through foreign keys (many-to-one as an object, one-to-many as an array).
struct SelectPlan {
    enum Field {
        case column(out: String, index: Int, type: SQLType, castText: Bool)
        case jsonPath(out: String, index: Int, key: String, asText: Bool)
        case embed(out: String, Embed)
    }

    struct Embed {
        let table: TableSchema
        /// Parent columns and child columns that join.
        let parentCols: [Int]
        let childCols: [Int]
        let toMany: Bool
        let inner: Bool
        let plan: SelectPlan
        let filter: RowFilter?
    }

    let table: TableSchema
    let fields: [Field]
    /// Each field's `"name":` (with its leading comma after the first), escaped once per plan.
    let keyPrefixes: [String]

    init(table: TableSchema, fields: [Field]) {
        self.table = table
        self.fields = fields
        keyPrefixes = fields.enumerated().map { n, f in
            var k = n > 0 ? "," : ""
            switch f {
            case .column(let out, _, _, _), .jsonPath(let out, _, _, _), .embed(let out, _): JSONValue.writeString(out, to: &k)
            }
            return k + ":"
        }
    }

    /// Whether rendering may drop parent rows (an `!inner` embed).
    var hasInnerFilter: Bool {
        fields.contains { if case .embed(_, let e) = $0 { return e.inner || e.plan.hasInnerFilter }; return false }
    }

    static func build(_ items: [SelectItem], table: TableSchema, schema: DatabaseSchema,
                      embeddedFilters: [String: [RowFilter]], prefix: String = "", allowEmbedding: Bool = true) throws -> SelectPlan {
        var fields: [Field] = []
        for item in items {
            switch item {
            case .star:
                for (i, c) in table.columns.enumerated() { fields.append(.column(out: c.name, index: i, type: c.type, castText: false)) }
            case .column(let name, let alias, let cast):
                if name.utf8.contains(0x3E), let r = name.range(of: "->>") ?? name.range(of: "->") {
                    let base = String(name[..<r.lowerBound])
                    guard let i = table.columnIndex(base) else { throw PostgresError("42703", "column \(table.name).\(base) does not exist") }
                    let key = String(name[r.upperBound...])
                    fields.append(.jsonPath(out: alias ?? key, index: i, key: key, asText: name[r] == "->>"))
                    continue
                }
                guard let i = table.columnIndex(name) else {
                    throw PostgresError("42703", "column \(table.name).\(name) does not exist")
                }
                fields.append(.column(out: alias ?? name, index: i, type: table.columns[i].type, castText: cast?.lowercased() == "text"))
            case .embed(let relation, let alias, let hint, let inner, let sub):
                guard allowEmbedding else {
                    throw PostgresError("PGRST200", "Could not find a relationship between '\(table.name)' and '\(relation)' in the schema cache")
                }
                let path = prefix.isEmpty ? (alias ?? relation) : prefix + "." + (alias ?? relation)
                let e = try resolve(relation: relation, hint: hint, inner: inner, items: sub, parent: table, schema: schema,
                                    embeddedFilters: embeddedFilters, path: path)
                fields.append(.embed(out: alias ?? relation, e))
            }
        }
        for key in embeddedFilters.keys where prefix.isEmpty {
            let top = key.split(separator: ".").first.map(String.init) ?? key
            let known = fields.contains { if case .embed(let out, _) = $0 { return out == top }; return false }
            if !known {
                throw PostgresError("PGRST108", "'\(top)' is not an embedded resource in this request",
                                    hint: "Verify that '\(top)' is included in the 'select' query parameter.")
            }
        }
        return SelectPlan(table: table, fields: fields)
    }

    static func resolve(relation: String, hint: String?, inner: Bool, items: [SelectItem], parent: TableSchema, schema: DatabaseSchema,
                        embeddedFilters: [String: [RowFilter]], path: String) throws -> Embed {
        struct Candidate { let target: TableSchema; let parentCols: [String]; let childCols: [String]; let toMany: Bool; let name: String; let cardinality: String }
        var candidates: [Candidate] = []
        if let target = schema.table(relation), target.schema == "public" {
            for fk in parent.foreignKeys where schema.table(fk.refTable)?.qualifiedName == target.qualifiedName {
                candidates.append(Candidate(target: target, parentCols: fk.columns, childCols: fk.refColumns, toMany: false, name: fk.name, cardinality: "many-to-one"))
            }
            for fk in target.foreignKeys where schema.table(fk.refTable)?.qualifiedName == parent.qualifiedName {
                let unique = Set(fk.columns) == Set(target.primaryKey) || target.uniques.contains { Set($0.columns) == Set(fk.columns) }
                if candidates.contains(where: { $0.name == fk.name }) { continue }
                candidates.append(Candidate(target: target, parentCols: fk.refColumns, childCols: fk.columns, toMany: !unique, name: fk.name, cardinality: unique ? "one-to-one" : "one-to-many"))
            }
        } else if let fk = parent.foreignKeys.first(where: { $0.columns == [relation] }), let target = schema.table(fk.refTable), target.schema == "public" {
            candidates.append(Candidate(target: target, parentCols: fk.columns, childCols: fk.refColumns, toMany: false, name: fk.name, cardinality: "many-to-one"))
        }
        if let hint {
            candidates = candidates.filter { $0.name == hint || $0.parentCols == [hint] || $0.childCols == [hint] }
        }
        guard !candidates.isEmpty else {
            throw PostgresError("PGRST200", "Could not find a relationship between '\(parent.name)' and '\(relation)' in the schema cache",
                                details: "Searched for a foreign key relationship between '\(parent.name)' and '\(relation)' in the schema 'public', but no matches were found.",
                                hint: nil)
        }
        if candidates.count > 1 {
            let details: JSONValue = .array(candidates.map { c in
                ["cardinality": .string(c.cardinality), "embedding": .string("\(parent.name) with \(c.target.name)"), "relationship": .string("\(c.name) using \(parent.name)(\(c.parentCols.joined(separator: ", "))) and \(c.target.name)(\(c.childCols.joined(separator: ", ")))")]
            })
            throw PostgresError("PGRST201", "Could not embed because more than one relationship was found for '\(parent.name)' and '\(relation)'",
                                details: details.serialized(),
                                hint: "Try changing '\(relation)' to one of the following: \(candidates.map { "'\(relation)!\($0.name)'" }.joined(separator: ", ")). Find the desired relationship in the 'details' key.")
        }
        let c = candidates[0]
        var childFilters: [String: [RowFilter]] = [:]
        for (k, v) in embeddedFilters where k.hasPrefix(path + ".") { childFilters[String(k.dropFirst(path.count + 1))] = v }
        let sub = try build(items, table: c.target, schema: schema, embeddedFilters: childFilters.filter { $0.key.contains(".") }, prefix: "")
        let own = embeddedFilters[path]
        return Embed(table: c.target, parentCols: c.parentCols.compactMap(parent.columnIndex), childCols: c.childCols.compactMap(c.target.columnIndex),
                     toMany: c.toMany, inner: inner, plan: sub, filter: own.map { .and($0) })
    }

    /// Renders rows as JSON object texts (row_to_json framing), dropping rows whose `!inner`
    /// embeds are empty. Embedded rows are read under the same role, so RLS applies to them.
    func render(_ rows: [[SQLValue]], database: Database, auth: AuthContext) throws -> [String] {
        // Fetch each embedded table once.
        var embedRows: [Int: [[SQLValue]]] = [:]
        for (n, f) in fields.enumerated() {
            if case .embed(_, let e) = f {
                embedRows[n] = try database.select(from: e.table.qualifiedName, as: auth, where: e.filter).rows
            }
        }
        var out: [String] = []
        out.reserveCapacity(rows.count)
        rowLoop: for row in rows {
            var s = "{"
            s.reserveCapacity(32 * fields.count)
            for (n, f) in fields.enumerated() {
                switch f {
                case .column(_, let i, let type, let castText):
                    s += keyPrefixes[n]
                    if castText && !row[i].isNull { JSONValue.writeString(row[i].pgText(as: type), to: &s) } else { row[i].write(to: &s, as: type) }
                case .jsonPath(_, let i, let key, let asText):
                    s += keyPrefixes[n]
                    if case .json(let j) = row[i], let m = j[key] {
                        if asText, case .string(let str) = m { JSONValue.writeString(str, to: &s) }
                        else if asText, !m.isNull { JSONValue.writeString(m.serialized(.jsonb), to: &s) }
                        else { m.write(to: &s, style: .jsonb, indent: 0) }
                    } else { s += "null" }
                case .embed(_, let e):
                    let key = e.parentCols.map { row[$0] }
                    let matches = key.contains(where: \.isNull) ? [] : (embedRows[n] ?? []).filter { r in zip(e.childCols, key).allSatisfy { r[$0] == $1 } }
                    let rendered = try e.plan.render(matches, database: database, auth: auth)
                    if e.inner && rendered.isEmpty { continue rowLoop }
                    s += keyPrefixes[n]
                    if e.toMany {
                        s += "[" + rendered.joined(separator: ",") + "]"
                    } else {
                        s += rendered.first ?? "null"
                    }
                }
            }
            s += "}"
            out.append(s)
        }
        return out
    }
}
