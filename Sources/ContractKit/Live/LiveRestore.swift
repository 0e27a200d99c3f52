import Foundation

/// Puts an app's tables back to a snapshot through PostgREST alone, as the service role, on a
/// backend whose triggers keep running (a real Supabase has no `/__admin/reset` and no way to
/// switch triggers off over HTTP).
///
/// How rows are found: a pass reads whole tables and compares them with the snapshot, so a row
/// a trigger made (a `town_hall_posts` row written by a review's trigger, a notification, a
/// companion row) is found wherever it lands, without guessing it from the created rows' keys or
/// from timestamps (a table may have no timestamp column, and a trigger may write a row that
/// names none of the rows the run wrote). Which tables: those the writes since the last look may
/// have changed (`reach`: the tables written and what their foreign keys' delete actions reach),
/// every table as soon as one of those writes may have run a trigger or was not a table write.
/// Several tables are in flight at once, and a table whose body is byte for byte the snapshot's
/// is not parsed or compared. The condition is that nobody else writes the app's tables during
/// the run (a CI project or a local stack, not a shared staging project in use).
///
/// With the backend's database at hand (`LiveDatabaseWriter`, `--restore-database`), every
/// difference is written there in one transaction with triggers off, exactly, after one read;
/// should the database refuse, the passes below run instead and the refusal is returned.
///
/// How rows are put back, in passes until nothing differs or nothing is left to try:
/// 1. rows the snapshot lacks are deleted, children first (FK order from schema.json);
/// 2. rows the snapshot has and the backend lacks are inserted, parents first; a BEFORE INSERT
///    trigger that rewrites a column (`reviews.town_hall_post_id`) leaves a difference the next
///    pass patches, and the row it made is an extra row the next pass deletes;
/// 3. a row that differs is patched with only the columns that differ, unless schema.json
///    declares a BEFORE UPDATE trigger on its table (`updated_at = now()` would stamp it again):
///    then it is deleted and inserted again, which fires no update trigger, together with the
///    rows the delete cascades to — when that is safe: no row refers to it with ON DELETE
///    RESTRICT / NO ACTION, the rows set to null have no BEFORE UPDATE trigger, and no table
///    inserted again has an AFTER INSERT trigger (or, below the row itself, any INSERT trigger)
///    that would write other rows. Otherwise it is patched, and a column stamped anyway is left.
/// What is still different after that is returned in words, naming the column and the trigger
/// that stamps it; a later run to the same snapshot leaves such a row alone while it is still as
/// this run left it (`settled`).
struct LiveRestore {
    let io: LiveStateIO

    /// At most this many passes (each reads every table once).
    static let maxPasses = 8

    /// The snapshot's tables, parents before the tables referring to them (FK order of
    /// schema.json; a table referring to itself, or a cycle, keeps declaration order).
    static func parentsFirst(_ tables: [TableSchema]) -> [TableSchema] {
        var placed: [TableSchema] = [], names = Set<String>()
        var left = tables
        while !left.isEmpty {
            let ready =
                left.firstIndex { t in
                    t.foreignKeys.allSatisfy { fk in
                        let parent = tables.first { refers(fk, to: $0) }
                        return parent == nil || parent!.name == t.name || names.contains(parent!.name)
                    }
                } ?? 0
            let t = left.remove(at: ready)
            placed.append(t)
            names.insert(t.name)
        }
        return placed
    }

    /// Rows of one table with each row a row of the list refers to (a foreign key of the table
    /// into itself: `profiles.invited_by`, `request_qa.parent_id`) placed after that row, for a
    /// database that checks foreign keys row by row; a cycle keeps the given order.
    static func parentsFirst(_ rows: [[String: JSONValue]], in t: TableSchema) -> [[String: JSONValue]] {
        let own = t.foreignKeys.filter { refers($0, to: t) }
        if own.isEmpty || rows.count < 2 { return rows }
        func ref(_ r: [String: JSONValue], _ cols: [String]) -> [String] { cols.map { RLSCase.filterText(r[$0] ?? .null) } }
        var left = rows, placed: [[String: JSONValue]] = []
        while !left.isEmpty {
            let i =
                left.indices.first { i in
                    own.allSatisfy { fk in
                        let wanted = ref(left[i], fk.columns)
                        return !left.indices.contains { j in j != i && ref(left[j], fk.refColumns) == wanted }
                    }
                } ?? 0
            placed.append(left.remove(at: i))
        }
        return placed
    }

