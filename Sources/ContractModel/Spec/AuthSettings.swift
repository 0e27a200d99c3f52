import Foundation

/// An app's GoTrue configuration (`Contracts/<app>/auth.json`): the settings a Supabase project
/// sets in its dashboard, each tied in the file to the document's words. Absent file: GoTrue's
/// defaults as `supabase start` runs them (e-mail auto-confirm on, anonymous sign-ins off).
package struct AuthSettings: Sendable, Equatable {
    /// `SITE_URL`: where links go when `redirect_to` is absent or not allowed.
    package var siteURL = "http://127.0.0.1:3000"
    /// `URI_ALLOW_LIST`: redirect URL patterns (GoTrue's globs: `*` stops at `.` and `/`, `**` does not).
    package var redirectURLs: [String] = []
    /// `MAILER_AUTOCONFIRM`: sign-up returns a session at once (true) or a user awaiting
    /// `verify type=signup` (false).
    package var mailerAutoconfirm = true
    /// `EXTERNAL_ANONYMOUS_USERS_ENABLED`.
    package var anonymousSignIns = false
    /// External OAuth providers enabled (`google`, …); the mock answers them with a deterministic
    /// test provider.
    package var externalProviders: [String] = []
    /// `MAILER_OTP_EXP` in seconds (GoTrue's default 86400).
    package var otpExpirySeconds = 86400
    /// `EXTERNAL_FLOW_STATE_EXPIRY_DURATION` in seconds (GoTrue's default and minimum 300).
    package var flowStateExpirySeconds = 300
    /// `SECURITY_UPDATE_PASSWORD_REQUIRE_REAUTHENTICATION`: a password change needs the nonce
    /// sent by `/reauthenticate`.
    package var passwordChangeRequiresReauthentication = false
    /// `SMTP_MAX_FREQUENCY` in seconds: the least time between two e-mails of one kind to one user
    /// (GoTrue's default 60).
    package var emailMaxFrequencySeconds = 60
    /// `JWT_EXP` (`jwt_expiry` in the Supabase CLI's config.toml): access-token lifetime in
    /// seconds (default 3600).
    package var jwtExpirySeconds: Int = 3600
    /// `PASSWORD_MIN_LENGTH` (`minimum_password_length`): shorter passwords are refused with 422
    /// `weak_password` (default 6).
    package var minimumPasswordLength: Int = 6

    /// Decodes `auth.json` (see `init(from:)`).
    package static func decode(_ node: SpecNode) throws -> AuthSettings { try node.decode(AuthSettings.self) }

    /// Whether GoTrue accepts `url` as a redirect (`utilities.IsRedirectURLValid`): same scheme and
    /// host as the site URL (any port on loopback), a loopback IP, or a match of an allow-list pattern
    /// (fragment ignored). Anything else falls back to the site URL.
    package func isRedirectAllowed(_ url: String) -> Bool {
        guard !url.isEmpty, let ref = URLComponents(string: url), let base = URLComponents(string: siteURL) else { return false }
        let host = ref.host ?? ""
        if host.lowercased() == (base.host ?? "").lowercased(), ref.scheme == base.scheme,
            ref.port == base.port || ["localhost", "127.0.0.1", "::1"].contains(host)
        {
            return true
        }
        if !host.isEmpty, host.allSatisfy(\.isNumber) { return false }
        if host == "127.0.0.1" || host == "::1" || host == "[::1]" { return true }
        let withoutFragment = String(url.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0])
        return redirectURLs.contains { AuthSettings.glob($0, matches: withoutFragment) }
    }

    /// gobwas/glob with separators `.` and `/`: `**` any run, `*` a run without separators, `?` one
    /// non-separator character; everything else literal.
    package static func glob(_ pattern: String, matches s: String) -> Bool {
        let p = Array(pattern), t = Array(s)
        func sep(_ c: Character) -> Bool { c == "." || c == "/" }
        var memo: [Int: Bool] = [:]
        func m(_ i: Int, _ j: Int) -> Bool {
            let key = i * (t.count + 1) + j
            if let v = memo[key] { return v }
            var r: Bool
            if i == p.count {
                r = j == t.count
            } else if p[i] == "*" {
                let double = i + 1 < p.count && p[i + 1] == "*"
                let next = double ? i + 2 : i + 1
                r = m(next, j)
                var k = j
                while !r, k < t.count, double || !sep(t[k]) { k += 1; r = m(next, k) }
            } else if p[i] == "?" {
                r = j < t.count && !sep(t[j]) && m(i + 1, j + 1)
            } else {
                r = j < t.count && t[j] == p[i] && m(i + 1, j + 1)
            }
            memo[key] = r
            return r
        }
        return m(0, 0)
    }
}

