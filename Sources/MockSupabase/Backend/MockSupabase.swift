import Foundation

/// A call of an edge function (`/functions/v1/<name>`).
package struct FunctionCall: Sendable {
    /// The HTTP request as received.
    package let request: HTTPRequest
    /// The caller: the verified JWT of the Authorization header (anon when it is the anon key).
    package let auth: AuthContext
    /// The backend, for database access (`backend.database`) as the service role or as the caller.
    package let backend: MockSupabase

    /// The body as JSON; an empty body is `{}`.
    package func json() throws -> JSONValue {
        if request.body.isEmpty { return .object([:]) }
        return try JSONValue.parse(request.body)
    }
}

/// An edge-function body.
package typealias FunctionHandler = @Sendable (FunctionCall) throws -> HTTPResponse

/// A parameter of a database function exposed at `/rest/v1/rpc/<name>`.
package struct RPCParameter: Sendable {
    package var name: String
    package var type: SQLType
    /// Whether it may be omitted.
    package var hasDefault: Bool

    package init(_ name: String, _ type: SQLType, hasDefault: Bool = false) {
        self.name = name
        self.type = type
        self.hasDefault = hasDefault
    }
}

/// What a database function returns.
package enum RPCReturn: Sendable {
    /// `void`: PostgREST answers 204 (or `null` with 200 for older clients).
    case void
    /// A single value of a type (PostgREST prints it as JSON).
    case scalar(SQLType)
    /// `SETOF`/`TABLE(...)`: rows with these columns; filters, order and limit apply.
    case rows([ColumnSchema])
    /// A single composite row.
    case row([ColumnSchema])
}

/// A call of a database function.
package struct RPCCall: Sendable {
    /// Arguments by name, coerced to the declared types and printed as JSON.
    package let arguments: [String: JSONValue]
    /// Caller (the function runs as the caller unless it is SECURITY DEFINER; use `.serviceRole` then).
    package let auth: AuthContext
    package let database: Database
    package let backend: MockSupabase
}

/// A database function body: returns JSON (scalar, object, or array of objects for row sets).
package typealias RPCHandler = @Sendable (RPCCall) throws -> JSONValue

/// A registered database function.
package struct RPCFunction: Sendable {
    /// Name (`search_cities`).
    package var name: String
    package var parameters: [RPCParameter]
    package var returns: RPCReturn
    /// VOLATILE functions may not be called with GET (PostgREST runs GET read-only: 405).
    package var volatile: Bool
    package var handler: RPCHandler

    package init(name: String, parameters: [RPCParameter], returns: RPCReturn, volatile: Bool = false, handler: @escaping RPCHandler) {
        self.name = name
        self.parameters = parameters
        self.returns = returns
        self.volatile = volatile
        self.handler = handler
    }
}

package struct MockConfiguration: Sendable {
    package var spec: AppSpec
    /// The JWT secret (Supabase's local-development default unless given).
    package var jwtSecret: String
    /// The clock for `now()`, JWT `iat`/`exp` and expiry checks.
    package var clock: WallClock
    package var ids: IDGenerator
    /// Access-token lifetime in seconds (auth.json `jwt_expiry`, GoTrue's default 3600).
    package var accessTokenLifetime: Int
    /// Minimum password length (auth.json `minimum_password_length`, GoTrue's default 6).
    package var minimumPasswordLength: Int
    /// Seconds after its revocation during which a refresh token may still be exchanged
    /// (`GOTRUE_SECURITY_REFRESH_TOKEN_REUSE_INTERVAL`; the Supabase CLI's `config.toml` sets
    /// `refresh_token_reuse_interval = 10`). A later reuse ends the session.
    package var refreshTokenReuseInterval: Int
    /// Seconds a revoked refresh token is kept before it is pruned (GoTrue's cleanup deletes
    /// revoked tokens older than 24 hours: supabase/auth internal/models/cleanup.go).
    package var revokedRefreshTokenRetention: Int
    /// Most revoked refresh tokens kept at once; beyond it the oldest are pruned early, so memory
    /// stays bounded under heavy refresh traffic.
    package var revokedRefreshTokenCap: Int

    package init(
        spec: AppSpec, jwtSecret: String = "super-secret-jwt-token-with-at-least-32-characters-long",
        clock: WallClock = SystemClock(), ids: IDGenerator = SystemIDGenerator(),
        accessTokenLifetime: Int? = nil, minimumPasswordLength: Int? = nil,
        refreshTokenReuseInterval: Int = 10, revokedRefreshTokenRetention: Int = 86_400,
        revokedRefreshTokenCap: Int = 100_000
    ) {
        self.spec = spec
        self.jwtSecret = jwtSecret
        self.clock = clock
        self.ids = ids
        self.accessTokenLifetime = accessTokenLifetime ?? spec.auth.jwtExpirySeconds
        self.minimumPasswordLength = minimumPasswordLength ?? spec.auth.minimumPasswordLength
        self.refreshTokenReuseInterval = refreshTokenReuseInterval
        self.revokedRefreshTokenRetention = revokedRefreshTokenRetention
        self.revokedRefreshTokenCap = revokedRefreshTokenCap
    }
}

