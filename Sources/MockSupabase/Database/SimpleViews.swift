import Foundation

/// Simple views (`"view": {"from": …}` in schema.json) as PostgreSQL runs them: reads show the
/// base table's rows that pass the view's WHERE, projected to the view's columns; INSERT, UPDATE
/// and DELETE go to the base table (an automatically updatable view: one base table, plain
/// columns). A `security_invoker` view applies the caller's RLS on the base table; any other view
/// runs with its owner's rights, which bypass RLS (PostgreSQL docs "CREATE VIEW", Updatable Views
/// and `security_invoker`).
extension DatabaseEngine {
    /// A simple view as it runs: its definitions from the view itself down (a view may read a
    /// view), and the table at the bottom, whose rows every level filters and projects by
    /// column name (simple views keep their base's column names).
    struct ViewChain {
        var view: Table
        var defs: [SimpleViewDefinition]
        var names: [String]
        var base: Table

        /// The role the base table is used with: the caller while every view is
        /// `security_invoker`; the owner (who bypasses RLS) from the first view that is not.
        func actor(_ auth: AuthContext) -> AuthContext { defs.allSatisfy(\.securityInvoker) ? auth : .serviceRole }
    }

    /// 55000 for a write to a view PostgreSQL cannot update (view.c `view_query_is_auto_updatable`).
    func refuseGroupedView(_ t: TableSchema, _ verb: String, _ event: String) throws {
        guard let def = t.simpleView, !def.isUpdatable else { return }
        throw PostgresError(
            "55000", "cannot \(verb) view \"\(t.name)\"",
            details: def.groupBy != nil
                ? "Views containing GROUP BY are not automatically updatable." : "Views that return aggregate functions are not automatically updatable.",
            hint:
                "To enable \(event == "DELETE" ? "deleting from" : event == "INSERT" ? "inserting into" : "updating") the view, provide an INSTEAD OF \(event) trigger or an unconditional ON \(event) DO INSTEAD rule."
        )
    }

    func viewChain(_ view: Table) throws -> ViewChain? {
        guard let (views, root) = schema.viewChain(view.schema) else { return nil }
        return ViewChain(view: view, defs: views.map { $0.simpleView! }, names: views.map(\.name), base: try table(root.qualifiedName))
    }

    /// Base column index of each view column (a renamed column followed to the column it shows).
    func viewProjection(_ view: TableSchema, _ base: Table) -> [Int] {
        view.columns.map { c in schema.rootColumn(c.name, of: view).flatMap { base.colIndex[$0] } ?? 0 }
    }

    /// A grouped view's rows from the base rows it reads (after its WHERE): one per group, in the
    /// order groups first appear, each column the group's value or its count.
    func groupedRows(_ def: SimpleViewDefinition, _ view: TableSchema, _ base: Table, _ rows: [[SQLValue]]) -> [[SQLValue]] {
        let keyIdx = (def.groupBy ?? []).compactMap { schema.rootColumn($0, of: view).flatMap { base.colIndex[$0] } }
        var order: [[SQLValue]] = []
        var groups: [[SQLValue]: [[SQLValue]]] = [:]
        for r in rows {
            let k = keyIdx.map { r[$0] }
            if groups[k] == nil { order.append(k) }
            groups[k, default: []].append(r)
        }
        // Without GROUP BY an aggregate gives one row, even over no rows.
        if keyIdx.isEmpty && order.isEmpty { order = [[]] }
        return order.map { k in
            let members = groups[k] ?? []
            return view.columns.map { c -> SQLValue in
                if let counted = def.counts[c.name] {
                    guard counted != "*", let i = base.colIndex[counted] else { return .int(Int64(members.count)) }
                    return .int(Int64(members.filter { !$0[i].isNull }.count))
                }
                return schema.rootColumn(c.name, of: view).flatMap { base.colIndex[$0] }.map { members.first?[$0] ?? .null } ?? .null
            }
        }
    }

    /// View column names to the base table's, for writes and filters a view passes down; empty
    /// when the view renames nothing on the way down.
    func viewRenames(_ view: TableSchema) -> [String: String] {
        var out: [String: String] = [:]
        for c in view.columns { if let root = schema.rootColumn(c.name, of: view), root != c.name { out[c.name] = root } }
        return out
    }

    /// Whether a base row is one the view shows (every level's WHERE is true).
    func viewShows(_ chain: ViewChain) -> ([SQLValue]) -> Bool {
        let filters = chain.defs.compactMap(\.filter)
        guard !filters.isEmpty else { return { _ in true } }
        return { row in filters.allSatisfy { self.evalCheck($0, chain.base, row) == true } }
    }

    /// `WITH CHECK OPTION` on written base rows (rewriteHandler.c adds one check per view): a
    /// view's own condition is checked when it has the option or a view above it has
    /// `CASCADED`; 44000 `new row violates check option for view "v"` with the base row. The
    /// innermost failing view is named (PostgreSQL checks the deepest view's condition first).
    func checkViewOptions(_ chain: ViewChain, _ rows: [[SQLValue]]) throws {
        var cascaded = false
        var checked: [(Expr, String)] = []
        for (def, name) in zip(chain.defs, chain.names) {
            if def.checkOption == .cascaded { cascaded = true }
            if def.checkOption != nil || cascaded, let e = def.filter { checked.append((e, name)) }
        }
        for row in rows {
            for (e, name) in checked.reversed() where evalCheck(e, chain.base, row) != true {
                throw PostgresError("44000", "new row violates check option for view \"\(name)\"", details: failingRow(chain.base, row))
            }
        }
    }

