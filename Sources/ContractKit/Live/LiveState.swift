import Foundation

/// What a backend holds that a run may change, read over its own APIs with the service role:
/// every row of the app's public tables (by primary key), the GoTrue users' ids and the storage
/// objects of the app's buckets. Two snapshots compared say what a run left behind.
package struct LiveSnapshot: Sendable, Equatable {
    /// Rows per table (`public.` tables of schema.json with a primary key), keyed by the primary
    /// key's values.
    package var rows: [String: [String: JSONValue]] = [:]
    /// GoTrue user ids.
    package var users: Set<String> = []
    /// Object names per bucket.
    package var objects: [String: Set<String>] = [:]
    /// The bodies PostgREST answered for each table's pages, as read: a later read of the
    /// table that gets the same bytes back has the same rows (`LiveStateIO.read`). Not part of
    /// what a snapshot holds (`==` leaves it out).
    var pages: [String: [Data]] = [:]

    package static func == (a: LiveSnapshot, b: LiveSnapshot) -> Bool {
        a.rows == b.rows && a.users == b.users && a.objects == b.objects
    }

    /// Two stored values alike: numbers by value at any depth (a jsonb `7.0` written back reads
    /// `7` through JSON), everything else structurally.
    package static func same(_ a: JSONValue, _ b: JSONValue) -> Bool {
        switch (a, b) {
        case (.object(let x), .object(let y)):
            return x.count == y.count && x.allSatisfy { k, v in y[k].map { same(v, $0) } ?? false }
        case (.array(let x), .array(let y)):
            return x.count == y.count && zip(x, y).allSatisfy { same($0, $1) }
        default:
            if let x = a.doubleValue, let y = b.doubleValue { return x == y }
            return a == b
        }
    }

    /// What `other` holds that this snapshot does not, and what differs, in words (empty: same).
    package func differences(from other: LiveSnapshot) -> [String] {
        var out: [String] = []
        for t in Set(rows.keys).union(other.rows.keys).sorted() {
            let a = rows[t] ?? [:], b = other.rows[t] ?? [:]
            let added = b.keys.filter { a[$0] == nil }.sorted(), removed = a.keys.filter { b[$0] == nil }.sorted()
            let changed = a.keys.filter { k in b[k].map { !LiveSnapshot.same($0, a[k]!) } ?? false }.sorted()
            if !added.isEmpty { out.append("\(t): \(added.count) rows added (\(added.prefix(3).joined(separator: "; ")))") }
            if !removed.isEmpty { out.append("\(t): \(removed.count) rows missing (\(removed.prefix(3).joined(separator: "; ")))") }
            if !changed.isEmpty { out.append("\(t): \(changed.count) rows changed (\(changed.prefix(3).joined(separator: "; ")))") }
        }
        let added = other.users.subtracting(users), removed = users.subtracting(other.users)
        if !added.isEmpty { out.append("auth users: \(added.count) added (\(added.sorted().prefix(3).joined(separator: ", ")))") }
        if !removed.isEmpty { out.append("auth users: \(removed.count) missing (\(removed.sorted().prefix(3).joined(separator: ", ")))") }
        for b in Set(objects.keys).union(other.objects.keys).sorted() {
            let x = objects[b] ?? [], y = other.objects[b] ?? []
            if x != y { out.append("storage \(b): \(y.subtracting(x).count) objects added, \(x.subtracting(y).count) missing") }
        }
        return out
    }
}

/// A failure of the backend's own APIs while provisioning, snapshotting or restoring (not a case
/// failure): names the request and the answer.
package struct LiveBackendError: Error, CustomStringConvertible, Sendable {
    /// What went wrong.
    package var message: String
    package init(_ message: String) { self.message = message }
    package var description: String { message }
}

/// Reads and restores a `LiveSnapshot` through PostgREST, GoTrue's admin API and Storage.
struct LiveStateIO {
    let endpoint: LiveEndpoint
    let schema: DatabaseSchema
    let buckets: [String]
    /// The backend's database, where restores write with triggers off (`--restore-database`).
    var database: (any LiveDatabaseWriter)? = nil

    /// Tables a snapshot covers: public, not views, with a primary key; in creation order.
    var tables: [TableSchema] { schema.tables.filter { $0.schema == "public" && !$0.isView && !$0.primaryKey.isEmpty } }

    static func key(_ row: [String: JSONValue], _ pk: [String]) -> String {
        pk.map { "\($0)=\(RLSCase.filterText(row[$0] ?? .null))" }.joined(separator: ",")
    }

    func check(_ r: HTTPResponse, _ what: String, ok: ClosedRange<Int> = 200...299) throws -> HTTPResponse {
        guard ok.contains(r.status) else {
            throw LiveBackendError("\(what): HTTP \(r.status) \(r.text.prefix(300))")
        }
        return r
    }