/// An in-memory Supabase: PostgREST on `/rest/v1`, GoTrue on `/auth/v1`, Functions on
/// `/functions/v1`, Storage on `/storage/v1`, configured from an app's contracts.
///
/// Instances are independent (no global state): many can run in one process. Apps plug in their
/// edge functions, database functions, triggers and views through the `register…` methods.
///
/// Thread-safe: `handle` may be called from any number of threads at once. Every piece of shared
/// state sits behind a `Guarded` (see there for the discipline): the database, GoTrue's sessions,
/// storage, and this object's registrations, faults and token cache (`state`).
public final class MockSupabase: Sendable {
    package let configuration: MockConfiguration
    package let database: Database
    /// The anon key (a JWT with role `anon`).
    public let anonKey: String
    /// The service-role key (a JWT with role `service_role`; bypasses RLS).
    public let serviceRoleKey: String

    /// Registrations, injected faults, the verified-token cache and the URLProtocol host.
    let state = Guarded(BackendState())
    /// PostgREST query strings already parsed (a pure function of the items).
    let parsedQueries = ParsedQueryCache()
    /// GET plans already built (see `ReadPlanCache`).
    let readPlans = ReadPlanCache()
    /// Rows those plans printed, while unchanged (see `RowTextCache`).
    let rowTexts = RowTextCache()

    /// The backend's own mutable state.
    struct BackendState {
        var functions: [String: (verifyJWT: Bool, handler: FunctionHandler)] = [:]
        /// Database functions by name.
        var rpcs: [String: RPCFunction] = [:]
        /// Faults still to inject, in order.
        var faults: [InjectedFault] = []
        /// Claims of tokens whose signature was verified (expiry is checked on every use).
        var tokenCache: [String: VerifiedToken] = [:]
        /// The token last taken from `tokenCache`: a client repeating its one token is answered by
        /// comparing it, without hashing the whole token again.
        var lastToken: (token: String, verified: VerifiedToken)?
        /// The host this backend answers on in-process, once registered.
        var registeredHost: String?
        /// Whether the `/__admin` routes answer (`adminRoutesEnabled`).
        var adminRoutes = true
    }
    /// GoTrue's state (refresh tokens, OTPs).
    let auth: GoTrueState
    /// GoTrue's e-mail tokens, PKCE flow states and external sign-ins in progress.
    let flows = GoTrueFlows()
    /// Buckets created, changed or deleted through the Storage API.
    let bucketEdits = StorageBucketEdits()
    /// Storage (buckets and objects).
    package let storage: StorageService
    /// Realtime (WebSocket, postgres_changes with RLS, broadcast) served by `HTTPServer(backend:)`.
    package let realtime: RealtimeService
    /// The last fixture load that can be replayed (`seedFixtures`).
    let seedRecording = Guarded<SeedRecording?>(nil)
    deinit {
        if let h = state.withLock({ $0.registeredHost }) { MockURLProtocol.unregister(host: h) }
    }

    /// A backend for an app, seeded with its fixtures.
    package init(configuration: MockConfiguration) throws {
        self.configuration = configuration
        let c = configuration
        database = Database(schema: c.spec.schema, policies: c.spec.policies, clock: c.clock, ids: c.ids)
        let farFuture: JSONValue = .int(4_102_444_800) // 2100-01-01
        anonKey = JWT.sign(["iss": "supabase-demo", "role": "anon", "exp": farFuture], secret: c.jwtSecret)
        serviceRoleKey = JWT.sign(["iss": "supabase-demo", "role": "service_role", "exp": farFuture], secret: c.jwtSecret)
        auth = GoTrueState(
            settings: SessionStore.Settings(
                reuseInterval: TimeInterval(c.refreshTokenReuseInterval), revokedRetention: TimeInterval(c.revokedRefreshTokenRetention),
                revokedCap: c.revokedRefreshTokenCap, endedRetention: TimeInterval(c.accessTokenLifetime)))
        storage = StorageService(buckets: c.spec.buckets)
        realtime = RealtimeService(database: database, jwtSecret: c.jwtSecret, clock: c.clock)
        try seedFixtures()
    }

