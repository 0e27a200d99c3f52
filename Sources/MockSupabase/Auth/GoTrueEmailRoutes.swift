import Foundation

/// GoTrue's e-mail routes: `/otp` and `/magiclink`, `/verify` (POST and the e-mail link's GET),
/// `/recover`, `/resend`, `/reauthenticate`, and the PKCE grant. Followed from supabase/auth
/// `internal/api/{otp,magic_link,verify,recover,resend,reauthenticate,pkce,token}.go`.
extension MockSupabase {
    func settings() -> HTTPResponse {
        var external: [String: JSONValue] = ["email": true, "phone": false, "anonymous_users": .bool(authSettings.anonymousSignIns)]
        for p in authSettings.externalProviders { external[p] = true }
        return .json(
            200,
            [
                "external": .object(external), "disable_signup": false, "mailer_autoconfirm": .bool(authSettings.mailerAutoconfirm),
                "phone_autoconfirm": false, "sms_provider": "", "saml_enabled": false
            ])
    }

    /// `POST /otp` (e-mail) and `POST /magiclink`: creates the user when allowed, then sends a magic
    /// link (a confirmation e-mail for a new user when auto-confirm is off).
    func sendOTP(_ request: HTTPRequest) -> HTTPResponse {
        guard let body = authBody(request) else { return badJSON }
        if request.path.hasSuffix("/otp"), (body["phone"]?.stringValue ?? "").isEmpty, (body["email"]?.stringValue ?? "").isEmpty {
            return authError(400, "validation_failed", "One of email or phone must be set")
        }
        guard let email = body["email"]?.stringValue?.trimmingCharacters(in: .whitespaces).lowercased(), !email.isEmpty else {
            return authError(422, "validation_failed", "Password recovery requires an email")
        }
        guard MockSupabase.validEmail(email) else {
            return authError(400, "validation_failed", "Unable to validate email address: invalid format")
        }
        let pkce: (challenge: String, method: String)?
        do { pkce = try pkceParameters(body).get() } catch { return error.response }
        let create = body["create_user"]?.boolValue ?? true
        let newID = configuration.ids.uuid()
        var row: [String: JSONValue] = [
            "id": .string(newID), "email": .string(email),
            "raw_app_meta_data": ["provider": "email", "providers": ["email"]],
            "raw_user_meta_data": body["data"] ?? [:]
        ]
        if authSettings.mailerAutoconfirm { row["email_confirmed_at"] = .string(nowTimestamp()) }
        let found: [String: JSONValue]?
        do {
            // Looked up and, when allowed, created in one statement (concurrent requests make one user).
            found = try database.atomically { () throws -> [String: JSONValue]? in
                if let existing = findUser(email: email) { return existing }
                guard create else { return nil }
                _ = try database.insert("auth.users", [row], as: .serviceRole)
                return findUser(id: newID)
            }
        } catch { return authError(500, "unexpected_failure", "Database error saving new user") }
        guard let user = found else {
            return create
                ? authError(500, "unexpected_failure", "Database error finding user")
                : authError(422, "otp_disabled", "Signups not allowed for otp")
        }
        let newUser = user["id"]?.stringValue == newID
        let id = user["id"]?.stringValue ?? ""
        let redirect = referrer(request)
        if newUser && !isConfirmed(user) {
            if let p = pkce { createFlowState(userID: id, pkce: p, method: "email/signup", provider: "email") }
            if let e = sendEmail(user: user, kind: .confirmation, type: "signup", pkce: pkce != nil, redirectTo: redirect) { return e }
        } else {
            if let p = pkce { createFlowState(userID: id, pkce: p, method: "magiclink", provider: "magiclink") }
            if let e = sendEmail(user: user, kind: .recovery, type: "magiclink", pkce: pkce != nil, redirectTo: redirect) { return e }
        }
        return .json(200, [:], headers: ["Content-Type": "application/json"])
    }

