import Foundation

/// One cell of an RLS matrix (table × command) and the cases derived from it.
package struct RLSCell: Sendable, Equatable {
    package var table: String
    package var command: PolicyCommand
    /// The document's words ("Own only", "-").
    package var doc: String
    /// The rule: USING for SELECT, UPDATE, DELETE.
    package var using: Expr?
    /// The rule: WITH CHECK for INSERT and UPDATE (UPDATE's defaults to its USING).
    package var check: Expr?
    /// The decision recorded beside the cell, if any.
    package var decision: String?
    /// Roles whose grant for the command is revoked.
    package var revokedFor: [String]
    /// Indexes into `RLSExpansion.cases` of the cases of this cell.
    package var cases: [Int]

    /// `rides · UPDATE`.
    package var name: String { "\(table) · \(command.rawValue)" }
}

/// An app's RLS matrix expanded into concrete cases.
///
/// For every cell the expansion picks witness rows from the fixtures — one row per distinct
/// pattern of the cell's atomic tests across all actors, so every way the rule can decide is
/// exercised — and runs each as every persona, `anon` and `service_role`:
/// - SELECT: the row by its key → the row or `[]`.
/// - INSERT: a new row derived from a fixture row (fresh key, unique columns made unique, foreign
///   keys kept valid) with the owner columns set to the actor's id, to another user's, or to the
///   other values the rule distinguishes → 201, or 42501 (403; 401 for anon).
/// - UPDATE: a harmless column of the row (one no policy reads) set to its own value → the row
///   or `[]` (or 42501 when the unchanged row fails WITH CHECK); and changes of the columns the
///   WITH CHECK reads → the row or 42501.
/// - DELETE: the row → the deleted row, `[]`, or the foreign-key error when children restrict it.
/// Expected outcomes come from `RLSOracle`, never from the implementation under test.
package struct RLSExpansion: Sendable {
    package var app: String
    package var policies: PolicySet
    package var schema: DatabaseSchema
    /// Every case, cell by cell.
    package var cases: [RLSCase]
    /// The cells in matrix order (tables in file order, then SELECT, INSERT, UPDATE, DELETE).
    package var cells: [RLSCell]
    /// Tables of the schema with no row in the matrix (views excluded).
    package var tablesWithoutPolicies: [String]
    /// What the expansion could not cover and why ("rides: no fixture rows").
    package var notes: [String]
    /// What each case does in the oracle's terms, to recompute its expectation under another
    /// matrix (the flip test).
    var shapes: [RLSCaseShape]

    /// How outcomes are judged: the matrix under PostgreSQL's rules, statuses from PostgREST's table.
    let judge: RLSJudge
    /// The statement time the cases were expanded at.
    package let now: Date

    /// Expands an app's matrix against its fixtures, at statement time `now`; error statuses
    /// come from PostgREST's table (`PostgRESTStatusTable.load(contracts:)`).
    package init(spec: AppSpec, now: Date, statuses: PostgRESTStatusTable) {
        let judge = RLSJudge(statuses: statuses)
        var ex = Expander(spec: spec, now: now, judge: judge)
        var cells: [RLSCell] = []
        for tp in spec.policies.tables {
            guard let t = spec.schema.table(tp.table), !t.isView else { continue }
            let byCommand = ex.expand(tp, t)
            for cmd in PolicyCommand.allCases {
                let cell = tp.cell(cmd)
                cells.append(
                    RLSCell(
                        table: tp.table, command: cmd, doc: cell.doc,
                        using: cmd == .insert ? nil : cell.using ?? .constant(false),
                        check: cmd == .insert || cmd == .update ? cell.effectiveCheck(for: cmd) : nil,
                        decision: cell.decision,
                        revokedFor: tp.revoked.filter { $0.value.contains(cmd) }.keys.sorted(),
                        cases: byCommand[cmd] ?? []))
            }
        }
        // Flips no case notices get a witness from a wider search when one exists.
        for flip in RLSFlip.all(spec.policies, schema: spec.schema) {
            guard let tp = spec.policies.table(flip.table), let t = spec.schema.table(flip.table), !t.isView,
                let ci = cells.firstIndex(where: { $0.table == flip.table && $0.command == flip.command })
            else { continue }
            let noticed = zip(ex.cases, ex.shapes).contains { c, shape in
                c.table == flip.table && judge.expectation(shape, flip.policies).expected != c.expected
            }
            if noticed { continue }
            if let i = ex.witness(for: flip, tp, t) {
                let cmd = ex.cases[i].command
                let target = cells.firstIndex { $0.table == flip.table && $0.command == cmd } ?? ci
                cells[target].cases.append(i)
            }
        }
        self.judge = judge
        self.now = now
        app = spec.app
        policies = spec.policies
        schema = spec.schema
        cases = ex.cases
        shapes = ex.shapes
        self.cells = cells
        let listed = Set(spec.policies.tables.map(\.table))
        tablesWithoutPolicies = spec.schema.tables.filter { $0.schema == "public" && !$0.isView && !listed.contains($0.name) }.map(\.name)
        notes = ex.notes
    }

    package func cases(of cell: RLSCell) -> [RLSCase] { cell.cases.map { cases[$0] } }

    /// What each case's outcome would be if `policies` were enforced instead of the matrix it
    /// was derived from (same statements, same actors): the flip test's way of knowing which
    /// cases must notice a flipped cell.
    package func expectations(under policies: PolicySet) -> [RLSExpected] {
        shapes.map { judge.expectation($0, policies).expected }
    }

    /// The same for the cases of one table, by case index.
    package func expectations(under policies: PolicySet, table: String) -> [Int: RLSExpected] {
        var out: [Int: RLSExpected] = [:]
        for (i, s) in shapes.enumerated() where s.table.name == table { out[i] = judge.expectation(s, policies).expected }
        return out
    }
}

/// A column reference found in an expression: which scope (0 = the row under test, 1 = the row
/// of the first `exists`, …), the table of that scope, and the column.
struct ColumnRef: Hashable {
    let scope: Int
    let table: String
    let column: String
}

