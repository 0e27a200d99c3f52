import Foundation

/// When a trigger fires relative to the row change.
package enum TriggerTiming: Sendable { case before, after }

/// Which change fires a trigger.
package enum TriggerEvent: String, Sendable { case insert = "INSERT", update = "UPDATE", delete = "DELETE" }

/// What a trigger sees and may change.
package struct TriggerContext {
    package let table: String
    /// INSERT, UPDATE or DELETE.
    package let event: TriggerEvent
    /// BEFORE or AFTER.
    package let timing: TriggerTiming
    /// OLD (UPDATE, DELETE), as PostgREST would print it.
    package let old: [String: JSONValue]?
    /// NEW (INSERT, UPDATE); a BEFORE trigger may change it.
    package var new: [String: JSONValue]?
    /// The role and claims of the statement (`auth.uid()` inside the trigger).
    package let auth: AuthContext
    /// The database, for side effects (runs as the definer: RLS bypassed).
    package let database: Database
    /// The clock's time of the statement.
    package let now: Date
}

/// A trigger body. Throw a `PostgresError` to abort the statement (all its changes undone).
package typealias TriggerHandler = (inout TriggerContext) throws -> Void

/// Rows of a read-only view the app computes (e.g. a leaderboard).
package typealias ViewProvider = (Database, AuthContext) throws -> [[String: JSONValue]]

/// The state and statements of the in-memory database: tables, constraints as PostgreSQL enforces
/// them, row-level security from the app's policies, triggers, and statement atomicity.
///
/// Not thread-safe by itself, and not reachable without the lock: the only reference is held by
/// `Database`, which hands it out inside `Guarded.withReentrantLock` (see `Guarded` for the
/// discipline). Every method here therefore runs under the database lock.
final class DatabaseEngine {
    package let schema: DatabaseSchema
    /// The clock (`now()`).
    package let clock: WallClock
    /// The id source (`gen_random_uuid()`).
    package let ids: IDGenerator

    /// A table's storage. A reference type so statements mutate in place; `atomically` snapshots
    /// by cloning (the row arrays are shared copy-on-write, so a statement copies a table at most
    /// once, on its first change).
    final class Table {
        let schema: TableSchema
        let colIndex: [String: Int]
        var rows: [[SQLValue]]
        /// Hash indexes of unique keys (column list → key → row index), rebuilt lazily after
        /// any change other than an append.
        var keyIndexes: [[Int]: [[SQLValue]: Int]] = [:]

        init(schema: TableSchema, colIndex: [String: Int], rows: [[SQLValue]]) {
            self.schema = schema
            self.colIndex = colIndex
            self.rows = rows
        }

        /// This table as the running statement began (its copy for rollback), while a statement
        /// runs: an index built here while the rows are still the ones it holds is handed to it
        /// too, so a statement that is undone does not throw the index away with it.
        var statementTwin: Table?

        /// The index of a unique key, built on first use.
        func index(_ cols: [Int]) -> [[SQLValue]: Int] {
            if let ix = keyIndexes[cols] { return ix }
            var ix: [[SQLValue]: Int] = [:]
            ix.reserveCapacity(rows.count)
            for (n, r) in rows.enumerated() {
                let key = cols.map { r[$0] }
                if !key.contains(where: \.isNull) { ix[key] = n }
            }
            keyIndexes[cols] = ix
            if let twin = statementTwin, twin.keyIndexes[cols] == nil, twin.sharesRows(with: self) { twin.keyIndexes[cols] = ix }
            return ix
        }

        /// Whether both tables hold the very same row storage (so the same rows, unchanged).
        func sharesRows(with other: Table) -> Bool {
            rows.count == other.rows.count
                && rows.withUnsafeBufferPointer { a in other.rows.withUnsafeBufferPointer { b in a.baseAddress == b.baseAddress } }
        }

        func invalidate() { keyIndexes = [:] }

        func clone() -> Table {
            let t = Table(schema: schema, colIndex: colIndex, rows: rows)
            t.keyIndexes = keyIndexes
            return t
        }

        func append(_ row: [SQLValue]) {
            let n = rows.count
            rows.append(row)
            for cols in Array(keyIndexes.keys) {
                let key = cols.map { row[$0] }
                if !key.contains(where: \.isNull) { keyIndexes[cols]![key] = n }
            }
        }
    }

    struct Trigger {
        let timing: TriggerTiming
        let events: Set<TriggerEvent>
        let name: String
        let handler: TriggerHandler
    }

    /// The public face whose lock guards this engine: triggers and view providers receive it and
    /// re-enter through it.
    weak var owner: Database?
    var tables: [String: Table] = [:]
    var triggers: [String: [Trigger]] = [:]
    var views: [String: (columns: [ColumnSchema], provider: ViewProvider)] = [:]
    private var depth = 0
    var triggersEnabled = true
    /// AFTER ROW triggers of the statements under way, innermost last: PostgreSQL queues them and
    /// fires them when their statement ends, in the order the rows were changed (trigger.c
    /// `AfterTriggerEndQuery`), so they see every row the statement wrote.
    var afterTriggerQueues: [[() throws -> Void]] = []
    /// Listeners of committed row changes (`Database.addChangeListener`), and the changes of the
    /// statement running now, handed to them when it commits.
    var changeListeners: [@Sendable ([RowChange]) -> Void] = []
    var pendingChanges: [RowChange] = []
    /// Identity and serial sequences by `schema.table.column`: the last value handed out. Like
    /// PostgreSQL's sequences they are not rolled back with a failed statement.
    var sequences: [String: Int64] = [:]
    /// Set while fixtures load: explicit values go into `GENERATED ALWAYS` columns.
    var overridingSystemValue = false
    /// Set while a fixture load is recorded (`Database.recordingSeed`): what it took from the id
    /// generator and sequences, and what it committed.
    var seedRecorder: SeedRecorder?
    private var policiesStorage: PolicySet {
        didSet { policiesByTable = Self.index(policiesStorage) }
    }
    /// `policiesStorage.table(name)` by hash (the first entry of a name, as `table(_:)` finds it):
    /// asked twice per statement.
    private var policiesByTable: [String: TablePolicies]

    private static func index(_ p: PolicySet) -> [String: TablePolicies] {
        Dictionary(p.tables.map { ($0.table, $0) }, uniquingKeysWith: { first, _ in first })
    }
    /// Bumped whenever the policies change, so compiled tests of older policies are never reused.
    private var policyGeneration = 0
    /// Compiled row tests of lookup-free policies, shared by this engine and every snapshot of it
    /// (a leaf lock: snapshots are read by many threads at once).
    let policyCache: Guarded<[PolicyCacheKey: ([SQLValue]) -> Bool]>
    /// Open `Database` write sections (all on the thread holding the lock); the state is published
    /// for readers when the outermost one ends.
    var writeDepth = 0
    /// Whether this engine is a published snapshot, read by many threads at once: nothing may
    /// fill a cache of its tables (indexes are used when already built, never built here).
    let isSnapshot: Bool

