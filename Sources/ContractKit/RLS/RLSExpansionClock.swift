import Foundation

/// Whether an app's RLS expansion can depend on the statement time it is made at.
///
/// The expansion reads the clock in two ways only: the oracle's `now` operand, and the values
/// `now()` and `CURRENT_DATE` defaults (and the schema-made rows of tables without fixtures, and
/// `auth.users.email_confirmed_at`) put into the rows it reasons about. When no policy, definition
/// or CHECK constraint has a `now` operand, and no expression, key, unique constraint or foreign
/// key reads a column whose value can come from the clock, every decision (which witness rows,
/// which cases, which expected outcomes) is the same at any time: expansions made at two times
/// differ only in the clock's own values, carried unread (the harmless column an UPDATE sets to
/// its own value). Such an expansion, made once at the fixed clock of `verify --kind rls`, also
/// serves the runs against a real clock (`RLSSuite.sharedExpansion`). The test
/// `RLSExpansionClockTests` holds every app's two expansions to this.
package enum RLSExpansionClock {
    /// True when some decision of the expansion may read the clock (conservative: a column that
    /// may hold a clock value counts when anything reads it, whatever it is compared with).
    package static func readsClock(_ spec: AppSpec) -> Bool {
        let definitions = spec.policies.definitions
        var exprs: [(table: String, expr: Expr)] = []
        for tp in spec.policies.tables {
            for cmd in PolicyCommand.allCases {
                let cell = tp.cell(cmd)
                for e in [cell.using, cell.check, cell.effectiveCheck(for: cmd)].compactMap({ $0 }) { exprs.append((tp.table, e)) }
            }
        }
        let tables = spec.schema.tables + [DatabaseSchema.authUsers]
        for t in tables { for ch in t.checks { exprs.append((t.name, ch.expr)) } }
        if definitions.values.contains(where: { hasNow($0, definitions) }) || exprs.contains(where: { hasNow($0.expr, definitions) }) { return true }
        let clock = clockColumns(tables)
        let walker = ExprWalker(definitions: definitions)
        for (table, e) in exprs {
            for r in walker.refs(e, table: table).all where clock.contains(Column(table: r.table, column: r.column)) { return true }
        }
        for t in tables {
            let keys = [t.primaryKey] + t.uniques.map(\.columns) + t.foreignKeys.map(\.columns)
            for k in keys where k.contains(where: { clock.contains(Column(table: t.name, column: $0)) }) { return true }
            for fk in t.foreignKeys where fk.refColumns.contains(where: { clock.contains(Column(table: fk.refTable, column: $0)) }) { return true }
        }
        return false
    }

    /// A column of a table, by the table's name as policies and schema.json write it (an auth
    /// table under its bare and its qualified name).
    struct Column: Hashable {
        let table: String
        let column: String
    }

    /// Columns whose value the expansion may take from the clock: `now()` and `CURRENT_DATE`
    /// defaults, NOT NULL time columns without a default (filled with the time in rows made from
    /// the schema), and `auth.users.email_confirmed_at` (the oracle's personas are confirmed now).
    static func clockColumns(_ tables: [TableSchema]) -> Set<Column> {
        var out: Set<Column> = []
        for t in tables {
            for c in t.columns {
                let fromDefault = c.defaultValue == .now || c.defaultValue == .currentDate
                let synthesized: Bool
                switch c.type {
                case .timestamptz, .timestamp, .date: synthesized = !c.nullable && c.defaultValue == nil
                default: synthesized = false
                }
                if fromDefault || synthesized || (t.name == DatabaseSchema.authUsers.name && c.name == "email_confirmed_at") {
                    for name in [t.name, t.qualifiedName] { out.insert(Column(table: name, column: c.name)) }
                }
            }
        }
        return out
    }

    /// Whether an expression (definitions it names included) has a `now` operand.
    static func hasNow(_ e: Expr, _ definitions: [String: Expr], depth: Int = 0) -> Bool {
        guard depth < 64 else { return true }
        switch e {
        case .constant, .role: return false
        case .compare(_, let a, let b): return a == .now || b == .now
        case .inList(let a, _), .isNull(let a, _): return a == .now
        case .exists(_, let w), .not(let w): return hasNow(w, definitions, depth: depth + 1)
        case .any(let xs), .all(let xs): return xs.contains { hasNow($0, definitions, depth: depth + 1) }
        case .ref(let n): return definitions[n].map { hasNow($0, definitions, depth: depth + 1) } ?? false
        }
    }
}