    /// Whether a foreign key refers to a table (`profiles`, `public.profiles`).
    static func refers(_ fk: ForeignKey, to t: TableSchema) -> Bool {
        fk.refTable == t.name && t.schema == "public" || fk.refTable == t.qualifiedName
    }

    /// `table column=value` rows of `current` that refer to `row` of `t` (empty: none).
    func referrers(of row: [String: JSONValue], in t: TableSchema, current: [String: [String: JSONValue]]) -> [String] {
        var out: [String] = []
        for u in io.tables {
            for fk in u.foreignKeys where LiveRestore.refers(fk, to: t) {
                let wanted = fk.refColumns.map { RLSCase.filterText(row[$0] ?? .null) }
                let n = (current[u.name] ?? [:]).values.filter { r in
                    guard let o = r.objectValue else { return false }
                    let self_ = u.name == t.name && LiveStateIO.key(o, u.primaryKey) == LiveStateIO.key(row, t.primaryKey)
                    return !self_ && fk.columns.map { RLSCase.filterText(o[$0] ?? .null) } == wanted
                }.count
                if n > 0 { out.append("\(n) \(u.name) rows (\(fk.columns.joined(separator: ",")))") }
            }
        }
        return out
    }

    /// Triggers schema.json declares on a table for an event at a timing (nil timing: any).
    func triggers(_ t: TableSchema, _ event: String, _ timing: String? = nil) -> [TriggerDefinition] {
        (io.schema.triggers ?? []).filter { $0.qualifiedTable == t.qualifiedName && $0.events.contains(event) && (timing == nil || $0.timing == timing) }
    }

    /// Whether an update of the table runs a BEFORE UPDATE trigger (which may stamp a column).
    func stamps(_ t: TableSchema) -> Bool { !triggers(t, "update", "before").isEmpty }

    /// The rows (table → keys) deleting `row` cascades to, when deleting it and inserting it and
    /// them again changes nothing else (see the type's comment); nil when it would.
    func cascade(of row: [String: JSONValue], in t: TableSchema, current: [String: [String: JSONValue]]) -> [String: Set<String>]? {
        if !triggers(t, "insert", "after").isEmpty { return nil }
        var out: [String: Set<String>] = [:]
        var queue: [(TableSchema, [String: JSONValue])] = [(t, row)]
        var seen = Set([t.name + "|" + LiveStateIO.key(row, t.primaryKey)])
        while let (pt, prow) = queue.popLast() {
            for u in io.tables {
                for fk in u.foreignKeys where LiveRestore.refers(fk, to: pt) {
                    let wanted = fk.refColumns.map { RLSCase.filterText(prow[$0] ?? .null) }
                    for r in (current[u.name] ?? [:]).values {
                        guard let o = r.objectValue, fk.columns.map({ RLSCase.filterText(o[$0] ?? .null) }) == wanted else { continue }
                        let id = u.name + "|" + LiveStateIO.key(o, u.primaryKey)
                        if seen.contains(id) { continue }
                        switch fk.onDelete {
                        case .cascade:
                            if !triggers(u, "insert").isEmpty { return nil }
                            seen.insert(id)
                            out[u.name, default: []].insert(LiveStateIO.key(o, u.primaryKey))
                            queue.append((u, o))
                        case .setNull, .setDefault:
                            if stamps(u) { return nil }
                        case .restrict, .noAction:
                            return nil
                        }
                    }
                }
            }
        }
        return out
    }

    /// The columns whose values differ between two versions of a row.
    static func differing(_ want: [String: JSONValue], _ have: [String: JSONValue]) -> [String] {
        // Most rows are as the snapshot has them: one pass over the columns says so, without
        // the sorted union of both rows' columns (each restore compares every row of every table).
        if want.count == have.count && want.allSatisfy({ c, w in have[c].map { LiveSnapshot.same(w, $0) } ?? false }) { return [] }
        return Set(want.keys).union(have.keys).sorted().filter { c in
            switch (want[c], have[c]) {
            case (let a?, let b?): return !LiveSnapshot.same(a, b)
            case (nil, nil): return false
            default: return true
            }
        }
    }

    /// The keys of the rows both versions of a table have and that differ, sorted (only those
    /// are sorted: most rows are unchanged).
    static func changedKeys(_ want: [String: JSONValue], _ have: [String: JSONValue]) -> [String] {
        want.keys.filter { k in
            guard let w = want[k], let h = have[k] else { return false }
            return !LiveSnapshot.same(w, h)
        }.sorted()
    }