    struct PolicyCacheKey: Hashable {
        let generation: Int
        let schema: String
        let table: String
        let command: PolicyCommand
        let check: Bool
        let role: String
        let sub: String
    }

    /// Whether an expression reads JWT claims other than `sub` and `role` (the cache key).
    func usesClaimsBeyondSubAndRole(_ e: Expr) -> Bool {
        func op(_ o: Expr.Operand) -> Bool { if case .claim(let c) = o { return c != "sub" && c != "role" }; return false }
        switch e {
        case .compare(_, let a, let b): return op(a) || op(b)
        case .inList(let a, _), .isNull(let a, _): return op(a)
        case .any(let xs), .all(let xs): return xs.contains(where: usesClaimsBeyondSubAndRole)
        case .not(let x): return usesClaimsBeyondSubAndRole(x)
        case .ref(let r): return policiesStorage.definitions[r].map(usesClaimsBeyondSubAndRole) ?? false
        case .exists: return true
        default: return false
        }
    }

    /// The RLS policies in force. Setting them (e.g. to flip one matrix cell) recompiles.
    var policies: PolicySet {
        get { policiesStorage }
        set {
            policiesStorage = newValue
            policyGeneration += 1
            policyCache.withLock { $0 = [:] }
        }
    }

    init(schema: DatabaseSchema, policies: PolicySet, clock: WallClock, ids: IDGenerator) {
        self.schema = schema
        self.policiesStorage = policies
        self.policiesByTable = Self.index(policies)
        self.clock = clock
        self.ids = ids
        self.policyCache = Guarded([:])
        self.isSnapshot = false
        for t in schema.tables {
            tables[t.qualifiedName] = Table(schema: t, colIndex: Dictionary(uniqueKeysWithValues: t.columns.enumerated().map { ($1.name, $0) }), rows: [])
        }
    }

    /// A copy of `live`'s committed state for readers: its tables (cloned; the row arrays are
    /// shared copy-on-write, so the next write copies a table at most once), views and policies.
    /// Nothing changes it afterwards, so any number of threads read it at once without a lock.
    init(snapshotOf live: DatabaseEngine) {
        schema = live.schema
        clock = live.clock
        ids = live.ids
        policiesStorage = live.policiesStorage
        policiesByTable = live.policiesByTable
        policyGeneration = live.policyGeneration
        policyCache = live.policyCache
        isSnapshot = true
        views = live.views
        tables = live.tables.mapValues { $0.clone() }
    }

    // MARK: Registration

    /// Registers a row trigger on a table (`profiles`, `auth.users`).
    func registerTrigger(_ name: String, on table: String, timing: TriggerTiming, events: Set<TriggerEvent>, handler: @escaping TriggerHandler) {
        let key = qualified(table)
        triggers[key, default: []].append(Trigger(timing: timing, events: events, name: name, handler: handler))
        triggers[key]!.sort { $0.name < $1.name } // PostgreSQL fires same-timing triggers in name order
    }

    /// Registers a read-only view computed by the app; it must be declared in schema.json with `"view": true`.
    func registerView(_ name: String, provider: @escaping ViewProvider) {
        guard let t = schema.table(name) else { return }
        views[t.qualifiedName] = (t.columns, provider)
    }

    func qualified(_ name: String) -> String {
        name.utf8.contains(0x2E) ? name : "\(schema.apiSchema).\(name)"
    }

    func table(_ name: String) throws -> Table {
        guard let t = tables[qualified(name)] else {
            throw PostgresError("42P01", "relation \"\(name)\" does not exist")
        }
        return t
    }

    /// The schema of a table (`public` unless qualified), by hash lookup.
    func tableSchema(_ name: String) -> TableSchema? {
        return tables[qualified(name)]?.schema
    }

    // MARK: Statements

    /// Runs `body` as one statement: on error every change it made is undone.
    func atomically<T>(_ body: () throws -> T) throws -> T {
        if depth > 0 {
            depth += 1; defer { depth -= 1 }
            return try body()
        }
        let snapshot = tables.mapValues { $0.clone() }
        let began = tables
        for (k, twin) in snapshot { if let live = began[k] { live.statementTwin = twin } }
        depth = 1
        defer {
            depth = 0
            for t in began.values { t.statementTwin = nil }
        }
        do {
            let result = try body()
            if !pendingChanges.isEmpty {
                let committed = pendingChanges
                pendingChanges = []
                for listener in changeListeners { listener(committed) }
                seedRecorder?.batches.append(committed)
            }
            return result
        } catch {
            tables = snapshot
            pendingChanges = []
            throw error
        }
    }

    /// Loads rows without triggers or RLS (fixtures), as `session_replication_role = replica` does;
    /// constraints still apply. `texts` gives, per row, the text a `json` column stores (as a
    /// dump's `'…'` literal does); without it a json column stores the jsonb text.
    /// `clockColumns`: see `Database.seed`.
    func seed(_ table: String, rows: [JSONValue], texts: [[String: String]]? = nil, clockColumns: [String] = []) throws {
        try atomically {
            let was = triggersEnabled
            triggersEnabled = false
            defer { triggersEnabled = was }
            overridingSystemValue = true
            defer { overridingSystemValue = false }
            _ = try insert(
                into: table,
                rows: rows.map { r in
                    guard case .object(let o) = r else { throw PostgresError("PGRST102", "Empty or invalid json") }
                    return o
                }, texts: texts, as: .serviceRole)
            let t = try self.table(table)
            if let recorder = seedRecorder, !clockColumns.isEmpty {
                // The rows just loaded are the table's last ones (a seed only appends).
                for n in t.rows.count - rows.count..<t.rows.count {
                    for name in clockColumns {
                        guard let i = t.colIndex[name] else { continue }
                        recorder.noteClockCell(t.schema, row: n, column: i, kind: .timestamptzText)
                    }
                }
            }
            // Fixtures load as a dump does: `OVERRIDING SYSTEM VALUE`, then each sequence set
            // past the largest value loaded (`setval`), so later inserts get fresh keys.
            for (i, c) in t.schema.columns.enumerated() where c.defaultValue?.isSequence == true {
                let top: Int64 =
                    t.rows.compactMap { r -> Int64? in
                        if case .int(let n) = r[i] { return Int64(n) }; return nil
                    }.max() ?? 0
                let key = t.schema.qualifiedName + "." + c.name
                sequences[key] = max(sequences[key] ?? 0, top)
                seedRecorder?.sequenceTops.append((key, top))
            }
        }
    }

