import Foundation

/// External sign-in (`GET /authorize?provider=…` → provider → `GET /callback`) with a deterministic
/// test provider standing in for Google and the others (supabase/auth `internal/api/external.go`).
///
/// The test provider consents at once: `/authorize` answers 302 straight to GoTrue's own
/// `/callback?code=…&state=…`, as the provider would after the user agreed. The identity is
/// `login_hint` when the request carries one, else `<provider>-user@example.com`; its provider
/// subject is derived from the e-mail, so the same person always gets the same account.
extension MockSupabase {
    /// Providers GoTrue knows (`Provider`'s switch); others are "could not be found".
    static let knownProviders: Set<String> = [
        "apple", "azure", "bitbucket", "discord", "facebook", "figma", "fly", "github", "gitlab", "google", "kakao",
        "keycloak", "linkedin", "linkedin_oidc", "notion", "slack", "slack_oidc", "snapchat", "spotify", "twitch",
        "twitter", "x", "workos", "zoom"
    ]

    func authorize(_ request: HTTPRequest) -> HTTPResponse {
        let provider = (request.queryValue("provider") ?? "").lowercased()
        guard MockSupabase.knownProviders.contains(provider) else {
            return authError(400, "validation_failed", "Unsupported provider: Provider \(provider) could not be found")
        }
        guard authSettings.externalProviders.contains(provider) else {
            return authError(400, "validation_failed", "Unsupported provider: provider is not enabled")
        }
        let body: [String: JSONValue] = [
            "code_challenge": .string(request.queryValue("code_challenge") ?? ""),
            "code_challenge_method": .string(request.queryValue("code_challenge_method") ?? "")
        ]
        var flowID: String?
        switch pkceParameters(body) {
        case .failure(let e): return e.response
        case .success(let p?): flowID = createFlowState(userID: nil, pkce: p, method: "oauth", provider: provider)
        case .success(nil): break
        }
        let state = configuration.ids.uuid()
        let email = (request.queryValue("login_hint") ?? "\(provider)-user@example.com").lowercased()
        flows.withLock { held in
            held.oauthStates[state] = GoTrueFlows.OAuthState(
                provider: provider, redirectTo: referrer(request), flowStateID: flowID,
                createdAt: configuration.clock.now())
        }
        let code = "test-" + provider + "." + Base64URL.encode(Array(email.utf8))
        return HTTPResponse(status: 302, headers: ["Location": "/auth/v1/callback?" + GoQuery.encode([("code", code), ("state", state)])])
    }