    func filters(_ t: TableSchema, _ row: [String: JSONValue]) -> [(String, String)] {
        t.primaryKey.map { ($0, "eq." + RLSCase.filterText(row[$0] ?? .null)) }
    }

    func delete(_ t: TableSchema, _ row: [String: JSONValue]) throws -> String? {
        let r = try io.endpoint.send(HTTPRequest(method: "DELETE", path: "/rest/v1/\(t.name)", query: filters(t, row)), as: "service_role")
        return (200...299).contains(r.status) ? nil : "deleting \(t.name) \(LiveStateIO.key(row, t.primaryKey)): HTTP \(r.status) \(r.text.prefix(200))"
    }

    func insert(_ t: TableSchema, _ row: [String: JSONValue]) throws -> String? {
        let r = try io.endpoint.send(
            method: "POST", path: "/rest/v1/\(t.name)", json: .array([.object(row)]), headers: ["Prefer": "return=minimal"], as: "service_role")
        return (200...299).contains(r.status) ? nil : "inserting \(t.name) \(LiveStateIO.key(row, t.primaryKey)): HTTP \(r.status) \(r.text.prefix(200))"
    }

    func patch(_ t: TableSchema, _ row: [String: JSONValue], columns: [String]) throws -> String? {
        var body: [String: JSONValue] = [:]
        for c in columns { body[c] = row[c] ?? .null }
        let r = try io.endpoint.send(
            method: "PATCH", path: "/rest/v1/\(t.name)", query: filters(t, row), json: .object(body),
            headers: ["Prefer": "return=minimal"], as: "service_role")
        return (200...299).contains(r.status) ? nil : "updating \(t.name) \(LiveStateIO.key(row, t.primaryKey)): HTTP \(r.status) \(r.text.prefix(200))"
    }

    /// The app's tables as the backend has them now (several read at once), and the names of
    /// those whose bodies were byte for byte `target`'s (as the snapshot has them: nothing to
    /// compare or put back there). Only the tables of `scope` are read when it and `prior` are
    /// given; the others are as `prior` has them.
    func read(_ tables: [TableSchema], like target: LiveSnapshot, only scope: Set<String>? = nil, over prior: LiveTables? = nil) throws -> LiveTables {
        var out = prior ?? LiveTables()
        let wanted = prior == nil || scope == nil ? tables : tables.filter { scope!.contains($0.name) }
        for (name, r) in try io.read(wanted, known: target, last: prior) {
            out.rows[name] = r.rows
            out.pages[name] = r.unchanged ? nil : r.pages
            if r.unchanged { out.unchanged.insert(name) } else { out.unchanged.remove(name) }
        }
        return out
    }

    /// The snapshot's tables that writes may have changed, by schema.json: each table written,
    /// and the tables its foreign keys' ON DELETE actions reach from a delete (CASCADE: a delete
    /// there, SET NULL / SET DEFAULT: an update), transitively. Nil (every table) when a write
    /// may have run a trigger (its table declares one for the event: a trigger function may
    /// write any table, GoTrue's users or Storage's objects included) or wrote anything but a
    /// table (a view, an `rpc`, GoTrue, Storage, a function). An update reaches no other table:
    /// schema.json's foreign keys have no ON UPDATE action (NO ACTION: an update of a key rows
    /// refer to fails). The condition, as for the rest of the restore, is that schema.json
    /// declares the backend's triggers and foreign keys (`verify --database` checks the catalog
    /// against it); `LiveBackend.cleanup` reads every table once more to catch a change none of
    /// them explains.
    func reach(_ writes: some Sequence<LiveWrite>) -> Set<String>? {
        var scope = Set<String>(), seen = Set<String>()
        var queue: [(TableSchema, Set<String>)] = []
        for w in writes {
            guard case .table(let name, let events) = w, let t = io.schema.table(name), t.schema == "public", !t.isView else { return nil }
            queue.append((t, events))
        }
        let triggers = io.schema.triggers ?? [], snapshotted = Set(io.tables.map(\.qualifiedName))
        while let (t, events) = queue.popLast() {
            if !seen.insert(t.qualifiedName + " " + events.sorted().joined(separator: ",")).inserted { continue }
            if snapshotted.contains(t.qualifiedName) { scope.insert(t.name) }
            if triggers.contains(where: { $0.qualifiedTable == t.qualifiedName && !events.isDisjoint(with: $0.events) }) { return nil }
            guard events.contains("delete") else { continue }
            for u in io.schema.tables where !u.isView {
                for fk in u.foreignKeys where LiveRestore.refers(fk, to: t) {
                    switch fk.onDelete {
                    case .cascade: queue.append((u, ["delete"]))
                    case .setNull, .setDefault: queue.append((u, ["update"]))
                    case .restrict, .noAction: break
                    }
                }
            }
        }
        return scope
    }