/// Walks expressions (definitions expanded) collecting column references.
struct ExprWalker {
    let definitions: [String: Expr]

    /// Columns read, and the subset compared with `auth.uid()`.
    func refs(_ e: Expr, table: String) -> (all: Set<ColumnRef>, uid: Set<ColumnRef>) {
        var all = Set<ColumnRef>(), uid = Set<ColumnRef>()
        walk(e, [table], &all, &uid, 0)
        return (all, uid)
    }

    private func walk(_ e: Expr, _ tables: [String], _ all: inout Set<ColumnRef>, _ uid: inout Set<ColumnRef>, _ depth: Int) {
        guard depth < 64 else { return }
        func ref(_ o: Expr.Operand) -> ColumnRef? {
            switch o {
            case .column(let c): return ColumnRef(scope: tables.count - 1, table: tables[tables.count - 1], column: c)
            case .outer(let c) where tables.count >= 2: return ColumnRef(scope: tables.count - 2, table: tables[tables.count - 2], column: c)
            default: return nil
            }
        }
        switch e {
        case .ref(let n): if let d = definitions[n] { walk(d, tables, &all, &uid, depth + 1) }
        case .not(let x): walk(x, tables, &all, &uid, depth + 1)
        case .any(let xs), .all(let xs): for x in xs { walk(x, tables, &all, &uid, depth + 1) }
        case .compare(_, let a, let b):
            for (x, y) in [(a, b), (b, a)] {
                if let r = ref(x) {
                    all.insert(r)
                    if y == .claim("sub") { uid.insert(r) }
                }
            }
        case .inList(let a, _), .isNull(let a, _): if let r = ref(a) { all.insert(r) }
        case .exists(let t, let w): walk(w, tables + [t], &all, &uid, depth + 1)
        case .constant, .role: break
        }
    }
}

/// What a case does, in the oracle's terms.
struct RLSCaseShape: Sendable {
    enum Kind: Sendable {
        /// Read `row`; a visible row must come back with `match`'s values.
        case select(row: RLSRow, match: [String: JSONValue])
        /// Insert `row` (defaults applied as the database would), RETURNING it when `returning`.
        case insert(row: RLSRow, returning: Bool, match: [String: JSONValue])
        /// Update `old` into `new`.
        case update(old: RLSRow, new: RLSRow, match: [String: JSONValue])
        /// Delete `row`; `effect` is the SQLSTATE its foreign keys raise, if any.
        case delete(row: RLSRow, match: [String: JSONValue], effect: String?)
    }

    let table: TableSchema
    let actor: RLSActor
    let kind: Kind
    /// The oracle over the state the statement starts from (after the setup steps).
    let oracle: RLSOracle
}

/// Computes what PostgREST answers for a case shape under a matrix, with PostgreSQL's rules:
/// grants first; SELECT shows rows passing its USING; INSERT's row (after defaults) must pass
/// WITH CHECK, and with RETURNING also the SELECT policy; UPDATE and DELETE reach rows passing
/// their USING and the SELECT policy (PostgREST's filter reads columns), the new row of an
/// UPDATE must pass WITH CHECK and the SELECT policy; the service role bypasses RLS.
struct RLSJudge: Sendable {
    /// PostgREST's statuses (`Contracts/shared/postgrest-errors.json`), not the mock's.
    let statuses: PostgRESTStatusTable

    func expectation(_ s: RLSCaseShape, _ policies: PolicySet) -> (expected: RLSExpected, appCodeRuns: Bool) {
        let t = s.table, a = s.actor
        // A table missing from the matrix is treated as RLS off (as the mock serves it).
        let tp = policies.table(t.name)
        let rls = tp?.rlsEnabled ?? false
        func using(_ c: PolicyCommand) -> Expr { tp?.cell(c).effectiveUsing ?? .constant(true) }
        func check(_ c: PolicyCommand) -> Expr { tp?.cell(c).effectiveCheck(for: c) ?? .constant(true) }
        func revoked(_ cmds: PolicyCommand...) -> Bool { cmds.contains { tp?.revoked[a.role]?.contains($0) == true } }
        func passes(_ e: Expr, _ row: RLSRow) -> Bool {
            a.kind == .serviceRole || !rls || s.oracle.passes(e, table: t, row: row, actor: a)
        }
        let status42501 = statuses.status(for: "42501", anonymous: a.kind == .anon)
        let denied = RLSExpected.error(status: status42501, code: "42501", message: "permission denied for table \(t.name)")
        let violation = RLSExpected.error(status: status42501, code: "42501", message: "new row violates row-level security policy for table \"\(t.name)\"")
        let select = using(.select)
        switch s.kind {
        case .select(let row, let match):
            if revoked(.select) { return (denied, false) }
            return (.rows(status: 200, rows: passes(select, row) ? [match] : []), false)
        case .insert(let row, let returning, let match):
            if revoked(.insert) || (returning && revoked(.select)) { return (denied, false) }
            guard passes(check(.insert), row) else { return (violation, true) }
            if !returning { return (.empty(status: 201), true) }
            return (passes(select, row) ? .rows(status: 201, rows: [match]) : violation, true)
        case .update(let old, let new, let match):
            if revoked(.update, .select) { return (denied, false) }
            guard passes(using(.update), old), passes(select, old) else { return (.rows(status: 200, rows: []), false) }
            guard passes(check(.update), new), passes(select, new) else { return (violation, true) }
            return (.rows(status: 200, rows: [match]), true)
        case .delete(let row, let match, let effect):
            if revoked(.delete, .select) { return (denied, false) }
            guard passes(using(.delete), row), passes(select, row) else { return (.rows(status: 200, rows: []), false) }
            if let effect { return (.error(status: statuses.status(for: effect, anonymous: false), code: effect, message: nil), true) }
            return (.rows(status: 200, rows: [match]), true)
        }
    }
}

/// The working state of one expansion.
struct Expander {
    let spec: AppSpec
    let judge: RLSJudge
    let now: Date
    let base: RLSOracle
    let actors: [RLSActor]
    let walker: ExprWalker
    /// Columns any policy of the app reads, per table (never chosen as the harmless column).
    let policyColumns: [String: Set<String>]
    var cases: [RLSCase] = []
    var shapes: [RLSCaseShape] = []
    var notes: [String] = []
    var counter = 0

