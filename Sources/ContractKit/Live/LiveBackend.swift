import Foundation

/// How a run against a live backend puts it back between cases and files.
package enum LiveRestoreMode: String, Sendable {
    /// `POST /__admin/reset` when the backend offers it (`contracts serve`) and a case's writes
    /// may have reached beyond the tables they wrote (`LiveBackend.restore`), else `.diff`.
    case automatic
    /// Read every table, user and object and undo the differences from the state the run
    /// started its cases from (any Supabase-compatible backend).
    case diff
}

/// Options of a live run (`contracts verify --target URL`).
package struct LiveOptions: Sendable {
    /// Load the fixtures with the service role (false: `--no-seed`; the fixtures' rows must be there).
    package var seed: Bool
    /// Leave what the run created (`--keep`).
    package var keep: Bool
    /// How the backend is put back between cases.
    package var restore: LiveRestoreMode
    /// Only these kinds (`interactions`, `functions`, `rls`, `storage`); nil: all. Provisioning
    /// and cleanup always run.
    package var kinds: Set<String>?
    /// The backend's database (`--restore-database URL`): what a case left different is
    /// written there with triggers off, exactly (PostgREST cannot put back a column a trigger
    /// stamps). Nil: the API alone, and the cleanup names what is left.
    package var database: (any LiveDatabaseWriter)?

    package init(
        seed: Bool = true, keep: Bool = false, restore: LiveRestoreMode = .automatic, kinds: Set<String>? = nil,
        database: (any LiveDatabaseWriter)? = nil
    ) {
        self.seed = seed
        self.keep = keep
        self.restore = restore
        self.kinds = kinds
        self.database = database
    }
}

