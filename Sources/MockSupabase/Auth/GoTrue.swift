import Foundation

/// GoTrue's mutable state: sessions, refresh tokens and one-time passwords, in a `SessionStore`
/// reachable only through its `Guarded` lock (a leaf: nothing else is called while it is held).
final class GoTrueState: Sendable {
    /// Sessions, refresh tokens and OTPs.
    let store: Guarded<SessionStore>

    init(settings: SessionStore.Settings) { store = Guarded(SessionStore(settings: settings)) }

    func reset() { store.withLock { $0 = SessionStore(settings: $0.settings) } }

    /// A salted SHA-256 stand-in for bcrypt (the mock never stores plain passwords).
    static func hashPassword(_ password: String, salt: String) -> String {
        "sha256$" + salt + "$" + SHA256.hash(Array((salt + ":" + password).utf8)).map { String(format: "%02x", $0) }.joined()
    }

    static func checkPassword(_ password: String, hash: String) -> Bool {
        let parts = hash.split(separator: "$", maxSplits: 2)
        guard parts.count == 3 else { return false }
        return hashPassword(password, salt: String(parts[1])) == hash
    }
}

extension MockSupabase {
    /// A GoTrue error, built in the legacy shape `{"code","error_code","msg"}` with `x-sb-error-code`;
    /// `handleAuth` re-renders it in the shape the request's API version selects
    /// (`GoTrueError.response`).
    func authError(_ status: Int, _ errorCode: String, _ msg: String, weakPasswordReasons: [String]? = nil) -> HTTPResponse {
        GoTrueError(status: status, code: errorCode, message: msg, weakPasswordReasons: weakPasswordReasons).response(.initial)
    }

    /// A body that is not a JSON object.
    var badJSON: HTTPResponse { authError(400, "bad_json", "Could not parse request body as JSON: invalid character") }

    /// The `weak_password` error when a new password is shorter than the app's minimum, else nil.
    func weakPassword(_ password: String) -> HTTPResponse? {
        let minimum = configuration.minimumPasswordLength
        guard password.count < minimum else { return nil }
        return authError(422, "weak_password", "Password should be at least \(minimum) characters.", weakPasswordReasons: ["length"])
    }

    func handleAuth(_ request: HTTPRequest) -> HTTPResponse {
        shapeAuthError(routeAuth(request), for: request)
    }

    func routeAuth(_ request: HTTPRequest) -> HTTPResponse {
        let path = String(request.path.dropFirst("/auth/v1".count))
        if path == "/health" { return .json(200, ["version": "v2.170.0", "name": "GoTrue", "description": "SupaContracts mock GoTrue"]) }
        // Supabase's gateway (kong.yml: auth-v1-open, -open-callback, -open-authorize) lets the
        // e-mail link, the OAuth start and the provider's callback through without an apikey.
        let open = request.method == "GET" && ["/verify", "/authorize", "/callback"].contains(path)
        if !open, let denied = checkAPIKey(request) { return denied }
        switch (request.method, path) {
        case ("GET", "/settings"): return settings()
        case ("POST", "/signup"): return signup(request)
        case ("POST", "/token"): return token(request)
        case ("POST", "/logout"): return logout(request)
        case ("GET", "/user"): return getUser(request)
        case ("PUT", "/user"): return updateUser(request)
        case ("POST", "/otp"), ("POST", "/magiclink"): return sendOTP(request)
        case ("POST", "/verify"): return verifyOTP(request)
        case ("GET", "/verify"): return verifyLink(request)
        case ("POST", "/recover"): return recover(request)
        case ("POST", "/resend"): return resend(request)
        case ("GET", "/reauthenticate"): return reauthenticate(request)
        case ("GET", "/authorize"): return authorize(request)
        case ("GET", "/callback"), ("POST", "/callback"): return externalCallback(request)
        case ("POST", "/admin/generate_link"): return adminGenerateLink(request)
        case (_, _) where path.hasPrefix("/admin/users"):
            if let r = routeAdminUsers(request, path: path) { return r }
            return HTTPResponse(status: 405)
        default:
            // An unknown route reaches chi's default NotFound handler: plain text, no GoTrue body.
            return HTTPResponse(status: 404, headers: ["Content-Type": "text/plain; charset=utf-8"], body: Data("404 page not found\n".utf8))
        }
    }