    /// `/callback`: the provider's answer. Creates or finds the user, then 302 to the app's redirect
    /// with `?code=` (PKCE) or `#access_token=…&provider_token=…` (implicit); errors go to the
    /// redirect as `redirectErrors` puts them (query and fragment).
    func externalCallback(_ request: HTTPRequest) -> HTTPResponse {
        let stateID = request.queryValue("state") ?? ""
        let now = configuration.clock.now()
        let expiry = TimeInterval(authSettings.flowStateExpirySeconds)
        let state: GoTrueFlows.OAuthState? = flows.withLock { held in held.oauthStates.removeValue(forKey: stateID) }
        guard !stateID.isEmpty else { return authError(400, "bad_oauth_callback", "OAuth state parameter missing") }
        guard let state else { return authError(400, "bad_oauth_state", "OAuth state not found or expired") }
        guard state.createdAt.addingTimeInterval(expiry) >= now else { return authError(400, "bad_oauth_state", "OAuth state has expired") }
        func fail(_ error: String, _ code: String, _ description: String) -> HTTPResponse {
            let pairs = [("error", error), ("error_code", code), ("error_description", description)]
            let url = GoQuery.settingQuery(state.redirectTo, pairs) + "#" + GoQuery.encode(pairs + [("sb", "")]).replacingOccurrences(of: "%", with: "%25")
            return HTTPResponse(status: 302, headers: ["Location": url])
        }
        if let e = request.queryValue("error") {
            // The provider refused (the user cancelled): GoTrue passes its error on as an OAuthError.
            let pairs = [("error", e), ("error_description", request.queryValue("error_description") ?? "")]
            let url = GoQuery.settingQuery(state.redirectTo, pairs) + "#" + GoQuery.encode(pairs + [("sb", "")]).replacingOccurrences(of: "%", with: "%25")
            return HTTPResponse(status: 302, headers: ["Location": url])
        }
        let code = request.queryValue("code") ?? ""
        let prefix = "test-" + state.provider + "."
        guard code.hasPrefix(prefix), let raw = Base64URL.decode(code.dropFirst(prefix.count)),
            let email = String(bytes: raw, encoding: .utf8), MockSupabase.validEmail(email)
        else {
            return fail("server_error", "unexpected_failure", "Error getting user email from external provider")
        }
        var user = findUser(email: email)
        if user == nil {
            let id = configuration.ids.uuid()
            let sub = String(GoTrueFlows.tokenHash(state.provider, email).prefix(21))
            do {
                _ = try database.insert(
                    "auth.users",
                    [
                        [
                            "id": .string(id), "email": .string(email), "email_confirmed_at": .string(nowTimestamp()),
                            "raw_app_meta_data": ["provider": .string(state.provider), "providers": [.string(state.provider)]],
                            "raw_user_meta_data": [
                                "email": .string(email), "email_verified": true, "iss": "https://accounts.google.com",
                                "provider_id": .string(sub), "sub": .string(sub)
                            ]
                        ]
                    ], as: .serviceRole)
            } catch { return fail("server_error", "unexpected_failure", "Database error saving new user") }
            user = findUser(id: id)
        }
        guard let user, let uid = user["id"]?.stringValue else { return fail("server_error", "unexpected_failure", "Database error finding user") }
        if let fid = state.flowStateID {
            let authCode: String? = flows.withLock { held in
                guard let fs = held.flowStates[fid] else { return nil }
                let bound = GoTrueFlows.FlowState(
                    id: fs.id, userID: uid, authCode: fs.authCode, codeChallenge: fs.codeChallenge,
                    codeChallengeMethod: fs.codeChallengeMethod, authenticationMethod: fs.authenticationMethod,
                    providerType: fs.providerType, createdAt: fs.createdAt, authCodeIssuedAt: now)
                held.flowStates[fid] = bound
                return fs.authCode
            }
            guard let authCode else { return fail("invalid_request", "flow_state_not_found", "Flow state not found") }
            return HTTPResponse(status: 302, headers: ["Location": GoQuery.settingQuery(state.redirectTo, [("code", authCode)])])
        }
        let session = issueSession(user, method: "oauth")
        guard let s = session.jsonBody, session.status == 200 else { return session }
        let fragment = GoQuery.encode([
            ("access_token", s["access_token"]?.stringValue ?? ""), ("token_type", "bearer"),
            ("expires_in", String(s["expires_in"]?.intValue ?? 0)), ("expires_at", String(s["expires_at"]?.intValue ?? 0)),
            ("refresh_token", s["refresh_token"]?.stringValue ?? ""), ("provider_token", "test-provider-token-" + state.provider), ("sb", "")
        ])
        return HTTPResponse(status: 302, headers: ["Location": state.redirectTo + "#" + fragment])
    }
}

/// `POST /token?grant_type=id_token` (`token_oidc.go`): a native sign-in SDK's ID token (Google
/// Sign-In, Sign in with Apple) exchanged for a session. The test provider's ID tokens are HS256
/// JWTs signed with the project's JWT secret (`testProviderIDToken`); the issuer names the provider.
extension MockSupabase {
    static let providerIssuers: [String: String] = [
        "google": "https://accounts.google.com", "apple": "https://appleid.apple.com", "azure": "https://login.microsoftonline.com",
        "facebook": "https://www.facebook.com", "keycloak": "", "kakao": "https://kauth.kakao.com"
    ]