    /// Loads `Contracts/<app>` and builds a backend for it.
    public convenience init(contracts folder: URL, clock: WallClock = SystemClock(), ids: IDGenerator = SystemIDGenerator()) throws {
        try self.init(configuration: MockConfiguration(spec: try AppSpec.load(folder: folder), clock: clock, ids: ids))
        realtime.publish(try RealtimePublication.load(folder: folder))
    }

    /// Loads the fixtures into the (empty) database: a replay of an earlier identical load when
    /// one was kept (this backend's own first load, for `reset`; or, while `LoadedSpecs` are
    /// bound, another backend's load of equal schema and fixtures) that replays at the clock's
    /// reading now (`SeedRecording.replays`: the reading reached only cells the replay rewrites),
    /// else row by row, recorded for next time when it can be replayed (`SeedRecording`).
    func seedFixtures() throws {
        let spec = configuration.spec
        let now = configuration.clock.now()
        let shared = SeedRecordings.bound(folder: spec.folder)
        if let r = seedRecording.withLock({ $0 }).flatMap({ $0.replays(at: now) ? $0 : nil })
            ?? shared?.recording(schema: spec.schema, fixtures: spec.fixtures, now: now)
        {
            database.replaySeed(r)
            seedRecording.withLock { $0 = r }
            return
        }
        let r = try database.recordingSeed { try loadFixtures() }
        seedRecording.withLock { $0 = r }
        if let r { shared?.keep(r, schema: spec.schema, fixtures: spec.fixtures) }
    }

    /// Loads the fixtures row by row: the personas into `auth.users`, then each table's rows.
    private func loadFixtures() throws {
        let f = configuration.spec.fixtures
        for p in f.personas {
            try database.seed(
                "auth.users",
                rows: [
                    [
                        "id": .string(p.id), "email": .string(p.email.lowercased()),
                        "encrypted_password": .string(GoTrueState.hashPassword(p.password, salt: p.id)),
                        "email_confirmed_at": .string(PGTime.timestamptz(configuration.clock.now())),
                        "raw_app_meta_data": ["provider": "email", "providers": ["email"]],
                        "raw_user_meta_data": p.metadata
                    ]
                ], clockColumns: ["email_confirmed_at"])
        }
        for (table, rows) in f.tables { try database.seed(table, rows: rows) }
    }

    /// Restores the fixtures: every table emptied and re-seeded, sessions and storage cleared.
    /// Registered functions, triggers and views stay.
    public func reset() throws {
        // The verified-token cache stays: a signature's validity depends only on the token and
        // this backend's secret, which never changes, and expiry is checked on every use. (Suites
        // reset after every write; clearing it made each of their requests verify its HMAC again.)
        state.withLock { $0.faults = [] }
        auth.reset()
        flows.reset()
        bucketEdits.reset()
        storage.reset()
        database.truncateAll()
        try seedFixtures()
    }

    // MARK: Registration

    /// Registers an edge function. With `verifyJWT` (Supabase's default) a call without a valid
    /// JWT is refused with 401 before the handler runs.
    package func registerFunction(_ name: String, verifyJWT: Bool = true, _ handler: @escaping FunctionHandler) {
        state.withLock { $0.functions[name] = (verifyJWT, handler) }
    }

    /// Registers a database function for `/rest/v1/rpc/<name>`.
    package func registerRPC(_ function: RPCFunction) {
        state.withLock { $0.rpcs[function.name] = function }
    }

    package func registerTrigger(_ name: String, on table: String, timing: TriggerTiming, events: Set<TriggerEvent>, handler: @escaping TriggerHandler) {
        database.registerTrigger(name, on: table, timing: timing, events: events, handler: handler)
    }

    package func registerView(_ name: String, provider: @escaping ViewProvider) {
        database.registerView(name, provider: provider)
    }

    package var functionNames: [String] { state.withLock { $0.functions.keys.sorted() } }
    /// Names of the registered database functions.
    package var rpcNames: [String] { state.withLock { $0.rpcs.keys.sorted() } }

    /// Injects a fault into matching requests.
    public func inject(_ fault: InjectedFault) { state.withLock { $0.faults.append(fault) } }
    /// Removes every injected fault.
    public func clearFaults() { state.withLock { $0.faults = [] } }

