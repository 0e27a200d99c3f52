import Foundation

/// The minimal RLS case expansion the differential check runs: every table × command × actor
/// (the fixture personas and anon) × fixture row. A different expansion (the shared RLS matrix
/// expansion) plugs in by producing `[RLSCase]` and calling `RLSDifferential.compare`.
package enum DifferentialExpansion {
    /// The fixture personas, then anon.
    package static func actors(_ spec: AppSpec) -> [RLSActor] {
        spec.fixtures.personas.map(RLSActor.persona) + [.anon]
    }

    /// Tables the cases cover: the app's own tables (schema `public`, not views).
    package static func tables(_ spec: AppSpec) -> [TableSchema] {
        spec.schema.tables.filter { $0.schema == "public" && !$0.isView }
    }

    /// The key columns of a table: its primary key, else every column.
    package static func keyColumns(_ t: TableSchema) -> [String] {
        t.primaryKey.isEmpty ? t.columns.map(\.name) : t.primaryKey
    }

    /// The key of a fixture row, nil when the row does not carry every key column.
    package static func key(of row: [String: JSONValue], in t: TableSchema) -> [String: JSONValue]? {
        var key: [String: JSONValue] = [:]
        for c in keyColumns(t) {
            guard let v = row[c], !v.isNull else { return nil }
            key[c] = v
        }
        return key
    }

    /// Fixture rows of a table that have a key.
    package static func rows(_ spec: AppSpec, _ t: TableSchema) -> [[String: JSONValue]] {
        spec.fixtures.rows(t.name).compactMap { $0.objectValue }.filter { key(of: $0, in: t) != nil }
    }

    /// For each table, actor and fixture row (at most `rowsPerTable` rows per table, all when
    /// nil): SELECT the row; re-INSERT it after removing it (so only policies decide); UPDATE it
    /// setting its first non-key column to its own value; DELETE it.
    package static func cases(_ spec: AppSpec, rowsPerTable: Int? = nil) -> [RLSCase] {
        var out: [RLSCase] = []
        for t in tables(spec) {
            var rs = rows(spec, t)
            if let n = rowsPerTable { rs = Array(rs.prefix(n)) }
            let keyCols = Set(keyColumns(t))
            for actor in actors(spec) {
                for r in rs {
                    let key = key(of: r, in: t)!
                    let setCol = t.columns.first { !keyCols.contains($0.name) && r[$0.name] != nil }?.name ?? keyColumns(t)[0]
                    out.append(RLSCase(table: t.name, actor: actor, operation: .select(key: key)))
                    out.append(RLSCase(table: t.name, actor: actor, operation: .insert(row: r, returning: false), replaceOriginal: key))
                    out.append(RLSCase(table: t.name, actor: actor, operation: .update(key: key, set: [setCol: r[setCol] ?? .null], returning: false)))
                    out.append(RLSCase(table: t.name, actor: actor, operation: .delete(key: key, returning: false)))
                }
            }
        }
        return out
    }
}

/// One case on which the mock and PostgreSQL disagree.
package struct Disagreement: Sendable, CustomStringConvertible {
    package var testCase: RLSCase
    /// What the mock did.
    package var mock: DifferentialOutcome
    /// What PostgreSQL did.
    package var postgres: DifferentialOutcome

    /// The case and both outcomes.
    package var description: String {
        var s = "\(testCase.summary): mock \(mock), PostgreSQL \(postgres)"
        if let d = mock.rowDifference(postgres) { s += " (rows differ: \(d))" }
        return s
    }
}