    /// Witness rows per cell at most (distinct decision patterns beyond this are dropped, noted).
    static let maxRows = 12
    /// Derived rows per actor and cell at most (INSERT candidates, UPDATE check variants).
    static let maxVariants = 6
    /// Fixture rows an INSERT derives its candidates from.
    static let maxSources = 4
    /// Candidate values tried per column.
    static let maxValues = 40

    init(spec: AppSpec, now: Date, judge: RLSJudge) {
        self.spec = spec
        self.now = now
        self.judge = judge
        base = RLSOracle(
            schema: spec.schema, definitions: spec.policies.definitions,
            state: RLSState(schema: spec.schema, fixtures: spec.fixtures, now: now), now: now)
        actors = spec.fixtures.personas.map(RLSActor.persona) + [.anon, .serviceRole]
        walker = ExprWalker(definitions: spec.policies.definitions)
        var cols: [String: Set<String>] = [:]
        for tp in spec.policies.tables {
            for cmd in PolicyCommand.allCases {
                let cell = tp.cell(cmd)
                for e in [cell.using, cell.check].compactMap({ $0 }) {
                    for r in walker.refs(e, table: tp.table).all { cols[r.table, default: []].insert(r.column) }
                }
            }
        }
        policyColumns = cols
    }

    // MARK: Helpers

    func column(_ t: TableSchema, _ name: String) -> ColumnSchema? { t.columns.first { $0.name == name } }

    /// Whether a policy lets the row through for the actor (service role, RLS off: always).
    func passes(_ e: Expr, _ tp: TablePolicies, _ t: TableSchema, _ row: RLSRow, _ a: RLSActor, _ o: RLSOracle) -> Bool {
        if a.kind == .serviceRole || !tp.rlsEnabled { return true }
        return o.passes(e, table: t, row: row, actor: a)
    }

    func revoked(_ tp: TablePolicies, _ a: RLSActor, _ cmds: PolicyCommand...) -> Bool {
        cmds.contains { tp.revoked[a.role]?.contains($0) == true }
    }

    static func locatableType(_ type: SQLType) -> Bool {
        switch type {
        case .jsonb, .json, .array, .real, .double, .numeric: return false
        default: return true
        }
    }

    /// The columns and values that identify a stored row over the wire: its primary key, else a
    /// unique key, else every scalar column the fixture gave (when no other row shares them).
    func locator(_ row: RLSRow, _ t: TableSchema, _ o: RLSOracle) -> [String: JSONValue]? {
        if let k = declaredKey(row, t) { return k }
        let cols = t.columns.filter { row.given.contains($0.name) && !row[$0.name].isNull && Expander.locatableType($0.type) }.map(\.name)
        guard !cols.isEmpty else { return nil }
        let matches = o.state.rows(t).filter { other in
            cols.allSatisfy { c in RLSOracle.compare(row[c], other[c], type: column(t, c)?.type) == 0 }
        }
        return matches.count == 1 ? Dictionary(uniqueKeysWithValues: cols.map { ($0, row[$0]) }) : nil
    }

    /// The primary key's (else a unique key's) values, when all are known and not null.
    func declaredKey(_ row: RLSRow, _ t: TableSchema) -> [String: JSONValue]? {
        let usable: ([String]) -> Bool = { cols in
            !cols.isEmpty && cols.allSatisfy { !row[$0].isNull && !row.generated.contains($0) }
        }
        if usable(t.primaryKey) { return Dictionary(uniqueKeysWithValues: t.primaryKey.map { ($0, row[$0]) }) }
        for u in t.uniques where usable(u.columns) { return Dictionary(uniqueKeysWithValues: u.columns.map { ($0, row[$0]) }) }
        return nil
    }

    /// The values a returned row must show: the columns the fixture gave.
    func givenColumns(_ row: RLSRow) -> [String: JSONValue] {
        var out: [String: JSONValue] = [:]
        for c in row.given where !row.generated.contains(c) { out[c] = row[c] }
        return out
    }

    /// How an actor relates to a row, from the uuid columns holding its id (`owner`, `claimer`).
    func roleTag(_ a: RLSActor, _ row: RLSRow, _ t: TableSchema) -> String? {
        guard let id = a.userID else { return nil }
        let cols = t.columns.filter { $0.type == .uuid && RLSOracle.compare(row[$0.name], .string(id), type: .uuid) == 0 }.map(\.name)
        guard !cols.isEmpty else { return nil }
        return cols.map(Expander.roleWord).joined(separator: ", ")
    }

    /// `user_id` → owner, `claimed_by` → claimer, `created_by` → creator, `reviewer_id` → reviewer.
    static func roleWord(_ column: String) -> String {
        switch column {
        case "id": return "self"
        case "user_id", "owner_id", "profile_id": return "owner"
        default: break
        }
        if column.hasSuffix("_by") {
            let verb = String(column.dropLast(3)).replacingOccurrences(of: "_", with: " ")
            if verb.hasSuffix("ated") { return String(verb.dropLast(2)) + "or" }
            if verb.hasSuffix("ed") { return String(verb.dropLast(1)) + "r" }
            return verb + "er"
        }
        if column.hasSuffix("_id") { return String(column.dropLast(3)).replacingOccurrences(of: "_", with: " ") }
        return column.replacingOccurrences(of: "_", with: " ")
    }

    func signature(_ bits: [Bool?]) -> String { String(bits.map { $0.map { $0 ? "1" : "0" } ?? "?" }) }

