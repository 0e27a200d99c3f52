import Foundation

/// Which requests to a Supabase backend cannot change what a restore puts back (the app's
/// tables, GoTrue's users, Storage's objects), so that a case that sent only those needs no
/// restore after it (`LiveEndpoint.writesSent`, `LiveBackend.restore`). Anything not named here
/// counts as a write, whatever its method.
enum LiveReadOnly {
    /// Whether a request only reads.
    ///
    /// - `GET`/`HEAD` under `/rest/v1/`, `rpc` included: PostgREST runs them in a READ ONLY
    ///   transaction, so neither the statement, nor a function it calls, nor a trigger can
    ///   write (docs/references/transactions.rst: "PostgREST uses this fact to enforce HTTP
    ///   semantics in GET and HEAD requests"; src/library/PostgREST/Plan.hs: `InvRead _ ->
    ///   SQL.Read` for a call, `WrappedReadPlan … SQL.Read` for a read).
    /// - `GET`/`HEAD` under `/storage/v1/object/` and `/storage/v1/bucket` (supabase/storage
    ///   src/http/routes/object/getObject.ts, getPublicObject.ts, getSignedObject.ts,
    ///   getObjectInfo.ts, bucket/getBucket.ts, getAllBuckets.ts: downloads and metadata), and
    ///   `POST /storage/v1/object/list/{bucket}` (listObjects.ts: a search of `storage.objects`).
    /// - GoTrue's `GET /user`, `/settings`, `/health`, `/admin/users` and `/admin/users/{id}`
    ///   (supabase/auth internal/api/api.go: UserGet, Settings, HealthCheck, adminUsers,
    ///   adminUserGet). Not its other GETs: `/verify` confirms a user and consumes the token,
    ///   `/reauthenticate` stores a nonce, `/authorize` stores a flow state.
    /// - `GET /__admin/inbox` (the e-mails a `contracts serve` mock sent).
    static func reads(method: String, path: String) -> Bool {
        let m = method.uppercased()
        if m == "POST" { return path.hasPrefix("/storage/v1/object/list/") }
        guard m == "GET" || m == "HEAD" else { return false }
        if path.hasPrefix("/rest/v1/") || path.hasPrefix("/storage/v1/object/") || path == "/storage/v1/bucket" || path.hasPrefix("/storage/v1/bucket/") {
            return true
        }
        if path == "/auth/v1/user" || path == "/auth/v1/settings" || path == "/auth/v1/health" || path == "/auth/v1/admin/users" { return true }
        if path.hasPrefix("/auth/v1/admin/users/") { return !path.dropFirst("/auth/v1/admin/users/".count).contains("/") }
        return m == "GET" && path == "/__admin/inbox"
    }

    /// What a request that may write can have changed (nil: it only reads, `reads`).
    ///
    /// A write to a PostgREST table (`/rest/v1/<table>`, not `rpc`) runs one statement on that
    /// table: `POST` an INSERT (an INSERT … ON CONFLICT DO UPDATE, which also fires update
    /// triggers, with `Prefer: resolution=merge-duplicates`; docs/references/api/tables_views.rst,
    /// "Upsert"), `PUT` an upsert, `PATCH` an UPDATE, `DELETE` a DELETE. Anything else may
    /// change anything: a function, GoTrue, Storage, an `rpc`, the mock's admin routes.
    static func write(method: String, path: String, headers: HTTPHeaders) -> LiveWrite? {
        if reads(method: method, path: path) { return nil }
        let prefix = "/rest/v1/"
        // Another schema than the default one (`Content-Profile`) names another table.
        guard path.hasPrefix(prefix), headers.values("Content-Profile").allSatisfy({ $0 == "public" }) else { return .anything }
        let table = String(path.dropFirst(prefix.count))
        if table.isEmpty || table.contains("/") { return .anything }
        switch method.uppercased() {
        case "POST":
            let merge = headers.values("Prefer").contains { $0.contains("resolution=merge-duplicates") }
            return .table(table, events: merge ? ["insert", "update"] : ["insert"])
        case "PUT": return .table(table, events: ["insert", "update"])
        case "PATCH": return .table(table, events: ["update"])
        case "DELETE": return .table(table, events: ["delete"])
        default: return .anything
        }
    }
}

/// What a request that may write can have changed (`LiveReadOnly.write`).
enum LiveWrite: Hashable, Sendable {
    /// Rows of the app's table, through a statement firing these events (`insert`, `update`,
    /// `delete`).
    case table(String, events: Set<String>)
    /// Anything.
    case anything
}
