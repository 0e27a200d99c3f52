import Foundation

/// The in-memory database behind the mock: tables, constraints as PostgreSQL enforces them,
/// row-level security from the app's policies, triggers, and statement atomicity.
///
/// Thread-safe by construction: the state lives in a `DatabaseEngine` that only
/// `Guarded.withReentrantLock` hands out, and every member below goes through it, so there is no
/// way to change a table without the lock (see `Guarded` for the discipline). Statements are
/// serialised; triggers, views and database functions re-enter on the same thread. A failed
/// statement leaves no trace.
///
/// Reads never wait for a writer, as in PostgreSQL (READ COMMITTED: a statement sees what was
/// committed when it began). When the outermost write section ends, the committed state is
/// published as a frozen snapshot (tables shared copy-on-write); a read outside any statement
/// runs on the latest snapshot with no database lock, so a long write (a leaderboard refresh)
/// delays no reader and readers never wait for each other. A read inside a statement (a trigger,
/// a view provider, a database function) runs on the live state under the lock, so it sees the
/// statement's own changes.
package final class Database: Sendable {
    package let schema: DatabaseSchema
    /// The clock (`now()`).
    package let clock: WallClock
    /// The id source (`gen_random_uuid()`).
    package let ids: IDGenerator
    private let engine: Guarded<DatabaseEngine>
    /// A snapshot's state, read without a lock (nil for the live database).
    private let frozenState: FrozenEngine?
    private var frozen: DatabaseEngine? { frozenState?.engine }
    /// The latest committed state as a read-only database (a leaf lock, held only to swap it).
    private let published: Guarded<Database?>

    /// A table's storage (for callers that sort or evaluate policies over rows they hold).
    typealias Table = DatabaseEngine.Table

    package init(schema: DatabaseSchema, policies: PolicySet, clock: WallClock, ids: IDGenerator) {
        self.schema = schema
        self.clock = clock
        self.ids = ids
        let e = DatabaseEngine(schema: schema, policies: policies, clock: clock, ids: ids)
        engine = Guarded(e)
        frozenState = nil
        published = Guarded(nil)
        write { $0.owner = self }
    }

    /// A read-only database over a snapshot engine (see `publish`).
    private init(snapshot e: DatabaseEngine, of live: Database) {
        schema = live.schema
        clock = live.clock
        ids = live.ids
        engine = Guarded(e)
        frozenState = FrozenEngine(engine: e)
        published = Guarded(nil)
        e.owner = self
    }

    /// Whether this is a snapshot (a read view handed out by `reading`), on which writes fail.
    package var isSnapshot: Bool { frozen != nil }

    /// Runs `body` with the live engine as a write section: under the lock, and when the
    /// outermost section ends the state is published for readers. A snapshot refuses with
    /// PostgreSQL's 25006.
    private func write<R>(_ body: (DatabaseEngine) throws -> R) rethrows -> R {
        if frozen != nil {
            // A snapshot escaped its read (a view provider writing): a programming error in the
            // caller, answered as PostgreSQL answers a write in a read-only transaction.
            fatalError("25006: cannot execute a write on a read-only snapshot of the database")
        }
        return try engine.withReentrantLock { e in
            e.writeDepth += 1
            defer {
                e.writeDepth -= 1
                if e.writeDepth == 0 { publish(e) }
            }
            return try body(e)
        }
    }

    /// Publishes the committed state of `e` (called under the lock, at the end of the outermost
    /// write section).
    private func publish(_ e: DatabaseEngine) {
        let snapshot = Database(snapshot: DatabaseEngine(snapshotOf: e), of: self)
        published.withLock { $0 = snapshot }
    }

    /// Runs `body` with the engine to read: a snapshot's own, the live one when this thread is
    /// inside a statement, else the latest published snapshot's (no database lock taken).
    private func read<R>(_ body: (DatabaseEngine) throws -> R) rethrows -> R {
        if let frozen { return try body(frozen) }
        if engine.isHeldByCurrentThread() { return try engine.withReentrantLock(body) }
        return try latest().read(body)
    }

    /// The latest published snapshot.
    private func latest() -> Database {
        // The initialiser's first write section published one, so there always is a snapshot.
        published.withLock { $0! }
    }

    /// Runs `body` with one consistent view of the database for every read it makes (a GET and
    /// its embeds see one commit, as one PostgreSQL statement does): the latest snapshot, or
    /// this database itself inside a statement.
    package func reading<R>(_ body: (Database) throws -> R) rethrows -> R {
        if frozen != nil || engine.isHeldByCurrentThread() { return try body(self) }
        return try body(latest())
    }

    /// Runs `body` with the engine under the database lock (re-entrant), as a write section. For
    /// this module's services that must see the database and their own state as one (storage
    /// requests).
    func exclusive<R>(_ body: (DatabaseEngine) throws -> R) rethrows -> R {
        try write(body)
    }

    // MARK: Configuration

    /// The RLS policies in force. Setting them (e.g. to flip one matrix cell) recompiles.
    package var policies: PolicySet {
        get { read { $0.policies } }
        set { write { $0.policies = newValue } }
    }

    /// Registers a row trigger on a table (`profiles`, `auth.users`).
    package func registerTrigger(_ name: String, on table: String, timing: TriggerTiming, events: Set<TriggerEvent>, handler: @escaping TriggerHandler) {
        write { $0.registerTrigger(name, on: table, timing: timing, events: events, handler: handler) }
    }

    /// Registers a read-only view computed by the app; it must be declared in schema.json with `"view": true`.
    package func registerView(_ name: String, provider: @escaping ViewProvider) {
        write { $0.registerView(name, provider: provider) }
    }

    /// The schema of a table (`public` unless qualified), by hash lookup.
    package func tableSchema(_ name: String) -> TableSchema? {
        read { $0.tableSchema(name) }
    }

    // MARK: Change feed

    /// Calls `listener` with the row changes of every statement that commits, in commit order
    /// (a failed statement reports nothing). It runs on the writer's thread with the database
    /// locked, so it must only hand the changes on (enqueue them) and never call the database.
    package func addChangeListener(_ listener: @escaping @Sendable ([RowChange]) -> Void) {
        write { $0.changeListeners.append(listener) }
    }

    // MARK: Statements

    /// Runs `body` as one statement: on error every change it made is undone. The database stays
    /// locked for the whole of `body`, which may call any member of this database.
    package func atomically<T>(_ body: () throws -> T) throws -> T {
        try write { try $0.atomically(body) }
    }

    /// Loads rows without triggers or RLS (fixtures), as `session_replication_role = replica` does;
    /// constraints still apply.
    ///
    /// `clockColumns`: columns whose given value is the clock's reading as
    /// `PGTime.timestamptz` text, so that a recorded load (`recordingSeed`) replayed at another
    /// reading writes that reading there.
    package func seed(_ table: String, rows: [JSONValue], texts: [[String: String]]? = nil, clockColumns: [String] = []) throws {
        try write { try $0.seed(table, rows: rows, texts: texts, clockColumns: clockColumns) }
    }

    /// Runs `body` (this database's own calls, on this thread) with triggers off, as a session
    /// with `session_replication_role = replica` writes: what a test stands in for a backend's
    /// database connection with (`contracts verify --restore-database`). Constraints and
    /// foreign-key actions still apply here.
    package func withTriggersOff<T>(_ body: () throws -> T) throws -> T {
        // One write section: readers see the state before `body` or after it, never between.
        try write { e in
            let was = e.triggersEnabled
            e.triggersEnabled = false
            defer { e.triggersEnabled = was }
            return try body()
        }
    }

    /// Runs `load` (this database's own `seed` calls) and returns it as a recording when it can be
    /// replayed (`SeedRecording`): it drew no id or sequence value, and its clock reading either
    /// filled cells alone (replayed at any reading) or did not move during the load (replayed at
    /// that reading). Behaves exactly as `load` alone otherwise.
    package func recordingSeed(_ load: () throws -> Void) throws -> SeedRecording? {
        try write { e in
            let now = clock.now()
            let empty = e.tables.values.allSatisfy(\.rows.isEmpty)
            let recorder = SeedRecorder()
            let outer = e.seedRecorder
            e.seedRecorder = recorder
            defer { e.seedRecorder = outer }
            try load()
            guard empty, recorder.draws == 0 else { return nil }
            let defaults = recorder.clockCells.filter { $0.kind != .timestamptzText }.count
            let shiftable = !recorder.clockBound && recorder.clockReads == defaults
            guard shiftable || clock.now() == now else { return nil }
            return SeedRecording(
                now: now, shiftable: shiftable, tables: e.tables.mapValues { $0.clone() }, sequenceTops: recorder.sequenceTops,
                batches: recorder.batches, clockCells: recorder.clockCells)
        }
    }

    /// Loads a recorded fixture load into this (empty) database as the load itself would at the
    /// clock's reading now (`SeedRecording.replays` must hold): the tables' rows, with the reading
    /// in the cells the load filled with it, each sequence set past its largest loaded value, and
    /// the same changes, stamped with the reading, handed to the change listeners, statement by
    /// statement.
    package func replaySeed(_ r: SeedRecording) {
        write { e in
            let now = clock.now()
            // The cells to write the reading in, by table and row (none at the recording's own reading).
            var cells: [String: [Int: [SeedClockCell]]] = [:]
            if now != r.now { for c in r.clockCells { cells[c.table, default: [:]][c.row, default: []].append(c) } }
            func stamped(_ row: [SQLValue], _ mine: [SeedClockCell]?, _ t: TableSchema) -> [SQLValue] {
                guard let mine else { return row }
                var out = row
                // A cell's value was written by the same load at another reading: `value` cannot
                // fail here where it did not there, and a failure keeps the recorded value.
                for c in mine { if let v = try? c.value(at: now, t.columns[c.column]) { out[c.column] = v } }
                return out
            }
            for (key, t) in r.tables {
                guard let live = e.tables[key] else { continue }
                live.rows = t.rows
                live.keyIndexes = t.keyIndexes
                for (n, mine) in cells[key] ?? [:] { live.rows[n] = stamped(live.rows[n], mine, t.schema) }
            }
            for (key, top) in r.sequenceTops { e.sequences[key] = max(e.sequences[key] ?? 0, top) }
            // The load only inserted, into empty tables: a table's nth INSERT is its row n.
            var inserted: [String: Int] = [:]
            for batch in r.batches {
                let changes =
                    now == r.now
                    ? batch
                    : batch.map { c -> RowChange in
                        let key = c.table.qualifiedName
                        let n = inserted[key, default: 0]
                        if c.event == .insert { inserted[key] = n + 1 }
                        let mine = c.event == .insert ? cells[key]?[n] : nil
                        return RowChange(
                            table: c.table, event: c.event, old: c.oldValues, new: c.newValues.map { stamped($0, mine, c.table) }, commitTime: now)
                    }
                for listener in e.changeListeners { listener(changes) }
            }
        }
    }

    /// Removes every row of every table.
    package func truncateAll() {
        write { $0.truncateAll() }
    }

    /// Total rows in a table, ignoring RLS (for reports and tests).
    package func count(_ table: String) -> Int {
        read { $0.count(table) }
    }

    /// The committed rows of some tables as an identity: two results are equal exactly when no
    /// write has changed any of these tables in between, so a value derived from their rows
    /// (a catalog built from a table) can be kept until it is. Nil for a table that is not stored
    /// rows (an app-computed view, an unknown name).
    package func rowsIdentity(_ tables: [String]) -> RowsIdentity? {
        read { e in
            var held: [[[SQLValue]]] = []
            for name in tables {
                guard e.views[e.qualified(name)] == nil, let t = e.tables[e.qualified(name)] else { return nil }
                held.append(t.rows)
            }
            return RowsIdentity(rows: held)
        }
    }

    /// The result of a read: rows in the table's column order plus the column list.
    package struct ResultSet: Sendable {
        /// The columns of each row.
        package var columns: [ColumnSchema]
        package var rows: [[SQLValue]]
        /// The total count before limit/offset, when asked.
        package var total: Int?

        /// Rows as JSON objects keyed by column name.
        package var objects: [[String: JSONValue]] {
            rows.map { r in Dictionary(uniqueKeysWithValues: zip(columns, r).map { ($0.name, $1.json(as: $0.type)) }) }
        }
    }

    /// SELECT with RLS: rows the role may see, filtered, ordered and paged.
    package func select(
        from table: String, as auth: AuthContext, where filter: RowFilter? = nil,
        order: [OrderTerm] = [], limit: Int? = nil, offset: Int = 0, count: Bool = false
    ) throws -> ResultSet {
        try read { try $0.select(from: table, as: auth, where: filter, order: order, limit: limit, offset: offset, count: count) }
    }

    /// How an insert treats rows that collide with a unique key.
    package enum ConflictResolution: Sendable {
        /// Error 23505.
        case error
        /// `ON CONFLICT DO UPDATE` (Prefer: resolution=merge-duplicates).
        case merge
        /// `ON CONFLICT DO NOTHING` (Prefer: resolution=ignore-duplicates).
        case ignore
    }

    /// INSERT with RLS, defaults, triggers and constraints. Returns the rows written.
    ///
    /// - Parameters:
    ///   - columns: the column list (`columns=` or the union of the body's keys); columns not listed
    ///     take their defaults. Keys present in a row but absent from `columns` are ignored.
    ///   - missingAsDefault: `Prefer: missing=default` — a listed column a row lacks takes its
    ///     default instead of NULL.
    ///   - onConflict: the unique key for upserts (primary key when nil).
    ///   - returning: whether the rows are returned (RETURNING needs SELECT visibility).
    package func insert(
        into table: String, rows input: [[String: JSONValue]], texts: [[String: String]]? = nil, columns: [String]? = nil,
        missingAsDefault: Bool = true, as auth: AuthContext,
        resolution: ConflictResolution = .error, onConflict: [String]? = nil,
        returning: Bool = false
    ) throws -> [[SQLValue]] {
        try write {
            try $0.insert(
                into: table, rows: input, texts: texts, columns: columns, missingAsDefault: missingAsDefault, as: auth,
                resolution: resolution, onConflict: onConflict, returning: returning)
        }
    }

    /// UPDATE with RLS: only rows visible to the role and allowed by the UPDATE policy are
    /// changed; a changed row that fails WITH CHECK aborts the statement with 42501.
    package func update(
        _ table: String, set values: [String: JSONValue], texts: [String: String]? = nil, as auth: AuthContext,
        where filter: RowFilter? = nil, returning: Bool = false,
        limit: Int? = nil
    ) throws -> [[SQLValue]] {
        try write { try $0.update(table, set: values, texts: texts, as: auth, where: filter, returning: returning, limit: limit) }
    }

    /// DELETE with RLS: only rows visible and allowed by the DELETE policy are removed.
    package func delete(from table: String, as auth: AuthContext, where filter: RowFilter? = nil, limit: Int? = nil, returning: Bool = false) throws
        -> [[SQLValue]]
    {
        try write { try $0.delete(from: table, as: auth, where: filter, limit: limit, returning: returning) }
    }

    /// Whether a role may see / change a row under a command, for reports and the flip test.
    package func allows(_ cmd: PolicyCommand, table: String, row: [String: JSONValue], as auth: AuthContext, check: Bool = false) throws -> Bool {
        try read { try $0.allows(cmd, table: table, row: row, as: auth, check: check) }
    }

    /// Sorts rows of a table's shape by ORDER BY terms (stable, NULLS as asked).
    func sort(_ rows: [[SQLValue]], _ order: [OrderTerm], _ t: Table) throws -> [[SQLValue]] {
        try read { try $0.sort(rows, order, t) }
    }

    /// Evaluates a policy expression for one row of a table shape that is not stored here
    /// (storage's virtual tables); `exists` lookups read this database's tables.
    func evaluate(_ expr: Expr, table: TableSchema, row: [SQLValue], as auth: AuthContext) throws -> Bool {
        try read { e in
            let t = Table(schema: table, colIndex: Dictionary(uniqueKeysWithValues: table.columns.enumerated().map { ($1.name, $0) }), rows: [])
            let ev = PolicyEvaluator(db: e, auth: auth, definitions: e.policies.definitions)
            return try ev.compile(expr, t, outer: nil)(row, nil) == true
        }
    }
}