    /// `POST /verify` with an e-mail and OTP, or a token hash: a session.
    func verifyOTP(_ request: HTTPRequest) -> HTTPResponse {
        guard let body = authBody(request) else { return badJSON }
        let type = body["type"]?.stringValue ?? ""
        guard !type.isEmpty else { return authError(400, "validation_failed", "Verify requires a verification type") }
        let token = body["token"]?.stringValue ?? "", tokenHash = body["token_hash"]?.stringValue ?? ""
        guard token.isEmpty != tokenHash.isEmpty else {
            return authError(400, "validation_failed", "Verify requires either a token or a token hash")
        }
        var email: String?
        if !token.isEmpty {
            let e = body["email"]?.stringValue ?? "", phone = body["phone"]?.stringValue ?? ""
            if phone.isEmpty && !e.isEmpty {
                guard MockSupabase.validEmail(e.lowercased()) else { return authError(422, "validation_failed", "Invalid email format") }
                email = e.lowercased()
            } else if !phone.isEmpty && e.isEmpty {
                return authError(403, "otp_expired", "Token has expired or is invalid")
            } else {
                return authError(400, "validation_failed", "Only an email address or phone number should be provided on verify")
            }
        } else if body["email"] != nil || body["phone"] != nil || body["redirect_to"] != nil {
            return authError(400, "validation_failed", "Only the token_hash and type should be provided")
        }
        guard let kinds = MockSupabase.tokenKinds(type) else {
            return authError(400, "validation_failed", tokenHash.isEmpty ? "Unsupported verification type" : "Invalid email verification type")
        }
        guard let found = consumeEmailToken(email: email, token: tokenHash.isEmpty ? token : tokenHash, kinds: kinds, tokenIsHash: !tokenHash.isEmpty) else {
            return tokenHash.isEmpty
                ? authError(403, "otp_expired", "Token has expired or is invalid")
                : authError(403, "otp_expired", "Email link is invalid or has expired")
        }
        let id = found.user["id"]?.stringValue ?? ""
        if !isConfirmed(found.user) { confirm(userID: id) }
        return issueSession(findUser(id: id) ?? found.user, method: "otp")
    }

    /// Which stored tokens a verification type checks (`verifyTokenHash`, `verifyUserAndToken`).
    static func tokenKinds(_ type: String) -> [GoTrueFlows.TokenKind]? {
        switch type {
        case "email": return [.confirmation, .recovery]
        case "signup", "invite": return [.confirmation]
        case "recovery", "magiclink": return [.recovery]
        default: return nil
        }
    }

    /// `GET /verify?token=&type=&redirect_to=`: the e-mail link. 303 to the redirect with
    /// `#access_token=…` (implicit), `?code=` (PKCE), or the error in the query (PKCE) and fragment.
    func verifyLink(_ request: HTTPRequest) -> HTTPResponse {
        let token = request.queryValue("token") ?? "", type = request.queryValue("type") ?? ""
        guard !type.isEmpty else { return authError(400, "validation_failed", "Verify requires a verification type") }
        guard !token.isEmpty else { return authError(400, "validation_failed", "Verify requires a token or a token hash") }
        let redirect = referrer(request)
        let pkce = token.hasPrefix("pkce_")
        var method = type
        if pkce {
            if type.hasSuffix("signup") { method = "email/signup" }
            guard ["magiclink", "recovery", "email/signup", "invite", "email_change"].contains(method) else {
                return authError(500, "unexpected_failure", "Unexpected failure, please check server logs for more information")
            }
        }
        func fail(_ status: Int, _ code: String, _ message: String) -> HTTPResponse {
            // prepErrorRedirectURL: error (the OAuth name of the status), error_code, error_description.
            var pairs: [(String, String)] = [("error_code", code), ("error_description", message)]
            if let oauth = [
                400: "invalid_request", 401: "unauthorized_client", 403: "access_denied", 500: "server_error",
                503: "temporarily_unavailable"
            ][status] {
                pairs.append(("error", oauth))
            }
            var url = pkce ? GoQuery.settingQuery(redirect, pairs) : GoQuery.settingQuery(redirect, [])
            // url.URL.String() escapes the fragment again: the `%` of the encoded values becomes `%25`.
            url += "#" + GoQuery.encode(pairs + [("sb", "")]).replacingOccurrences(of: "%", with: "%25")
            return HTTPResponse(status: 303, headers: ["Location": url])
        }
        guard let kinds = MockSupabase.tokenKinds(type), type != "email" || !pkce else {
            return fail(400, "validation_failed", "Invalid email verification type")
        }
        guard let found = consumeEmailToken(email: nil, token: token, kinds: kinds, tokenIsHash: true) else {
            return fail(403, "otp_expired", "Email link is invalid or has expired")
        }
        let id = found.user["id"]?.stringValue ?? ""
        if !isConfirmed(found.user) { confirm(userID: id) }
        let user = findUser(id: id) ?? found.user
        if pkce {
            // issueAuthCode: the user's latest flow state of this authentication method.
            let now = configuration.clock.now()
            let code: String? = flows.withLock { held in
                guard
                    var fs = held.flowStates.values.filter({ $0.userID == id && $0.authenticationMethod == method })
                        .max(by: { $0.createdAt < $1.createdAt })
                else { return nil }
                fs.authCodeIssuedAt = now
                held.flowStates[fs.id] = fs
                return fs.authCode
            }
            guard let code else {
                return fail(400, "flow_state_not_found", "No associated flow state found. 422: No valid flow state found for user.")
            }
            return HTTPResponse(status: 303, headers: ["Location": GoQuery.settingQuery(redirect, [("code", code)])])
        }
        let session = issueSession(user, method: "otp")
        guard let s = session.jsonBody, session.status == 200 else { return session }
        let fragment = GoQuery.encode([
            ("access_token", s["access_token"]?.stringValue ?? ""), ("token_type", "bearer"),
            ("expires_in", String(s["expires_in"]?.intValue ?? 0)), ("expires_at", String(s["expires_at"]?.intValue ?? 0)),
            ("refresh_token", s["refresh_token"]?.stringValue ?? ""), ("sb", ""), ("type", type)
        ])
        return HTTPResponse(status: 303, headers: ["Location": redirect + "#" + fragment])
    }