    /// One witness row per distinct pattern of the expressions' atomic tests across all actors.
    mutating func witnesses(_ t: TableSchema, _ exprs: [Expr], extra: (Int) -> String = { _ in "" }, cell: String) -> [Int] {
        var seen = Set<String>()
        var out: [Int] = []
        var dropped = 0
        for (i, r) in base.state.rows(t).enumerated() {
            guard locator(r, t, base) != nil else { continue }
            var sig = extra(i)
            for a in actors {
                for e in exprs { sig += signature(base.atoms(e, table: t, row: r, actor: a)) + "|" }
            }
            if seen.insert(sig).inserted {
                if out.count < Expander.maxRows { out.append(i) } else { dropped += 1 }
            }
        }
        if dropped > 0 { notes.append("\(spec.app) · \(cell): \(dropped) further decision patterns not exercised (limit \(Expander.maxRows) rows)") }
        return out
    }

    mutating func fresh() -> Int { counter += 1; return counter }

    /// A fresh value for a key column (nil when the type has no obvious fresh value).
    mutating func freshValue(_ c: ColumnSchema, _ old: JSONValue) -> JSONValue? {
        let n = fresh()
        switch c.type {
        case .uuid: return .string(String(format: "5eed0000-0000-4000-8000-%012x", n))
        case .text: return .string((old.stringValue ?? "row") + "-rls\(n)")
        case .smallint: return .int(Int64(30_000 - n))
        case .integer, .bigint: return .int(Int64(2_000_000_000 - n))
        default: return nil
        }
    }

    /// Candidate values for a column: persona ids, parent key values, values in the table,
    /// booleans, enum labels, NULL.
    func candidates(_ t: TableSchema, _ c: String) -> [JSONValue] {
        guard let col = column(t, c) else { return [] }
        var out: [JSONValue] = []
        func add(_ v: JSONValue) {
            if out.count >= Expander.maxValues { return }
            if !out.contains(where: { RLSOracle.sameValue($0, v, type: col.type) }) { out.append(v) }
        }
        let fks = t.foreignKeys.filter { $0.columns.contains(c) }
        if fks.isEmpty && col.type == .uuid { for p in spec.fixtures.personas { add(.string(p.id)) } }
        for fk in fks {
            // A foreign key column takes its parents' keys (persona ids first, when the parent
            // holds them), so a changed value still finds its parent.
            guard let parent = spec.schema.table(fk.refTable), let k = fk.columns.firstIndex(of: c) else { continue }
            let parentRows = base.state.rows(parent).filter { !$0.generated.contains(fk.refColumns[k]) }
            for p in spec.fixtures.personas where parentRows.contains(where: { RLSOracle.compare($0[fk.refColumns[k]], .string(p.id), type: col.type) == 0 }) {
                add(.string(p.id))
            }
            for r in parentRows { add(r[fk.refColumns[k]]) }
        }
        if !fks.isEmpty { if col.nullable { add(.null) }; return out }
        for r in base.state.rows(t) where !r.generated.contains(c) && !r[c].isNull { add(r[c]) }
        switch col.type {
        case .boolean: add(true); add(false)
        case .enumeration(_, let labels): for l in labels { add(.string(l)) }
        default: break
        }
        if col.nullable { add(.null) }
        return out
    }

    func short(_ v: JSONValue) -> String {
        let s = v.serialized()
        return s.count > 160 ? String(s.prefix(157)) + "…" : s
    }

    func keyText(_ key: [String: JSONValue]) -> String {
        key.sorted { $0.key < $1.key }.map { "\($0.key)=\(RLSCase.filterText($0.value))" }.joined(separator: ",")
    }

    // MARK: Builders (one candidate case each)

    /// A case under construction: the shape the judge reads and how it goes on the wire.
    struct Prepared {
        var shape: RLSCaseShape
        var operation: RLSOperation
        var setup: [RLSSetupStep] = []
        var role: String?
        var detail: String
        var dependsOn: Set<PolicyCommand>
    }

    func selectCase(_ t: TableSchema, _ i: Int, _ a: RLSActor, _ o: RLSOracle? = nil) -> Prepared? {
        let o = o ?? base
        let row = o.state.rows(t)[i]
        guard let key = locator(row, t, o) else { return nil }
        return Prepared(
            shape: RLSCaseShape(table: t, actor: a, kind: .select(row: row, match: givenColumns(row)), oracle: o),
            operation: .select(key: key), role: roleTag(a, row, t), detail: "row \(keyText(key))", dependsOn: [.select])
    }

    func harmlessUpdateCase(_ t: TableSchema, _ i: Int, _ a: RLSActor, column: String, _ o: RLSOracle? = nil) -> Prepared? {
        let o = o ?? base
        let row = o.state.rows(t)[i]
        guard let key = locator(row, t, o) else { return nil }
        let value = row[column]
        return Prepared(
            shape: RLSCaseShape(table: t, actor: a, kind: .update(old: row, new: row, match: key), oracle: o),
            operation: .update(key: key, set: [column: value]), role: roleTag(a, row, t),
            detail: "row \(keyText(key)), PATCH \(short(.object([column: value]))) (its own value)", dependsOn: [.update, .select])
    }

    /// An UPDATE changing one column; nil when the change would break a constraint or touch a
    /// key while the matrix lets it through (the outcome would be the constraint's, not RLS's).
    func checkUpdateCase(_ tp: TablePolicies, _ t: TableSchema, _ i: Int, _ a: RLSActor, column c: String, value v: JSONValue, _ o: RLSOracle? = nil)
        -> Prepared?
    {
        let o = o ?? base
        let row = o.state.rows(t)[i]
        guard let key = locator(row, t, o), !RLSOracle.sameValue(v, row[c], type: column(t, c)?.type) else { return nil }
        var newRow = row
        newRow.values[c] = v
        newRow.given.insert(c)
        let allowed = passes(tp.cell(.update).effectiveCheck(for: .update), tp, t, newRow, a, o) && passes(tp.cell(.select).effectiveUsing, tp, t, newRow, a, o)
        if allowed && (t.primaryKey.contains(c) || referencedColumns(t).contains(c) || o.violation(newRow, in: t, replacing: i) != nil) { return nil }
        var match = key
        match[c] = v
        return Prepared(
            shape: RLSCaseShape(table: t, actor: a, kind: .update(old: row, new: newRow, match: match), oracle: o),
            operation: .update(key: key, set: [c: v]), role: "\(roleTag(a, row, t) ?? "row"), sets \(c)",
            detail: "row \(keyText(key)), PATCH \(short(.object([c: v])))", dependsOn: [.update, .select])
    }

