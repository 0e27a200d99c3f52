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
    /// A GoTrue error body `{"code","error_code","msg"}`.
    func authError(_ status: Int, _ errorCode: String, _ msg: String, extra: [String: JSONValue] = [:]) -> HTTPResponse {
        var o: [String: JSONValue] = ["code": .int(Int64(status)), "error_code": .string(errorCode), "msg": .string(msg)]
        for (k, v) in extra { o[k] = v }
        return .json(status, .object(o), headers: ["Content-Type": "application/json"])
    }

    func handleAuth(_ request: HTTPRequest) -> HTTPResponse {
        let path = String(request.path.dropFirst("/auth/v1".count))
        if path == "/health" { return .json(200, ["version": "v2.170.0", "name": "GoTrue", "description": "SupaContracts mock GoTrue"]) }
        if let denied = checkAPIKey(request) { return denied }
        switch (request.method, path) {
        case ("GET", "/settings"):
            return .json(200, ["external": ["email": true, "phone": false], "disable_signup": false, "mailer_autoconfirm": true,
                               "phone_autoconfirm": false, "sms_provider": "", "saml_enabled": false])
        case ("POST", "/signup"): return signup(request)
        case ("POST", "/token"): return token(request)
        case ("POST", "/logout"): return logout(request)
        case ("GET", "/user"): return getUser(request)
        case ("PUT", "/user"): return updateUser(request)
        case ("POST", "/otp"), ("POST", "/magiclink"): return sendOTP(request)
        case ("POST", "/verify"): return verifyOTP(request)
        default:
            return authError(404, "not_found", "Not Found")
        }
    }

    func authBody(_ request: HTTPRequest) -> [String: JSONValue]? {
        if request.body.isEmpty { return [:] }
        guard case .object(let o)? = try? JSONValue.parse(request.body) else { return nil }
        return o
    }

    static func validEmail(_ s: String) -> Bool {
        let parts = s.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, parts[1].contains("."), !parts[1].hasPrefix("."), !parts[1].hasSuffix("."),
              !s.contains(" "), s.count <= 255 else { return false }
        return true
    }

    func iso(_ date: Date) -> String {
        let us = PGTime.micros(date)
        var s = PGTime.formatTimestamp(us, withZone: false)
        s += "Z"
        return s
    }

    /// The user object GoTrue returns, from an auth.users row.
    func userJSON(_ row: [String: JSONValue]) -> JSONValue {
        func ts(_ k: String) -> JSONValue {
            guard let s = row[k]?.stringValue, let us = PGTime.parseTimestamp(s, assumeUTC: true) else { return .null }
            return .string(iso(PGTime.date(micros: us)))
        }
        let id = row["id"] ?? .null
        let email = row["email"] ?? .null
        return [
            "id": id, "aud": row["aud"] ?? "authenticated", "role": row["role"] ?? "authenticated",
            "email": email, "email_confirmed_at": ts("email_confirmed_at"), "phone": .string(row["phone"]?.stringValue ?? ""),
            "confirmed_at": ts("email_confirmed_at"), "last_sign_in_at": ts("last_sign_in_at"),
            "app_metadata": row["raw_app_meta_data"] ?? ["provider": "email", "providers": ["email"]],
            "user_metadata": row["raw_user_meta_data"] ?? [:],
            "identities": [[
                "identity_id": id, "id": id, "user_id": id, "provider": "email",
                "identity_data": ["email": email, "email_verified": true, "phone_verified": false, "sub": id],
                "created_at": ts("created_at"), "updated_at": ts("updated_at"), "last_sign_in_at": ts("last_sign_in_at"), "email": email,
            ]],
            "created_at": ts("created_at"), "updated_at": ts("updated_at"), "is_anonymous": false,
        ]
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
            "aal": "aal1", "amr": [["method": .string(method), "timestamp": .int(nowS)]], "is_anonymous": false,
            "app_metadata": user["raw_app_meta_data"] ?? [:], "user_metadata": user["raw_user_meta_data"] ?? [:],
            "iss": "http://127.0.0.1/auth/v1",
        ]
        let access = JWT.sign(claims, secret: configuration.jwtSecret)
        let refresh: String
        if let refreshed {
            refresh = refreshed.token
        } else {
            refresh = newRefreshTokenValue()
            auth.store.withLock { $0.startSession(id: sessionID, userID: id, token: refresh, now: now) }
        }
        _ = try? database.update("auth.users", set: ["last_sign_in_at": .string(PGTime.formatTimestamp(PGTime.micros(now), withZone: true))],
                                 where: .eq("id", id))
        let fresh = findUser(id: id) ?? user
        return .json(200, [
            "access_token": .string(access), "token_type": "bearer", "expires_in": .int(life), "expires_at": .int(nowS + life),
            "refresh_token": .string(refresh), "user": userJSON(fresh),
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

    func signup(_ request: HTTPRequest) -> HTTPResponse {
        guard let body = authBody(request) else { return authError(400, "bad_json", "Could not parse request body as JSON: invalid character") }
        guard let email = body["email"]?.stringValue?.trimmingCharacters(in: .whitespaces).lowercased(), !email.isEmpty else {
            return authError(400, "validation_failed", "To signup, please provide your email")
        }
        guard MockSupabase.validEmail(email) else {
            return authError(400, "validation_failed", "Unable to validate email address: invalid format")
        }
        guard let password = body["password"]?.stringValue, !password.isEmpty else {
            return authError(422, "validation_failed", "Signup requires a valid password")
        }
        if password.count < configuration.minimumPasswordLength {
            return authError(422, "weak_password", "Password should be at least \(configuration.minimumPasswordLength) characters.",
                             extra: ["weak_password": ["reasons": ["length"]]])
        }
        let id = configuration.ids.uuid()
        let now = PGTime.formatTimestamp(PGTime.micros(configuration.clock.now()), withZone: true)
        let hash = GoTrueState.hashPassword(password, salt: id)
        do {
            // The existence check and the insert are one statement, so two sign-ups racing for
            // one email give one user and one `user_already_exists`.
            let created = try database.atomically { () throws -> Bool in
                if findUser(email: email) != nil { return false }
                _ = try database.insert("auth.users", [[
                    "id": .string(id), "email": .string(email), "encrypted_password": .string(hash),
                    "email_confirmed_at": .string(now), "raw_app_meta_data": ["provider": "email", "providers": ["email"]],
                    "raw_user_meta_data": body["data"] ?? body["options"]?["data"] ?? [:],
                ]], as: .serviceRole)
                return true
            }
            if !created { return authError(422, "user_already_exists", "User already registered") }
        } catch let e as PostgresError {
            // A failing trigger on auth.users surfaces as GoTrue's generic database error.
            return authError(500, "unexpected_failure", "Database error saving new user", extra: ["details": .string(e.description)])
        } catch {
            return authError(500, "unexpected_failure", "Database error saving new user")
        }
        guard let user = findUser(id: id) else { return authError(500, "unexpected_failure", "Database error saving new user") }
        return issueSession(user)
    }

    func token(_ request: HTTPRequest) -> HTTPResponse {
        guard let body = authBody(request) else { return authError(400, "bad_json", "Could not parse request body as JSON: invalid character") }
        switch request.queryValue("grant_type") ?? "" {
        case "password":
            guard let email = body["email"]?.stringValue?.lowercased(), let password = body["password"]?.stringValue else {
                return authError(400, "validation_failed", "missing email or phone")
            }
            guard let user = findUser(email: email), let hash = user["encrypted_password"]?.stringValue,
                  GoTrueState.checkPassword(password, hash: hash) else {
                return authError(400, "invalid_credentials", "Invalid login credentials")
            }
            return issueSession(user)
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
                guard let user = findUser(id: userID) else { return authError(400, "refresh_token_not_found", "Invalid Refresh Token: Refresh Token Not Found") }
                return issueSession(user, refreshed: (sessionID, token))
            }
        case let other:
            return authError(400, "validation_failed", other.isEmpty ? "unsupported_grant_type" : "unsupported_grant_type: \(other)")
        }
    }

    /// The user of a request's bearer token, or GoTrue's error response.
    func authedUser(_ request: HTTPRequest) -> Result<(AuthContext, [String: JSONValue]), HTTPResponseBox> {
        guard let a = request.headers["Authorization"], a.lowercased().hasPrefix("bearer "), a.count > 7 else {
            return .failure(HTTPResponseBox(authError(401, "no_authorization", "This endpoint requires a Bearer token")))
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
            if auth.store.withLock({ $0.hasEnded(sid) }) { return .failure(HTTPResponseBox(authError(403, "session_not_found", "Session from session_id claim in JWT does not exist"))) }
        }
        return .success((ctx, user))
    }

    func logout(_ request: HTTPRequest) -> HTTPResponse {
        switch authedUser(request) {
        case .failure(let r): return r.response
        case .success(let (ctx, _)):
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
        switch authedUser(request) {
        case .failure(let r): return r.response
        case .success(let (_, user)): return .json(200, userJSON(user), headers: ["Content-Type": "application/json"])
        }
    }

    func updateUser(_ request: HTTPRequest) -> HTTPResponse {
        switch authedUser(request) {
        case .failure(let r): return r.response
        case .success(let (_, user)):
            guard let body = authBody(request) else { return authError(400, "bad_json", "Could not parse request body as JSON: invalid character") }
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
                if password.count < configuration.minimumPasswordLength {
                    return authError(422, "weak_password", "Password should be at least \(configuration.minimumPasswordLength) characters.",
                                     extra: ["weak_password": ["reasons": ["length"]]])
                }
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
            set["updated_at"] = .string(PGTime.formatTimestamp(PGTime.micros(configuration.clock.now()), withZone: true))
            do { _ = try database.update("auth.users", set: set, where: .eq("id", id)) } catch {
                return authError(500, "unexpected_failure", "Database error updating user")
            }
            return .json(200, userJSON(findUser(id: id) ?? user), headers: ["Content-Type": "application/json"])
        }
    }

    /// The last one-time password sent to an email (the mock's stand-in for an inbox).
    public func lastOTP(for email: String) -> String? {
        auth.store.withLock { $0.otps[email.lowercased()]?.token }
    }

    func sendOTP(_ request: HTTPRequest) -> HTTPResponse {
        guard let body = authBody(request) else { return authError(400, "bad_json", "Could not parse request body as JSON: invalid character") }
        guard let email = body["email"]?.stringValue?.lowercased(), MockSupabase.validEmail(email) else {
            return authError(400, "validation_failed", "Unable to validate email address: invalid format")
        }
        let create = body["create_user"]?.boolValue ?? true
        let newID = configuration.ids.uuid()
        let user: [String: JSONValue]?
        do {
            // Looked up and, when allowed, created in one statement (concurrent requests make one user).
            user = try database.atomically { () throws -> [String: JSONValue]? in
                if let existing = findUser(email: email) { return existing }
                guard create else { return nil }
                _ = try database.insert("auth.users", [["id": .string(newID), "email": .string(email),
                                                         "raw_app_meta_data": ["provider": "email", "providers": ["email"]],
                                                         "raw_user_meta_data": body["data"] ?? [:]]], as: .serviceRole)
                return findUser(id: newID)
            }
        } catch { return authError(500, "unexpected_failure", "Database error saving new user") }
        if user == nil, !create { return authError(422, "otp_disabled", "Signups not allowed for otp") }
        let digits = configuration.ids.bytes(6).map { String(Int($0) % 10) }.joined()
        let otp = SessionStore.OTP(token: digits, expires: configuration.clock.now().addingTimeInterval(3600), userID: user?["id"]?.stringValue)
        auth.store.withLock { $0.otps[email] = otp }
        return .json(200, [:], headers: ["Content-Type": "application/json"])
    }

    func verifyOTP(_ request: HTTPRequest) -> HTTPResponse {
        guard let body = authBody(request) else { return authError(400, "bad_json", "Could not parse request body as JSON: invalid character") }
        let type = body["type"]?.stringValue ?? ""
        guard ["email", "magiclink", "signup", "recovery", "invite"].contains(type) else {
            return authError(400, "validation_failed", "Verify requires a verification type")
        }
        guard let email = body["email"]?.stringValue?.lowercased(), let token = body["token"]?.stringValue else {
            return authError(400, "validation_failed", "Verify requires either a token or a token hash")
        }
        let now = configuration.clock.now()
        let ok = auth.store.withLock { s in
            let ok = s.otps[email].map { $0.token == token && now < $0.expires } ?? false
            if ok { s.otps[email] = nil }
            return ok
        }
        guard ok, let user = findUser(email: email) else {
            return authError(403, "otp_expired", "Token has expired or is invalid")
        }
        if user["email_confirmed_at"]?.isNull != false {
            _ = try? database.update("auth.users", set: ["email_confirmed_at": .string(PGTime.formatTimestamp(PGTime.micros(configuration.clock.now()), withZone: true))],
                                     where: .eq("id", user["id"]?.stringValue ?? ""))
        }
        return issueSession(findUser(email: email) ?? user, method: "otp")
    }
}

/// A response carried through `Result`'s failure side.
struct HTTPResponseBox: Error { let response: HTTPResponse; init(_ r: HTTPResponse) { response = r } }