    /// `POST /token?grant_type=pkce`: exchanges an auth code and its verifier for a session, once.
    func pkceGrant(_ body: [String: JSONValue]) -> HTTPResponse {
        let code = body["auth_code"]?.stringValue ?? "", verifier = body["code_verifier"]?.stringValue ?? ""
        guard !code.isEmpty, !verifier.isEmpty else {
            return authError(400, "validation_failed", "invalid request: both auth code and code verifier should be non-empty")
        }
        let now = configuration.clock.now()
        let expiry = TimeInterval(authSettings.flowStateExpirySeconds)
        enum Outcome { case notFound, expired, bad(String), ok(GoTrueFlows.FlowState) }
        let outcome: Outcome = flows.withLock { held in
            guard let fs = held.flowStates.values.first(where: { $0.authCode == code }), fs.userID != nil else { return .notFound }
            if now > (fs.authCodeIssuedAt ?? fs.createdAt).addingTimeInterval(expiry) { return .expired }
            if let why = GoTrueFlows.verifyPKCE(challenge: fs.codeChallenge, method: fs.codeChallengeMethod, verifier: verifier) { return .bad(why) }
            held.flowStates[fs.id] = nil
            return .ok(fs)
        }
        switch outcome {
        case .notFound: return authError(404, "flow_state_not_found", "invalid flow state, no valid flow state found")
        case .expired: return authError(422, "flow_state_expired", "invalid flow state, flow state has expired")
        case .bad(let why): return authError(400, "bad_code_verifier", why)
        case .ok(let fs):
            guard let user = findUser(id: fs.userID ?? "") else { return authError(404, "user_not_found", "User not found") }
            return issueSession(user, method: fs.authenticationMethod)
        }
    }

    /// `POST /recover`: a recovery e-mail (200 `{}` whether or not the address is known).
    func recover(_ request: HTTPRequest) -> HTTPResponse {
        guard let body = authBody(request) else { return badJSON }
        let raw = body["email"]?.stringValue?.trimmingCharacters(in: .whitespaces).lowercased() ?? ""
        guard !raw.isEmpty else { return authError(400, "validation_failed", "Password recovery requires an email") }
        guard MockSupabase.validEmail(raw) else { return authError(400, "validation_failed", "Unable to validate email address: invalid format") }
        let pkce: (challenge: String, method: String)?
        do { pkce = try pkceParameters(body).get() } catch { return error.response }
        guard let user = findUser(email: raw) else { return .json(200, [:], headers: ["Content-Type": "application/json"]) }
        if let p = pkce { createFlowState(userID: user["id"]?.stringValue, pkce: p, method: "recovery", provider: "recovery") }
        if let e = sendEmail(user: user, kind: .recovery, type: "recovery", pkce: pkce != nil, redirectTo: referrer(request)) { return e }
        return .json(200, [:], headers: ["Content-Type": "application/json"])
    }

