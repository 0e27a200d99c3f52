import Foundation

/// Simple views (`"view": {"from": …}` in schema.json) as PostgreSQL runs them: reads show the
/// base table's rows that pass the view's WHERE, projected to the view's columns; INSERT, UPDATE
/// and DELETE go to the base table (an automatically updatable view: one base table, plain
/// columns). A `security_invoker` view applies the caller's RLS on the base table; any other view
/// runs with its owner's rights, which bypass RLS (PostgreSQL docs "CREATE VIEW", Updatable Views
/// and `security_invoker`).
extension DatabaseEngine {
    /// The role the base table is used with.
    func viewActor(_ def: SimpleViewDefinition, _ auth: AuthContext) -> AuthContext {
        def.securityInvoker ? auth : .serviceRole
    }

    /// Base column index of each view column.
    func viewProjection(_ view: TableSchema, _ base: Table) -> [Int] {
        view.columns.map { base.colIndex[$0.name]! }
    }

    /// Whether a base row is one the view shows (its WHERE is true).
    func viewShows(_ def: SimpleViewDefinition, _ base: Table) -> ([SQLValue]) -> Bool {
        guard let e = def.filter else { return { _ in true } }
        return { row in self.evalCheck(e, base, row) == true }
    }

    /// The view's rows for a caller, as a table of the view's shape (nil when `name` is not a
    /// simple view).
    func simpleViewTable(_ name: String, _ auth: AuthContext) throws -> Table? {
        guard let view = tables[qualified(name)], let def = view.schema.simpleView else { return nil }
        let base = try table(def.base)
        let actor = viewActor(def, auth)
        try checkGrant(base, .select, actor)
        let rls = try policyTest(base, .select, actor)
        let shows = viewShows(def, base)
        let proj = viewProjection(view.schema, base)
        let rows = base.rows.filter { rls($0) && shows($0) }.map { r in proj.map { r[$0] } }
        return Table(schema: view.schema, colIndex: view.colIndex, rows: rows)
    }

    /// PGRST204 for a written column the view does not show.
    func checkViewColumns(_ names: [String], _ view: Table) throws {
        for k in names where view.colIndex[k] == nil {
            throw PostgresError("PGRST204", "Could not find the '\(k)' column of '\(view.schema.name)' in the schema cache")
        }
    }

    /// INSERT through a simple view: the base table's defaults fill what the view does not name.
    func insertThroughView(_ view: Table, _ def: SimpleViewDefinition, rows input: [[String: JSONValue]], columns: [String]?,
                           missingAsDefault: Bool, auth: AuthContext, resolution: ConflictResolution, onConflict: [String]?,
                           returning: Bool) throws -> [[SQLValue]] {
        try checkViewColumns(columns ?? Array(Set(input.flatMap(\.keys))), view)
        if let onConflict { try checkViewColumns(onConflict, view) }
        let written = try insert(into: def.base, rows: input, columns: columns, missingAsDefault: missingAsDefault, as: viewActor(def, auth),
                                 resolution: resolution, onConflict: onConflict, returning: returning)
        let proj = viewProjection(view.schema, try table(def.base))
        return written.map { r in proj.map { r[$0] } }
    }
}