    /// Removes every row of every table.
    func truncateAll() {
        for k in tables.keys { tables[k]!.rows = []; tables[k]!.invalidate() }
    }

    /// Total rows in a table, ignoring RLS (for reports and tests).
    func count(_ table: String) -> Int {
        // A simple view's count is its base table's: an insert through it grows the base.
        if let t = tables[qualified(table)], let root = schema.viewChain(t.schema)?.base { return count(root.qualifiedName) }
        return tables[qualified(table)]?.rows.count ?? 0
    }

    // MARK: SELECT

    typealias ResultSet = Database.ResultSet

    /// SELECT with RLS: rows the role may see, filtered, ordered and paged.
    func select(
        from table: String, as auth: AuthContext, where filter: RowFilter? = nil,
        order: [OrderTerm] = [], limit: Int? = nil, offset: Int = 0, count: Bool = false
    ) throws -> ResultSet {
        let key = qualified(table)
        if let view = views[key] {
            return try selectView(
                table, view.columns, try view.provider(owner!, auth), filter: filter, order: order, limit: limit, offset: offset, count: count)
        }
        // `key` is qualified, so the lookups below do not build it again.
        let view = try simpleViewTable(key, auth)
        let t = try view ?? tables[key] ?? self.table(table)
        if view == nil { try checkGrant(t, .select, auth) }
        let f = try CompiledFilter.compile(filter, table: t.schema, colIndex: t.colIndex)
        // A view has no policies of its own: its base table's applied when it was read.
        let rls = view == nil ? try policyTest(t, .select, auth) : { _ in true }
        var out: [[SQLValue]] = []
        // The request filter runs first (cheaper and usually more selective); the result is the same.
        // Unordered and uncounted, the scan stops once the page is full (as PostgreSQL's Limit
        // node stops its scan): a `limit=1` read costs one visible row, not the whole table.
        let stopAt = order.isEmpty && !count ? limit.map { max(offset, 0) + max($0, 0) } : nil
        if stopAt != 0 {
            if view == nil, let n = keyCandidate(t, filter) {
                // The primary key pinned: at most one row can match (an index scan).
                if let n, f.test(t.rows[n]) && rls(t.rows[n]) { out.append(t.rows[n]) }
            } else {
                // Rows are read in place (no copy, hence no retain, per row tested).
                t.rows.withUnsafeBufferPointer { rows in
                    for n in rows.indices where f.test(rows[n]) && rls(rows[n]) {
                        out.append(rows[n])
                        if let stopAt, out.count >= stopAt { break }
                    }
                }
            }
        }
        if !order.isEmpty { out = try sort(out, order, t) }
        return page(out, t.schema.columns, limit: limit, offset: offset, count: count)
    }

    /// The `offset`/`limit` page of ordered rows, with the count of them all when asked.
    private func page(_ rows: [[SQLValue]], _ columns: [ColumnSchema], limit: Int?, offset: Int, count: Bool) -> ResultSet {
        let start = min(max(offset, 0), rows.count)
        let end = limit.map { start + min(max($0, 0), rows.count - start) } ?? rows.count
        let paged = start != 0 || end != rows.count ? Array(rows[start..<end]) : rows
        return ResultSet(columns: columns, rows: paged, total: count ? rows.count : nil)
    }

    private func selectView(
        _ name: String, _ columns: [ColumnSchema], _ objects: [[String: JSONValue]], filter: RowFilter?, order: [OrderTerm], limit: Int?, offset: Int,
        count: Bool
    ) throws -> ResultSet {
        let ts = schema.table(name)!
        let idx = Dictionary(uniqueKeysWithValues: columns.enumerated().map { ($1.name, $0) })
        var rows = try objects.map { o in try columns.map { c in try SQLValue.coerce(json: o[c.name] ?? .null, to: c.type) } }
        let f = try CompiledFilter.compile(filter, table: ts, colIndex: idx)
        rows = rows.filter(f.test)
        if !order.isEmpty { rows = try sort(rows, order, Table(schema: ts, colIndex: idx, rows: [])) }
        return page(rows, columns, limit: limit, offset: offset, count: count)
    }

    /// `ORDER BY` a `json` value (the column or `->` on it): json has no btree operator class.
    static let noJSONOrdering = PostgresError(
        "42883", "could not identify an ordering operator for type json", hint: "Use an explicit ordering operator or modify the query.")

    /// One ORDER BY term resolved against a table: the column, its type (the path's for `->`),
    /// the direction, where NULLs go, and the JSON path when ordering by one.
    struct SortKey {
        let column: Int
        let type: SQLType
        let descending: Bool
        let nullsFirst: Bool
        let path: JSONPath?
    }

    /// A key's values as strings (nil: NULL) when every one is text compared bytewise (not an
    /// enum's, which orders by its labels); nil otherwise.
    static func texts(_ cells: [SQLValue], _ k: SortKey) -> [String?]? {
        if case .enumeration = k.type { return nil }
        var out: [String?] = []
        out.reserveCapacity(cells.count)
        for c in cells {
            switch c {
            case .text(let s): out.append(s)
            case .null: out.append(nil)
            default: return nil
            }
        }
        return out
    }

