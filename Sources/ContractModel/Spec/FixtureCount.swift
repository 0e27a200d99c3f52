import Foundation

/// One table entry of fixtures.json: `{"table", "rows": […]}` or `{"table", "file": "fixtures/x.json"}`
/// (a JSON array, relative to the app's folder), with the counts a document gives for its seed
/// data, checked as the entry loads: `"count": n` (the table's rows), `"perGroup": {"column": c,
/// "count": m}` (every distinct value of `c` has exactly `m` rows), `"distinct": {"column": c,
/// "count": k}` (the rows hold exactly `k` distinct values of `c`), `"atLeast": n`,
/// `"byValue": {"column": c, "counts": {"open": 3, "null": 3, "*": 3}}` (rows per value; `null`
/// and `*` count NULL and set values) and `"range": {"column": c, "min", "max"}` (every seeded
/// value inside), each with the document's words in a `trace`. A fixture file that lost or gained
/// a row is a load error naming the entry.
struct FixtureTable: Decodable {
    var table: String
    var rows: [JSONValue]

    /// Where fixtures.json is (to resolve `file`) and the schema its tables must be in.
    struct Context {
        static let key = "fixtures.context"
        var folder: URL
        var schema: DatabaseSchema
    }

    struct ColumnCount: Decodable { var column: String; var count: Int }
    struct ByValue: Decodable { var column: String; var counts: [String: Int] }
    struct ColumnRange: Decodable { var column: String; var min: Double; var max: Double }

    enum CodingKeys: String, CodingKey { case table, file, rows, count, perGroup, atLeast, byValue, range, distinct }

    init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let context = decoder.contractState?.values[Context.key] as? Context
        table = try c.decode(String.self, forKey: .table)
        guard context?.schema.table(table) != nil else { throw c.fail(.table, "unknown table '\(table)'") }
        if let rel = try c.decodeIfPresent(String.self, forKey: .file), let context {
            let file = decoder.contractState?.file ?? ""
            rows = try SpecNode.decode(
                [JSONValue].self, from: context.folder.appendingPathComponent(rel),
                displayName: (file as NSString).deletingLastPathComponent + "/" + rel)
        } else {
            rows = try c.decode([JSONValue].self, forKey: .rows)
        }
        func key(_ v: JSONValue?) -> String { v.map { $0.stringValue ?? $0.serialized() } ?? "null" }
        if let n = try c.decodeIfPresent(Int.self, forKey: .count), rows.count != n {
            throw c.fail(.count, "\(table) has \(rows.count) fixture rows, the document's count is \(n)")
        }
        if let g = try c.decodeIfPresent(ColumnCount.self, forKey: .perGroup) {
            var groups: [String: Int] = [:]
            for r in rows { groups[key(r[g.column]), default: 0] += 1 }
            for (value, count) in groups.sorted(by: { $0.key < $1.key }) where count != g.count {
                throw c.fail(.perGroup, "\(table) has \(count) fixture rows with \(g.column) = \(value), the document's count per \(g.column) is \(g.count)")
            }
        }
        if let n = try c.decodeIfPresent(Int.self, forKey: .atLeast), rows.count < n {
            throw c.fail(.atLeast, "\(table) has \(rows.count) fixture rows, the document asks for at least \(n)")
        }
        if let b = try c.decodeIfPresent(ByValue.self, forKey: .byValue) {
            for (value, n) in b.counts.sorted(by: { $0.key < $1.key }) {
                let got = rows.filter { r in
                    let v = r[b.column] ?? .null
                    switch value {
                    case "null": return v.isNull
                    case "*": return !v.isNull
                    default: return (v.stringValue ?? v.serialized()) == value
                    }
                }.count
                if got != n {
                    throw c.fail(
                        [CodingKeys.byValue, AnyKey("counts"), AnyKey(value)],
                        "\(table) has \(got) fixture rows with \(b.column) \(value == "*" ? "set" : "= \(value)"), the document's count is \(n)")
                }
            }
        }
        if let r = try c.decodeIfPresent(ColumnRange.self, forKey: .range) {
            for (i, row) in rows.enumerated() {
                if let v = row[r.column]?.doubleValue, v < r.min || v > r.max {
                    throw c.fail(.range, "\(table) fixture row \(i) has \(r.column) = \(v), outside the document's \(r.min)…\(r.max)")
                }
            }
        }
        if let d = try c.decodeIfPresent(ColumnCount.self, forKey: .distinct) {
            let values = Set(rows.map { key($0[d.column]) })
            if values.count != d.count {
                throw c.fail(.distinct, "\(table) has \(values.count) distinct \(d.column) values in its fixtures, the document's count is \(d.count)")
            }
        }
    }
}

extension Persona: Decodable {
    enum CodingKeys: String, CodingKey, CaseIterable { case name, id, email, password, label, metadata }
    package init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        guard let id = SQLValue.canonicalUUID(try c.decode(String.self, forKey: .id)) else { throw c.fail(.id, "not a uuid") }
        self.init(
            name: try c.decode(String.self, forKey: .name), id: id, email: try c.decode(String.self, forKey: .email),
            password: try c.decode(String.self, forKey: .password), label: try c.decodeIfPresent(String.self, forKey: .label) ?? "",
            metadata: try c.decodeIfPresent(JSONValue.self, forKey: .metadata) ?? .object([:]))
    }
}

extension Fixtures: Decodable {
    enum CodingKeys: String, CodingKey, CaseIterable { case app, source, decisions, personas, tables }
    /// Decodes fixtures.json (under `decode(_:folder:schema:)`, which gives the folder and schema).
    package init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            personas: try c.decodeIfPresent([Persona].self, forKey: .personas) ?? [],
            tables: (try c.decodeIfPresent([FixtureTable].self, forKey: .tables) ?? []).map { ($0.table, $0.rows) })
    }

    /// Decodes fixtures.json; `file` entries are resolved relative to `folder`.
    package static func decode(_ root: SpecNode, folder: URL, schema: DatabaseSchema) throws -> Fixtures {
        try root.decode(Fixtures.self, values: [FixtureTable.Context.key: FixtureTable.Context(folder: folder, schema: schema)])
    }
}