    func deleteCase(_ t: TableSchema, _ i: Int, _ a: RLSActor, _ o: RLSOracle? = nil) -> Prepared? {
        let o = o ?? base
        let row = o.state.rows(t)[i]
        guard let key = locator(row, t, o) else { return nil }
        let effect = o.deleteError(t, index: i)
        return Prepared(
            shape: RLSCaseShape(table: t, actor: a, kind: .delete(row: row, match: key, effect: effect), oracle: o),
            operation: .delete(key: key), role: roleTag(a, row, t),
            detail: "row \(keyText(key))" + (effect.map { " (its foreign keys refuse the delete: \($0))" } ?? ""),
            dependsOn: [.delete, .select])
    }

    /// An INSERT of `sent` (fresh keys; room made first when only the rule's own columns collide).
    /// `valid` is false when the row would break a constraint (kept only as a refused witness).
    mutating func insertCase(
        _ tp: TablePolicies, _ t: TableSchema, _ a: RLSActor, sent: [String: JSONValue], tag: String?,
        relevant: Set<String>, body: Set<String>
    ) -> (Prepared, valid: Bool, allowed: Bool)? {
        let check = tp.cell(.insert).effectiveCheck(for: .insert), select = tp.cell(.select).effectiveUsing
        var s = makeUnique(sent, t, relevant: relevant, actor: a)
        var oracle = base
        var setup: [RLSSetupStep] = []
        var row = RLSState.withDefaults(s, t, now: now, uid: a.userID)
        var allowed = !revoked(tp, a, .insert) && passes(check, tp, t, row, a, oracle)
        if allowed, let (_, j) = oracle.uniqueConflict(row, in: t) {
            // Only the rule's own columns collide (one row per user): make room first.
            guard let key = locator(oracle.state.rows(t)[j], t, oracle), let next = oracle.simulateDelete(t, index: j).state else { return nil }
            setup.append(.delete(t.name, key: key))
            oracle.state = next
            row = RLSState.withDefaults(s, t, now: now, uid: a.userID)
            allowed = passes(check, tp, t, row, a, oracle)
            if !allowed { return nil }
        }
        let valid = oracle.violation(row, in: t) == nil
        if allowed && !valid { return nil }
        s = s.filter { body.contains($0.key) || sent[$0.key] != nil }
        row = RLSState.withDefaults(s, t, now: now, uid: a.userID)
        let visible = !revoked(tp, a, .select) && passes(select, tp, t, row, a, oracle)
        let setupText = setup.isEmpty ? "" : " after deleting \(setup.map { keyText($0.deleteKey ?? [:]) }.joined(separator: "; "))"
        // RETURNING (return=representation) when the caller may read the row back, as client
        // libraries do after .insert().select(); return=minimal otherwise.
        let returning = allowed && visible
        let prepared = Prepared(
            shape: RLSCaseShape(table: t, actor: a, kind: .insert(row: row, returning: returning, match: declaredKey(row, t) ?? [:]), oracle: oracle),
            operation: .insert(row: s, returning: returning), setup: setup, role: tag ?? roleTag(a, row, t),
            detail: "POST \(short(.object(s)))\(setupText)", dependsOn: [.insert, .select])
        return (prepared, valid, allowed)
    }

    /// The same insert with RETURNING, for a row the caller may insert but not read back.
    func returningVariant(_ p: Prepared) -> Prepared? {
        guard case .insert(let row, false, let match) = p.shape.kind, case .insert(let sent, _) = p.operation else { return nil }
        var q = p
        q.shape = RLSCaseShape(table: p.shape.table, actor: p.shape.actor, kind: .insert(row: row, returning: true, match: match), oracle: p.shape.oracle)
        q.operation = .insert(row: sent, returning: true)
        q.role = (p.role.map { $0 + ", " } ?? "") + "RETURNING"
        q.detail = p.detail + " with return=representation: a row the caller cannot read back"
        return q
    }

    /// Records a case: its expectation is the judge's verdict under the app's own matrix.
    mutating func record(_ p: Prepared) -> Int {
        let (expected, appCode) = judge.expectation(p.shape, spec.policies)
        var c = RLSCase(
            app: spec.app, table: p.shape.table.name, actor: p.shape.actor, role: p.role, operation: p.operation, setup: p.setup,
            expected: expected, detail: p.detail, dependsOn: p.dependsOn,
            columnTypes: Dictionary(uniqueKeysWithValues: p.shape.table.columns.map { ($0.name, $0.type) }))
        // A witness row inserted first runs the app's code too (its triggers may refuse it).
        c.appCodeRuns = appCode || p.setup.contains { $0.insertRow != nil }
        cases.append(c)
        shapes.append(p.shape)
        return cases.count - 1
    }

    func referencedColumns(_ t: TableSchema) -> Set<String> {
        Set(spec.schema.tables.flatMap { o in o.foreignKeys.filter { spec.schema.table($0.refTable)?.qualifiedName == t.qualifiedName }.flatMap(\.refColumns) })
    }

    /// Columns of the row under test that the UPDATE check or the SELECT policy read.
    func checkColumns(_ tp: TablePolicies, _ t: TableSchema) -> [String] {
        walker.refs(tp.cell(.update).effectiveCheck(for: .update), table: t.name).all
            .union(walker.refs(tp.cell(.select).effectiveUsing, table: t.name).all)
            .filter { $0.scope == 0 }.map(\.column).sorted()
    }

    /// The INSERT policy's columns of the row under test, those compared with `auth.uid()`, and
    /// the columns an INSERT body carries.
    func insertPlan(_ tp: TablePolicies, _ t: TableSchema) -> (relevant: Set<String>, uid: [String], body: Set<String>) {
        let refs = walker.refs(tp.cell(.insert).effectiveCheck(for: .insert), table: t.name)
        let relevant = Set(refs.all.filter { $0.scope == 0 }.map(\.column))
        return (relevant, refs.uid.filter { $0.scope == 0 }.map(\.column).sorted(), insertColumns(t, relevant: relevant))
    }