    /// `POST /resend` (type `signup`; e-mail change and phone types answer as GoTrue does when
    /// there is nothing to resend).
    func resend(_ request: HTTPRequest) -> HTTPResponse {
        guard let body = authBody(request) else { return badJSON }
        let type = body["type"]?.stringValue ?? ""
        let email = body["email"]?.stringValue?.trimmingCharacters(in: .whitespaces).lowercased() ?? ""
        let phone = body["phone"]?.stringValue ?? ""
        var pkce: (challenge: String, method: String)?
        switch type {
        case "signup", "email_change":
            do { pkce = try pkceParameters(body).get() } catch { return error.response }
        case "sms", "phone_change": break
        default: return authError(400, "validation_failed", "Missing one of these types: signup, email_change, sms, phone_change")
        }
        if email.isEmpty && type == "signup" { return authError(400, "validation_failed", "Type provided requires an email address") }
        if phone.isEmpty && type == "sms" { return authError(400, "validation_failed", "Type provided requires a phone number") }
        if !email.isEmpty && !phone.isEmpty { return authError(400, "validation_failed", "Only an email address or phone number should be provided.") }
        if email.isEmpty && phone.isEmpty { return authError(400, "validation_failed", "Missing email address or phone number") }
        if !phone.isEmpty { return authError(400, "phone_provider_disabled", "Phone logins are disabled") }
        guard MockSupabase.validEmail(email) else { return authError(400, "validation_failed", "Unable to validate email address: invalid format") }
        guard type == "signup", let user = findUser(email: email), !isConfirmed(user) else {
            return .json(200, [:], headers: ["Content-Type": "application/json"])
        }
        if let p = pkce { createFlowState(userID: user["id"]?.stringValue, pkce: p, method: "email/signup", provider: "email") }
        if let e = sendEmail(user: user, kind: .confirmation, type: "signup", pkce: pkce != nil, redirectTo: referrer(request)) { return e }
        return .json(200, [:], headers: ["Content-Type": "application/json"])
    }

    /// `GET /reauthenticate`: e-mails a nonce for a password change.
    func reauthenticate(_ request: HTTPRequest) -> HTTPResponse {
        authed(request) { _, user in
            guard let email = user["email"]?.stringValue, !email.isEmpty else {
                return authError(400, "validation_failed", "Reauthentication requires the user to have an email or a phone number")
            }
            guard isConfirmed(user) else { return authError(422, "email_not_confirmed", "Please verify your email first.") }
            if let e = sendEmail(user: user, kind: .reauthentication, type: "reauthentication", pkce: false, redirectTo: authSettings.siteURL) { return e }
            return .json(200, [:], headers: ["Content-Type": "application/json"])
        }
    }

    /// The reauthentication check of `PUT /user` with a password (`UserUpdate`): needed when the app
    /// requires it and the session began more than 24 hours ago; nil when the change may go ahead.
    func checkReauthentication(_ body: [String: JSONValue], ctx: AuthContext, user: [String: JSONValue]) -> HTTPResponse? {
        guard authSettings.passwordChangeRequiresReauthentication, body["password"] != nil else { return nil }
        let signedIn = ctx.claims["amr"]?.arrayValue?.first?["timestamp"]?.doubleValue ?? 0
        if configuration.clock.now().timeIntervalSince1970 <= signedIn + 24 * 3600 { return nil }
        let nonce = body["nonce"]?.stringValue ?? ""
        guard !nonce.isEmpty else { return authError(400, "reauthentication_needed", "Password update requires reauthentication") }
        guard consumeEmailToken(email: user["email"]?.stringValue, token: nonce, kinds: [.reauthentication], tokenIsHash: false) != nil else {
            return authError(422, "reauthentication_not_valid", "Nonce has expired or is invalid")
        }
        return nil
    }
}