    func authBody(_ request: HTTPRequest) -> [String: JSONValue]? {
        if request.body.isEmpty { return [:] }
        guard case .object(let o)? = try? JSONValue.parse(request.body) else { return nil }
        return o
    }

    static func validEmail(_ s: String) -> Bool {
        let parts = s.split(separator: "@", omittingEmptySubsequences: false)
        return parts.count == 2 && !parts[0].isEmpty && parts[1].contains(".") && !parts[1].hasPrefix(".") && !parts[1].hasSuffix(".")
            && !s.contains(" ") && s.count <= 255
    }

    func iso(_ date: Date) -> String { PGTime.formatTimestamp(PGTime.micros(date), withZone: false) + "Z" }

    /// The user object GoTrue returns, from an auth.users row.
    func userJSON(_ row: [String: JSONValue]) -> JSONValue {
        func ts(_ k: String) -> JSONValue {
            guard let s = row[k]?.stringValue, let us = PGTime.parseTimestamp(s, assumeUTC: true) else { return .null }
            return .string(iso(PGTime.date(micros: us)))
        }
        let id = row["id"] ?? .null
        let email = row["email"] ?? .null
        let anonymous = row["is_anonymous"]?.boolValue ?? false
        var user: JSONValue = [
            "id": id, "aud": row["aud"] ?? "authenticated", "role": row["role"] ?? "authenticated",
            "email": email, "email_confirmed_at": ts("email_confirmed_at"), "phone": .string(row["phone"]?.stringValue ?? ""),
            "confirmed_at": ts("email_confirmed_at"), "last_sign_in_at": ts("last_sign_in_at"),
            "app_metadata": row["raw_app_meta_data"] ?? ["provider": "email", "providers": ["email"]],
            "user_metadata": row["raw_user_meta_data"] ?? [:],
            "identities": [
                [
                    "identity_id": id, "id": id, "user_id": id, "provider": "email",
                    "identity_data": ["email": email, "email_verified": true, "phone_verified": false, "sub": id],
                    "created_at": ts("created_at"), "updated_at": ts("updated_at"), "last_sign_in_at": ts("last_sign_in_at"), "email": email
                ]
            ],
            "created_at": ts("created_at"), "updated_at": ts("updated_at"), "is_anonymous": .bool(anonymous)
        ]
        if case .object(var o) = user {
            if anonymous { o["identities"] = []; o["email"] = ""; o["app_metadata"] = row["raw_app_meta_data"] ?? [:] }
            let uid = id.stringValue ?? ""
            if let d = emailSentAt(userID: uid, kind: .confirmation) { o["confirmation_sent_at"] = .string(iso(d)) }
            if let d = emailSentAt(userID: uid, kind: .recovery) { o["recovery_sent_at"] = .string(iso(d)) }
            if let d = emailSentAt(userID: uid, kind: .reauthentication) { o["reauthentication_sent_at"] = .string(iso(d)) }
            user = .object(o)
        }
        return user
    }

    func findUser(email: String) -> [String: JSONValue]? {
        (try? database.rows("auth.users", where: .eq("email", email.lowercased())))?.first
    }

    func findUser(id: String) -> [String: JSONValue]? {
        guard SQLValue.canonicalUUID(id) != nil else { return nil }
        return (try? database.rows("auth.users", where: .eq("id", id)))?.first
    }

    /// Issues a session (access + single-use refresh token) for a user row: a new session, or
    /// `refreshed` (the session and refresh token a refresh-token grant settled on).
    func issueSession(_ user: [String: JSONValue], method: String = "password", refreshed: (sessionID: String, token: String)? = nil) -> HTTPResponse {
        let id = user["id"]?.stringValue ?? ""
        let now = configuration.clock.now()
        let nowS = Int64(now.timeIntervalSince1970)
        let sessionID = refreshed?.sessionID ?? configuration.ids.uuid()
        let life = Int64(configuration.accessTokenLifetime)
        let claims: [String: JSONValue] = [
            "sub": .string(id), "aud": "authenticated", "role": "authenticated", "email": user["email"] ?? .null,
            "phone": "", "iat": .int(nowS), "exp": .int(nowS + life), "session_id": .string(sessionID),
            "aal": "aal1", "amr": [["method": .string(method), "timestamp": .int(nowS)]], "is_anonymous": .bool(user["is_anonymous"]?.boolValue ?? false),
            "app_metadata": user["raw_app_meta_data"] ?? [:], "user_metadata": user["raw_user_meta_data"] ?? [:],
            "iss": "http://127.0.0.1/auth/v1"
        ]
        let access = JWT.sign(claims, secret: configuration.jwtSecret)
        let refresh: String
        if let refreshed {
            refresh = refreshed.token
        } else {
            refresh = newRefreshTokenValue()
            auth.store.withLock { $0.startSession(id: sessionID, userID: id, token: refresh, now: now) }
        }
        _ = try? database.update(
            "auth.users", set: ["last_sign_in_at": .string(PGTime.timestamptz(now))],
            where: .eq("id", id))
        let fresh = findUser(id: id) ?? user
        return .json(
            200,
            [
                "access_token": .string(access), "token_type": "bearer", "expires_in": .int(life), "expires_at": .int(nowS + life),
                "refresh_token": .string(refresh), "user": userJSON(fresh)
            ], headers: ["Content-Type": "application/json"])
    }