    /// Whether the mock's own `/__admin` routes (reset, inbox) answer (default true). Off, they
    /// answer 404 with Kong's "no Route matched" body, as a real Supabase project does, so
    /// `contracts verify --target` or a team's suite can be tried against the mock as if it were
    /// one (`contracts serve --no-admin`).
    package var adminRoutesEnabled: Bool {
        get { state.withLock { $0.adminRoutes } }
        set { state.withLock { $0.adminRoutes = newValue } }
    }

    // MARK: Tokens

    /// A signed access token for a user, as GoTrue would issue it.
    public func accessToken(for userID: String, email: String? = nil, expiresIn: Int? = nil, extraClaims: [String: JSONValue] = [:]) -> String {
        let now = Int64(configuration.clock.now().timeIntervalSince1970)
        var claims: [String: JSONValue] = [
            "sub": .string(userID), "role": "authenticated", "aud": "authenticated",
            "iat": .int(now), "exp": .int(now + Int64(expiresIn ?? configuration.accessTokenLifetime)),
            "aal": "aal1", "amr": [["method": "password", "timestamp": .int(now)]],
            "session_id": .string(configuration.ids.uuid()), "is_anonymous": false,
            "app_metadata": ["provider": "email", "providers": ["email"]], "user_metadata": [:]
        ]
        if let email { claims["email"] = .string(email) }
        for (k, v) in extraClaims { claims[k] = v }
        return JWT.sign(claims, secret: configuration.jwtSecret)
    }

    public func accessToken(persona name: String) -> String? {
        guard let p = configuration.spec.fixtures.persona(name) else { return nil }
        return accessToken(for: p.id, email: p.email)
    }

    /// A token whose signature was verified: the context it grants and its `exp` claim.
    struct VerifiedToken {
        let auth: AuthContext
        let exp: Double?
    }

    /// Verifies a JWT (signature cached per token; expiry checked on every call).
    package func verify(token: String) throws -> AuthContext {
        let hit = state.withLock { s -> VerifiedToken? in
            if let last = s.lastToken, last.token == token { return last.verified }
            guard let found = s.tokenCache[token] else { return nil }
            s.lastToken = (token, found)
            return found
        }
        if let cached = hit {
            if let exp = cached.exp, configuration.clock.now().timeIntervalSince1970 >= exp { throw JWTError.expired }
            return cached.auth
        }
        let claims = try JWT.verify(token, secret: configuration.jwtSecret, now: configuration.clock.now())
        let auth = AuthContext(role: claims["role"]?.stringValue ?? "anon", claims: claims)
        let verified = VerifiedToken(auth: auth, exp: claims["exp"]?.doubleValue)
        state.withLock {
            if $0.tokenCache.count > 50_000 { $0.tokenCache.removeAll() }
            $0.tokenCache[token] = verified
        }
        return auth
    }

    // MARK: Dispatch

    /// Handles one request. Never throws for bad input: every error is a response in the
    /// service's own error shape. Throws `InjectedNetworkError` only for an injected network fault.
    public func handle(_ request: HTTPRequest) throws -> HTTPResponse {
        if let fault = takeFault(request) {
            switch fault {
            case .networkError: throw InjectedNetworkError()
            case .response(let r): return r
            }
        }
        let path = request.path
        // The gateway's CORS plugin answers a preflight (OPTIONS with Origin and
        // Access-Control-Request-Method, Kong's cors handler) itself; any other OPTIONS to a
        // PostgREST relation or its root reaches PostgREST, which answers with `Allow`.
        if request.method == "OPTIONS" {
            let preflight = request.headers["Origin"] != nil && request.headers["Access-Control-Request-Method"] != nil
            if preflight || !path.hasPrefix("/rest/v1") || path.hasPrefix("/rest/v1/rpc/") { return corsPreflight(request) }
        }
        var response: HTTPResponse
        if path.hasPrefix("/rest/v1") {
            response = handleREST(request)
        } else if path.hasPrefix("/auth/v1") {
            response = handleAuth(request)
        } else if path.hasPrefix("/functions/v1/") {
            response = handleFunction(request)
        } else if path.hasPrefix("/storage/v1") {
            response = handleStorage(request)
        } else if path.hasPrefix("/__admin/") && adminRoutesEnabled {
            response = handleAdminRoute(request)
        } else if path == "/realtime/v1/api/broadcast" {
            response = realtime.handleBroadcastAPI(request)
        } else {
            response = .json(404, ["message": "no Route matched with those values"])
        }
        if request.headers["Origin"] != nil { response.headers["Access-Control-Allow-Origin"] = "*" }
        return response
    }