    func sort(_ rows: [[SQLValue]], _ order: [OrderTerm], _ t: Table) throws -> [[SQLValue]] {
        let keys = try order.map { term -> SortKey in
            if t.colIndex[term.column] == nil, let (base, path) = JSONPath.split(term.column) {
                // `order=col->a->>b`: ordered by the path's value (jsonb order for `->`, text for `->>`).
                guard let i = t.colIndex[base] else { throw CompiledFilter.unknownColumn(base, t.schema) }
                if t.schema.columns[i].type == .json, !path.steps.last!.asText { throw Self.noJSONOrdering }
                return SortKey(
                    column: i, type: path.steps.last!.asText ? .text : .jsonb, descending: term.descending,
                    nullsFirst: term.nullsFirst ?? term.descending, path: try path.validated())
            }
            guard let i = t.colIndex[term.column] else { throw CompiledFilter.unknownColumn(term.column, t.schema) }
            if t.schema.columns[i].type == .json { throw Self.noJSONOrdering }
            return SortKey(column: i, type: t.schema.columns[i].type, descending: term.descending, nullsFirst: term.nullsFirst ?? term.descending, path: nil)
        }
        if rows.count < 2 { return rows }
        func cell(_ row: [SQLValue], _ k: SortKey) -> SQLValue {
            guard let path = k.path else { return row[k.column] }
            let v = path.evaluate(row[k.column], type: t.schema.columns[k.column].type).value
            if case .json(let j) = v, j.isNull { return .null }
            return v
        }
        // Each row's ordering values, taken once (a path evaluated once per row, not per
        // comparison); the comparisons then sort row numbers.
        let cells = keys.map { k in rows.map { cell($0, k) } }
        if keys.count == 1, let texts = Self.texts(cells[0], keys[0]) {
            // One text key (a uuid or text primary key, the usual `order`): its strings compared
            // as `SQLValue.compare` compares them, without going through the enum.
            let k = keys[0]
            func less(_ a: Int, _ b: Int) -> Bool {
                guard let x = texts[a] else { return texts[b] == nil ? a < b : k.nullsFirst }
                guard let y = texts[b] else { return !k.nullsFirst }
                if x == y { return a < b }
                return (SQLValue.bytewise(x, y) < 0) != k.descending
            }
            // Rows already in this order (a table read by its key, loaded and written in key
            // order, as the live runs' restores read every table) come back as they are: one
            // pass, not a sort. Equal keys keep their order either way.
            var ordered = true
            for i in 1..<rows.count where less(i, i - 1) {
                ordered = false
                break
            }
            if ordered { return rows }
            return rows.indices.sorted(by: less).map { rows[$0] }
        }
        // Stable: insertion (heap) order among equals, as a sequential scan would.
        return rows.indices.sorted { a, b in
            for n in keys.indices {
                let k = keys[n], x = cells[n][a], y = cells[n][b]
                if x.isNull && y.isNull { continue }
                if x.isNull { return k.nullsFirst }
                if y.isNull { return !k.nullsFirst }
                let c: Int
                if case .json(let p) = x, case .json(let q) = y, k.type == .jsonb || k.type == .json {
                    c = JSONBOrder.compare(p, q)
                } else {
                    c = SQLValue.compare(x, y, type: k.type) ?? 0
                }
                if c != 0 { return k.descending ? c > 0 : c < 0 }
            }
            return a < b
        }.map { rows[$0] }
    }

    // MARK: INSERT

    typealias ConflictResolution = Database.ConflictResolution

    /// INSERT with RLS, defaults, triggers and constraints. Returns the rows written.
    ///
    /// - Parameters:
    ///   - columns: the column list (`columns=` or the union of the body's keys); columns not listed
    ///     take their defaults. Keys present in a row but absent from `columns` are ignored.
    ///   - missingAsDefault: `Prefer: missing=default` — a listed column a row lacks takes its
    ///     default instead of NULL.
    ///   - onConflict: the unique key for upserts (primary key when nil).
    ///   - returning: whether the rows are returned (RETURNING needs SELECT visibility).
    ///   - texts: per row, each member's text in the request body (`PGJSONText.bodyMembers`),
    ///     which a `json` column keeps.
    func insert(
        into table: String, rows input: [[String: JSONValue]], texts: [[String: String]]? = nil, columns: [String]? = nil,
        missingAsDefault: Bool = true, as auth: AuthContext,
        resolution: ConflictResolution = .error, onConflict: [String]? = nil,
        returning: Bool = false, checkOption: ([[SQLValue]]) throws -> Void = { _ in }
    ) throws -> [[SQLValue]] {
        try atomically {
            try statement {
                var t = try self.table(table)
                try refuseGroupedView(t.schema, "insert into", "INSERT")
                if let def = t.schema.simpleView {
                    return try insertThroughView(
                        t, def, rows: input, columns: columns, missingAsDefault: missingAsDefault, auth: auth,
                        resolution: resolution, onConflict: onConflict, returning: returning)
                }
                if views[t.schema.qualifiedName] != nil || t.schema.isView {
                    throw PostgresError(
                        "55000", "cannot insert into view \"\(t.schema.name)\"",
                        details: "Views that do not select from a single table or view are not automatically updatable.")
                }
                try checkGrant(t, .insert, auth)
                let cols = columns ?? Array(Set(input.flatMap(\.keys)))
                for c in cols where t.colIndex[c] == nil {
                    throw PostgresError("PGRST204", "Could not find the '\(c)' column of '\(t.schema.name)' in the schema cache")
                }
                try refuseGeneratedInsert(t, columns: cols)
                let listed = Set(cols)
                let conflictCols = onConflict ?? t.schema.primaryKey
                if resolution != .error {
                    let allKeys = [t.schema.primaryKey] + t.schema.uniques.map(\.columns)
                    guard allKeys.contains(where: { Set($0) == Set(conflictCols) }) else {
                        throw PostgresError("42P10", "there is no unique or exclusion constraint matching the ON CONFLICT specification")
                    }
                }
                let insertCheck = try policyTest(t, .insert, auth, check: true)
                let selectTest = try policyTest(t, .select, auth)
                var written: [[SQLValue]] = []
                // Foreign keys are checked when the statement's rows are all written, as PostgreSQL's
                // RI triggers do (unique keys are checked row by row).
                var pendingForeignKeys: [[SQLValue]] = []
                for (n, obj) in input.enumerated() {
                    let text = texts.flatMap { n < $0.count ? $0[n] : nil }
                    var row = [SQLValue](repeating: .null, count: t.schema.columns.count)
                    // While a load is recorded: the columns this row takes the clock's reading in.
                    var clockDefaults: [(Int, SeedClockCell.Kind)] = []
                    for (i, c) in t.schema.columns.enumerated() {
                        if listed.contains(c.name), let v = obj[c.name] {
                            if case .identity(always: true)? = c.defaultValue, !overridingSystemValue {
                                throw PostgresError(
                                    "428C9", "cannot insert a non-DEFAULT value into column \"\(c.name)\"",
                                    details: "Column \"\(c.name)\" is an identity column defined as GENERATED ALWAYS.",
                                    hint: "Use OVERRIDING SYSTEM VALUE to override.")
                            }
                            row[i] = try c.fitLength(SQLValue.coerce(json: v, to: c.type, text: text?[c.name]))
                        } else if listed.contains(c.name) && !missingAsDefault {
                            row[i] = .null
                            try c.domain?.check(.null)
                        } else {
                            row[i] = try defaultValue(c, auth, table: t.schema.qualifiedName)
                            if seedRecorder != nil, let kind = SeedClockCell.Kind(c.effectiveDefault) { clockDefaults.append((i, kind)) }
                            // A default is cast to the column's domain too (NULL included).
                            try c.domain?.check(row[i])
                        }
                    }
                    row = try computeGenerated(t, fire(.before, .insert, t, old: nil, new: row, auth) ?? row)
                    // Conflict handling (ON CONFLICT) before RLS/constraints of the insert path.
                    if resolution != .error, let existingIdx = findConflict(t, row, conflictCols) {
                        if resolution == .ignore { continue }
                        var merged = t.rows[existingIdx]
                        for (i, c) in t.schema.columns.enumerated() where listed.contains(c.name) && obj[c.name] != nil {
                            merged[i] = row[i]
                        }
                        let updated = try applyUpdate(&t, index: existingIdx, newRow: merged, auth: auth, readsRows: returning, upsert: true)
                        pendingForeignKeys.append(updated)
                        tables[t.schema.qualifiedName] = t
                        written.append(updated)
                        t = try self.table(table)
                        continue
                    }
                    if !insertCheck(row) || (returning && !selectTest(row)) {
                        throw rlsViolation(t.schema.name)
                    }
                    try checkConstraints(t, row)
                    try checkUnique(t, row, ignoring: nil)
                    pendingForeignKeys.append(row)
                    t.append(row)
                    for (i, kind) in clockDefaults { seedRecorder?.noteClockCell(t.schema, row: t.rows.count - 1, column: i, kind: kind) }
                    recordChange(.insert, t, old: nil, new: row)
                    tables[t.schema.qualifiedName] = t
                    _ = try fire(.after, .insert, t, old: nil, new: row, auth)
                    t = try self.table(table)
                    written.append(row)
                }
                // A view's WITH CHECK OPTION runs as each row is written (ExecInsert), foreign keys
                // at the statement's end (RI triggers): 44000 is reported before 23503.
                try checkOption(written)
                for row in pendingForeignKeys { try checkForeignKeys(try self.table(table), row) }
                return written
            }
        }
    }