    /// The view's rows for a caller, as a table of the view's shape (nil when `name` is not a
    /// simple view).
    func simpleViewTable(_ name: String, _ auth: AuthContext) throws -> Table? {
        guard let view = tables[qualified(name)], let chain = try viewChain(view) else { return nil }
        let actor = chain.actor(auth)
        try checkGrant(chain.base, .select, actor)
        let rls = try policyTest(chain.base, .select, actor)
        let shows = viewShows(chain)
        let shown = chain.base.rows.filter { rls($0) && shows($0) }
        if let def = view.schema.simpleView, !def.isUpdatable {
            return Table(schema: view.schema, colIndex: view.colIndex, rows: groupedRows(def, view.schema, chain.base, shown))
        }
        let proj = viewProjection(view.schema, chain.base)
        return Table(schema: view.schema, colIndex: view.colIndex, rows: shown.map { r in proj.map { r[$0] } })
    }

    /// PGRST204 for a written column the view does not show.
    func checkViewColumns(_ names: [String], _ view: Table) throws {
        for k in names where view.colIndex[k] == nil {
            throw PostgresError("PGRST204", "Could not find the '\(k)' column of '\(view.schema.name)' in the schema cache")
        }
    }

    /// INSERT through a simple view: the base table's defaults fill what the view does not name.
    func insertThroughView(
        _ view: Table, _ def: SimpleViewDefinition, rows input: [[String: JSONValue]], columns: [String]?,
        missingAsDefault: Bool, auth: AuthContext, resolution: ConflictResolution, onConflict: [String]?,
        returning: Bool
    ) throws -> [[SQLValue]] {
        try checkViewColumns(columns ?? Array(Set(input.flatMap(\.keys))), view)
        if let onConflict { try checkViewColumns(onConflict, view) }
        guard let chain = try viewChain(view) else { return [] }
        var (input, columns) = (input, columns)
        try applyViewDefaults(view, rows: &input, columns: &columns, missingAsDefault: missingAsDefault, auth: auth)
        // A renamed view column writes the base column it shows (PostgreSQL's rewriter).
        let ren = viewRenames(view.schema)
        let base = { (k: String) in ren[k] ?? k }
        let rows = ren.isEmpty ? input : input.map { Dictionary($0.map { (base($0.key), $0.value) }, uniquingKeysWith: { a, _ in a }) }
        let written = try insert(
            into: chain.base.schema.qualifiedName, rows: rows, columns: columns?.map(base), missingAsDefault: missingAsDefault, as: chain.actor(auth),
            resolution: resolution, onConflict: onConflict?.map(base), returning: returning,
            checkOption: { try self.checkViewOptions(chain, $0) })
        let proj = viewProjection(view.schema, try table(chain.base.schema.qualifiedName))
        return written.map { r in proj.map { r[$0] } }
    }
}

extension DatabaseEngine {
    /// A view column's own default (`ALTER VIEW v ALTER COLUMN c SET DEFAULT …`) fills what an
    /// INSERT through the view leaves out, before the base's defaults: PostgreSQL's rewriter adds
    /// it to the target list of an automatically updatable view (rewriteHandler.c
    /// `rewriteTargetListIU` on the view, then `rewriteTargetView`). An omitted column takes it;
    /// a listed one a row lacks takes it with `missing=default` (PostgREST reads the view
    /// column's default from the catalog), NULL otherwise.
    func applyViewDefaults(
        _ view: Table, rows: inout [[String: JSONValue]], columns: inout [String]?, missingAsDefault: Bool, auth: AuthContext
    ) throws {
        let defaulted = view.schema.columns.filter { $0.defaultValue != nil }
        guard !defaulted.isEmpty else { return }
        let listed = columns ?? Array(Set(rows.flatMap(\.keys)))
        var added: [String] = []
        for c in defaulted where !listed.contains(c.name) || missingAsDefault {
            let value = try defaultValue(c, auth, table: view.schema.qualifiedName).json(as: c.type)
            for i in rows.indices where rows[i][c.name] == nil { rows[i][c.name] = value }
            if !listed.contains(c.name) { added.append(c.name) }
        }
        if !added.isEmpty { columns = listed + added }
    }
}

extension RowFilter {
    /// The same filter over renamed columns (`col` or the column of a JSON path `col->a`).
    func renamingColumns(_ map: [String: String]) -> RowFilter {
        guard !map.isEmpty else { return self }
        switch self {
        case .condition(let column, let op, let value, let negated):
            let head = column.utf8.contains(0x3E) ? JSONPath.split(column)?.0 ?? column : column
            guard let to = map[head] else { return self }
            return .condition(column: to + String(column.dropFirst(head.count)), op: op, value: value, negated: negated)
        case .and(let fs): return .and(fs.map { $0.renamingColumns(map) })
        case .or(let fs): return .or(fs.map { $0.renamingColumns(map) })
        case .not(let f): return .not(f.renamingColumns(map))
        }
    }
}