    /// Puts the rows back; returns what could not be put back, in words (empty: every table is
    /// as the snapshot has it). `settled`: the rows (`table|key`) a previous run to the same
    /// target could not put back, as it left them; one still exactly so is not written again
    /// (the same requests on the same row would leave it as they did: a trigger stamps it
    /// again). On return, the rows this run could not put back.
    ///
    /// `state`: the tables as the last run to the same target left them, nil when not known (on
    /// return: as this run leaves them); `scope`: the tables the writes since then may have
    /// changed (`reach`), nil: any. Only those are read first, and after each pass only those its
    /// own writes may have changed.
    func run(to target: LiveSnapshot, settled: inout [String: JSONValue], state: inout LiveTables?, scope: Set<String>? = nil) throws -> [String] {
        let order = LiveRestore.parentsFirst(io.tables)
        var tables = try read(order, like: target, only: scope, over: state)
        var (current, unchanged) = (tables.rows, tables.unchanged)
        var databaseError: String?
        if let db = io.database {
            // Every difference written at once with triggers off: no trigger fires and no
            // foreign-key action runs (PostgreSQL's session_replication_role = replica: "rules
            // and triggers ... will not fire", and foreign keys are enforced by triggers), so the
            // tables are then exactly the snapshot's rows, with nothing to read again to find
            // what the writes did besides. (A pass through PostgREST first would write the rows
            // a trigger stamps anyway, and read every table again after each pass.)
            let restores = order.compactMap { t -> LiveTableRestore? in
                if unchanged.contains(t.name) { return nil }
                let want = target.rows[t.name] ?? [:], have = current[t.name] ?? [:]
                let delete = have.filter { want[$0.key] == nil }.values.compactMap(\.objectValue)
                let upsert = want.filter { k, w in have[k].map { !LiveSnapshot.same($0, w) } ?? true }.sorted { $0.key < $1.key }.compactMap(
                    \.value.objectValue)
                return delete.isEmpty && upsert.isEmpty ? nil : LiveTableRestore(table: t, upsert: LiveRestore.parentsFirst(upsert, in: t), delete: delete)
            }
            do {
                if !restores.isEmpty { try db.apply(restores) }
                settled = [:]
                state = LiveTables(rows: target.rows.filter { k, _ in current[k] != nil }, unchanged: Set(current.keys))
                return []
            } catch {
                // Refused (a role that may not set session_replication_role): through PostgREST
                // instead, and the refusal said with what is left.
                databaseError = "through the database: \(error)"
            }
        }
        var patched = Set<String>(), reinserted = Set<String>()
        var errors: [String] = []
        for _ in 0..<LiveRestore.maxPasses {
            let mark = io.endpoint.writesSent
            var acted = false
            errors = []
            let changed = order.filter { !unchanged.contains($0.name) }
            for t in changed.reversed() {
                let want = target.rows[t.name] ?? [:]
                // Only the rows to delete are sorted (the order of the requests), not the table.
                for (_, row) in (current[t.name] ?? [:]).filter({ want[$0.key] == nil }).sorted(by: { $0.key < $1.key }) {
                    guard let o = row.objectValue else { continue }
                    if let e = try delete(t, o) { errors.append(e) }
                    acted = true
                }
            }
            for t in changed {
                let want = target.rows[t.name] ?? [:], have = current[t.name] ?? [:]
                for k in want.keys.filter({ have[$0] == nil }).sorted() {
                    guard let o = want[k]?.objectValue else { continue }
                    if let e = try insert(t, o) { errors.append(e) }
                    acted = true
                }
            }
            for t in changed {
                let want = target.rows[t.name] ?? [:], have = current[t.name] ?? [:]
                for k in LiveRestore.changedKeys(want, have) {
                    guard let w = want[k]?.objectValue, let h = have[k]?.objectValue else { continue }
                    let cols = LiveRestore.differing(w, h)
                    if cols.isEmpty { continue }
                    let id = t.name + "|" + k
                    if let left = settled[id], LiveSnapshot.same(left, .object(h)) { continue }
                    if !reinserted.contains(id), stamps(t), let closure = cascade(of: h, in: t, current: current) {
                        reinserted.insert(id)
                        if let e = try delete(t, h) { errors.append(e); continue }
                        if let e = try insert(t, w) { errors.append(e) }
                        // The rows the delete took with it, parents first, as the snapshot has them.
                        for u in order {
                            for ck in (closure[u.name] ?? []).sorted() {
                                guard let row = target.rows[u.name]?[ck]?.objectValue else { continue }
                                if let e = try insert(u, row) { errors.append(e) }
                            }
                        }
                        acted = true
                    } else if !patched.contains(id) {
                        patched.insert(id)
                        acted = true
                        guard let e = try patch(t, w, columns: cols) else { continue }
                        // A unique key the row wants is still held by a row that is not back yet
                        // (two rows that swapped places): delete it now, so the other row's patch
                        // can take its old value, and insert it again in the next pass.
                        if !reinserted.contains(id), cascade(of: h, in: t, current: current)?.isEmpty == true, try delete(t, h) == nil {
                            reinserted.insert(id)
                        } else {
                            errors.append(e)
                        }
                    }
                }
            }
            // A pass that sent nothing left the tables as just read: no second read to confirm.
            if !acted { break }
            tables = try read(order, like: target, only: reach(io.endpoint.writes(since: mark)), over: tables)
            (current, unchanged) = (tables.rows, tables.unchanged)
        }
        state = tables
        settled = [:]
        for t in order where !unchanged.contains(t.name) {
            let want = target.rows[t.name] ?? [:], have = current[t.name] ?? [:]
            for k in LiveRestore.changedKeys(want, have) { settled[t.name + "|" + k] = have[k] }
        }
        return residue(target, current: current, order: order.filter { !unchanged.contains($0.name) }) + errors + (databaseError.map { [$0] } ?? [])
    }

