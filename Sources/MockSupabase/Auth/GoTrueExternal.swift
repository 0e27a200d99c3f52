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
        "twitter", "x", "workos", "zoom",
    ]

    func authorize(_ request: HTTPRequest) -> HTTPResponse {
        let provider = (request.queryValue("provider") ?? "").lowercased()
        guard MockSupabase.knownProviders.contains(provider) else {
            return authError(400, "validation_failed", "Unsupported provider: Provider \(provider) could not be found")
        }
        guard authSettings.externalProviders.contains(provider) else {
            return authError(400, "validation_failed", "Unsupported provider: provider is not enabled")
        }
        let body: [String: JSONValue] = ["code_challenge": .string(request.queryValue("code_challenge") ?? ""),
                                         "code_challenge_method": .string(request.queryValue("code_challenge_method") ?? "")]
        var flowID: String?
        switch pkceParameters(body) {
        case .failure(let e): return e.response
        case .success(let p?): flowID = createFlowState(userID: nil, pkce: p, method: "oauth", provider: provider)
        case .success(nil): break
        }
        let state = configuration.ids.uuid()
        let email = (request.queryValue("login_hint") ?? "\(provider)-user@example.com").lowercased()
        flows.withLock {
            flows.oauthStates[state] = GoTrueFlows.OAuthState(provider: provider, redirectTo: referrer(request), flowStateID: flowID,
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
        let state: GoTrueFlows.OAuthState? = flows.withLock { flows.oauthStates.removeValue(forKey: stateID) }
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
              let email = String(bytes: raw, encoding: .utf8), MockSupabase.validEmail(email) else {
            return fail("server_error", "unexpected_failure", "Error getting user email from external provider")
        }
        var user = findUser(email: email)
        if user == nil {
            let id = configuration.ids.uuid()
            let sub = String(GoTrueFlows.tokenHash(state.provider, email).prefix(21))
            do {
                _ = try database.insert("auth.users", [[
                    "id": .string(id), "email": .string(email), "email_confirmed_at": .string(nowTimestamp()),
                    "raw_app_meta_data": ["provider": .string(state.provider), "providers": [.string(state.provider)]],
                    "raw_user_meta_data": ["email": .string(email), "email_verified": true, "iss": "https://accounts.google.com",
                                           "provider_id": .string(sub), "sub": .string(sub)],
                ]], as: .serviceRole)
            } catch { return fail("server_error", "unexpected_failure", "Database error saving new user") }
            user = findUser(id: id)
        }
        guard let user, let uid = user["id"]?.stringValue else { return fail("server_error", "unexpected_failure", "Database error finding user") }
        if let fid = state.flowStateID {
            let authCode: String? = flows.withLock {
                guard let fs = flows.flowStates[fid] else { return nil }
                let bound = GoTrueFlows.FlowState(id: fs.id, userID: uid, authCode: fs.authCode, codeChallenge: fs.codeChallenge,
                                                  codeChallengeMethod: fs.codeChallengeMethod, authenticationMethod: fs.authenticationMethod,
                                                  providerType: fs.providerType, createdAt: fs.createdAt, authCodeIssuedAt: now)
                flows.flowStates[fid] = bound
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
            ("refresh_token", s["refresh_token"]?.stringValue ?? ""), ("provider_token", "test-provider-token-" + state.provider), ("sb", ""),
        ])
        return HTTPResponse(status: 302, headers: ["Location": state.redirectTo + "#" + fragment])
    }
}
