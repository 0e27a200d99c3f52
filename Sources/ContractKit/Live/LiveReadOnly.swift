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
}