    /// What still differs in the tables of `order`, in words: the row, the columns, and the
    /// trigger that stamps them.
    func residue(_ target: LiveSnapshot, current: [String: [String: JSONValue]], order: [TableSchema]) -> [String] {
        var out: [String] = []
        for t in order {
            let want = target.rows[t.name] ?? [:], have = current[t.name] ?? [:]
            let added = have.keys.filter { want[$0] == nil }.sorted(), missing = want.keys.filter { have[$0] == nil }.sorted()
            if !added.isEmpty { out.append("\(t.name): \(added.count) rows added (\(added.prefix(3).joined(separator: "; ")))") }
            if !missing.isEmpty { out.append("\(t.name): \(missing.count) rows missing (\(missing.prefix(3).joined(separator: "; ")))") }
            for k in LiveRestore.changedKeys(want, have) {
                guard let w = want[k]?.objectValue, let h = have[k]?.objectValue else { continue }
                let cols = LiveRestore.differing(w, h)
                if cols.isEmpty { continue }
                let stampers = (io.schema.triggers ?? []).filter {
                    $0.qualifiedTable == t.qualifiedName && $0.timing == "before" && $0.events.contains("update")
                }
                var why = stampers.isEmpty ? "" : "; a BEFORE UPDATE trigger (\(stampers.map(\.name).joined(separator: ", "))) writes it on every update"
                let refs = referrers(of: h, in: t, current: current)
                if !refs.isEmpty { why += ", and \(refs.joined(separator: ", ")) refer to the row, so it cannot be deleted and inserted again" }
                let values = cols.map { "\($0) is \(h[$0].map { $0.serialized() } ?? "absent"), was \(w[$0].map { $0.serialized() } ?? "absent")" }
                out.append(
                    "\(t.name) \(k): \(values.joined(separator: ", "))\(why); only a database connection with triggers off can put it back (--restore-database URL)"
                )
            }
        }
        return out
    }
}

/// The app's tables as read or known: rows by table (keyed as `LiveSnapshot.rows`), and the
/// tables whose rows are the snapshot's.
struct LiveTables: Sendable {
    var rows: [String: [String: JSONValue]] = [:]
    var unchanged: Set<String> = []
    /// The bodies the rows of a table not in `unchanged` were read from, when read
    /// (`LiveStateIO.read`'s `last`).
    var pages: [String: [Data]] = [:]
}
