import Foundation

/// A constraint a candidate row would break, as the oracle sees it.
enum RLSConstraintViolation: Equatable {
    case notNull(String)
    case check
    /// A UNIQUE constraint (or the primary key) with the index of the row it collides with.
    case unique(columns: [String], conflictingRow: Int)
    /// A FOREIGN KEY without a parent row.
    case foreignKey([String])
}

extension RLSOracle {
    /// Typed equality of two non-null values (for keys); generated values never match.
    func keyEqual(_ a: RLSRow, _ ac: String, _ b: RLSRow, _ bc: String, type: SQLType?) -> Bool {
        if a.generated.contains(ac) || b.generated.contains(bc) { return false }
        let x = a[ac], y = b[bc]
        if x.isNull || y.isNull { return false }
        return RLSOracle.compare(x, y, type: type) == 0
    }

    /// The unique keys of a table: the primary key first, then the UNIQUE constraints.
    func uniqueKeys(_ t: TableSchema) -> [[String]] {
        ([t.primaryKey] + t.uniques.map(\.columns)).filter { !$0.isEmpty }
    }

    /// The first constraint `row` breaks when written to `t` (replacing row `replacing` for an
    /// update), or nil. Order: NOT NULL, CHECK, UNIQUE, FOREIGN KEY, as PostgreSQL checks them.
    func violation(_ row: RLSRow, in t: TableSchema, replacing: Int? = nil) -> RLSConstraintViolation? {
        for c in t.columns where !c.nullable && row[c.name].isNull && !row.generated.contains(c.name) {
            return .notNull(c.name)
        }
        if !satisfiesChecks(table: t, row: row) { return .check }
        if let c = uniqueConflict(row, in: t, replacing: replacing) { return .unique(columns: c.columns, conflictingRow: c.index) }
        for fk in t.foreignKeys where !hasParent(row, fk, in: t) { return .foreignKey(fk.columns) }
        return nil
    }

    /// The first unique key (primary key first) on which `row` collides with a stored row.
    func uniqueConflict(_ row: RLSRow, in t: TableSchema, replacing: Int? = nil) -> (columns: [String], index: Int)? {
        let existing = state.rows(t)
        for key in uniqueKeys(t) {
            let types = key.map { k in t.columns.first { $0.name == k }?.type }
            if key.contains(where: { row[$0].isNull }) { continue }
            for (i, other) in existing.enumerated() where i != replacing {
                if zip(key, types).allSatisfy({ keyEqual(row, $0, other, $0, type: $1) }) { return (key, i) }
            }
        }
        return nil
    }

    /// Whether a row's foreign key finds its parent (a NULL key needs none).
    func hasParent(_ row: RLSRow, _ fk: ForeignKey, in t: TableSchema) -> Bool {
        if fk.columns.contains(where: { row[$0].isNull && !row.generated.contains($0) }) { return true }
        guard let parent = schema.table(fk.refTable) else { return false }
        return state.rows(parent).contains { p in
            zip(fk.columns, fk.refColumns).allSatisfy { c, rc in
                keyEqual(row, c, p, rc, type: parent.columns.first { $0.name == rc }?.type)
            }
        }
    }

    /// The outcome of deleting row `index` of `t` with the ON DELETE actions of every foreign
    /// key: the state afterwards, or the SQLSTATE the statement fails with (23503 for a
    /// restricting reference, 23502 when SET NULL meets a NOT NULL column).
    func simulateDelete(_ t: TableSchema, index: Int) -> (state: RLSState?, error: String?) {
        simulateDelete(t, index: index, build: true)
    }

    /// The SQLSTATE deleting row `index` of `t` fails with, or nil when it succeeds.
    func deleteError(_ t: TableSchema, index: Int) -> String? {
        simulateDelete(t, index: index, build: false).error
    }

    private func simulateDelete(_ t: TableSchema, index: Int, build: Bool) -> (state: RLSState?, error: String?) {
        var deleted: [String: Set<Int>] = [:]
        var restricted: [(String, Int)] = []
        var nulled: [(TableSchema, Int, [String], ForeignKey)] = []
        var queue: [(TableSchema, Int)] = [(t, index)]
        while let (pt, pi) = queue.popLast() {
            if deleted[pt.qualifiedName, default: []].contains(pi) { continue }
            deleted[pt.qualifiedName, default: []].insert(pi)
            let parentRow = state.rows(pt)[pi]
            for child in schema.tables {
                for fk in child.foreignKeys where schema.table(fk.refTable)?.qualifiedName == pt.qualifiedName {
                    for (ci, crow) in state.rows(child).enumerated() {
                        let hit = zip(fk.columns, fk.refColumns).allSatisfy { c, rc in
                            keyEqual(crow, c, parentRow, rc, type: pt.columns.first { $0.name == rc }?.type)
                        }
                        guard hit else { continue }
                        switch fk.onDelete {
                        case .cascade: queue.append((child, ci))
                        case .setNull, .setDefault: nulled.append((child, ci, fk.columns, fk))
                        case .restrict, .noAction: restricted.append((child.qualifiedName, ci))
                        }
                    }
                }
            }
        }
        for (table, i) in restricted where deleted[table]?.contains(i) != true { return (nil, "23503") }
        for (child, ci, cols, _) in nulled where deleted[child.qualifiedName]?.contains(ci) != true {
            for c in cols where child.columns.first(where: { $0.name == c })?.nullable == false {
                if case .value(let v)? = child.columns.first(where: { $0.name == c })?.defaultValue, !v.isNull { continue }
                return (nil, "23502")
            }
        }
        if !build { return (state, nil) }
        var next = state
        for (child, ci, cols, fk) in nulled where deleted[child.qualifiedName]?.contains(ci) != true {
            var row = next.tables[child.qualifiedName]![ci]
            for c in cols {
                let col = child.columns.first { $0.name == c }
                if fk.onDelete == .setDefault, case .value(let v)? = col?.defaultValue { row.values[c] = v } else { row.values[c] = .null }
                if col?.nullable == false && row[c].isNull { return (nil, "23502") }
            }
            next.tables[child.qualifiedName]![ci] = row
        }
        for (table, set) in deleted {
            next.tables[table] = next.tables[table]!.enumerated().filter { !set.contains($0.offset) }.map(\.element)
        }
        return (next, nil)
    }
}
