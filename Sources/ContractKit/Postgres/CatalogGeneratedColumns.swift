import Foundation

extension ColumnSchema {
    /// Whether the column is a stored generated column.
    package var isGenerated: Bool { generated != nil }
}

extension PostgresCatalog {
    /// A stored generated column against the catalog: both sides generate it, and when
    /// schema.json records `generatedSQL`, PostgreSQL's expression (`pg_get_expr` of its
    /// `pg_attrdef` entry) reads the same once printing is set aside. Nil when they agree or
    /// neither side generates the column.
    static func generationDifference(_ c: ColumnSchema, _ pc: CatalogRelation.Column) -> String? {
        switch (c.isGenerated, pc.generated) {
        case (false, false): return nil
        case (false, true):
            return "column \(c.name): PostgreSQL generates it (\(pc.defaultSQL ?? "?")), schema.json declares no generation expression"
        case (true, false): return "column \(c.name): schema.json declares a generated column, PostgreSQL stores a plain one"
        case (true, true):
            guard let want = c.generatedSQL, comparableExpression(want) != comparableExpression(pc.defaultSQL ?? "") else { return nil }
            return "column \(c.name): generation expression: schema.json \(want), PostgreSQL \(pc.defaultSQL ?? "none")"
        }
    }

    /// An expression in comparable form: casts (`'im'::text`, `::character varying`), brackets,
    /// identifier quotes, case and whitespace (all of it: `(x)::text, ` prints as `x ,`) are
    /// PostgreSQL's printing, not meaning.
    static func comparableExpression(_ sql: String) -> String {
        var p = sql.replacingOccurrences(
            of: #"::[A-Za-z_][A-Za-z0-9_]*( varying| precision| with time zone| without time zone)?(\[\])?"#, with: "", options: .regularExpression)
        p = p.replacingOccurrences(of: "(", with: " ").replacingOccurrences(of: ")", with: " ").replacingOccurrences(of: "\"", with: "")
        return p.lowercased().filter { !$0.isWhitespace }
    }
}