    /// A new v1 refresh token: 12 characters of lower-case base32, as GoTrue's
    /// `crypto.SecureAlphanumeric(12)` makes them (supabase/auth internal/crypto/crypto.go).
    func newRefreshTokenValue() -> String {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz234567".utf8)
        return String(decoding: configuration.ids.bytes(12).map { alphabet[Int($0) & 31] }, as: UTF8.self)
    }

    /// Whether a refresh token has the only shape this GoTrue issues: `^[a-z0-9]{12}$`
    /// (supabase/auth internal/api/token_refresh.go, `legacyRefreshTokenPattern`; longer tokens
    /// must parse as v2 tokens, which this mock never issues).
    static func wellFormedRefreshToken(_ s: String) -> Bool {
        s.utf8.count == 12 && s.utf8.allSatisfy { ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) }
    }

    /// `POST /signup` (`signup.go`): without e-mail and phone an anonymous sign-in; with
    /// auto-confirm a session at once, otherwise the user (no session) and a confirmation e-mail.
    func signup(_ request: HTTPRequest) -> HTTPResponse {
        guard let body = authBody(request) else { return badJSON }
        let rawEmail = body["email"]?.stringValue?.trimmingCharacters(in: .whitespaces).lowercased() ?? ""
        if rawEmail.isEmpty && (body["phone"]?.stringValue ?? "").isEmpty { return signupAnonymously(body) }
        guard let password = body["password"]?.stringValue, !password.isEmpty else {
            return authError(400, "validation_failed", "Signup requires a valid password")
        }
        let pkce: (challenge: String, method: String)?
        do { pkce = try pkceParameters(body).get() } catch { return error.response }
        let email = rawEmail
        guard MockSupabase.validEmail(email) else {
            return authError(400, "validation_failed", "Unable to validate email address: invalid format")
        }
        if let weak = weakPassword(password) { return weak }
        let autoconfirm = authSettings.mailerAutoconfirm
        var user = findUser(email: email)
        if let existing = user {
            if autoconfirm { return authError(422, "user_already_exists", "User already registered") }
            if isConfirmed(existing) {
                // sanitizeUser: a look-alike user so the answer does not reveal the address is taken.
                let now = iso(configuration.clock.now())
                return .json(
                    200,
                    [
                        "id": .string(configuration.ids.uuid()), "aud": "authenticated", "role": "authenticated", "email": .string(email),
                        "phone": "", "confirmation_sent_at": .string(now), "app_metadata": ["provider": "email", "providers": ["email"]],
                        "user_metadata": body["data"] ?? [:], "identities": [], "created_at": .string(now), "updated_at": .string(now),
                        "is_anonymous": false
                    ], headers: ["Content-Type": "application/json"])
            }
        } else {
            let id = configuration.ids.uuid()
            var row: [String: JSONValue] = [
                "id": .string(id), "email": .string(email), "encrypted_password": .string(GoTrueState.hashPassword(password, salt: id)),
                "raw_app_meta_data": ["provider": "email", "providers": ["email"]],
                "raw_user_meta_data": body["data"] ?? body["options"]?["data"] ?? [:]
            ]
            if autoconfirm { row["email_confirmed_at"] = .string(nowTimestamp()) }
            do {
                // The existence check and the insert are one statement, so two sign-ups racing for
                // one email give one user and one `user_already_exists`.
                let created = try database.atomically { () throws -> Bool in
                    if findUser(email: email) != nil { return false }
                    _ = try database.insert("auth.users", [row], as: .serviceRole)
                    return true
                }
                if !created { return authError(422, "user_already_exists", "User already registered") }
            } catch {
                // A failing trigger on auth.users surfaces as GoTrue's generic database error.
                return authError(500, "unexpected_failure", "Database error saving new user")
            }
            user = findUser(id: id)
        }
        guard let user, let id = user["id"]?.stringValue else { return authError(500, "unexpected_failure", "Database error saving new user") }
        if autoconfirm { return issueSession(user) }
        if let p = pkce { createFlowState(userID: id, pkce: p, method: "email/signup", provider: "email") }
        if let e = sendEmail(user: user, kind: .confirmation, type: "signup", pkce: pkce != nil, redirectTo: referrer(request)) { return e }
        return .json(200, userJSON(findUser(id: id) ?? user), headers: ["Content-Type": "application/json"])
    }

    /// `SignupAnonymously`: a user with no e-mail and a session, when the app enables it.
    func signupAnonymously(_ body: [String: JSONValue]) -> HTTPResponse {
        guard authSettings.anonymousSignIns else { return authError(422, "anonymous_provider_disabled", "Anonymous sign-ins are disabled") }
        let id = configuration.ids.uuid()
        do {
            _ = try database.insert(
                "auth.users",
                [
                    [
                        "id": .string(id), "is_anonymous": true, "raw_app_meta_data": [:],
                        "raw_user_meta_data": body["data"] ?? body["options"]?["data"] ?? [:]
                    ]
                ], as: .serviceRole)
        } catch { return authError(500, "unexpected_failure", "Database error creating anonymous user") }
        guard let user = findUser(id: id) else { return authError(500, "unexpected_failure", "Database error creating anonymous user") }
        return issueSession(user, method: "anonymous")
    }

    func token(_ request: HTTPRequest) -> HTTPResponse {
        guard let body = authBody(request) else { return badJSON }
        switch request.queryValue("grant_type") ?? "" {
        case "password":
            guard let email = body["email"]?.stringValue?.lowercased(), let password = body["password"]?.stringValue else {
                return authError(400, "validation_failed", "missing email or phone")
            }
            guard let user = findUser(email: email), let hash = user["encrypted_password"]?.stringValue,
                GoTrueState.checkPassword(password, hash: hash)
            else {
                return authError(400, "invalid_credentials", "Invalid login credentials")
            }
            if !isConfirmed(user) { return authError(400, "email_not_confirmed", "Email not confirmed") }
            return issueSession(user)
        case "pkce":
            return pkceGrant(body)
        case "id_token":
            return idTokenGrant(body)
        case "refresh_token":
            // RefreshTokenGrantParams.Validate runs before any lookup (token_refresh.go).
            guard let rt = body["refresh_token"]?.stringValue, MockSupabase.wellFormedRefreshToken(rt) else {
                return authError(400, "validation_failed", "Refresh token is not valid")
            }
            let fresh = newRefreshTokenValue()
            let now = configuration.clock.now()
            switch auth.store.withLock({ $0.refresh(rt, fresh: fresh, now: now) }) {
            case .notFound:
                return authError(400, "refresh_token_not_found", "Invalid Refresh Token: Refresh Token Not Found")
            case .alreadyUsed:
                return authError(400, "refresh_token_already_used", "Invalid Refresh Token: Already Used")
            case .issue(let userID, let sessionID, let token):
                guard let user = findUser(id: userID) else {
                    return authError(400, "refresh_token_not_found", "Invalid Refresh Token: Refresh Token Not Found")
                }
                return issueSession(user, refreshed: (sessionID, token))
            }
        default:
            // token.go: every grant type it does not know is 400 invalid_credentials "unsupported_grant_type".
            return authError(400, "invalid_credentials", "unsupported_grant_type")
        }
    }

    /// `route`'s answer for the user of a request's bearer token, or GoTrue's error response.
    func authed(_ request: HTTPRequest, _ route: (AuthContext, [String: JSONValue]) -> HTTPResponse) -> HTTPResponse {
        switch authedUser(request) {
        case .failure(let r): return r.response
        case .success(let (ctx, user)): return route(ctx, user)
        }
    }

    /// The user of a request's bearer token, or GoTrue's error response.
    func authedUser(_ request: HTTPRequest) -> Result<(AuthContext, [String: JSONValue]), HTTPResponseBox> {
        guard let a = request.headers["Authorization"], a.lowercased().hasPrefix("bearer "), a.count > 7 else {
            return .failure(HTTPResponseBox(authError(401, "no_authorization", "This endpoint requires a valid Bearer token")))
        }
        let ctx: AuthContext
        do { ctx = try verify(token: String(a.dropFirst(7))) } catch let e as JWTError {
            let why = e == .expired ? "token has invalid claims: token is expired" : "token signature is invalid"
            return .failure(HTTPResponseBox(authError(403, "bad_jwt", "invalid JWT: unable to parse or verify signature, \(why)")))
        } catch {
            return .failure(HTTPResponseBox(authError(403, "bad_jwt", "invalid JWT")))
        }
        guard let uid = ctx.userID, let user = findUser(id: uid) else {
            return .failure(HTTPResponseBox(authError(403, "user_not_found", "User from sub claim in JWT does not exist")))
        }
        if let sid = ctx.claims["session_id"]?.stringValue {
            // Tokens minted directly by tests (`accessToken(for:)`) carry a session id GoTrue never
            // issued; those are accepted. A session GoTrue issued and then ended is refused.
            if auth.store.withLock({ $0.hasEnded(sid) }) {
                return .failure(HTTPResponseBox(authError(403, "session_not_found", "Session from session_id claim in JWT does not exist")))
            }
        }
        return .success((ctx, user))
    }

    func logout(_ request: HTTPRequest) -> HTTPResponse {
        authed(request) { ctx, _ in
            let scope = request.queryValue("scope") ?? "global"
            let sid = ctx.claims["session_id"]?.stringValue
            let now = configuration.clock.now()
            // Logging out deletes the sessions, and their refresh tokens with them (logout.go).
            if let uid = ctx.userID {
                auth.store.withLock {
                    $0.endSessions(ofUser: uid, now: now) { id in scope == "global" || (scope == "local" && id == sid) || (scope == "others" && id != sid) }
                }
            }
            return HTTPResponse(status: 204)
        }
    }

    func getUser(_ request: HTTPRequest) -> HTTPResponse {
        authed(request) { _, user in .json(200, userJSON(user), headers: ["Content-Type": "application/json"]) }
    }

    func updateUser(_ request: HTTPRequest) -> HTTPResponse {
        authed(request) { ctx, user in
            guard let body = authBody(request) else { return badJSON }
            if let needed = checkReauthentication(body, ctx: ctx, user: user) { return needed }
            var set: [String: JSONValue] = [:]
            let id = user["id"]?.stringValue ?? ""
            if let email = body["email"]?.stringValue?.lowercased() {
                guard MockSupabase.validEmail(email) else { return authError(400, "validation_failed", "Unable to validate email address: invalid format") }
                if let other = findUser(email: email), other["id"] != user["id"] {
                    return authError(422, "email_exists", "A user with this email address has already been registered")
                }
                set["email"] = .string(email)
            }
            if let password = body["password"]?.stringValue {
                if let weak = weakPassword(password) { return weak }
                if let hash = user["encrypted_password"]?.stringValue, GoTrueState.checkPassword(password, hash: hash) {
                    return authError(422, "same_password", "New password should be different from the old password.")
                }
                set["encrypted_password"] = .string(GoTrueState.hashPassword(password, salt: id))
            }
            if let data = body["data"] {
                guard case .object(let patch) = data else { return authError(400, "validation_failed", "data must be an object") }
                var meta = user["raw_user_meta_data"]?.objectValue ?? [:]
                for (k, v) in patch { meta[k] = v }
                set["raw_user_meta_data"] = .object(meta)
            }
            set["updated_at"] = .string(PGTime.timestamptz(configuration.clock.now()))
            do { _ = try database.update("auth.users", set: set, where: .eq("id", id)) } catch {
                return authError(500, "unexpected_failure", "Database error updating user")
            }
            return .json(200, userJSON(findUser(id: id) ?? user), headers: ["Content-Type": "application/json"])
        }
    }

    /// The last one-time password e-mailed to an address while it is still unused (the mock's
    /// stand-in for an inbox; a code used or replaced by a later e-mail is gone).
    package func lastOTP(for email: String) -> String? {
        guard let e = lastEmail(to: email) else { return nil }
        let pending = flows.withLock { held in held.tokens.values.contains { $0.values.contains { $0.token == e.tokenHash } } }
        return pending ? e.otp : nil
    }
}

/// A response carried through `Result`'s failure side.
struct HTTPResponseBox: Error { let response: HTTPResponse; init(_ r: HTTPResponse) { response = r } }