/// An app's contracts on a live backend: personas provisioned through GoTrue's admin API (e-mail
/// confirmed, the fixtures' ids) or signed in when they exist, fixtures loaded with the service
/// role (only rows missing or different are written, so loading twice writes nothing), the state
/// put back after every case that changed it, and everything the run created removed at the end.
package final class LiveBackend: @unchecked Sendable {
    package let endpoint: LiveEndpoint
    /// The app's contracts.
    package let spec: AppSpec
    package let options: LiveOptions
    let io: LiveStateIO
    /// Before the run touched anything.
    package private(set) var before = LiveSnapshot()
    /// The state cases start from (after provisioning and seeding), for `.diff` restores.
    private var base = LiveSnapshot()
    /// Whether `POST /__admin/reset` restores the backend (a `contracts serve` mock).
    package private(set) var adminReset = false
    /// What the run did, in words, for the report (`created 3 users`, `loaded 12 rows`).
    package private(set) var log: [String] = []
    /// Whether provisioning or seeding wrote anything.
    private var wrote = false
    /// How many restores ran between cases (not counting those skipped: nothing was written).
    package private(set) var restores = 0
    /// `endpoint.writesSent` when the backend was last put back (or snapshotted as `base`).
    private var mark = 0
    /// Whether the backend was then left exactly as `base`.
    private var clean = false
    /// The tables as the backend was then left (nil: not known; `LiveRestore.run`).
    private var left: LiveTables?
    /// The rows the last restore could not put back, as it left them (`LiveRestore.run`).
    private var settled: [String: JSONValue] = [:]
    /// Whether `POST /__admin/reset` leaves the tables as `base` has them (nil: not tried yet).
    private var resetIsBase: Bool?

    /// The app's buckets (storage.json).
    static func bucketIDs(_ spec: AppSpec) -> [String] { spec.buckets.compactMap { $0["id"]?.stringValue } }

    package init(endpoint: LiveEndpoint, spec: AppSpec, options: LiveOptions = LiveOptions()) {
        self.endpoint = endpoint
        self.spec = spec
        self.options = options
        io = LiveStateIO(endpoint: endpoint, schema: spec.schema, buckets: LiveBackend.bucketIDs(spec), database: options.database)
    }

    /// Provisions and seeds; one result per persona and one for the fixtures. Throws when the
    /// backend cannot be read at all (wrong URL or key).
    package func prepare() throws -> [CaseResult] {
        let app = spec.app
        before = try io.snapshot()
        if options.restore == .automatic {
            let probe = try endpoint.send(HTTPRequest(method: "POST", path: "/__admin/reset"), as: "service_role")
            adminReset = probe.status == 200
            if adminReset {
                log.append("restores between cases with POST /__admin/reset")
                before = try io.snapshot(known: before)
            }
        }
        var out: [CaseResult] = []
        let users = try io.users()
        for p in spec.fixtures.personas {
            let name = "provision · persona \(p.name) <\(p.email)>"
            do {
                if let existing = users.values.first(where: { $0["email"]?.stringValue?.lowercased() == p.email.lowercased() }) {
                    let id = existing["id"]?.stringValue ?? ""
                    guard id == p.id else {
                        out.append(
                            CaseResult(
                                app: app, kind: "provision", name: name, passed: false,
                                message:
                                    "a user with this e-mail exists with id \(id); the fixtures' rows name it \(p.id): delete that user or give it the fixtures' id"
                            ))
                        continue
                    }
                } else {
                    let body: JSONValue = [
                        "id": .string(p.id), "email": .string(p.email), "password": .string(p.password), "email_confirm": true,
                        "user_metadata": p.metadata
                    ]
                    _ = try io.check(endpoint.send(method: "POST", path: "/auth/v1/admin/users", json: body, as: "service_role"), "creating user \(p.email)")
                    log.append("created user \(p.email) (\(p.id))")
                    wrote = true
                }
                try signIn(p)
                out.append(CaseResult(app: app, kind: "provision", name: name, passed: true))
            } catch {
                out.append(CaseResult(app: app, kind: "provision", name: name, passed: false, message: "\(error)"))
            }
        }
        out.append(loadFixtures())
        if adminReset && wrote {
            // The backend's reset goes back to its own fixtures, which lacked what was just
            // written: put it back by differences instead.
            adminReset = false
            log.append("the backend's /__admin/reset state lacks the fixtures; restores by differences")
        }
        // Tables the provisioning did not write read back as `before` read them: not parsed again.
        base = try io.snapshot(known: before)
        (mark, clean, left) = (endpoint.writesSent, true, LiveTables(rows: base.rows, unchanged: Set(base.rows.keys)))
        return out
    }

    /// Signs a persona in with its password (`grant_type=password`) and keeps its access token.
    func signIn(_ p: Persona) throws {
        let r = try endpoint.send(
            method: "POST", path: "/auth/v1/token", query: [("grant_type", "password")],
            json: ["email": .string(p.email), "password": .string(p.password)], as: "anon")
        guard r.status == 200, let token = r.jsonBody?["access_token"]?.stringValue else {
            throw LiveBackendError("signing in \(p.email) with the fixtures' password: HTTP \(r.status) \(r.text.prefix(200))")
        }
        endpoint.setToken(token, for: p.name)
    }

    /// Writes each fixture row that is missing or differs (upsert on the primary key), table by
    /// table in fixtures.json's order; with `seed` false, only checks they are all there.
    func loadFixtures() -> CaseResult {
        let name = options.seed ? "fixtures · loaded with the service role" : "fixtures · present (--no-seed)"
        var written = 0, missing: [String] = []
        do {
            for (table, rows) in spec.fixtures.tables {
                guard let t = spec.schema.table(table), t.schema == "public", !t.primaryKey.isEmpty else { continue }
                let have = try io.read(t, known: before).rows
                let stale = rows.filter { r in
                    guard let o = r.objectValue else { return false }
                    guard let cur = have[LiveStateIO.key(o, t.primaryKey)]?.objectValue else { return true }
                    return o.contains { k, v in cur[k].map { !LiveBackend.sameValue($0, v) } ?? true }
                }
                if stale.isEmpty { continue }
                if !options.seed { missing += stale.compactMap { $0.objectValue.map { "\(table) \(LiveStateIO.key($0, t.primaryKey))" } }; continue }
                try io.put(
                    t, rows: stale, present: Set(stale.compactMap { $0.objectValue.map { LiveStateIO.key($0, t.primaryKey) } }.filter { have[$0] != nil }))
                written += stale.count
            }
        } catch {
            return CaseResult(app: spec.app, kind: "provision", name: name, passed: false, message: "\(error)")
        }
        if !missing.isEmpty {
            return CaseResult(
                app: spec.app, kind: "provision", name: name, passed: false,
                message: "\(missing.count) fixture rows are missing or differ (drop --no-seed to load them): \(missing.prefix(5).joined(separator: "; "))")
        }
        if written > 0 { log.append("loaded \(written) fixture rows"); wrote = true }
        return CaseResult(app: spec.app, kind: "provision", name: name, passed: true)
    }

    /// Two JSON values the same as stored (numbers by value; timestamps as instants).
    static func sameValue(_ a: JSONValue, _ b: JSONValue) -> Bool {
        if a == b { return true }
        if let x = a.doubleValue, let y = b.doubleValue { return x == y }
        if let x = a.stringValue, let y = b.stringValue, let p = PGTime.parseTimestamp(x, assumeUTC: true), let q = PGTime.parseTimestamp(y, assumeUTC: true) {
            return p == q
        }
        return false
    }

    /// Puts the backend back to the state cases start from: nothing to do when no request that
    /// may write (`LiveReadOnly`) went out since it was last put back, and only the tables the
    /// writes since then may have changed are read (`LiveRestore.reach`).
    ///
    /// With `POST /__admin/reset` (`contracts serve`), the backend is reset when the writes may
    /// have reached beyond the tables they wrote (a trigger, an `rpc`, GoTrue, Storage, a
    /// function); otherwise those tables are put back by differences, which costs a read of them
    /// instead of every fixture row written again.
    package func restore() throws {
        let writes = endpoint.writes(since: mark)
        if writes.isEmpty && clean { return }
        restores += 1
        let scope = left == nil ? nil : LiveRestore(io: io).reach(writes)
        if adminReset && scope == nil {
            left = nil
            _ = try io.check(endpoint.send(HTTPRequest(method: "POST", path: "/__admin/reset"), as: "service_role"), "POST /__admin/reset")
            settled = [:]
            if resetIsBase == nil {
                // Once: whether the reset leaves the tables as the snapshot has them (a fixture
                // row with a column left to a default such as now() does not), so that they are
                // known after each reset without reading them.
                let now = try LiveRestore(io: io).read(io.tables, like: base)
                resetIsBase = io.tables.allSatisfy { t in
                    now.unchanged.contains(t.name)
                        || (now.rows[t.name] ?? [:]).count == (base.rows[t.name] ?? [:]).count
                            && LiveRestore.changedKeys(base.rows[t.name] ?? [:], now.rows[t.name] ?? [:]).isEmpty
                }
            }
            if resetIsBase == true { left = LiveTables(rows: base.rows, unchanged: Set(base.rows.keys)) }
            (mark, clean) = (endpoint.writesSent, true)
            return
        }
        var state = left
        left = nil
        let residue = try io.restore(to: base, settled: &settled, state: &state, scope: scope)
        // Left with a difference (a column a trigger stamps, a refused write): the next restore
        // looks again (at what it left, unless written since) rather than trusting this one.
        (mark, clean, left) = (endpoint.writesSent, residue.isEmpty, state)
    }

    /// Tables that differ from what the restores left (`left`), in words: a change none of
    /// schema.json's foreign keys and triggers explains, so restores did not look there.
    func drift() throws -> [String] {
        try restore()
        guard let left else { return [] }
        var out: [String] = []
        for (name, r) in try io.read(io.tables, known: base, last: left).sorted(by: { $0.key < $1.key }) {
            let had = left.rows[name] ?? [:]
            let differs = had.count != r.rows.count || r.rows.contains { k, v in had[k].map { !LiveSnapshot.same($0, v) } ?? true }
            if differs {
                out.append("\(name) was changed by something schema.json's foreign keys and triggers do not declare, so restores did not read it again")
            }
        }
        return out
    }

    /// Removes what the run created (unless `keep`) and checks nothing is left: one result.
    package func cleanup() -> CaseResult {
        let name = options.keep ? "cleanup · kept (--keep)" : "cleanup · nothing left behind"
        if options.keep { return CaseResult(app: spec.app, kind: "cleanup", name: name, passed: true) }
        do {
            let drift = try drift()
            var settled: [String: JSONValue] = [:], state: LiveTables? = nil
            let residue = try io.restore(to: before, settled: &settled, state: &state) + drift
            let after = try io.snapshot(known: before)
            let left = before.differences(from: after)
            if left.isEmpty && !drift.isEmpty {
                return CaseResult(app: spec.app, kind: "cleanup", name: name, passed: false, message: drift.joined(separator: "\n"))
            }
            return CaseResult(
                app: spec.app, kind: "cleanup", name: name, passed: left.isEmpty,
                message: left.isEmpty ? "" : "left behind: " + left.joined(separator: "; ") + residue.map { "\n  " + $0 }.joined())
        } catch {
            return CaseResult(app: spec.app, kind: "cleanup", name: name, passed: false, message: "\(error)")
        }
    }
}