    /// Rows per request when reading a table: at most what a hosted project's PostgREST returns
    /// (`db-max-rows`, 1000 on Supabase), so pages never come back cut short.
    static let page = 1000

    /// A table as read: its rows by key, the bodies of the pages they came in, and whether
    /// those bodies are the ones a snapshot had (then `rows` are that snapshot's, not parsed again).
    struct TableRead {
        var rows: [String: JSONValue]
        var pages: [Data]
        var unchanged: Bool
    }

    /// Every row of a table, page by page in primary-key order. When the bodies are byte for
    /// byte the ones `known` read (the same query, so the same rows with the same values), the
    /// rows are `known`'s and nothing is parsed: most tables are as the snapshot has them. So
    /// too when they are the ones of `last`, the table's previous read (a row a restore could not
    /// put back is read as it was left, after each case).
    func read(_ t: TableSchema, known: LiveSnapshot? = nil, last: LiveTables? = nil) throws -> TableRead {
        // Earlier reads of the same query: their bodies, their rows, whether those are the snapshot's.
        var candidates: [(pages: [Data], rows: [String: JSONValue], unchanged: Bool)] = []
        if let kp = known?.pages[t.name] { candidates.append((kp, known?.rows[t.name] ?? [:], true)) }
        if let lp = last?.pages[t.name] { candidates.append((lp, last?.rows[t.name] ?? [:], false)) }
        var pages: [Data] = [], parsed: [[JSONValue]?] = []
        while true {
            let query = [
                ("select", "*"), ("order", t.primaryKey.map { "\($0).asc" }.joined(separator: ",")),
                ("limit", String(LiveStateIO.page)), ("offset", String(pages.count * LiveStateIO.page))
            ]
            let r = try check(
                endpoint.send(HTTPRequest(method: "GET", path: "/rest/v1/\(t.name)", query: query), as: "service_role"),
                "reading \(t.name)")
            let i = pages.count
            pages.append(r.body)
            candidates = candidates.filter { i < $0.pages.count && $0.pages[i] == r.body }
            if !candidates.isEmpty {
                parsed.append(nil)
                // An earlier read went on after this page only when it was full.
                if let done = candidates.first(where: { i == $0.pages.count - 1 }) {
                    return TableRead(rows: done.rows, pages: pages, unchanged: done.unchanged)
                }
                continue
            }
            let items = try LiveStateIO.items(t, r.body)
            parsed.append(items)
            if items.count < LiveStateIO.page { break }
        }
        var out: [String: JSONValue] = [:]
        for (body, items) in zip(pages, parsed) {
            for item in try items ?? LiveStateIO.items(t, body) { out[LiveStateIO.key(item.objectValue ?? [:], t.primaryKey)] = item }
        }
        return TableRead(rows: out, pages: pages, unchanged: false)
    }

    /// The rows of one page's body.
    static func items(_ t: TableSchema, _ body: Data) throws -> [JSONValue] {
        guard case .array(let items)? = try? JSONValue.parse(body) else {
            throw LiveBackendError("reading \(t.name): not a JSON array: \(String(decoding: body.prefix(200), as: UTF8.self))")
        }
        return items
    }

    /// Every GoTrue user (id → user), following the pages.
    func users() throws -> [String: JSONValue] {
        var out: [String: JSONValue] = [:]
        var page = 1
        while true {
            let r = try check(
                endpoint.send(
                    HTTPRequest(method: "GET", path: "/auth/v1/admin/users", query: [("page", String(page)), ("per_page", "200")]),
                    as: "service_role"), "listing users")
            let users = r.jsonBody?["users"]?.arrayValue ?? []
            for u in users { if let id = u["id"]?.stringValue { out[id] = u } }
            let total = r.headers["X-Total-Count"].flatMap { Int($0) } ?? 0
            if users.isEmpty || out.count >= total || page > 1000 { return out }
            page += 1
        }
    }

    /// Object names of a bucket, folders walked (Storage lists one level per call).
    func objects(_ bucket: String) throws -> Set<String> {
        var out: Set<String> = []
        var folders = [""]
        while let prefix = folders.popLast() {
            let r = try endpoint.send(
                method: "POST", path: "/storage/v1/object/list/\(bucket)",
                json: ["prefix": .string(prefix), "limit": 10000, "offset": 0], as: "service_role")
            if r.status == 404 || r.status == 400 { return out } // no such bucket: nothing of ours in it
            guard r.status == 200, case .array(let items)? = r.jsonBody else {
                throw LiveBackendError("listing \(bucket)/\(prefix): HTTP \(r.status) \(r.text.prefix(200))")
            }
            for item in items {
                guard let name = item["name"]?.stringValue else { continue }
                let path = prefix.isEmpty ? name : prefix + "/" + name
                if item["id"]?.isNull ?? true { if folders.count < 10_000 { folders.append(path) } } else { out.insert(path) }
            }
        }
        return out
    }

