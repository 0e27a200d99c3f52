import Foundation

/// The counts a document gives for its seed data, checked when fixtures.json loads: a fixture
/// table entry may carry `"count": n` (the table's rows) and `"perGroup": {"column": c,
/// "count": m}` (every distinct value of `c` has exactly `m` rows) and `"distinct": {"column": c,
/// "count": k}` (the rows hold exactly `k` distinct values of `c`), `"atLeast": n`,
/// `"byValue": {"column": c, "counts": {"open": 3, "null": 3, "*": 3}}` (rows per value; `null`
/// and `*` count NULL and set values) and `"range": {"column": c, "min", "max"}` (every seeded
/// value inside), each with the document's words in a `trace`. A fixture file that lost or gained a row is a load error naming the entry.
enum FixtureCount {
    static func check(_ rows: [JSONValue], table: String, entry: SpecObject) throws {
        if let c = entry.optional("count") {
            let n = try c.int()
            if rows.count != n { throw c.fail("\(table) has \(rows.count) fixture rows, the document's count is \(n)") }
        }
        if let g = entry.optional("perGroup") {
            let (column, n): (String, Int) = try g.object { go in (try go.required("column").string(), try go.required("count").int()) }
            var groups: [String: Int] = [:]
            for r in rows { groups[r[column].map { $0.stringValue ?? $0.serialized() } ?? "null", default: 0] += 1 }
            for (value, count) in groups.sorted(by: { $0.key < $1.key }) where count != n {
                throw g.fail("\(table) has \(count) fixture rows with \(column) = \(value), the document's count per \(column) is \(n)")
            }
        }
        if let a = entry.optional("atLeast") {
            let n = try a.int()
            if rows.count < n { throw a.fail("\(table) has \(rows.count) fixture rows, the document asks for at least \(n)") }
        }
        if let b = entry.optional("byValue") {
            let (column, counts): (String, [(key: String, node: SpecNode)]) = try b.object { o in (try o.required("column").string(), try o.required("counts").map()) }
            for (value, node) in counts {
                let n = try node.int()
                let got = rows.filter { r in
                    let v = r[column] ?? .null
                    switch value {
                    case "null": return v.isNull
                    case "*": return !v.isNull
                    default: return (v.stringValue ?? v.serialized()) == value
                    }
                }.count
                if got != n { throw node.fail("\(table) has \(got) fixture rows with \(column) \(value == "*" ? "set" : "= \(value)"), the document's count is \(n)") }
            }
        }
        if let r = entry.optional("range") {
            let (column, lo, hi): (String, Double, Double) = try r.object { o in (try o.required("column").string(), try o.required("min").double(), try o.required("max").double()) }
            for (i, row) in rows.enumerated() {
                if let v = row[column]?.doubleValue, v < lo || v > hi {
                    throw r.fail("\(table) fixture row \(i) has \(column) = \(v), outside the document's \(lo)…\(hi)")
                }
            }
        }
        if let d = entry.optional("distinct") {
            let (column, n): (String, Int) = try d.object { o in (try o.required("column").string(), try o.required("count").int()) }
            let values = Set(rows.map { $0[column].map { $0.stringValue ?? $0.serialized() } ?? "null" })
            if values.count != n { throw d.fail("\(table) has \(values.count) distinct \(column) values in its fixtures, the document's count is \(n)") }
        }
    }
}