    func findConflict(_ t: Table, _ row: [SQLValue], _ cols: [String]) -> Int? {
        let idx = cols.compactMap { t.colIndex[$0] }
        guard idx.count == cols.count else { return nil }
        let key = idx.map { row[$0] }
        if key.contains(where: \.isNull) { return nil }
        return t.rows.firstIndex { r in idx.map { r[$0] } == key }
    }

    func defaultValue(_ c: ColumnSchema, _ auth: AuthContext, table: String = "") throws -> SQLValue {
        guard let d = c.effectiveDefault else { return .null }
        switch d {
        case .identity, .serial:
            seedRecorder?.draws += 1
            let key = table + "." + c.name
            let next = (sequences[key] ?? 0) + 1
            sequences[key] = next
            return .int(next)
        case .value(let v): return try SQLValue.coerce(json: v, to: c.type)
        case .genRandomUUID:
            seedRecorder?.draws += 1
            return .text(ids.uuid())
        case .now:
            seedRecorder?.clockReads += 1
            return .timestamp(PGTime.micros(clock.now()))
        case .currentDate:
            seedRecorder?.clockReads += 1
            return .date(Int32(PGTime.micros(clock.now()) / PGTime.usPerDay))
        case .authUID: return auth.userID.map(SQLValue.text) ?? .null
        }
    }

    // MARK: UPDATE

    /// UPDATE with RLS: only rows visible to the role and allowed by the UPDATE policy are
    /// changed; a changed row that fails WITH CHECK aborts the statement with 42501.
    func update(
        _ table: String, set values: [String: JSONValue], texts: [String: String]? = nil, as auth: AuthContext,
        where filter: RowFilter? = nil, returning: Bool = false,
        limit: Int? = nil, restrict: (([SQLValue]) -> Bool)? = nil,
        checkOption: ([[SQLValue]]) throws -> Void = { _ in }
    ) throws -> [[SQLValue]] {
        try atomically {
            try statement {
                var t = try self.table(table)
                try refuseGroupedView(t.schema, "update", "UPDATE")
                if let chain = try viewChain(t) {
                    // UPDATE through a simple view: the base rows the view shows, by the view's columns.
                    try checkViewColumns(Array(values.keys), t)
                    _ = try CompiledFilter.compile(filter, table: t.schema, colIndex: t.colIndex)
                    let shows = viewShows(chain)
                    let proj = viewProjection(t.schema, chain.base)
                    let ren = viewRenames(t.schema)
                    let changed = try update(
                        chain.base.schema.qualifiedName, set: Dictionary(values.map { (ren[$0.key] ?? $0.key, $0.value) }, uniquingKeysWith: { a, _ in a }),
                        texts: texts.map { Dictionary($0.map { (ren[$0.key] ?? $0.key, $0.value) }, uniquingKeysWith: { a, _ in a }) },
                        as: chain.actor(auth), where: filter?.renamingColumns(ren), returning: returning, limit: limit,
                        restrict: { r in shows(r) && restrict?(proj.map { r[$0] }) != false },
                        checkOption: { try self.checkViewOptions(chain, $0) })
                    return changed.map { r in proj.map { r[$0] } }
                }
                if views[t.schema.qualifiedName] != nil || t.schema.isView {
                    throw PostgresError("55000", "cannot update view \"\(t.schema.name)\"")
                }
                try checkGrant(t, .update, auth)
                // PostgREST's unknown-column error first, then the rewriter's, then the values'.
                if values.keys.allSatisfy({ t.colIndex[$0] != nil }) { try refuseGeneratedUpdate(t, columns: Array(values.keys)) }
                var assignments: [(Int, SQLValue)] = []
                for (k, v) in values.sorted(by: { $0.key < $1.key }) {
                    guard let i = t.colIndex[k] else {
                        throw PostgresError("PGRST204", "Could not find the '\(k)' column of '\(t.schema.name)' in the schema cache")
                    }
                    let c = t.schema.columns[i]
                    assignments.append((i, try c.fitLength(SQLValue.coerce(json: v, to: c.type, text: texts?[k]))))
                }
                let f = try CompiledFilter.compile(filter, table: t.schema, colIndex: t.colIndex)
                let using = try policyTest(t, .update, auth)
                // SELECT policies apply when the statement reads rows (a WHERE or RETURNING clause),
                // to the existing rows and to the new ones.
                let readsRows = filter != nil || returning
                let visible = readsRows ? try policyTest(t, .select, auth) : { _ in true }
                var targets: [Int] = []
                let candidates: [Int]
                if let candidate = keyCandidate(t, filter) { candidates = candidate.map { [$0] } ?? [] } else { candidates = Array(t.rows.indices) }
                for i in candidates {
                    let row = t.rows[i]
                    if f.test(row) && using(row) && visible(row) && restrict?(row) != false { targets.append(i) }
                }
                if let limit { targets = Array(targets.prefix(limit)) }
                var out: [[SQLValue]] = []
                for i in targets {
                    t = try self.table(table)
                    guard i < t.rows.count else { continue }
                    var newRow = t.rows[i]
                    for (c, v) in assignments { newRow[c] = v }
                    out.append(try applyUpdate(&t, index: i, newRow: newRow, auth: auth, readsRows: readsRows, upsert: false))
                    tables[t.schema.qualifiedName] = t
                }
                try checkOption(out)
                for row in out { try checkForeignKeys(try self.table(table), row) }
                return out
            }
        }
    }