    /// An ID token as the deterministic test provider would issue it to a native SDK.
    public func testProviderIDToken(provider: String = "google", email: String, nonce: String? = nil) -> String {
        let now = Int64(configuration.clock.now().timeIntervalSince1970)
        var claims: [String: JSONValue] = [
            "iss": .string(MockSupabase.providerIssuers[provider] ?? provider), "aud": "supacontracts-test-client",
            "sub": .string(String(GoTrueFlows.tokenHash(provider, email.lowercased()).prefix(21))), "email": .string(email.lowercased()),
            "email_verified": true, "iat": .int(now), "exp": .int(now + 3600)
        ]
        if let nonce { claims["nonce"] = .string(SHA256.hash(Array(nonce.utf8)).map { String(format: "%02x", $0) }.joined()) }
        return JWT.sign(claims, secret: configuration.jwtSecret)
    }

    /// An `apierrors.OAuthError`: 400 `{"error", "error_description"}`.
    func oauthError(_ error: String, _ description: String) -> HTTPResponse {
        .json(400, ["error": .string(error), "error_description": .string(description)], headers: ["Content-Type": "application/json"])
    }

    func idTokenGrant(_ body: [String: JSONValue]) -> HTTPResponse {
        let idToken = body["id_token"]?.stringValue ?? ""
        guard !idToken.isEmpty else { return oauthError("invalid request", "id_token required") }
        let provider = (body["provider"]?.stringValue ?? "").lowercased()
        guard !provider.isEmpty else { return oauthError("invalid request", "provider or client_id and issuer required") }
        guard let issuer = MockSupabase.providerIssuers[provider] else {
            return authError(400, "validation_failed", "Custom OIDC provider \"\(provider)\" not allowed")
        }
        guard authSettings.externalProviders.contains(provider) else {
            return authError(400, "provider_disabled", "Provider (issuer \"\(issuer)\") is not enabled")
        }
        guard let claims = try? JWT.verify(idToken, secret: configuration.jwtSecret, now: configuration.clock.now()),
            claims["iss"]?.stringValue == issuer
        else { return oauthError("invalid request", "Bad ID token") }
        guard let sub = claims["sub"]?.stringValue, !sub.isEmpty else { return oauthError("invalid request", "Missing sub claim in id_token") }
        let nonce = body["nonce"]?.stringValue ?? "", claimed = claims["nonce"]?.stringValue ?? ""
        if nonce.isEmpty != claimed.isEmpty { return oauthError("invalid request", "Passed nonce and nonce in id_token should either both exist or not.") }
        if !nonce.isEmpty {
            let hash = SHA256.hash(Array(nonce.utf8)).map { String(format: "%02x", $0) }.joined()
            if hash != claimed && nonce != claimed { return oauthError("invalid nonce", "Nonces mismatch") }
        }
        guard let email = claims["email"]?.stringValue?.lowercased(), MockSupabase.validEmail(email) else {
            return authError(500, "unexpected_failure", "Error getting user email from external provider")
        }
        var user = findUser(email: email)
        if user == nil {
            let id = configuration.ids.uuid()
            do {
                _ = try database.insert(
                    "auth.users",
                    [
                        [
                            "id": .string(id), "email": .string(email), "email_confirmed_at": .string(nowTimestamp()),
                            "raw_app_meta_data": ["provider": .string(provider), "providers": [.string(provider)]],
                            "raw_user_meta_data": [
                                "email": .string(email), "email_verified": true, "iss": .string(issuer), "provider_id": .string(sub), "sub": .string(sub)
                            ]
                        ]
                    ], as: .serviceRole)
            } catch { return authError(500, "unexpected_failure", "Database error saving new user") }
            user = findUser(id: id)
        }
        guard let user else { return authError(500, "unexpected_failure", "Database error finding user") }
        return issueSession(user, method: "oauth")
    }
}
