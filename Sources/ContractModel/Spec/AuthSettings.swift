import Foundation

/// An app's GoTrue configuration (`Contracts/<app>/auth.json`): the settings a Supabase project
/// sets in its dashboard, each tied in the file to the document's words. Absent file: GoTrue's
/// defaults as `supabase start` runs them (e-mail auto-confirm on, anonymous sign-ins off).
public struct AuthSettings: Sendable, Equatable {
    /// `SITE_URL`: where links go when `redirect_to` is absent or not allowed.
    public var siteURL: String
    /// `URI_ALLOW_LIST`: redirect URL patterns (GoTrue's globs: `*` stops at `.` and `/`, `**` does not).
    public var redirectURLs: [String]
    /// `MAILER_AUTOCONFIRM`: sign-up returns a session at once (true) or a user awaiting
    /// `verify type=signup` (false).
    public var mailerAutoconfirm: Bool
    /// `EXTERNAL_ANONYMOUS_USERS_ENABLED`.
    public var anonymousSignIns: Bool
    /// External OAuth providers enabled (`google`, …); the mock answers them with a deterministic
    /// test provider.
    public var externalProviders: [String]
    /// `MAILER_OTP_EXP` in seconds (GoTrue's default 86400).
    public var otpExpirySeconds: Int
    /// `EXTERNAL_FLOW_STATE_EXPIRY_DURATION` in seconds (GoTrue's default and minimum 300).
    public var flowStateExpirySeconds: Int
    /// `SECURITY_UPDATE_PASSWORD_REQUIRE_REAUTHENTICATION`: a password change needs the nonce
    /// sent by `/reauthenticate`.
    public var passwordChangeRequiresReauthentication: Bool
    /// `SMTP_MAX_FREQUENCY` in seconds: the least time between two e-mails of one kind to one user
    /// (GoTrue's default 60).
    public var emailMaxFrequencySeconds: Int
    /// `JWT_EXP` (`jwt_expiry` in the Supabase CLI's config.toml): access-token lifetime in
    /// seconds (default 3600).
    public var jwtExpirySeconds: Int = 3600
    /// `PASSWORD_MIN_LENGTH` (`minimum_password_length`): shorter passwords are refused with 422
    /// `weak_password` (default 6).
    public var minimumPasswordLength: Int = 6

    /// GoTrue's defaults.
    public init(siteURL: String = "http://127.0.0.1:3000", redirectURLs: [String] = [], mailerAutoconfirm: Bool = true,
                anonymousSignIns: Bool = false, externalProviders: [String] = [], otpExpirySeconds: Int = 86400,
                flowStateExpirySeconds: Int = 300, passwordChangeRequiresReauthentication: Bool = false,
                emailMaxFrequencySeconds: Int = 60) {
        self.emailMaxFrequencySeconds = emailMaxFrequencySeconds
        self.siteURL = siteURL
        self.redirectURLs = redirectURLs
        self.mailerAutoconfirm = mailerAutoconfirm
        self.anonymousSignIns = anonymousSignIns
        self.externalProviders = externalProviders
        self.otpExpirySeconds = otpExpirySeconds
        self.flowStateExpirySeconds = flowStateExpirySeconds
        self.passwordChangeRequiresReauthentication = passwordChangeRequiresReauthentication
    }

    /// Decodes `auth.json`: every setting is `{"value": v, "source": "<document words>", "decision": "…"}`
    /// (source or decision required) so each carries where it comes from.
    public static func decode(_ node: SpecNode) throws -> AuthSettings {
        try node.object { o in
            _ = o.optional("app"); _ = o.optional("source"); _ = o.optional("decisions")
            var s = AuthSettings()
            func setting(_ key: String) throws -> SpecNode? {
                guard let n = o.optional(key) else { return nil }
                return try n.object { so in
                    let v = try so.required("value")
                    let src = so.optional("source"), dec = so.optional("decision")
                    guard src != nil || dec != nil else { throw n.fail("a setting needs the document's words ('source') or a 'decision'") }
                    _ = try src?.string(); _ = try dec?.string()
                    return v
                }
            }
            if let v = try setting("site_url") { s.siteURL = try v.string() }
            if let v = try setting("redirect_urls") { s.redirectURLs = try v.strings() }
            if let v = try setting("mailer_autoconfirm") { s.mailerAutoconfirm = try v.bool() }
            if let v = try setting("anonymous_sign_ins") { s.anonymousSignIns = try v.bool() }
            if let v = try setting("external_providers") { s.externalProviders = try v.strings() }
            if let v = try setting("otp_expiry_seconds") { s.otpExpirySeconds = try v.int() }
            if let v = try setting("flow_state_expiry_seconds") {
                s.flowStateExpirySeconds = try v.int()
                // conf/configuration.go raises anything below 300 s to 300 s.
                if s.flowStateExpirySeconds < 300 { throw v.fail("GoTrue raises a flow-state expiry below 300 s to 300 s; write 300 or more") }
            }
            if let v = try setting("password_change_requires_reauthentication") { s.passwordChangeRequiresReauthentication = try v.bool() }
            if let v = try setting("email_max_frequency_seconds") { s.emailMaxFrequencySeconds = try v.int() }
            if let v = try setting("jwt_expiry") {
                s.jwtExpirySeconds = try v.int()
                if s.jwtExpirySeconds < 1 { throw v.fail("jwt_expiry is a positive number of seconds") }
            }
            if let v = try setting("minimum_password_length") {
                s.minimumPasswordLength = try v.int()
                if s.minimumPasswordLength < 1 { throw v.fail("minimum_password_length is at least 1") }
            }
            guard URL(string: s.siteURL)?.host != nil else { throw o.this.fail("site_url '\(s.siteURL)' is not an absolute URL") }
            return s
        }
    }

    /// Whether GoTrue accepts `url` as a redirect (`utilities.IsRedirectURLValid`): same scheme and
    /// host as the site URL (any port on loopback), a loopback IP, or a match of an allow-list pattern
    /// (fragment ignored). Anything else falls back to the site URL.
    public func isRedirectAllowed(_ url: String) -> Bool {
        guard !url.isEmpty, let ref = URLComponents(string: url), let base = URLComponents(string: siteURL) else { return false }
        let host = ref.host ?? ""
        if host.lowercased() == (base.host ?? "").lowercased(), ref.scheme == base.scheme,
           ref.port == base.port || ["localhost", "127.0.0.1", "::1"].contains(host) { return true }
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
            if i == p.count { r = j == t.count }
            else if p[i] == "*" {
                let double = i + 1 < p.count && p[i + 1] == "*"
                let next = double ? i + 2 : i + 1
                r = m(next, j)
                var k = j
                while !r, k < t.count, double || !sep(t[k]) { k += 1; r = m(next, k) }
            } else if p[i] == "?" { r = j < t.count && !sep(t[j]) && m(i + 1, j + 1) }
            else { r = j < t.count && t[j] == p[i] && m(i + 1, j + 1) }
            memo[key] = r
            return r
        }
        return m(0, 0)
    }

    /// The redirect GoTrue uses for a requested `redirect_to` (`utilities.GetReferrer`).
    public func redirect(for requested: String?) -> String {
        if let r = requested, isRedirectAllowed(r) { return r }
        return siteURL
    }
}