    /// Applies one row update: BEFORE triggers, WITH CHECK (and SELECT visibility of the new row
    /// when the statement reads rows), constraints, cascades, AFTER triggers. Foreign keys are
    /// left to the caller, which checks them once the statement's rows are written.
    func applyUpdate(_ t: inout Table, index i: Int, newRow proposed: [SQLValue], auth: AuthContext, readsRows: Bool, upsert: Bool) throws -> [SQLValue] {
        let old = t.rows[i]
        if upsert {
            let using = try policyTest(t, .update, auth)
            if !using(old) {
                throw PostgresError("42501", "new row violates row-level security policy (USING expression) for table \"\(t.schema.name)\"")
            }
        }
        var newRow = try fire(.before, .update, t, old: old, new: proposed, auth) ?? proposed
        t = try self.table(t.schema.qualifiedName)
        newRow = try computeGenerated(t, newRow)
        let check = try policyTest(t, .update, auth, check: true)
        if !check(newRow) { throw rlsViolation(t.schema.name) }
        if readsRows {
            // PostgreSQL adds the SELECT policies as WCO_RLS_UPDATE_CHECK for the new row (also on
            // the UPDATE path of ON CONFLICT): the plain WITH CHECK message, not "(USING expression)".
            let visible = try policyTest(t, .select, auth)
            if !visible(newRow) { throw rlsViolation(t.schema.name) }
        }
        try checkConstraints(t, newRow)
        try checkUnique(t, newRow, ignoring: i)
        t.rows[i] = newRow
        recordChange(.update, t, old: old, new: newRow)
        t.invalidate()
        tables[t.schema.qualifiedName] = t
        try cascadeUpdate(t, old: old, new: newRow)
        if let after = try fire(.after, .update, t, old: old, new: newRow, auth) { newRow = after }
        t = try self.table(t.schema.qualifiedName)
        return newRow
    }

    // MARK: DELETE

    /// DELETE with RLS: only rows visible and allowed by the DELETE policy are removed.
    func delete(
        from table: String, as auth: AuthContext, where filter: RowFilter? = nil, limit: Int? = nil, returning: Bool = false,
        restrict: (([SQLValue]) -> Bool)? = nil
    ) throws -> [[SQLValue]] {
        try atomically {
            try statement {
                let t = try self.table(table)
                try refuseGroupedView(t.schema, "delete from", "DELETE")
                if let chain = try viewChain(t) {
                    _ = try CompiledFilter.compile(filter, table: t.schema, colIndex: t.colIndex)
                    let shows = viewShows(chain)
                    let proj = viewProjection(t.schema, chain.base)
                    let removed = try delete(
                        from: chain.base.schema.qualifiedName, as: chain.actor(auth), where: filter?.renamingColumns(viewRenames(t.schema)), limit: limit,
                        returning: returning,
                        restrict: { r in shows(r) && restrict?(proj.map { r[$0] }) != false })
                    return removed.map { r in proj.map { r[$0] } }
                }
                if views[t.schema.qualifiedName] != nil || t.schema.isView {
                    throw PostgresError("55000", "cannot delete from view \"\(t.schema.name)\"")
                }
                try checkGrant(t, .delete, auth)
                let f = try CompiledFilter.compile(filter, table: t.schema, colIndex: t.colIndex)
                let using = try policyTest(t, .delete, auth)
                let visible = filter != nil || returning ? try policyTest(t, .select, auth) : { _ in true }
                let scanned: [[SQLValue]]
                if let candidate = keyCandidate(t, filter) { scanned = candidate.map { [t.rows[$0]] } ?? [] } else { scanned = t.rows }
                var victims = scanned.filter { f.test($0) && using($0) && visible($0) && restrict?($0) != false }
                if let limit { victims = Array(victims.prefix(limit)) }
                var out: [[SQLValue]] = []
                for row in victims {
                    if try deleteRow(t.schema.qualifiedName, row, auth) { out.append(row) }
                }
                return out
            }
        }
    }

    /// Deletes one row (by value), firing triggers and applying ON DELETE actions. Returns false
    /// when a BEFORE trigger cancelled it.
    @discardableResult
    func deleteRow(_ table: String, _ row: [SQLValue], _ auth: AuthContext) throws -> Bool {
        var t = try self.table(table)
        if triggersEnabled { _ = try fireNow(.before, .delete, t, old: row, new: nil, auth) }
        t = try self.table(table)
        guard let i = position(of: row, in: t) else { return false }
        t.rows.remove(at: i)
        recordChange(.delete, t, old: row, new: nil)
        t.invalidate()
        tables[t.schema.qualifiedName] = t
        try cascadeDelete(t, row, auth)
        _ = try fire(.after, .delete, t, old: row, new: nil, auth)
        return true
    }

    // MARK: Constraints

    func failingRow(_ t: Table, _ row: [SQLValue]) -> String {
        "Failing row contains (" + zip(t.schema.columns, row).map { c, v in v.pgText(as: c.type) }.joined(separator: ", ") + ")."
    }

    func checkConstraints(_ t: Table, _ row: [SQLValue]) throws {
        for (i, c) in t.schema.columns.enumerated() where !c.nullable && row[i].isNull {
            throw PostgresError(
                "23502", "null value in column \"\(c.name)\" of relation \"\(t.schema.name)\" violates not-null constraint", details: failingRow(t, row))
        }
        for c in t.schema.columns {
            guard let check = c.check else { continue }
            if evalCheck(check, t, row) == false {
                throw PostgresError(
                    "23514", "new row for relation \"\(t.schema.name)\" violates check constraint \"\(t.schema.name)_\(c.name)_check\"",
                    details: failingRow(t, row))
            }
        }
        for ch in t.schema.checks where evalCheck(ch.expr, t, row) == false {
            throw PostgresError("23514", "new row for relation \"\(t.schema.name)\" violates check constraint \"\(ch.name)\"", details: failingRow(t, row))
        }
    }

    func evalCheck(_ e: Expr, _ t: Table, _ row: [SQLValue]) -> Bool? {
        let ev = PolicyEvaluator(db: self, auth: .serviceRole, definitions: [:])
        guard let fn = try? ev.compile(e, t, outer: nil) else { return nil }
        return fn(row, nil)
    }

