import Foundation

/// One cell of an RLS matrix (table × command) and the cases derived from it.
public struct RLSCell: Sendable, Equatable {
    /// The table.
    public var table: String
    /// The command.
    public var command: PolicyCommand
    /// The document's words ("Own only", "-").
    public var doc: String
    /// The rule: USING for SELECT, UPDATE, DELETE.
    public var using: Expr?
    /// The rule: WITH CHECK for INSERT and UPDATE (UPDATE's defaults to its USING).
    public var check: Expr?
    /// The decision recorded beside the cell, if any.
    public var decision: String?
    /// Roles whose grant for the command is revoked.
    public var revokedFor: [String]
    /// Indexes into `RLSExpansion.cases` of the cases of this cell.
    public var cases: [Int]

    /// `rides · UPDATE`.
    public var name: String { "\(table) · \(command.rawValue)" }
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
/// - UPDATE: a harmless column of the row (one no policy reads) → the changed row or `[]`; and
///   changes of the columns the WITH CHECK reads → the row or 42501.
/// - DELETE: the row → the deleted row, `[]`, or the foreign-key error when children restrict it.
/// Expected outcomes come from `RLSOracle`, never from the implementation under test.
public struct RLSExpansion: Sendable {
    /// The app.
    public var app: String
    /// The policies expanded.
    public var policies: PolicySet
    /// Every case, cell by cell.
    public var cases: [RLSCase]
    /// The cells in matrix order (tables in file order, then SELECT, INSERT, UPDATE, DELETE).
    public var cells: [RLSCell]
    /// Tables of the schema with no row in the matrix (views excluded).
    public var tablesWithoutPolicies: [String]
    /// What the expansion could not cover and why ("rides: no fixture rows").
    public var notes: [String]

    /// Expands an app's matrix against its fixtures, at statement time `now`.
    public init(spec: AppSpec, now: Date) {
        var ex = Expander(spec: spec, now: now)
        var cells: [RLSCell] = []
        for tp in spec.policies.tables {
            guard let t = spec.schema.table(tp.table), !t.isView else { continue }
            let byCommand = ex.expand(tp, t)
            for cmd in PolicyCommand.allCases {
                let cell = tp.cell(cmd)
                cells.append(RLSCell(table: tp.table, command: cmd, doc: cell.doc,
                                     using: cmd == .insert ? nil : cell.using ?? .constant(false),
                                     check: cmd == .insert || cmd == .update ? cell.effectiveCheck(for: cmd) : nil,
                                     decision: cell.decision,
                                     revokedFor: tp.revoked.filter { $0.value.contains(cmd) }.keys.sorted(),
                                     cases: byCommand[cmd] ?? []))
            }
        }
        app = spec.app
        policies = spec.policies
        cases = ex.cases
        self.cells = cells
        let listed = Set(spec.policies.tables.map(\.table))
        tablesWithoutPolicies = spec.schema.tables.filter { $0.schema == "public" && !$0.isView && !listed.contains($0.name) }.map(\.name)
        notes = ex.notes
    }

    /// The cases of a cell.
    public func cases(of cell: RLSCell) -> [RLSCase] { cell.cases.map { cases[$0] } }
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

/// The working state of one expansion.
struct Expander {
    let spec: AppSpec
    let now: Date
    let base: RLSOracle
    let actors: [RLSActor]
    let walker: ExprWalker
    /// Columns any policy of the app reads, per table (never chosen as the harmless column).
    let policyColumns: [String: Set<String>]
    var cases: [RLSCase] = []
    var notes: [String] = []
    var counter = 0

    /// Witness rows per cell at most (distinct decision patterns beyond this are dropped, noted).
    static let maxRows = 12
    /// Derived rows per actor and cell at most (INSERT candidates, UPDATE check variants).
    static let maxVariants = 6
    /// Candidate values tried per column.
    static let maxValues = 40

