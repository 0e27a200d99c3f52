import XCTest
import MockBinding
@testable import MockSupabase

/// PKCE, e-mail links, recovery, confirmation, anonymous sign-in, reauthentication and external
/// sign-in as GoTrue does them (supabase/auth `internal/api/{pkce,verify,token,recover,resend,
/// reauthenticate,signup,anonymous,external}.go`).
final class GoTrueFlowTests: XCTestCase {
    let verifier = "a-verifier-of-enough-length-0123456789abcdefghijklmnop"
    var challenge: String { Base64URL.encode(SHA256.hash(Array(verifier.utf8))) }
    let callback = "https://app.example.org/auth/callback"

    func fixture(_ configure: (inout AuthSettings) -> Void = { _ in }) throws -> AuthFixture {
        try AuthFixture {
            $0.siteURL = "https://app.example.org"
            $0.redirectURLs = ["https://app.example.org/auth/callback", "myapp://**"]
            configure(&$0)
        }
    }

    /// The Location header split into path-and-query and fragment items.
    func location(_ r: HTTPResponse, file: StaticString = #filePath, line: UInt = #line) -> (base: String, query: [String: String], fragment: [String: String])
    {
        let loc = r.headers["Location"] ?? ""
        func items(_ s: Substring) -> [String: String] {
            var d: [String: String] = [:]
            for p in s.split(separator: "&") {
                let kv = p.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                let dec = { (x: Substring) in HTTPRequest.percentDecoded(Substring(x.replacingOccurrences(of: "+", with: " "))) }
                d[dec(kv[0])] = kv.count > 1 ? dec(kv[1]) : ""
            }
            return d
        }
        let parts = loc.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
        let main = parts[0]
        let q = main.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        return (String(q[0]), q.count > 1 ? items(q[1]) : [:], parts.count > 1 ? items(parts[1]) : [:])
    }

    func testMagicLinkPKCEEndToEnd() throws {
        let f = try fixture()
        _ = try f.session("mia@example.com")
        let sent = try f.auth(
            "POST", "/otp?redirect_to=\(callback)",
            json: ["email": "mia@example.com", "code_challenge": .string(challenge), "code_challenge_method": "s256"])
        XCTAssertEqual(sent.status, 200, sent.text)
        XCTAssertEqual(sent.jsonBody, [:])
        let mail = try XCTUnwrap(f.backend.lastEmail(to: "mia@example.com"))
        XCTAssertEqual(mail.type, "magiclink")
        XCTAssertTrue(mail.tokenHash.hasPrefix("pkce_"))
        let link = try XCTUnwrap(mail.actionLink)
        let r = try f.backend.handle(HTTPRequest(method: "GET", target: link, headers: ["apikey": f.backend.anonKey]))
        XCTAssertEqual(r.status, 303)
        let loc = location(r)
        XCTAssertEqual(loc.base, callback)
        let code = try XCTUnwrap(loc.query["code"])
        XCTAssertTrue(loc.fragment.isEmpty)

        let wrong = try f.auth("POST", "/token?grant_type=pkce", json: ["auth_code": .string(code), "code_verifier": "not-the-verifier"], version: "2024-01-01")
        XCTAssertEqual(
            goTrueErrorViolations(
                wrong, version: .v20240101, status: 400, code: "bad_code_verifier",
                message: "code challenge does not match previously saved code verifier"), [])
        let ok = try f.auth("POST", "/token?grant_type=pkce", json: ["auth_code": .string(code), "code_verifier": .string(verifier)])
        XCTAssertEqual(ok.status, 200, ok.text)
        XCTAssertEqual(ok.json()["user"]?["email"], "mia@example.com")
        let claims = try JWT.verify(try XCTUnwrap(ok.json()["access_token"]?.stringValue), secret: f.backend.configuration.jwtSecret, now: f.clock.now())
        XCTAssertEqual(claims["amr"]?.arrayValue?.first?["method"], "magiclink")
        let again = try f.auth("POST", "/token?grant_type=pkce", json: ["auth_code": .string(code), "code_verifier": .string(verifier)], version: "2024-01-01")
        XCTAssertEqual(
            goTrueErrorViolations(
                again, version: .v20240101, status: 404, code: "flow_state_not_found",
                message: "invalid flow state, no valid flow state found"), [], "single use")
        // The link itself is single use: the second visit lands on the error redirect.
        let reused = try f.backend.handle(HTTPRequest(method: "GET", target: link, headers: ["apikey": f.backend.anonKey]))
        let rl = location(reused)
        XCTAssertEqual(reused.status, 303)
        XCTAssertEqual(rl.query["error_code"], "otp_expired")
        XCTAssertEqual(rl.query["error"], "access_denied")
        XCTAssertEqual(rl.fragment["error_description"], "Email link is invalid or has expired")
        XCTAssertEqual(rl.fragment["sb"], "")
    }

    func testAuthCodeExpiresAfterTheFlowStateExpiry() throws {
        let f = try fixture()
        _ = try f.session("exp@example.com")
        _ = try f.auth("POST", "/magiclink", json: ["email": "exp@example.com", "code_challenge": .string(challenge), "code_challenge_method": "s256"])
        let link = try XCTUnwrap(f.backend.lastEmail(to: "exp@example.com")?.actionLink)
        let code = try XCTUnwrap(location(try f.backend.handle(HTTPRequest(method: "GET", target: link, headers: [:]))).query["code"])
        f.clock.advance(by: 301)
        let late = try f.auth("POST", "/token?grant_type=pkce", json: ["auth_code": .string(code), "code_verifier": .string(verifier)])
        XCTAssertEqual(
            goTrueErrorViolations(
                late, version: .initial, status: 422, code: "flow_state_expired",
                message: "invalid flow state, flow state has expired"), [])
    }

    func testImplicitLinkAndRedirectAllowList() throws {
        let f = try fixture()
        _ = try f.session("imp@example.com")
        _ = try f.auth("POST", "/otp?redirect_to=https://evil.example.net/steal", json: ["email": "imp@example.com"])
        let mail = try XCTUnwrap(f.backend.lastEmail(to: "imp@example.com"))
        XCTAssertFalse(mail.tokenHash.hasPrefix("pkce_"))
        XCTAssertTrue(
            mail.actionLink?.contains("redirect_to=https%3A%2F%2Fapp.example.org&") ?? false,
            "a redirect off the allow-list falls back to the site URL: \(mail.actionLink ?? "")")
        let r = try f.backend.handle(HTTPRequest(method: "GET", target: try XCTUnwrap(mail.actionLink), headers: [:]))
        XCTAssertEqual(r.status, 303)
        let loc = location(r)
        XCTAssertEqual(loc.base, "https://app.example.org")
        XCTAssertEqual(loc.fragment["token_type"], "bearer")
        XCTAssertEqual(loc.fragment["type"], "magiclink")
        XCTAssertEqual(loc.fragment["expires_in"], "3600")
        XCTAssertEqual(loc.fragment["sb"], "")
        let token = try XCTUnwrap(loc.fragment["access_token"])
        XCTAssertEqual(try f.auth("GET", "/user", token: token).json()["email"], "imp@example.com")
        XCTAssertTrue(f.backend.configuration.spec.auth.isRedirectAllowed("myapp://login-callback"))
        XCTAssertTrue(f.backend.configuration.spec.auth.isRedirectAllowed("https://app.example.org/auth/callback#x"))
        XCTAssertFalse(f.backend.configuration.spec.auth.isRedirectAllowed("https://app.example.org.evil.net/auth/callback"))
        XCTAssertFalse(AuthSettings.glob("https://*.example.org", matches: "https://a.b.example.org"), "* stops at a dot")
        XCTAssertTrue(AuthSettings.glob("https://**.example.org", matches: "https://a.b.example.org"))
    }

    func testPKCEParameterValidation() throws {
        let f = try fixture()
        let half = try f.auth("POST", "/otp", json: ["email": "v@example.com", "code_challenge": .string(challenge)])
        XCTAssertEqual(
            goTrueErrorViolations(
                half, version: .initial, status: 400, code: "validation_failed",
                message: "PKCE flow requires code_challenge_method and code_challenge"), [])
        let short = try f.auth(
            "POST", "/signup", json: ["email": "v@example.com", "password": "secret-123", "code_challenge": "abc", "code_challenge_method": "s256"])
        XCTAssertEqual(
            goTrueErrorViolations(
                short, version: .initial, status: 400, code: "validation_failed",
                message: "code challenge has to be between 43 and 128 characters"), [])
        let odd = try f.auth(
            "POST", "/recover",
            json: ["email": "v@example.com", "code_challenge": .string(String(repeating: "a", count: 42) + "!"), "code_challenge_method": "s256"])
        XCTAssertEqual(
            goTrueErrorViolations(
                odd, version: .initial, status: 400, code: "validation_failed",
                message: "code challenge can only contain alphanumeric characters, hyphens, periods, underscores and tildes"), [])
        let empty = try f.auth("POST", "/token?grant_type=pkce", json: ["auth_code": "x"])
        XCTAssertEqual(
            goTrueErrorViolations(
                empty, version: .initial, status: 400, code: "validation_failed",
                message: "invalid request: both auth code and code verifier should be non-empty"), [])
    }

    func testPasswordRecoveryWithPKCEAndTheSendRateLimit() throws {
        let f = try fixture()
        _ = try f.session("rec@example.com", "old-password")
        XCTAssertEqual(try f.auth("POST", "/recover", json: ["email": "nobody@example.com"]).jsonBody, [:], "unknown addresses are not revealed")
        XCTAssertNil(f.backend.lastEmail(to: "nobody@example.com"))
        let r = try f.auth(
            "POST", "/recover?redirect_to=\(callback)",
            json: ["email": "rec@example.com", "code_challenge": .string(challenge), "code_challenge_method": "s256"])
        XCTAssertEqual(r.status, 200, r.text)
        let again = try f.auth("POST", "/recover", json: ["email": "rec@example.com"], version: "2024-01-01")
        XCTAssertEqual(
            goTrueErrorViolations(
                again, version: .v20240101, status: 429, code: "over_email_send_rate_limit",
                message: "For security purposes, you can only request this after 60 seconds."), [])
        f.clock.advance(by: 45)
        XCTAssertEqual(
            try f.auth("POST", "/recover", json: ["email": "rec@example.com"]).jsonBody?["msg"],
            "For security purposes, you can only request this after 15 seconds.")
        let mail = try XCTUnwrap(f.backend.lastEmail(to: "rec@example.com"))
        XCTAssertEqual(mail.type, "recovery")
        let code = try XCTUnwrap(location(try f.backend.handle(HTTPRequest(method: "GET", target: try XCTUnwrap(mail.actionLink), headers: [:]))).query["code"])
        let s = try f.auth("POST", "/token?grant_type=pkce", json: ["auth_code": .string(code), "code_verifier": .string(verifier)])
        XCTAssertEqual(s.status, 200, s.text)
        let token = try XCTUnwrap(s.json()["access_token"]?.stringValue)
        XCTAssertEqual(try f.auth("PUT", "/user", json: ["password": "new-password"], token: token).status, 200)
        XCTAssertEqual(try f.auth("POST", "/token?grant_type=password", json: ["email": "rec@example.com", "password": "new-password"]).status, 200)
    }

    func testEmailConfirmationWhenAutoconfirmIsOff() throws {
        let f = try fixture { $0.mailerAutoconfirm = false }
        let r = try f.auth("POST", "/signup", json: ["email": "new@example.com", "password": "secret-123"])
        XCTAssertEqual(r.status, 200, r.text)
        let user = r.json()
        XCTAssertNil(user["access_token"], "no session before the address is confirmed")
        XCTAssertEqual(user["email"], "new@example.com")
        XCTAssertEqual(user["email_confirmed_at"], .null)
        XCTAssertNotNil(user["confirmation_sent_at"]?.stringValue)
        let login = try f.auth("POST", "/token?grant_type=password", json: ["email": "new@example.com", "password": "secret-123"], version: "2024-01-01")
        XCTAssertEqual(goTrueErrorViolations(login, version: .v20240101, status: 400, code: "email_not_confirmed", message: "Email not confirmed"), [])
        let mail = try XCTUnwrap(f.backend.lastEmail(to: "new@example.com"))
        XCTAssertEqual(mail.type, "signup")
        // A repeated sign-up of an unconfirmed address re-sends, within the rate limit.
        XCTAssertEqual(try f.auth("POST", "/resend", json: ["type": "signup", "email": "new@example.com"]).status, 429)
        let v = try f.auth("POST", "/verify", json: ["type": "signup", "email": "new@example.com", "token": .string(mail.otp)])
        XCTAssertEqual(v.status, 200, v.text)
        XCTAssertNotNil(v.json()["user"]?["email_confirmed_at"]?.stringValue)
        XCTAssertEqual(try f.auth("POST", "/token?grant_type=password", json: ["email": "new@example.com", "password": "secret-123"]).status, 200)
        // Confirmed now: a repeated sign-up answers a look-alike user, not an error.
        let dup = try f.auth("POST", "/signup", json: ["email": "new@example.com", "password": "secret-123"])
        XCTAssertEqual(dup.status, 200)
        XCTAssertNotEqual(dup.json()["id"], v.json()["user"]?["id"])
        XCTAssertEqual(dup.json()["identities"], [])
        XCTAssertEqual(try f.auth("POST", "/resend", json: ["type": "signup", "email": "new@example.com"]).jsonBody, [:])
    }

    func testSignupConfirmationLinkInThePKCEFlow() throws {
        let f = try fixture { $0.mailerAutoconfirm = false }
        let r = try f.auth(
            "POST", "/signup?redirect_to=\(callback)",
            json: ["email": "pk@example.com", "password": "secret-123", "code_challenge": .string(challenge), "code_challenge_method": "s256"])
        XCTAssertEqual(r.status, 200, r.text)
        XCTAssertNil(r.json()["access_token"])
        let mail = try XCTUnwrap(f.backend.lastEmail(to: "pk@example.com"))
        XCTAssertEqual(mail.type, "signup")
        XCTAssertTrue(mail.tokenHash.hasPrefix("pkce_"))
        let loc = location(try f.backend.handle(HTTPRequest(method: "GET", target: try XCTUnwrap(mail.actionLink), headers: [:])))
        XCTAssertEqual(loc.base, callback)
        let code = try XCTUnwrap(loc.query["code"])
        let s = try f.auth("POST", "/token?grant_type=pkce", json: ["auth_code": .string(code), "code_verifier": .string(verifier)])
        XCTAssertEqual(s.status, 200, s.text)
        XCTAssertNotNil(s.json()["user"]?["email_confirmed_at"]?.stringValue)
        let claims = try JWT.verify(try XCTUnwrap(s.json()["access_token"]?.stringValue), secret: f.backend.configuration.jwtSecret, now: f.clock.now())
        XCTAssertEqual(claims["amr"]?.arrayValue?.first?["method"], "email/signup")
    }

    func testAnonymousSignInsFollowTheAppSetting() throws {
        let off = try fixture()
        let refused = try off.auth("POST", "/signup", json: [:], version: "2024-01-01")
        XCTAssertEqual(
            goTrueErrorViolations(
                refused, version: .v20240101, status: 422, code: "anonymous_provider_disabled",
                message: "Anonymous sign-ins are disabled"), [])
        let on = try fixture { $0.anonymousSignIns = true }
        let r = try on.auth("POST", "/signup", json: ["data": ["nick": "guest"]])
        XCTAssertEqual(r.status, 200, r.text)
        XCTAssertEqual(r.json()["user"]?["is_anonymous"], true)
        XCTAssertEqual(r.json()["user"]?["identities"], [])
        let claims = try JWT.verify(try XCTUnwrap(r.json()["access_token"]?.stringValue), secret: on.backend.configuration.jwtSecret, now: on.clock.now())
        XCTAssertEqual(claims["is_anonymous"], true)
        XCTAssertEqual(claims["amr"]?.arrayValue?.first?["method"], "anonymous")
    }

    func testPasswordChangeNeedsTheReauthenticationNonceOnAnOldSession() throws {
        let f = try fixture { $0.passwordChangeRequiresReauthentication = true }
        _ = try f.session("re@example.com")
        f.clock.advance(by: 25 * 3600)
        // A token of a session that began 25 hours ago.
        let old = f.backend.accessToken(
            for: try XCTUnwrap(f.backend.findUser(email: "re@example.com")?["id"]?.stringValue),
            extraClaims: ["amr": [["method": "password", "timestamp": .int(Int64(f.clock.now().timeIntervalSince1970) - 25 * 3600)]]])
        let need = try f.auth("PUT", "/user", json: ["password": "brand-new-1"], token: old, version: "2024-01-01")
        XCTAssertEqual(
            goTrueErrorViolations(
                need, version: .v20240101, status: 400, code: "reauthentication_needed",
                message: "Password update requires reauthentication"), [])
        XCTAssertEqual(try f.auth("GET", "/reauthenticate", token: old).jsonBody, [:])
        let nonce = try XCTUnwrap(f.backend.lastEmail(to: "re@example.com")).otp
        let bad = try f.auth("PUT", "/user", json: ["password": "brand-new-1", "nonce": "000000"], token: old)
        XCTAssertEqual(
            goTrueErrorViolations(bad, version: .initial, status: 422, code: "reauthentication_not_valid", message: "Nonce has expired or is invalid"), [])
        XCTAssertEqual(try f.auth("PUT", "/user", json: ["password": "brand-new-1", "nonce": .string(nonce)], token: old).status, 200)
        // A fresh session changes its password without a nonce.
        let fresh = try XCTUnwrap(
            try f.auth("POST", "/token?grant_type=password", json: ["email": "re@example.com", "password": "brand-new-1"]).json()["access_token"]?.stringValue)
        XCTAssertEqual(try f.auth("PUT", "/user", json: ["password": "brand-new-2"], token: fresh).status, 200)
    }

    func testGoogleSignInThroughTheTestProviderWithPKCE() throws {
        let f = try fixture { $0.externalProviders = ["google"] }
        let start = try f.auth(
            "GET", "/authorize?provider=google&redirect_to=\(callback)&code_challenge=\(challenge)&code_challenge_method=s256&login_hint=gina@example.com")
        XCTAssertEqual(start.status, 302)
        let cb = try XCTUnwrap(start.headers["Location"])
        XCTAssertTrue(cb.hasPrefix("/auth/v1/callback?code="), cb)
        let done = try f.backend.handle(HTTPRequest(method: "GET", target: cb, headers: [:]))
        XCTAssertEqual(done.status, 302)
        let loc = location(done)
        XCTAssertEqual(loc.base, callback)
        let code = try XCTUnwrap(loc.query["code"])
        let s = try f.auth("POST", "/token?grant_type=pkce", json: ["auth_code": .string(code), "code_verifier": .string(verifier)])
        XCTAssertEqual(s.status, 200, s.text)
        XCTAssertEqual(s.json()["user"]?["email"], "gina@example.com")
        XCTAssertEqual(s.json()["user"]?["app_metadata"]?["provider"], "google")
        // The same person signs in to the same account; the state is single use.
        XCTAssertEqual(try f.backend.handle(HTTPRequest(method: "GET", target: cb, headers: [:])).jsonBody?["error_code"], "bad_oauth_state")
        let disabled = try fixture()
        let r = try disabled.auth("GET", "/authorize?provider=google", version: "2024-01-01")
        XCTAssertEqual(
            goTrueErrorViolations(
                r, version: .v20240101, status: 400, code: "validation_failed",
                message: "Unsupported provider: provider is not enabled"), [])
    }

    func testNativeGoogleSignInWithAnIDToken() throws {
        let f = try fixture { $0.externalProviders = ["google"] }
        let token = f.backend.testProviderIDToken(email: "native@example.com", nonce: "raw-nonce")
        let ok = try f.auth("POST", "/token?grant_type=id_token", json: ["provider": "google", "id_token": .string(token), "nonce": "raw-nonce"])
        XCTAssertEqual(ok.status, 200, ok.text)
        XCTAssertEqual(ok.json()["user"]?["email"], "native@example.com")
        XCTAssertEqual(ok.json()["user"]?["app_metadata"]?["provider"], "google")
        let wrongNonce = try f.auth(
            "POST", "/token?grant_type=id_token", json: ["provider": "google", "id_token": .string(token), "nonce": "other"],
            version: "2024-01-01")
        XCTAssertEqual(wrongNonce.status, 400)
        XCTAssertEqual(wrongNonce.jsonBody, ["error": "invalid nonce", "error_description": "Nonces mismatch"])
        XCTAssertEqual(wrongNonce.headers["X-Supabase-Api-Version"], "2024-01-01")
        XCTAssertEqual(
            try f.auth("POST", "/token?grant_type=id_token", json: ["provider": "google", "id_token": "a.b.c"]).jsonBody,
            ["error": "invalid request", "error_description": "Bad ID token"])
        XCTAssertEqual(
            try f.auth("POST", "/token?grant_type=id_token", json: ["provider": "google"]).jsonBody,
            ["error": "invalid request", "error_description": "id_token required"])
        let off = try fixture()
        let disabled = try off.auth("POST", "/token?grant_type=id_token", json: ["provider": "google", "id_token": .string(token)], version: "2024-01-01")
        XCTAssertEqual(
            goTrueErrorViolations(
                disabled, version: .v20240101, status: 400, code: "provider_disabled",
                message: "Provider (issuer \"https://accounts.google.com\") is not enabled"), [])
    }

    /// Mutant: a PKCE check that accepts any verifier must fail the suite's verifier assertion.
    func testMutantVerifierCheckIsRejected() {
        XCTAssertNil(GoTrueFlows.verifyPKCE(challenge: challenge, method: "s256", verifier: verifier))
        XCTAssertNotNil(GoTrueFlows.verifyPKCE(challenge: challenge, method: "s256", verifier: verifier + "x"))
        XCTAssertNotNil(GoTrueFlows.verifyPKCE(challenge: challenge, method: "plain", verifier: verifier))
        let mutant: (String, String, String) -> String? = { _, _, _ in nil }
        XCTAssertNil(mutant(challenge, "s256", verifier + "x"), "the mutant accepts a wrong verifier, which the real check refuses")
        XCTAssertNotEqual(
            mutant(challenge, "s256", verifier + "x") == nil, GoTrueFlows.verifyPKCE(challenge: challenge, method: "s256", verifier: verifier + "x") == nil)
    }

    /// auth.json is strict: every setting names its source or decision; unknown keys and a
    /// flow-state expiry GoTrue would raise are load errors naming the path.
    func testAuthSettingsFileIsStrict() throws {
        func decode(_ text: String) throws -> AuthSettings {
            try SpecNode(value: try JSONValue.parse(Data(text.utf8)), file: "auth.json").decode(AuthSettings.self)
        }
        let ok = try decode(#"{"redirect_urls": {"value": ["myapp://**"], "source": "§3"}, "mailer_autoconfirm": {"value": false, "decision": "why"}}"#)
        XCTAssertEqual(ok.redirectURLs, ["myapp://**"])
        XCTAssertFalse(ok.mailerAutoconfirm)
        XCTAssertEqual(ok.flowStateExpirySeconds, 300)
        XCTAssertThrowsError(try decode(#"{"mailer_autoconfirm": {"value": false}}"#)) { XCTAssertTrue("\($0)".contains("source"), "\($0)") }
        XCTAssertThrowsError(try decode(#"{"mailer_autoconfim": {"value": false, "source": "x"}}"#)) {
            XCTAssertTrue("\($0)".contains("mailer_autoconfim"), "\($0)")
        }
        XCTAssertThrowsError(try decode(#"{"flow_state_expiry_seconds": {"value": 60, "source": "x"}}"#)) { XCTAssertTrue("\($0)".contains("300"), "\($0)") }
        for app in ["aura", "civicforge", "naarscars"] {
            XCTAssertNoThrow(try AppSpec.load(folder: ContractsLocator.app(app)), app)
        }
        XCTAssertEqual(try AppSpec.load(folder: ContractsLocator.app("civicforge")).auth.redirectURLs, ["https://civicforge.org/auth/callback"])
        XCTAssertFalse(try AppSpec.load(folder: ContractsLocator.app("aura")).auth.mailerAutoconfirm)
    }

    func testAdminGenerateLinkGivesTheCodeAndLinkWithoutSending() throws {
        let f = try fixture()
        var admin: HTTPHeaders = ["Authorization": "Bearer \(f.backend.serviceRoleKey)"]
        admin["Host"] = "127.0.0.1:54321"
        let r = try f.auth(
            "POST", "/admin/generate_link", json: ["type": "magiclink", "email": "gen@example.com", "redirect_to": .string(callback)], headers: admin)
        XCTAssertEqual(r.status, 200, r.text)
        let otp = try XCTUnwrap(r.json()["email_otp"]?.stringValue)
        XCTAssertEqual(r.json()["verification_type"], "magiclink")
        XCTAssertEqual(r.json()["redirect_to"], .string(callback))
        XCTAssertEqual(r.json()["email"], "gen@example.com")
        XCTAssertTrue(r.json()["action_link"]?.stringValue?.hasPrefix("http://127.0.0.1:54321/auth/v1/verify?redirect_to=") ?? false)
        XCTAssertNil(f.backend.lastEmail(to: "gen@example.com"), "nothing is sent")
        XCTAssertEqual(try f.auth("POST", "/verify", json: ["type": "email", "email": "gen@example.com", "token": .string(otp)]).status, 200)
        let user = try XCTUnwrap(try f.session("plain@example.com")["access_token"]?.stringValue)
        let refused = try f.auth("POST", "/admin/generate_link", json: ["type": "magiclink", "email": "gen@example.com"], token: user, version: "2024-01-01")
        XCTAssertEqual(goTrueErrorViolations(refused, version: .v20240101, status: 403, code: "not_admin", message: "User not allowed"), [])
        let unknown = try f.auth("POST", "/admin/generate_link", json: ["type": "recovery", "email": "none@example.com"], headers: admin)
        XCTAssertEqual(goTrueErrorViolations(unknown, version: .initial, status: 404, code: "user_not_found", message: "User with this email not found"), [])
    }

    func testAdminUsersLifecycle() throws {
        let f = try fixture()
        let admin: HTTPHeaders = ["Authorization": "Bearer \(f.backend.serviceRoleKey)"]
        let c = try f.auth(
            "POST", "/admin/users",
            json: [
                "email": "Admin-Made@example.com", "password": "secret-123", "email_confirm": true,
                "user_metadata": ["name": "Ada"]
            ], headers: admin)
        XCTAssertEqual(c.status, 200, c.text)
        let id = try XCTUnwrap(c.json()["id"]?.stringValue)
        XCTAssertEqual(c.json()["email"], "admin-made@example.com")
        XCTAssertNotNil(c.json()["email_confirmed_at"]?.stringValue)
        XCTAssertEqual(c.json()["user_metadata"]?["name"], "Ada")
        XCTAssertEqual(try f.auth("POST", "/token?grant_type=password", json: ["email": "admin-made@example.com", "password": "secret-123"]).status, 200)
        let dup = try f.auth("POST", "/admin/users", json: ["email": "admin-made@example.com"], version: "2024-01-01", headers: admin)
        XCTAssertEqual(
            goTrueErrorViolations(
                dup, version: .v20240101, status: 422, code: "email_exists",
                message: "A user with this email address has already been registered"), [])
        let list = try f.auth("GET", "/admin/users?page=1&per_page=1", headers: admin)
        XCTAssertEqual(list.json()["users"]?.arrayValue?.count, 1)
        XCTAssertEqual(list.json()["aud"], "authenticated")
        XCTAssertNotNil(list.headers["X-Total-Count"])
        let u = try f.auth("PUT", "/admin/users/\(id)", json: ["user_metadata": ["plan": "pro"]], headers: admin)
        XCTAssertEqual(u.json()["user_metadata"], ["name": "Ada", "plan": "pro"])
        XCTAssertEqual(try f.auth("DELETE", "/admin/users/\(id)", headers: admin).jsonBody, [:])
        let gone = try f.auth("GET", "/admin/users/\(id)", headers: admin)
        XCTAssertEqual(goTrueErrorViolations(gone, version: .initial, status: 404, code: "user_not_found", message: "User not found"), [])
        let bad = try f.auth("GET", "/admin/users/not-a-uuid", headers: admin)
        XCTAssertEqual(goTrueErrorViolations(bad, version: .initial, status: 404, code: "validation_failed", message: "user_id must be an UUID"), [])
        let user = try XCTUnwrap(try f.session("plain2@example.com")["access_token"]?.stringValue)
        XCTAssertEqual(try f.auth("GET", "/admin/users", token: user).jsonBody?["error_code"], "not_admin")
    }

    func testGoQueryEncodingMatchesGo() {
        XCTAssertEqual(GoQuery.encode([("b", "x y"), ("a", "https://h/p?q=1")]), "a=https%3A%2F%2Fh%2Fp%3Fq%3D1&b=x+y")
        XCTAssertEqual(GoQuery.settingQuery("https://h/p?z=1&code=old#frag", [("code", "new")]), "https://h/p?code=new&z=1")
    }
}