    /// INSERT candidates for an actor: from each source, the owner columns set to the actor's id
    /// and to another persona's, the source as is, then each rule column at each candidate value.
    func insertVariants(_ t: TableSchema, _ a: RLSActor, sources: [[String: JSONValue]], relevant: Set<String>, uid: [String]) -> [(
        sent: [String: JSONValue], tag: String?
    )] {
        var variants: [(sent: [String: JSONValue], tag: String?)] = []
        for sent in sources {
            if !uid.isEmpty {
                if let id = a.userID { variants.append((sent.merging(uid.map { ($0, .string(id)) }) { $1 }, "own row")) }
                if let other = spec.fixtures.personas.first(where: { $0.id != a.userID }) {
                    variants.append((sent.merging(uid.map { ($0, .string(other.id)) }) { $1 }, "\(other.name)'s row"))
                }
            }
            variants.append((sent, nil))
            if a.kind == .serviceRole { continue }
            for c in relevant.sorted() {
                for v in candidates(t, c) { variants.append((sent.merging([c: v]) { $1 }, nil)) }
            }
        }
        return variants
    }

    /// INSERT bodies from fixture rows (the body's columns each gave), else one row made from the schema.
    mutating func insertSources(_ t: TableSchema, rows indexes: [Int], body: Set<String>) -> [[String: JSONValue]] {
        let rows = base.state.rows(t)
        let sources = indexes.map { givenColumns(rows[$0]).filter { body.contains($0.key) } }
        return sources.isEmpty ? [synthesizedRow(t)] : sources
    }

    // MARK: Cells

    mutating func expand(_ tp: TablePolicies, _ t: TableSchema) -> [PolicyCommand: [Int]] {
        if base.state.rows(t).isEmpty {
            notes.append("\(spec.app) · \(t.name): no fixture rows, so no SELECT, UPDATE or DELETE cases (INSERT derives a row from the schema)")
        }
        return [
            .select: expandSelect(tp, t), .insert: expandInsert(tp, t),
            .update: expandUpdate(tp, t), .delete: expandDelete(tp, t)
        ]
    }

    mutating func expandSelect(_ tp: TablePolicies, _ t: TableSchema) -> [Int] {
        var out: [Int] = []
        for i in witnesses(t, [tp.cell(.select).effectiveUsing], cell: "\(t.name) · SELECT") {
            for a in actors { if let p = selectCase(t, i, a) { out.append(record(p)) } }
        }
        return out
    }

    /// The column an UPDATE sets to its own value: one no policy reads and no key holds, text
    /// first; timestamps (often trigger-managed) and keys only when nothing else is left. Setting
    /// a column to its own value leaves every policy's verdict unchanged and passes the guard
    /// triggers apps put on columns (they compare OLD and NEW).
    func harmlessColumn(_ t: TableSchema) -> String? {
        let read = policyColumns[t.name] ?? []
        var keyed = Set(t.primaryKey + t.uniques.flatMap(\.columns) + t.foreignKeys.flatMap(\.columns))
        keyed.formUnion(referencedColumns(t))
        let timestamps: Set<String> = ["created_at", "updated_at"]
        let unread = t.columns.filter { !read.contains($0.name) && !t.primaryKey.contains($0.name) }
        let free = unread.filter { !keyed.contains($0.name) && !timestamps.contains($0.name) }
        let pick = free.first { $0.type == .text } ?? free.first ?? unread.first { timestamps.contains($0.name) } ?? unread.first ?? t.columns.first
        return pick?.name
    }

    mutating func expandUpdate(_ tp: TablePolicies, _ t: TableSchema) -> [Int] {
        let using = tp.cell(.update).effectiveUsing, check = tp.cell(.update).effectiveCheck(for: .update)
        let select = tp.cell(.select).effectiveUsing
        guard let harmless = harmlessColumn(t) else { return [] }
        var out: [Int] = []
        let witnessRows = witnesses(t, [using, select, check], cell: "\(t.name) · UPDATE")
        for i in witnessRows {
            for a in actors { if let p = harmlessUpdateCase(t, i, a, column: harmless) { out.append(record(p)) } }
        }
        // WITH CHECK variants: change one column the check (or the SELECT policy, which the new
        // row must also pass) reads, on rows the actor reaches; one per decision pattern.
        let checkCols = checkColumns(tp, t)
        guard !checkCols.isEmpty else { return out }
        let rows = base.state.rows(t)
        for a in actors where a.kind != .serviceRole && !revoked(tp, a, .update, .select) {
            var seen = Set<String>()
            for i in witnessRows where seen.count < Expander.maxVariants {
                guard passes(using, tp, t, rows[i], a, base), passes(select, tp, t, rows[i], a, base) else { continue }
                for c in checkCols {
                    for v in candidates(t, c) where seen.count < Expander.maxVariants {
                        guard let p = checkUpdateCase(tp, t, i, a, column: c, value: v), case .update(_, let newRow, _) = p.shape.kind else { continue }
                        let allowed = judge.expectation(p.shape, spec.policies).expected.allowed
                        let sig = (allowed ? "+" : "-") + signature(base.atoms(.all([check, select]), table: t, row: newRow, actor: a))
                        if seen.insert(sig).inserted { out.append(record(p)) }
                    }
                }
            }
        }
        return out
    }

    mutating func expandDelete(_ tp: TablePolicies, _ t: TableSchema) -> [Int] {
        let oracle = base
        let witnessRows = witnesses(
            t, [tp.cell(.delete).effectiveUsing, tp.cell(.select).effectiveUsing],
            extra: { i in oracle.deleteError(t, index: i) ?? "ok" }, cell: "\(t.name) · DELETE")
        var out: [Int] = []
        for i in witnessRows {
            for a in actors { if let p = deleteCase(t, i, a) { out.append(record(p)) } }
        }
        return out
    }

    // MARK: INSERT