/// Runs the same cases on two targets and compares the outcomes.
package enum RLSDifferential {
    /// Outcomes of every case on both targets, the disagreements in case order.
    package static func disagreements(_ cases: [RLSCase], mock: RLSTarget, postgres: RLSTarget, schema: DatabaseSchema) throws -> [Disagreement] {
        // The two targets run at the same time (the mock computes while PostgreSQL answers).
        let theirs = Concurrently { postgres.executeAll(cases) }
        let ours = mock.executeAll(cases)
        let pg = try theirs.value()
        var out: [Disagreement] = []
        for (i, c) in cases.enumerated() {
            let cols = c.comparedColumns(in: schema)
            let a = DifferentialOutcome(try ours[i].get()).projected(cols), b = DifferentialOutcome(try pg[i].get()).projected(cols)
            if !a.agrees(with: b) { out.append(Disagreement(testCase: c, mock: a, postgres: b)) }
        }
        return out
    }

    /// One result per table × command: passed when the mock and PostgreSQL agree on every case
    /// of it; a failure lists the first disagreements with both outcomes.
    package static func compare(
        _ cases: [RLSCase], mock: RLSTarget, postgres: RLSTarget, schema: DatabaseSchema, app: String,
        label: String = "rls differential"
    ) throws -> [CaseResult] {
        var groups: [(String, [RLSCase])] = []
        var index: [String: Int] = [:]
        for c in cases {
            let g = "\(c.table) · \(c.command.rawValue)"
            if let i = index[g] { groups[i].1.append(c) } else { index[g] = groups.count; groups.append((g, [c])) }
        }
        // Every case in one go (one pipeline to PostgreSQL), then the verdicts by group.
        var byGroup: [String: [Disagreement]] = [:]
        for d in try disagreements(cases, mock: mock, postgres: postgres, schema: schema) {
            byGroup["\(d.testCase.table) · \(d.testCase.command.rawValue)", default: []].append(d)
        }
        var results: [CaseResult] = []
        for (g, cs) in groups {
            let d = byGroup[g] ?? []
            let msg =
                d.isEmpty
                ? "" : "\(d.count) of \(cs.count) cases disagree:\n" + d.prefix(5).map { "  \($0)" }.joined(separator: "\n") + (d.count > 5 ? "\n  …" : "")
            results.append(CaseResult(app: app, kind: "postgres", name: "\(label) · \(g) (\(cs.count) cases)", passed: d.isEmpty, message: msg))
        }
        return results
    }
}

/// Random cases over an app's personas (plus anon and the service role), tables, operations and
/// fixture rows. Inserts copy a fixture row and change some columns to values of the same column
/// in other rows or to persona ids; updates set a column to another row's value; reads, updates
/// and deletes target one row or, sometimes, the whole table.
package enum RandomizedCases {
    /// `count` cases from `seed`.
    package static func generate(_ spec: AppSpec, seed: UInt64, count: Int) -> [RLSCase] {
        var rng = SeededRandom(seed: seed)
        let actors = DifferentialExpansion.actors(spec) + [.serviceRole]
        let tables = DifferentialExpansion.tables(spec).filter { !DifferentialExpansion.rows(spec, $0).isEmpty }
        guard !tables.isEmpty else { return [] }
        let personaIDs = spec.fixtures.personas.map { JSONValue.string($0.id) }
        var out: [RLSCase] = []
        for n in 0..<count {
            let t = tables.randomElement(using: &rng)!
            let rows = DifferentialExpansion.rows(spec, t)
            let row = rows.randomElement(using: &rng)!
            let key = DifferentialExpansion.key(of: row, in: t)!
            let actor = actors.randomElement(using: &rng)!
            let keyCols = Set(DifferentialExpansion.keyColumns(t))
            func otherValue(_ col: ColumnSchema) -> JSONValue {
                var pool = rows.compactMap { $0[col.name] }
                if col.type == .uuid { pool += personaIDs }
                return pool.randomElement(using: &rng) ?? .null
            }
            let returning = Bool.random(using: &rng)
            switch Int.random(in: 0..<4, using: &rng) {
            case 0:
                let whole = Int.random(in: 0..<8, using: &rng) == 0
                out.append(RLSCase(table: t.name, actor: actor, operation: .select(key: whole ? [:] : key)))
            case 1:
                var copy = row
                let replace = Bool.random(using: &rng)
                if !replace {
                    // A new key: drop defaulted key columns, suffix text keys.
                    for c in t.columns where keyCols.contains(c.name) {
                        if c.defaultValue != nil {
                            copy[c.name] = nil
                        } else if case .string(let s)? = copy[c.name], c.type == .text {
                            copy[c.name] = .string("\(s)-copy-\(n)")
                        }
                    }
                }
                let changeable = t.columns.filter { !keyCols.contains($0.name) }
                for _ in 0..<Int.random(in: 0...2, using: &rng) {
                    guard let c = changeable.randomElement(using: &rng) else { break }
                    copy[c.name] = otherValue(c)
                }
                out.append(RLSCase(table: t.name, actor: actor, operation: .insert(row: copy, returning: returning), replaceOriginal: replace ? key : [:]))
            case 2:
                let changeable = t.columns.filter { !keyCols.contains($0.name) }
                guard let c = changeable.randomElement(using: &rng) ?? t.columns.first else { continue }
                let whole = Int.random(in: 0..<10, using: &rng) == 0
                out.append(RLSCase(table: t.name, actor: actor, operation: .update(key: whole ? [:] : key, set: [c.name: otherValue(c)], returning: returning)))
            default:
                let whole = Int.random(in: 0..<10, using: &rng) == 0
                out.append(RLSCase(table: t.name, actor: actor, operation: .delete(key: whole ? [:] : key, returning: returning)))
            }
        }
        return out
    }
}