    func takeFault(_ request: HTTPRequest) -> InjectedFault.Kind? {
        state.withLock { s in
            guard !s.faults.isEmpty else { return nil }
            for (i, f) in s.faults.enumerated() where (f.method == nil || f.method == request.method) && request.path.hasPrefix(f.pathPrefix) {
                if let r = f.remaining {
                    if r <= 1 { s.faults.remove(at: i) } else { s.faults[i].remaining = r - 1 }
                }
                return f.kind
            }
            return nil
        }
    }

    func corsPreflight(_ request: HTTPRequest) -> HTTPResponse {
        HTTPResponse(
            status: 200,
            headers: [
                "Access-Control-Allow-Origin": "*",
                "Access-Control-Allow-Methods": "GET, POST, PATCH, PUT, DELETE, OPTIONS, HEAD",
                "Access-Control-Allow-Headers": request.headers["Access-Control-Request-Headers"]
                    ?? "authorization, apikey, content-type, prefer, range, accept-profile, content-profile, x-client-info",
                "Access-Control-Max-Age": "3600"
            ])
    }

    /// Supabase's API gateway requires an `apikey` header (or query parameter) that is one of the
    /// project's keys: the anon or the service-role key, compared as strings (the gateway's
    /// key-auth knows the keys, not JWTs), so another validly signed JWT is refused too. The 401
    /// body is the gateway's, as `supabase start` and hosted projects answer it (quoted in
    /// nuxt-modules/supabase#195 and supabase-community/supabase-csharp#108).
    func checkAPIKey(_ request: HTTPRequest) -> HTTPResponse? {
        guard let key = request.headers["apikey"] ?? request.queryValue("apikey"), !key.isEmpty else {
            return .json(401, ["message": "No API key found in request", "hint": "No `apikey` request header or url param was found."])
        }
        guard key == anonKey || key == serviceRoleKey else {
            return .json(401, ["message": "Invalid API key", "hint": "Double check your Supabase `anon` or `service_role` API key."])
        }
        return nil
    }

    /// The bearer token of a request: Authorization, else the apikey.
    func bearer(_ request: HTTPRequest) -> String? {
        if let a = request.headers["Authorization"] {
            // ASCII-only scanning: this runs on every request (Foundation's trimming bridges to NSString).
            let u = a.utf8
            guard u.count > 7, let space = u.firstIndex(of: 0x20) else { return "" }
            let scheme = a[..<space]
            guard scheme.utf8.count == 6, String(scheme).caseInsensitiveEquals("bearer") else { return "" }
            var start = u.index(after: space), end = u.endIndex
            while start < end, u[start] == 0x20 || u[start] == 0x09 { start = u.index(after: start) }
            while end > start, u[u.index(before: end)] == 0x20 || u[u.index(before: end)] == 0x09 { end = u.index(before: end) }
            return String(a[start..<end]) // present but not a bearer token gives ""
        }
        return request.headers["apikey"] ?? request.queryValue("apikey")
    }

    func handleFunction(_ request: HTTPRequest) -> HTTPResponse {
        let name = String(request.path.dropFirst("/functions/v1/".count).split(separator: "/").first ?? "")
        let fn = state.withLock { $0.functions[name] }
        guard let fn else {
            return .json(404, ["code": "NOT_FOUND", "message": "Requested function was not found"])
        }
        var ctx = AuthContext.anon
        if fn.verifyJWT {
            // The scheme compared as ASCII: lower-casing the whole header copied the token.
            guard let a = request.headers["Authorization"], String(a.utf8.prefix(7)).map({ $0.caseInsensitiveEquals("bearer ") }) == true else {
                return .json(401, ["code": 401, "message": "Missing authorization header"])
            }
            do { ctx = try verify(token: String(a.dropFirst(7))) } catch {
                return .json(401, ["code": 401, "message": "Invalid JWT"])
            }
        } else if let t = bearer(request), let c = try? verify(token: t) {
            ctx = c
        }
        do {
            var r = try fn.handler(FunctionCall(request: request, auth: ctx, backend: self))
            if r.headers["Content-Type"] == nil { r.headers["Content-Type"] = "application/json" }
            return r
        } catch let e as PostgresError {
            return .json(500, ["error": .string(e.message), "code": .string(e.code)])
        } catch let e as JSONParseError {
            return .json(400, ["error": .string("Invalid JSON body: \(e.reason)")])
        } catch {
            return .json(500, ["error": .string("\(error)")])
        }
    }
}