    init(spec: AppSpec, now: Date) {
        self.spec = spec
        self.now = now
        base = RLSOracle(schema: spec.schema, definitions: spec.policies.definitions,
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

    func types(_ t: TableSchema) -> [String: SQLType] {
        Dictionary(uniqueKeysWithValues: t.columns.map { ($0.name, $0.type) })
    }

    /// Whether a policy reaches the row for the actor (service role and RLS-off tables: always).
    func reaches(_ e: Expr, _ tp: TablePolicies, _ t: TableSchema, _ row: RLSRow, _ a: RLSActor, _ o: RLSOracle) -> Bool {
        if a.kind == .serviceRole || !tp.rlsEnabled { return true }
        return o.passes(e, table: t, row: row, actor: a)
    }

    func revoked(_ tp: TablePolicies, _ a: RLSActor, _ cmds: PolicyCommand...) -> Bool {
        cmds.contains { tp.revoked[a.role]?.contains($0) == true }
    }

    func permissionDenied(_ t: TableSchema, _ a: RLSActor) -> RLSExpected {
        .error(status: RLSOutcome.status(forSQLState: "42501", anonymous: a.kind == .anon), code: "42501",
               message: "permission denied for table \(t.name)")
    }

    func rlsViolation(_ t: TableSchema, _ a: RLSActor) -> RLSExpected {
        .error(status: RLSOutcome.status(forSQLState: "42501", anonymous: a.kind == .anon), code: "42501",
               message: "new row violates row-level security policy for table \"\(t.name)\"")
    }

    static func locatableTypes(_ type: SQLType) -> Bool {
        switch type {
        case .jsonb, .json, .array, .real, .double, .numeric: return false
        default: return true
        }
    }

    /// The columns and values that identify a row over the wire: its primary key, else a unique
    /// key, else every scalar column the fixture gave (when no other fixture row shares them).
    func locator(_ row: RLSRow, _ t: TableSchema, _ o: RLSOracle) -> [String: JSONValue]? {
        let usable: ([String]) -> Bool = { cols in
            !cols.isEmpty && cols.allSatisfy { !row[$0].isNull && !row.generated.contains($0) }
        }
        if usable(t.primaryKey) { return Dictionary(uniqueKeysWithValues: t.primaryKey.map { ($0, row[$0]) }) }
        for u in t.uniques where usable(u.columns) { return Dictionary(uniqueKeysWithValues: u.columns.map { ($0, row[$0]) }) }
        let cols = t.columns.filter { row.given.contains($0.name) && !row[$0.name].isNull && Expander.locatableTypes($0.type) }.map(\.name)
        guard !cols.isEmpty else { return nil }
        let matches = o.state.rows(t).filter { other in
            cols.allSatisfy { c in RLSOracle.compare(row[c], other[c], type: column(t, c)?.type) == 0 }
        }
        return matches.count == 1 ? Dictionary(uniqueKeysWithValues: cols.map { ($0, row[$0]) }) : nil
    }

    /// The expected-row matcher: the given columns (SELECT) or the key only.
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
        return column
    }

    /// One witness row per distinct pattern of the expressions' atomic tests across all actors.
    mutating func witnesses(_ t: TableSchema, _ exprs: [Expr], extra: (Int) -> String = { _ in "" }, cell: String) -> [Int] {
        var seen = Set<String>()
        var out: [Int] = []
        var dropped = 0
        for (i, r) in base.state.rows(t).enumerated() {
            guard locator(r, t, base) != nil else { continue }
            var sig = extra(i)
            for a in actors {
                for e in exprs { sig += base.atoms(e, table: t, row: r, actor: a).map { $0.map { $0 ? "1" : "0" } ?? "?" }.joined() + "|" }
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

    /// Candidate values for a column: values in the table, parent key values, persona ids,
    /// booleans, enum labels, NULL.
    func candidates(_ t: TableSchema, _ c: String) -> [JSONValue] {
        guard let col = column(t, c) else { return [] }
        var out: [JSONValue] = []
        func add(_ v: JSONValue) {
            if out.count >= Expander.maxValues { return }
            if !out.contains(where: { RLSOracle.sameValue($0, v, type: col.type) }) { out.append(v) }
        }
        if col.type == .uuid { for p in spec.fixtures.personas { add(.string(p.id)) } }
        for fk in t.foreignKeys where fk.columns == [c] {
            if let parent = spec.schema.table(fk.refTable) {
                for r in base.state.rows(parent) where !r.generated.contains(fk.refColumns[0]) { add(r[fk.refColumns[0]]) }
            }
        }
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
        key.sorted { $0.key < $1.key }.map { "\($0.key)=\(CaseText.scalar($0.value))" }.joined(separator: ",")
    }

    mutating func add(_ c: RLSCase) -> Int {
        cases.append(c)
        return cases.count - 1
    }

    // MARK: Cells

    mutating func expand(_ tp: TablePolicies, _ t: TableSchema) -> [PolicyCommand: [Int]] {
        let rowsCount = base.state.rows(t).count
        if rowsCount == 0 { notes.append("\(spec.app) · \(t.name): no fixture rows, so no SELECT, UPDATE, DELETE or INSERT cases") }
        return [.select: expandSelect(tp, t), .insert: expandInsert(tp, t),
                .update: expandUpdate(tp, t), .delete: expandDelete(tp, t)]
    }

    func cellExprs(_ tp: TablePolicies) -> (select: Expr, insert: Expr, updateUsing: Expr, updateCheck: Expr, delete: Expr) {
        (tp.cell(.select).effectiveUsing, tp.cell(.insert).effectiveCheck(for: .insert),
         tp.cell(.update).effectiveUsing, tp.cell(.update).effectiveCheck(for: .update), tp.cell(.delete).effectiveUsing)
    }

    mutating func expandSelect(_ tp: TablePolicies, _ t: TableSchema) -> [Int] {
        let e = cellExprs(tp)
        var out: [Int] = []
        for i in witnesses(t, [e.select], cell: "\(t.name) · SELECT") {
            let row = base.state.rows(t)[i]
            let key = locator(row, t, base)!
            for a in actors {
                let expected: RLSExpected
                if revoked(tp, a, .select) { expected = permissionDenied(t, a) }
                else { expected = .rows(status: 200, rows: reaches(e.select, tp, t, row, a, base) ? [givenColumns(row)] : []) }
                out.append(add(RLSCase(app: spec.app, table: t.name, command: .select, actor: a, role: roleTag(a, row, t),
                                       operation: .select(key: key), setup: [], expected: expected,
                                       detail: "row \(keyText(key))", dependsOn: [.select], columnTypes: types(t))))
            }
        }
        return out
    }

    /// A column an UPDATE may change without changing any policy's decision: not read by any
    /// policy, not a key, not under a CHECK or foreign key; a text column when there is one.
    func harmlessColumn(_ t: TableSchema) -> (column: String, changes: Bool)? {
        let read = policyColumns[t.name] ?? []
        var keyed = Set(t.primaryKey + t.uniques.flatMap(\.columns) + t.foreignKeys.flatMap(\.columns))
        for other in spec.schema.tables {
            for fk in other.foreignKeys where spec.schema.table(fk.refTable)?.qualifiedName == t.qualifiedName { keyed.formUnion(fk.refColumns) }
        }
        for ch in t.checks { keyed.formUnion(walker.refs(ch.expr, table: t.name).all.map(\.column)) }
        let timestamps: Set<String> = ["created_at", "updated_at"]
        let free = t.columns.filter { !read.contains($0.name) && !keyed.contains($0.name) && $0.check == nil && !timestamps.contains($0.name) }
        if let c = free.first(where: { $0.type == .text }) { return (c.name, true) }
        if let c = free.first { return (c.name, false) }
        // Nothing free: set a column to its own value (timestamps first, keys last).
        let unread = t.columns.filter { !read.contains($0.name) && !t.primaryKey.contains($0.name) }
        if let c = unread.first(where: { timestamps.contains($0.name) }) ?? unread.first(where: { !keyed.contains($0.name) }) ?? unread.first { return (c.name, false) }
        return t.columns.first.map { ($0.name, false) }
    }

    mutating func expandUpdate(_ tp: TablePolicies, _ t: TableSchema) -> [Int] {
        let e = cellExprs(tp)
        let rows = base.state.rows(t)
        guard let harmless = harmlessColumn(t) else { return [] }
        var out: [Int] = []
        let witnessRows = witnesses(t, [e.updateUsing, e.select, e.updateCheck], cell: "\(t.name) · UPDATE")
        for i in witnessRows {
            let row = rows[i]
            let key = locator(row, t, base)!
            let n = fresh()
            let value: JSONValue = harmless.changes ? .string("rls probe \(n)") : row[harmless.column]
            var newRow = row
            newRow.values[harmless.column] = value
            for a in actors {
                let expected = updateExpectation(tp, t, e, row, newRow, index: i, a, patched: [harmless.column])
                out.append(add(RLSCase(app: spec.app, table: t.name, command: .update, actor: a, role: roleTag(a, row, t),
                                       operation: .update(key: key, set: [harmless.column: value]), setup: [], expected: expected,
                                       detail: "row \(keyText(key)), PATCH \(short(.object([harmless.column: value])))",
                                       dependsOn: [.update, .select], columnTypes: types(t))))
            }
        }
        // WITH CHECK variants: change the columns the check (and the SELECT policy, which the new
        // row must also pass) read, on rows the actor reaches.
        let checkCols = (walker.refs(e.updateCheck, table: t.name).all.union(walker.refs(e.select, table: t.name).all))
            .filter { $0.scope == 0 && $0.column != harmless.column }.map(\.column).sorted()
        guard !checkCols.isEmpty else { return out }
        let referenced = Set(spec.schema.tables.flatMap { o in o.foreignKeys.filter { spec.schema.table($0.refTable)?.qualifiedName == t.qualifiedName }.flatMap(\.refColumns) })
        for a in actors where a.kind != .serviceRole {
            var seen = Set<String>()
            var picked = 0
            for i in witnessRows {
                let row = rows[i]
                guard !revoked(tp, a, .update, .select), reaches(e.updateUsing, tp, t, row, a, base), reaches(e.select, tp, t, row, a, base) else { continue }
                let key = locator(row, t, base)!
                for c in checkCols {
                    for v in candidates(t, c) where !RLSOracle.sameValue(v, row[c], type: column(t, c)?.type) {
                        var newRow = row
                        newRow.values[c] = v
                        newRow.given.insert(c)
                        let allowed = reaches(e.updateCheck, tp, t, newRow, a, base) && reaches(e.select, tp, t, newRow, a, base)
                        if allowed && (t.primaryKey.contains(c) || referenced.contains(c) || base.violation(newRow, in: t, replacing: i) != nil) { continue }
                        let sig = (allowed ? "+" : "-") + base.atoms(.all([e.updateCheck, e.select]), table: t, row: newRow, actor: a).map { $0.map { $0 ? "1" : "0" } ?? "?" }.joined()
                        guard seen.insert(sig).inserted, picked < Expander.maxVariants else { continue }
                        picked += 1
                        let expected = updateExpectation(tp, t, e, row, newRow, index: i, a, patched: [c])
                        out.append(add(RLSCase(app: spec.app, table: t.name, command: .update, actor: a,
                                               role: "\(roleTag(a, row, t) ?? "row"), sets \(c)",
                                               operation: .update(key: key, set: [c: v]), setup: [], expected: expected,
                                               detail: "row \(keyText(key)), PATCH \(short(.object([c: v])))",
                                               dependsOn: [.update, .select], columnTypes: types(t))))
                    }
                }
            }
        }
        return out
    }

    func updateExpectation(_ tp: TablePolicies, _ t: TableSchema, _ e: (select: Expr, insert: Expr, updateUsing: Expr, updateCheck: Expr, delete: Expr),
                           _ row: RLSRow, _ newRow: RLSRow, index: Int, _ a: RLSActor, patched: [String]) -> RLSExpected {
        // PostgreSQL needs SELECT on the columns of the WHERE clause PostgREST sends.
        if revoked(tp, a, .update, .select) { return permissionDenied(t, a) }
        guard reaches(e.updateUsing, tp, t, row, a, base), reaches(e.select, tp, t, row, a, base) else { return .rows(status: 200, rows: []) }
        guard reaches(e.updateCheck, tp, t, newRow, a, base), reaches(e.select, tp, t, newRow, a, base) else { return rlsViolation(t, a) }
        var match = locator(newRow, t, base) ?? [:]
        for c in patched { match[c] = newRow[c] }
        return .rows(status: 200, rows: [match])
    }

    mutating func expandDelete(_ tp: TablePolicies, _ t: TableSchema) -> [Int] {
        let e = cellExprs(tp)
        let rows = base.state.rows(t)
        var effects: [Int: String] = [:]
        let oracle = base
        let witnessRows = witnesses(t, [e.delete, e.select], extra: { i in oracle.deleteError(t, index: i) ?? "ok" },
                                    cell: "\(t.name) · DELETE")
        for i in witnessRows { effects[i] = base.deleteError(t, index: i) }
        var out: [Int] = []
        for i in witnessRows {
            let row = rows[i]
            let key = locator(row, t, base)!
            for a in actors {
                let expected: RLSExpected
                if revoked(tp, a, .delete, .select) { expected = permissionDenied(t, a) }
                else if !(reaches(e.delete, tp, t, row, a, base) && reaches(e.select, tp, t, row, a, base)) { expected = .rows(status: 200, rows: []) }
                else if let code = effects[i] ?? nil { expected = .error(status: RLSOutcome.status(forSQLState: code, anonymous: false), code: code, message: nil) }
                else { expected = .rows(status: 200, rows: [key]) }
                out.append(add(RLSCase(app: spec.app, table: t.name, command: .delete, actor: a, role: roleTag(a, row, t),
                                       operation: .delete(key: key), setup: [], expected: expected,
                                       detail: "row \(keyText(key))" + ((effects[i] ?? nil).map { " (children restrict it: \($0))" } ?? ""),
                                       dependsOn: [.delete, .select], columnTypes: types(t))))
            }
        }
        return out
    }

    // MARK: INSERT

    /// A candidate row for an insert and what running it needs.
    struct Candidate {
        var sent: [String: JSONValue]
        var setup: [RLSSetupStep] = []
    }

    mutating func expandInsert(_ tp: TablePolicies, _ t: TableSchema) -> [Int] {
        let e = cellExprs(tp)
        let refs = walker.refs(e.insert, table: t.name)
        let relevant = Set(refs.all.filter { $0.scope == 0 }.map(\.column))
        let uidCols = refs.uid.filter { $0.scope == 0 }.map(\.column).sorted()
        let rows = base.state.rows(t)
        let sources = witnesses(t, [e.insert], cell: "\(t.name) · INSERT").prefix(4)
        var out: [Int] = []
        for a in actors {
            var variants: [(sent: [String: JSONValue], tag: String?)] = []
            for i in sources {
                var sent: [String: JSONValue] = [:]
                for c in rows[i].given where !rows[i].generated.contains(c) { sent[c] = rows[i][c] }
                if !uidCols.isEmpty {
                    if let id = a.userID { variants.append((sent.merging(uidCols.map { ($0, .string(id)) }) { $1 }, "own row")) }
                    if let other = spec.fixtures.personas.first(where: { $0.id != a.userID }) {
                        variants.append((sent.merging(uidCols.map { ($0, .string(other.id)) }) { $1 }, "\(other.name)'s row"))
                    }
                }
                variants.append((sent, nil))
                for c in relevant.sorted() {
                    for v in candidates(t, c) { variants.append((sent.merging([c: v]) { $1 }, nil)) }
                }
            }
            var seen = Set<String>()
            var kept: [(Candidate, RLSExpected, RLSOracle, String?, Bool)] = []
            var pendingDenied: [String: (Candidate, RLSExpected, RLSOracle, String?, Bool)] = [:]
            for (sent, tag) in variants {
                guard var cand = makeUnique(sent, t, relevant: relevant, actor: a) else { continue }
                var oracle = base
                var row = RLSState.withDefaults(cand.sent, t, now: now, uid: a.userID)
                var allowed = !revoked(tp, a, .insert) && reaches(e.insert, tp, t, row, a, oracle)
                if allowed, let (_, j) = oracle.uniqueConflict(row, in: t) {
                    // Only the rule's own columns collide (one row per user): make room first.
                    guard let key = locator(oracle.state.rows(t)[j], t, oracle), let next = oracle.simulateDelete(t, index: j).state else { continue }
                    cand.setup.append(RLSSetupStep(table: t.name, deleteKey: key))
                    oracle.state = next
                    row = RLSState.withDefaults(cand.sent, t, now: now, uid: a.userID)
                    allowed = reaches(e.insert, tp, t, row, a, oracle)
                    if !allowed { continue }
                }
                let valid = oracle.violation(row, in: t) == nil
                if allowed && !valid { continue }
                let sig = (allowed ? "+" : "-") + oracle.atoms(e.insert, table: t, row: row, actor: a).map { $0.map { $0 ? "1" : "0" } ?? "?" }.joined()
                let expected: RLSExpected = revoked(tp, a, .insert) ? permissionDenied(t, a) : (allowed ? .empty(status: 201) : rlsViolation(t, a))
                if !valid {
                    if pendingDenied[sig] == nil && !seen.contains(sig) { pendingDenied[sig] = (cand, expected, oracle, tag, allowed) }
                    continue
                }
                guard seen.insert(sig).inserted else { continue }
                pendingDenied[sig] = nil
                kept.append((cand, expected, oracle, tag, allowed))
                if a.kind == .serviceRole { break }
            }
            // Denied candidates that break a constraint still witness the rule (RLS is checked
            // first); use them only when no valid candidate shows the same pattern.
            for (sig, v) in pendingDenied.sorted(by: { $0.key < $1.key }) where !seen.contains(sig) { kept.append(v) }
            var returningShown = false
            for (cand, expected, oracle, tag, allowed) in kept.prefix(Expander.maxVariants) {
                let row = RLSState.withDefaults(cand.sent, t, now: now, uid: a.userID)
                let key = locator(row, t, oracle) ?? [:]
                let visible = !revoked(tp, a, .select) && reaches(e.select, tp, t, row, a, oracle)
                let role = tag ?? roleTag(a, row, t)
                var exp = expected
                var returning = false
                if allowed && visible { returning = true; exp = .rows(status: 201, rows: [key]) }
                out.append(add(RLSCase(app: spec.app, table: t.name, command: .insert, actor: a, role: role,
                                       operation: .insert(row: cand.sent, returning: returning), setup: cand.setup, expected: exp,
                                       detail: "POST \(short(.object(cand.sent)))" + (cand.setup.isEmpty ? "" : " after deleting \(cand.setup.map { keyText($0.deleteKey) }.joined(separator: "; "))"),
                                       dependsOn: [.insert, .select], columnTypes: types(t))))
                if allowed && !visible && !returningShown {
                    // RETURNING needs the SELECT policy too: return=representation is refused.
                    returningShown = true
                    out.append(add(RLSCase(app: spec.app, table: t.name, command: .insert, actor: a, role: (role.map { $0 + ", " } ?? "") + "RETURNING",
                                           operation: .insert(row: cand.sent, returning: true), setup: cand.setup,
                                           expected: revoked(tp, a, .select) ? permissionDenied(t, a) : rlsViolation(t, a),
                                           detail: "POST \(short(.object(cand.sent))) with return=representation, a row the caller cannot SELECT",
                                           dependsOn: [.insert, .select], columnTypes: types(t))))
                }
            }
        }
        return out
    }

    /// Gives a candidate a fresh key and unique values in the columns the rule does not read;
    /// returns nil when a foreign key column would have to change and cannot.
    mutating func makeUnique(_ sent: [String: JSONValue], _ t: TableSchema, relevant: Set<String>, actor: RLSActor) -> Candidate? {
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
            // A foreign key column of the unique key: another parent value that does not collide.
            var fixed = false
            for c in free where fkCols.contains(c) {
                for v in candidates(t, c) where !v.isNull {
                    var trial = s
                    trial[c] = v
                    let r = RLSState.withDefaults(trial, t, now: now, uid: actor.userID)
                    if base.violation(r, in: t) == nil { s = trial; fixed = true; break }
                }
                if fixed { break }
            }
            if !fixed { break }
        }
        return Candidate(sent: s)
    }
}