/// A setting of auth.json: `{"value": v, "source": "<document words>", "decision": "…"}`, source
/// or decision required so each carries where it comes from.
struct AuthSetting<Value: Decodable>: Decodable {
    var value: Value
    enum CodingKeys: String, CodingKey, CaseIterable { case value, source, decision }
    init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        value = try c.decode(Value.self, forKey: .value)
        let src = try c.decodeIfPresent(String.self, forKey: .source), dec = try c.decodeIfPresent(String.self, forKey: .decision)
        guard src != nil || dec != nil else { throw decoder.fail("a setting needs the document's words ('source') or a 'decision'") }
    }
}

extension AuthSettings: Decodable {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case app, source, decisions, site_url, redirect_urls, mailer_autoconfirm, anonymous_sign_ins, external_providers,
            otp_expiry_seconds, flow_state_expiry_seconds, password_change_requires_reauthentication,
            email_max_frequency_seconds, jwt_expiry, minimum_password_length
    }

    /// Absent settings keep GoTrue's defaults.
    package init(from decoder: Decoder) throws {
        self.init()
        let c = try decoder.container(keyedBy: CodingKeys.self)
        func value<T: Decodable>(_ key: CodingKeys, _ current: T) throws -> T {
            try c.decodeIfPresent(AuthSetting<T>.self, forKey: key)?.value ?? current
        }
        func check(_ ok: Bool, _ key: CodingKeys, _ message: String) throws {
            if !ok { throw c.fail([key, AnyKey("value")], message) }
        }
        siteURL = try value(.site_url, siteURL)
        redirectURLs = try value(.redirect_urls, redirectURLs)
        mailerAutoconfirm = try value(.mailer_autoconfirm, mailerAutoconfirm)
        anonymousSignIns = try value(.anonymous_sign_ins, anonymousSignIns)
        externalProviders = try value(.external_providers, externalProviders)
        otpExpirySeconds = try value(.otp_expiry_seconds, otpExpirySeconds)
        flowStateExpirySeconds = try value(.flow_state_expiry_seconds, flowStateExpirySeconds)
        // conf/configuration.go raises anything below 300 s to 300 s.
        try check(flowStateExpirySeconds >= 300, .flow_state_expiry_seconds, "GoTrue raises a flow-state expiry below 300 s to 300 s; write 300 or more")
        passwordChangeRequiresReauthentication = try value(.password_change_requires_reauthentication, passwordChangeRequiresReauthentication)
        emailMaxFrequencySeconds = try value(.email_max_frequency_seconds, emailMaxFrequencySeconds)
        jwtExpirySeconds = try value(.jwt_expiry, jwtExpirySeconds)
        try check(jwtExpirySeconds >= 1, .jwt_expiry, "jwt_expiry is a positive number of seconds")
        minimumPasswordLength = try value(.minimum_password_length, minimumPasswordLength)
        try check(minimumPasswordLength >= 1, .minimum_password_length, "minimum_password_length is at least 1")
        guard URL(string: siteURL)?.host != nil else { throw c.fail("site_url '\(siteURL)' is not an absolute URL") }
    }
}