    /// The columns an INSERT body carries: keys, NOT NULL columns without a default, the columns
    /// the INSERT policy and the table's CHECK constraints read. Everything else takes its default, so columns the server
    /// manages (counters, flags, trust levels, timestamps) are not sent.
    func insertColumns(_ t: TableSchema, relevant: Set<String>) -> Set<String> {
        var cols = Set(t.primaryKey + t.uniques.flatMap(\.columns)).union(relevant)
        for c in t.columns where !c.nullable && c.defaultValue == nil { cols.insert(c.name) }
        // Multi-column invariants ("exactly one of ride_id, favor_id") need the source's values.
        for ch in t.checks { cols.formUnion(walker.refs(ch.expr, table: t.name).all.map(\.column)) }
        return cols
    }

    /// A row made from the schema alone, for a table without fixture rows: NOT NULL columns
    /// without defaults get a parent's key or a plain value of their type.
    mutating func synthesizedRow(_ t: TableSchema) -> [String: JSONValue] {
        var row: [String: JSONValue] = [:]
        let today = String(PGTime.timestamptz(now).prefix(10))
        for c in t.columns where !c.nullable && c.defaultValue == nil {
            if let fk = t.foreignKeys.first(where: { $0.columns.contains(c.name) }), let parent = spec.schema.table(fk.refTable),
                let i = fk.columns.firstIndex(of: c.name), let p = base.state.rows(parent).first
            {
                row[c.name] = p[fk.refColumns[i]]
                continue
            }
            switch c.type {
            case .uuid: row[c.name] = .string(String(format: "5eed0000-0000-4000-8000-%012x", fresh()))
            case .text: row[c.name] = .string("rls")
            case .smallint, .integer, .bigint: row[c.name] = 1
            case .real, .double, .numeric: row[c.name] = 1.0
            case .boolean: row[c.name] = false
            case .timestamptz, .timestamp: row[c.name] = .string(PGTime.timestamptz(now))
            case .date: row[c.name] = .string(today)
            case .time: row[c.name] = "12:00:00"
            case .timetz: row[c.name] = "12:00:00+00"
            case .bytea: row[c.name] = "\\x00"
            case .interval: row[c.name] = "1 day"
            case .tsvector: row[c.name] = "'rls'"
            case .range: row[c.name] = "empty"
            case .money: row[c.name] = "$1.00"
            case .jsonb, .json: row[c.name] = .object([:])
            case .array: row[c.name] = .array([])
            case .enumeration(_, let labels): row[c.name] = labels.first.map(JSONValue.string) ?? .null
            }
        }
        return row
    }

    mutating func expandInsert(_ tp: TablePolicies, _ t: TableSchema) -> [Int] {
        let check = tp.cell(.insert).effectiveCheck(for: .insert)
        let plan = insertPlan(tp, t)
        let sources = insertSources(t, rows: Array(witnesses(t, [check], cell: "\(t.name) · INSERT").prefix(Expander.maxSources)), body: plan.body)
        var out: [Int] = []
        for a in actors {
            var order: [String] = []
            var best: [String: (Prepared, Bool)] = [:]
            for (sent, tag) in insertVariants(t, a, sources: sources, relevant: plan.relevant, uid: plan.uid) {
                let draft = RLSState.withDefaults(sent, t, now: now, uid: a.userID)
                let draftAllowed = !revoked(tp, a, .insert) && passes(check, tp, t, draft, a, base)
                let draftSig = (draftAllowed ? "+" : "-") + signature(base.atoms(check, table: t, row: draft, actor: a))
                if best[draftSig]?.1 == true { continue }
                guard let (p, valid, allowed) = insertCase(tp, t, a, sent: sent, tag: tag, relevant: plan.relevant, body: plan.body),
                    case .insert(let row, _, _) = p.shape.kind
                else { continue }
                let sig = (allowed ? "+" : "-") + signature(p.shape.oracle.atoms(check, table: t, row: row, actor: a))
                if best[sig]?.1 == true || (!valid && best[sig] != nil) { continue }
                if best[sig] == nil { order.append(sig) }
                best[sig] = (p, valid)
                if a.kind == .serviceRole && valid { break }
            }
            var returningShown = false
            for sig in order.prefix(Expander.maxVariants) {
                let p = best[sig]!.0
                out.append(record(p))
                if !returningShown, case .insert(_, false, _) = p.shape.kind, judge.expectation(p.shape, spec.policies).expected.allowed,
                    let q = returningVariant(p)
                {
                    // RETURNING needs the SELECT policy too: return=representation is refused.
                    returningShown = true
                    out.append(record(q))
                }
            }
        }
        return out
    }

    // MARK: Witnesses for flips

    /// For a flipped matrix no case notices, looks through every row, actor and derived
    /// statement of the table for one whose expected outcome the flip changes, and adds it as a
    /// case of the flipped cell. Returns the new case's index, nil when there is none (the
    /// fixtures lack a witness).
    mutating func witness(for flip: RLSFlip, _ tp: TablePolicies, _ t: TableSchema) -> Int? {
        let original = spec.policies
        let judge = self.judge
        let differs: (Prepared) -> Bool = { p in
            judge.expectation(p.shape, original).expected != judge.expectation(p.shape, flip.policies).expected
        }
        let n = base.state.rows(t).count
        let cmds: [PolicyCommand] = flip.command == .select ? PolicyCommand.allCases : [flip.command]
        for cmd in cmds {
            switch cmd {
            case .select:
                for i in 0..<n { for a in actors { if let p = selectCase(t, i, a), differs(p) { return record(p) } } }
            case .delete:
                for i in 0..<n { for a in actors { if let p = deleteCase(t, i, a), differs(p) { return record(p) } } }
            case .update:
                if let h = harmlessColumn(t) {
                    for i in 0..<n { for a in actors { if let p = harmlessUpdateCase(t, i, a, column: h), differs(p) { return record(p) } } }
                }
                let cols = checkColumns(tp, t)
                for i in 0..<n {
                    for a in actors where a.kind != .serviceRole {
                        for c in cols {
                            for v in candidates(t, c) { if let p = checkUpdateCase(tp, t, i, a, column: c, value: v), differs(p) { return record(p) } }
                        }
                    }
                }
            case .insert:
                let plan = insertPlan(tp, t)
                let sources = insertSources(t, rows: Array(0..<n), body: plan.body)
                for a in actors {
                    for (sent, tag) in insertVariants(t, a, sources: sources, relevant: plan.relevant, uid: plan.uid) {
                        guard let (p, valid, _) = insertCase(tp, t, a, sent: sent, tag: tag, relevant: plan.relevant, body: plan.body), valid else { continue }
                        if differs(p) { return record(p) }
                        if let q = returningVariant(p), differs(q) { return record(q) }
                    }
                }
            }
        }
        return syntheticWitness(for: flip, tp, t, cmds: cmds.filter { $0 != .insert }, differs: differs)
    }