    /// When `filter` pins every primary-key column with `eq` (in its top-level conjunction), the
    /// position of the one row that can match: `.some(nil)` when none can. Nil when the table
    /// must be scanned (no such filter, a type whose equality is not storage equality, a
    /// literal that does not parse, which the scan then reports, or a snapshot whose index is
    /// not built). The caller still tests the row against the whole filter and the policies.
    func keyCandidate(_ t: Table, _ filter: RowFilter?) -> Int?? {
        let pk = t.schema.primaryKey
        guard var f = filter, !pk.isEmpty else { return nil }
        while case .and(let parts) = f, parts.count == 1 { f = parts[0] }
        let conditions: [RowFilter]
        if case .and(let parts) = f { conditions = parts } else { conditions = [f] }
        var cols: [Int] = []
        var key: [SQLValue] = []
        for name in pk {
            guard let i = t.colIndex[name] else { return nil }
            let type = t.schema.columns[i].type
            switch type {
            case .real, .double, .numeric, .interval: return nil // -0 = 0, NaN = NaN: not storage equality
            default: break
            }
            var value: SQLValue?
            for c in conditions {
                if case .condition(name, .eq, .text(let text), false) = c { value = try? SQLValue.parse(text: text, as: type); break }
            }
            guard let value, !value.isNull else { return nil }
            cols.append(i)
            key.append(value)
        }
        if isSnapshot && t.keyIndexes[cols] == nil { return nil }
        return .some(t.index(cols)[key])
    }

    /// The position of a stored row, by its primary key when it has one.
    func position(of row: [SQLValue], in t: Table) -> Int? {
        let pk = t.schema.primaryKey.compactMap { t.colIndex[$0] }
        if !pk.isEmpty, pk.count == t.schema.primaryKey.count {
            let key = pk.map { row[$0] }
            // Only an index already built: rebuilding one after every removal of a long DELETE
            // would cost more than the scan.
            if !key.contains(where: \.isNull), let i = t.keyIndexes[pk]?[key], i < t.rows.count, t.rows[i] == row { return i }
        }
        return t.rows.firstIndex(of: row)
    }

    func checkUnique(_ t: Table, _ row: [SQLValue], ignoring: Int?) throws {
        let keys = [(t.schema.name + "_pkey", t.schema.primaryKey)] + t.schema.uniques.map { ($0.name, $0.columns) }
        for (name, cols) in keys where !cols.isEmpty {
            let idx = cols.compactMap { t.colIndex[$0] }
            let key = idx.map { row[$0] }
            if key.contains(where: \.isNull) { continue }
            if let hit = t.index(idx)[key], hit != ignoring {
                let vals = idx.map { row[$0].pgText(as: t.schema.columns[$0].type) }.joined(separator: ", ")
                throw PostgresError(
                    "23505", "duplicate key value violates unique constraint \"\(name)\"",
                    details: "Key (\(cols.joined(separator: ", ")))=(\(vals)) already exists.")
            }
        }
    }

    func checkForeignKeys(_ t: Table, _ row: [SQLValue]) throws {
        for fk in t.schema.foreignKeys {
            let idx = fk.columns.compactMap { t.colIndex[$0] }
            let key = idx.map { row[$0] }
            if key.contains(where: \.isNull) { continue }
            let ref = try self.table(fk.refTable)
            let ridx = fk.refColumns.compactMap { ref.colIndex[$0] }
            let found: Bool
            if ref.schema.qualifiedName == t.schema.qualifiedName {
                found = t.rows.contains { r in zip(ridx, key).allSatisfy { r[$0] == $1 } } || zip(ridx, key).allSatisfy { row[$0] == $1 }
            } else {
                found = ref.index(ridx)[key] != nil
            }
            if !found {
                let vals = zip(idx, key).map { $1.pgText(as: t.schema.columns[$0].type) }.joined(separator: ", ")
                throw PostgresError(
                    "23503", "insert or update on table \"\(t.schema.name)\" violates foreign key constraint \"\(fk.name)\"",
                    details: "Key (\(fk.columns.joined(separator: ", ")))=(\(vals)) is not present in table \"\(ref.schema.name)\".")
            }
        }
    }

    /// Tables with a foreign key into `t`.
    func referencing(_ t: Table) -> [(Table, ForeignKey)] {
        var out: [(Table, ForeignKey)] = []
        for (_, other) in tables.sorted(by: { $0.key < $1.key }) {
            for fk in other.schema.foreignKeys where qualified(fk.refTable) == t.schema.qualifiedName {
                out.append((other, fk))
            }
        }
        return out
    }

    func cascadeDelete(_ t: Table, _ row: [SQLValue], _ auth: AuthContext) throws {
        for (child, fk) in referencing(t) {
            let ridx = fk.refColumns.compactMap { t.colIndex[$0] }
            let key = ridx.map { row[$0] }
            let cidx = fk.columns.compactMap { child.colIndex[$0] }
            let current = try self.table(child.schema.qualifiedName)
            let hits = current.rows.filter { r in zip(cidx, key).allSatisfy { r[$0] == $1 } }
            if hits.isEmpty { continue }
            switch fk.onDelete {
            case .cascade:
                for h in hits { try deleteRow(child.schema.qualifiedName, h, .serviceRole) }
            case .setNull, .setDefault:
                let c = try self.table(child.schema.qualifiedName)
                for (n, r) in c.rows.enumerated() where hits.contains(r) {
                    var nr = r
                    for ci in cidx {
                        nr[ci] = fk.onDelete == .setNull ? .null : try defaultValue(c.schema.columns[ci], auth, table: c.schema.qualifiedName)
                    }
                    // The RI action is an UPDATE of the child row: its row triggers fire (ri_triggers.c
                    // runs `UPDATE child SET col = NULL`), RLS does not apply (it runs as the owner).
                    nr = try computeGenerated(c, fire(.before, .update, c, old: r, new: nr, auth) ?? nr)
                    try checkConstraints(c, nr)
                    c.rows[n] = nr
                    recordChange(.update, c, old: r, new: nr)
                    c.invalidate()
                    tables[c.schema.qualifiedName] = c
                    _ = try fire(.after, .update, c, old: r, new: nr, auth)
                }
                c.invalidate()
                tables[c.schema.qualifiedName] = c
            case .restrict, .noAction: throw stillReferenced(t, child, fk, ridx, key)
            }
        }
    }

    func cascadeUpdate(_ t: Table, old: [SQLValue], new: [SQLValue]) throws {
        for (child, fk) in referencing(t) {
            let ridx = fk.refColumns.compactMap { t.colIndex[$0] }
            let oldKey = ridx.map { old[$0] }, newKey = ridx.map { new[$0] }
            if oldKey == newKey { continue }
            let cidx = fk.columns.compactMap { child.colIndex[$0] }
            let current = try self.table(child.schema.qualifiedName)
            if current.rows.contains(where: { r in zip(cidx, oldKey).allSatisfy { r[$0] == $1 } }) { throw stillReferenced(t, child, fk, ridx, oldKey) }
        }
    }

