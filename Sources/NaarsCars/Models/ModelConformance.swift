import Foundation
import ContractKit

/// Checks that row models match schema.json and round-trip rows as PostgreSQL prints them.
/// Returns violations (empty: conformant), so tests and `contracts verify` can both use it.
public enum NaarsCarsModelConformance {
    /// Every violation of every model of `NaarsCarsModels.rows` against the app's schema, with
    /// the rows the backend prints for the fixtures.
    public static func violations(backend: MockSupabase) -> [String] {
        var out: [String] = []
        let schema = backend.configuration.spec.schema
        let names = Set(schema.tables.filter { $0.schema == "public" }.map(\.name))
        let modelled = Set(NaarsCarsModels.rows.map { $0.table })
        for t in names.subtracting(modelled).sorted() { out.append("table \(t) has no model") }
        for t in modelled.subtracting(names).sorted() { out.append("model of unknown table \(t)") }
        for m in NaarsCarsModels.rows {
            func run<T: NaarsCarsRow>(_ type: T.Type) -> [String] {
                guard let table = schema.table(T.table) else { return [] }
                let rows = (try? backend.database.rows(T.table, as: .serviceRole)) ?? []
                return check(type, table: table, rows: rows)
            }
            out += run(m)
        }
        return out
    }

    /// One model against one table: its CodingKeys are the columns in order; a NULL decodes
    /// exactly for the nullable columns (views: computed columns may be non-optional); every
    /// given row decodes and re-encodes to the same JSON.
    public static func check<T: NaarsCarsRow>(_ type: T.Type, table: TableSchema, rows: [[String: JSONValue]]) -> [String] {
        let label = "\(T.self) (\(table.name))"
        var out: [String] = []
        let columns = table.columns.map(\.name)
        if T.columns != columns {
            out.append("\(label): coding keys \(T.columns) differ from the columns \(columns)")
            return out
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        for (i, row) in rows.enumerated() {
            do {
                let value = try JSONDecoder().decode(T.self, from: JSONValue.object(row).data())
                let back = try JSONValue.parse(encoder.encode(value))
                if !sameJSON(back, .object(row)) {
                    let diffs = columns.filter { !sameJSON(back[$0] ?? .null, row[$0] ?? .null) }.map { "\($0): \(row[$0] ?? .null) → \(back[$0] ?? .null)" }
                    out.append("\(label) row \(i): round trip changes \(diffs.isEmpty ? "the key set" : diffs.joined(separator: "; "))")
                }
            } catch {
                out.append("\(label) row \(i) does not decode: \(error)")
            }
        }
        // Nullability: NULL in a column decodes iff the column is nullable (for a table).
        if let sample = rows.first, !table.isView {
            for c in table.columns {
                var r = sample
                r[c.name] = .null
                let decodes = (try? JSONDecoder().decode(T.self, from: JSONValue.object(r).data())) != nil
                if decodes != c.nullable {
                    out.append("\(label).\(c.name): column is \(c.nullable ? "nullable" : "NOT NULL") but the model \(decodes ? "accepts" : "rejects") null")
                }
            }
        }
        return out
    }

    /// JSON equality with numbers compared by value (`5` = `5.0`), as PostgreSQL compares a
    /// numeric column's values.
    public static func sameJSON(_ a: JSONValue, _ b: JSONValue) -> Bool {
        switch (a, b) {
        case (.object(let x), .object(let y)):
            return x.count == y.count && x.allSatisfy { k, v in y[k].map { sameJSON(v, $0) } ?? false }
        case (.array(let x), .array(let y)):
            return x.count == y.count && zip(x, y).allSatisfy { sameJSON($0, $1) }
        default:
            if let p = a.doubleValue, let q = b.doubleValue { return p == q }
            return a == b
        }
    }
}

extension NaarsCarsModelConformance {
    /// The `models` rule kind for `contracts verify`: one result per model (coverage, nullability,
    /// round trip of the fixture rows); applies to Naar's Cars only.
    public static func verifySuite() -> VerifySuite {
        VerifySuite(kind: "models") { app in
            guard app == NaarsCarsApp.self else { return [] }
            let backend = try NaarsCarsApp.makeBackend(clock: ManualClock(), ids: SeededIDGenerator(seed: 1))
            let schema = backend.configuration.spec.schema
            return NaarsCarsModels.rows.map { m in
                func one<T: NaarsCarsRow>(_ type: T.Type) -> [String] {
                    guard let table = schema.table(T.table) else { return ["no table \(T.table)"] }
                    return check(type, table: table, rows: (try? backend.database.rows(T.table)) ?? [])
                }
                let problems = one(m)
                return CaseResult(app: app.name, kind: "models", name: "\(m) · \(m.table)", passed: problems.isEmpty, message: problems.joined(separator: "\n"))
            }
        }
    }
}