extension Database {
    /// Rows as JSON objects, for handlers: SELECT as `auth` with an optional filter.
    package func rows(
        _ table: String, as auth: AuthContext = .serviceRole, where filter: RowFilter? = nil,
        order: [OrderTerm] = []
    ) throws -> [[String: JSONValue]] {
        try select(from: table, as: auth, where: filter, order: order).objects
    }

    /// INSERT from JSON objects, returning the written rows as JSON objects.
    @discardableResult
    package func insert(_ table: String, _ rows: [[String: JSONValue]], as auth: AuthContext = .serviceRole) throws -> [[String: JSONValue]] {
        try write { e in
            let t = try e.table(table)
            let written = try e.insert(into: table, rows: rows, as: auth, returning: auth.role != "service_role")
            return written.map { e.jsonRow(t, $0) }
        }
    }

    /// UPDATE from a JSON patch, returning the changed rows as JSON objects.
    @discardableResult
    package func update(_ table: String, set values: [String: JSONValue], where filter: RowFilter?, as auth: AuthContext = .serviceRole) throws -> [[String:
        JSONValue]]
    {
        try write { e in
            let t = try e.table(table)
            return try e.update(table, set: values, as: auth, where: filter).map { e.jsonRow(t, $0) }
        }
    }

    /// DELETE, returning the removed rows as JSON objects.
    @discardableResult
    package func delete(_ table: String, where filter: RowFilter?, as auth: AuthContext = .serviceRole) throws -> [[String: JSONValue]] {
        try write { e in
            let t = try e.table(table)
            return try e.delete(from: table, as: auth, where: filter).map { e.jsonRow(t, $0) }
        }
    }
}

/// A snapshot engine shared by reader threads. Safe to send: nothing changes it once its
/// `Database` is built (reads do not write to an engine; the one cache they fill, compiled
/// policy tests, is behind its own lock).
private final class FrozenEngine: @unchecked Sendable {
    let engine: DatabaseEngine
    init(engine: DatabaseEngine) { self.engine = engine }
}

/// Which row storage some tables held when asked (`Database.rowsIdentity`). It holds the rows
/// themselves, so their storage cannot be freed and reused while it lives: equal identities
/// really are the same, unchanged, rows.
package struct RowsIdentity: Equatable, @unchecked Sendable {
    // Unchecked: the arrays are only compared by storage address, never read or written.
    fileprivate let rows: [[[SQLValue]]]

    package static func == (a: RowsIdentity, b: RowsIdentity) -> Bool {
        a.rows.count == b.rows.count
            && zip(a.rows, b.rows).allSatisfy { x, y in
                x.count == y.count && x.withUnsafeBufferPointer { p in y.withUnsafeBufferPointer { q in p.baseAddress == q.baseAddress } }
            }
    }
}