    /// The fixtures hold no witness: a row made for the purpose (a fixture row, or one made from
    /// the schema, with one column the rules read set to each candidate value, fresh keys),
    /// inserted first by the service role. The case's detail says so.
    mutating func syntheticWitness(
        for flip: RLSFlip, _ tp: TablePolicies, _ t: TableSchema, cmds: [PolicyCommand],
        differs: (Prepared) -> Bool
    ) -> Int? {
        guard !cmds.isEmpty else { return nil }
        var cols = Set<String>()
        for cmd in PolicyCommand.allCases {
            for e in [tp.cell(cmd).using, tp.cell(cmd).check].compactMap({ $0 }) {
                cols.formUnion(walker.refs(e, table: t.name).all.filter { $0.scope == 0 }.map(\.column))
            }
        }
        var templates = base.state.rows(t).prefix(Expander.maxSources).map(givenColumns)
        if templates.isEmpty { templates = [synthesizedRow(t)] }
        let harmless = harmlessColumn(t)
        let checkCols = checkColumns(tp, t)
        for template in templates {
            var variants: [[String: JSONValue]] = [template]
            for c in cols.sorted() { for v in candidates(t, c) { variants.append(template.merging([c: v]) { $1 }) } }
            for variant in variants {
                let sent = makeUnique(variant, t, relevant: cols, actor: .serviceRole)
                let row = RLSState.withDefaults(sent, t, now: now)
                guard base.violation(row, in: t) == nil else { continue }
                var o = base
                o.state.tables[t.qualifiedName, default: []].append(row)
                let i = o.state.rows(t).count - 1
                for cmd in cmds {
                    for a in actors {
                        var found: [Prepared] = []
                        switch cmd {
                        case .select: found = [selectCase(t, i, a, o)].compactMap { $0 }
                        case .delete: found = [deleteCase(t, i, a, o)].compactMap { $0 }
                        case .update:
                            found = [harmless.flatMap { harmlessUpdateCase(t, i, a, column: $0, o) }].compactMap { $0 }
                            if a.kind != .serviceRole {
                                for c in checkCols {
                                    for v in candidates(t, c) { if let p = checkUpdateCase(tp, t, i, a, column: c, value: v, o) { found.append(p) } }
                                }
                            }
                        case .insert: break
                        }
                        if var p = found.first(where: differs) {
                            p.setup = [.insert(t.name, row: sent)] + p.setup
                            p.detail += "; the fixtures hold no witness row, so the case first inserts one as the service role: \(short(.object(sent)))"
                            notes.append(
                                "\(spec.app) · \(t.name) · \(flip.command.rawValue): the fixtures lack a witness row for the flip '\(flip.kind)'; a case inserts one first"
                            )
                            return record(p)
                        }
                    }
                }
            }
        }
        return nil
    }

    /// Gives a candidate a fresh key and unique values in the columns the rule does not read.
    mutating func makeUnique(_ sent: [String: JSONValue], _ t: TableSchema, relevant: Set<String>, actor: RLSActor) -> [String: JSONValue] {
        var s = sent
        let fkCols = Set(t.foreignKeys.flatMap(\.columns))
        for c in t.primaryKey where !fkCols.contains(c) && !relevant.contains(c) {
            guard let col = column(t, c) else { continue }
            if let v = freshValue(col, s[c] ?? .null) { s[c] = v } else if col.defaultValue != nil { s[c] = nil }
        }
        for _ in 0..<4 {
            let row = RLSState.withDefaults(s, t, now: now, uid: actor.userID)
            guard let (cols, _) = base.uniqueConflict(row, in: t) else { break }
            let free = cols.filter { !relevant.contains($0) }
            if let c = free.first(where: { !fkCols.contains($0) }), let col = column(t, c), let v = freshValue(col, s[c] ?? .null) {
                s[c] = v
                continue
            }
            // A foreign key column of the unique key: another parent value (or NULL) that does
            // not collide.
            var fixed = false
            for c in free where fkCols.contains(c) {
                for v in candidates(t, c) {
                    var trial = s
                    trial[c] = v
                    if base.uniqueConflict(RLSState.withDefaults(trial, t, now: now, uid: actor.userID), in: t) == nil { s = trial; fixed = true; break }
                }
                if fixed { break }
            }
            if !fixed { break }
        }
        return s
    }
}

extension RLSExpansion {
    /// The expansion of the app whose contracts are `spec.folder`, at the time it is first asked
    /// for, computed once per process (`ProcessMemo`) for the runs against a real clock (the
    /// `postgres` kind's matrix, `verify --database`, `verify --target`), which all mean "now": a few seconds apart
    /// or the same instant make no difference to a case. Only for a `spec` as loaded from its
    /// folder (a changed spec in memory has its own expansion: `init(spec:now:statuses:)`).
    package static func current(_ spec: AppSpec, statuses: PostgRESTStatusTable) -> RLSExpansion {
        // The memo never throws for this key's computation.
        (try? currentExpansions.value(spec.folder.standardizedFileURL.path) { RLSExpansion(spec: spec, now: Date(), statuses: statuses) })
            ?? RLSExpansion(spec: spec, now: Date(), statuses: statuses)
    }

    /// PostgREST's statuses the expectations were judged with.
    package var statuses: PostgRESTStatusTable { judge.statuses }
}

/// The expansions of `RLSExpansion.current`, by contract folder.
private let currentExpansions = ProcessMemo<RLSExpansion>()