    /// Writes rows as they are given. A row already there (its key in `present`) is deleted and
    /// inserted again rather than updated, so an update trigger (`updated_at = now()`) cannot
    /// change what is written; when the delete is refused (rows still refer to it) it is upserted
    /// instead. Inserts go in one request per set of columns (PostgREST's bulk insert needs the
    /// same keys in every object); identity columns generated always are left to the database.
    func put(_ t: TableSchema, rows: [JSONValue], present: Set<String>) throws {
        let identity = Set(
            t.columns.filter {
                if case .identity(always: true)? = $0.defaultValue { return true }; return false
            }.map(\.name))
        var upsert: [JSONValue] = [], insert: [JSONValue] = []
        for row in rows {
            guard var o = row.objectValue else { continue }
            for c in identity { o[c] = nil }
            let k = LiveStateIO.key(o, t.primaryKey)
            if present.contains(k) {
                let filters = t.primaryKey.map { ($0, "eq." + RLSCase.filterText(o[$0] ?? .null)) }
                let r = try endpoint.send(HTTPRequest(method: "DELETE", path: "/rest/v1/\(t.name)", query: filters), as: "service_role")
                if !(200...299).contains(r.status) { upsert.append(.object(o)); continue }
            }
            insert.append(.object(o))
        }
        var groups: [[String]: [JSONValue]] = [:]
        for r in insert { groups[(r.objectValue ?? [:]).keys.sorted(), default: []].append(r) }
        for (_, g) in groups.sorted(by: { $0.key.joined() < $1.key.joined() }) {
            _ = try check(
                endpoint.send(method: "POST", path: "/rest/v1/\(t.name)", json: .array(g), headers: ["Prefer": "return=minimal"], as: "service_role"),
                "writing \(g.count) \(t.name) rows")
        }
        for r in upsert {
            _ = try check(
                endpoint.send(
                    method: "POST", path: "/rest/v1/\(t.name)", query: [("on_conflict", t.primaryKey.joined(separator: ","))],
                    json: .array([r]), headers: ["Prefer": "resolution=merge-duplicates,return=minimal"], as: "service_role"),
                "restoring a \(t.name) row")
        }
    }

    /// How many tables are read at once: a hosted project answers each read after a network
    /// round trip, so several in flight (URLSession keeps up to 6 connections per host).
    static let readers = 6

    /// Every table (`read`), several at once.
    func read(_ tables: [TableSchema], known: LiveSnapshot? = nil, last: LiveTables? = nil) throws -> [String: TableRead] {
        let reads = try Concurrently<TableRead>.map(tables, width: LiveStateIO.readers) { try read($0, known: known, last: last) }
        return Dictionary(zip(tables.map(\.name), reads), uniquingKeysWith: { a, _ in a })
    }

    /// Everything a snapshot holds, as the backend has it now. A table whose pages are byte for
    /// byte those of `known` (an earlier snapshot) takes its rows from there, unparsed.
    func snapshot(known: LiveSnapshot? = nil) throws -> LiveSnapshot {
        var s = LiveSnapshot()
        for (name, r) in try read(tables, known: known) { (s.rows[name], s.pages[name]) = (r.rows, r.pages) }
        s.users = Set(try users().keys)
        for b in buckets { s.objects[b] = try objects(b) }
        return s
    }

    /// Puts the tables, users and objects back as `target` has them: the rows through
    /// `LiveRestore` (what it could not put back is returned, in words), then users and objects
    /// added since are deleted.
    ///
    /// `settled`, `state`, `scope`: see `LiveRestore.run`. With a `scope`, only tables were
    /// written, and no trigger ran: GoTrue's users and Storage's objects are as they were.
    @discardableResult
    func restore(
        to target: LiveSnapshot, users keepUsers: Bool = false, settled: inout [String: JSONValue], state: inout LiveTables?, scope: Set<String>? = nil
    ) throws -> [String] {
        let residue = try LiveRestore(io: self).run(to: target, settled: &settled, state: &state, scope: scope)
        if scope != nil { return residue }
        if !keepUsers {
            for id in try users().keys where !target.users.contains(id) {
                _ = try check(endpoint.send(HTTPRequest(method: "DELETE", path: "/auth/v1/admin/users/\(id)"), as: "service_role"), "deleting user \(id)")
            }
        }
        for b in buckets {
            let extra = try objects(b).subtracting(target.objects[b] ?? [])
            if extra.isEmpty { continue }
            _ = try check(
                endpoint.send(
                    method: "DELETE", path: "/storage/v1/object/\(b)", json: ["prefixes": .array(extra.sorted().map(JSONValue.string))],
                    as: "service_role"), "deleting objects of \(b)")
        }
        return residue
    }
}