    /// 23503 for a key of `t` that rows of `child` still reference.
    func stillReferenced(_ t: Table, _ child: Table, _ fk: ForeignKey, _ ridx: [Int], _ key: [SQLValue]) -> PostgresError {
        let vals = zip(ridx, key).map { $1.pgText(as: t.schema.columns[$0].type) }.joined(separator: ", ")
        return PostgresError(
            "23503", "update or delete on table \"\(t.schema.name)\" violates foreign key constraint \"\(fk.name)\" on table \"\(child.schema.name)\"",
            details: "Key (\(fk.refColumns.joined(separator: ", ")))=(\(vals)) is still referenced from table \"\(child.schema.name)\".")
    }

    // MARK: Grants and RLS

    func checkGrant(_ t: Table, _ cmd: PolicyCommand, _ auth: AuthContext) throws {
        if !isUserSchema(t.schema.schema) && !auth.bypassesRLS {
            throw PostgresError("42501", "permission denied for schema \(t.schema.schema)")
        }
        if let tp = policiesByTable[t.schema.name], tp.revoked[auth.role]?.contains(cmd) == true {
            throw PostgresError("42501", "permission denied for table \(t.schema.name)")
        }
    }

    /// Whether a schema holds the app's own tables (grants and RLS apply): `public` or one the
    /// contract exposes; others (`auth`, `storage`) are reachable only by roles bypassing RLS.
    func isUserSchema(_ name: String) -> Bool { name == "public" || schema.exposedSchemas.contains(name) }

    func rlsViolation(_ table: String) -> PostgresError {
        PostgresError("42501", "new row violates row-level security policy for table \"\(table)\"")
    }

    /// A row test for a command under RLS (USING, or WITH CHECK when `check`).
    func policyTest(_ t: Table, _ cmd: PolicyCommand, _ auth: AuthContext, check: Bool = false) throws -> ([SQLValue]) -> Bool {
        if auth.bypassesRLS || !isUserSchema(t.schema.schema) { return { _ in true } }
        guard let tp = policiesByTable[t.schema.name], tp.rlsEnabled else { return { _ in true } }
        let key = PolicyCacheKey(
            generation: policyGeneration, schema: t.schema.schema, table: t.schema.name, command: cmd, check: check,
            role: auth.role, sub: auth.claims["sub"]?.stringValue ?? "")
        if let cached = policyCache.withLock({ $0[key] }) { return cached }
        let cell = tp.cell(cmd)
        let expr = check ? cell.effectiveCheck(for: cmd) : cell.effectiveUsing
        let ev = PolicyEvaluator(db: self, auth: auth, definitions: policiesStorage.definitions)
        let fn = try ev.compile(expr, t, outer: nil)
        let test: ([SQLValue]) -> Bool = { row in fn(row, nil) == true }
        // Expressions without lookups depend only on the row and the caller: safe to reuse. Those
        // with `exists` memoise per statement and are compiled afresh each time.
        if expr.referencedTables(definitions: policiesStorage.definitions).isEmpty, !usesClaimsBeyondSubAndRole(expr) {
            policyCache.withLock { cache in
                if cache.count > 10_000 { cache.removeAll() }
                cache[key] = test
            }
        }
        return test
    }

    /// Whether a role may see / change a row under a command, for reports and the flip test.
    func allows(_ cmd: PolicyCommand, table: String, row: [String: JSONValue], as auth: AuthContext, check: Bool = false) throws -> Bool {
        let t = try self.table(table)
        let r = try t.schema.columns.map { try SQLValue.coerce(json: row[$0.name] ?? .null, to: $0.type) }
        return try policyTest(t, cmd, auth, check: check)(r)
    }

    // MARK: Change feed

    /// Notes a row change of the running statement for the change listeners (none: no cost).
    func recordChange(_ event: TriggerEvent, _ t: Table, old: [SQLValue]?, new: [SQLValue]?) {
        guard !changeListeners.isEmpty || seedRecorder != nil else { return }
        pendingChanges.append(RowChange(table: t.schema, event: event, old: old, new: new, commitTime: clock.now()))
    }

    // MARK: Triggers

    func jsonRow(_ t: Table, _ row: [SQLValue]) -> [String: JSONValue] {
        Dictionary(uniqueKeysWithValues: zip(t.schema.columns, row).map { ($0.name, $1.json(as: $0.type)) })
    }

    /// Runs one INSERT, UPDATE or DELETE: its AFTER ROW triggers fire once its rows are written.
    func statement<T>(_ body: () throws -> T) throws -> T {
        afterTriggerQueues.append([])
        let result: T
        do { result = try body() } catch { afterTriggerQueues.removeLast(); throw error }
        let queued = afterTriggerQueues.removeLast()
        for f in queued { try f() }
        return result
    }

    /// Fires the triggers of a timing; returns the (possibly changed) NEW row. AFTER triggers
    /// inside a statement are queued to its end.
    func fire(_ timing: TriggerTiming, _ event: TriggerEvent, _ t: Table, old: [SQLValue]?, new: [SQLValue]?, _ auth: AuthContext) throws -> [SQLValue]? {
        guard triggersEnabled, let list = triggers[t.schema.qualifiedName], !list.isEmpty else { return new }
        if timing == .after, !afterTriggerQueues.isEmpty, list.contains(where: { $0.timing == .after && $0.events.contains(event) }) {
            afterTriggerQueues[afterTriggerQueues.count - 1].append { [self] in _ = try self.fireNow(.after, event, t, old: old, new: new, auth) }
            return new
        }
        return try fireNow(timing, event, t, old: old, new: new, auth)
    }

    func fireNow(_ timing: TriggerTiming, _ event: TriggerEvent, _ t: Table, old: [SQLValue]?, new: [SQLValue]?, _ auth: AuthContext) throws -> [SQLValue]? {
        guard let list = triggers[t.schema.qualifiedName] else { return new }
        var current = new
        for trig in list where trig.timing == timing && trig.events.contains(event) {
            var ctx = TriggerContext(
                table: t.schema.name, event: event, timing: timing,
                old: old.map { jsonRow(t, $0) }, new: current.map { jsonRow(t, $0) },
                auth: auth, database: owner!, now: clock.now())
            seedRecorder?.clockReads += 1
            try trig.handler(&ctx)
            if timing == .before, let n = ctx.new {
                let before = current
                current = try t.schema.columns.enumerated().map { k, c in
                    let v = n[c.name] ?? .null
                    // A json value the trigger left as it was keeps its text.
                    if case .jsonText(let kept)? = before?[k], kept.value == v { return .jsonText(kept) }
                    return try SQLValue.coerce(json: v, to: c.type)
                }
            }
        }
        return current
    }
}
