import Foundation

/// An e-mail the mock GoTrue "sent": the mock's inbox, read by tests and tools instead of SMTP.
public struct SentEmail: Sendable, Equatable {
    /// The recipient (lower-cased).
    public var to: String
    /// `signup`, `magiclink`, `recovery` or `reauthentication`.
    public var type: String
    /// The one-time password the e-mail shows (`{{ .Token }}`).
    public var otp: String
    /// The link's token (`{{ .TokenHash }}`, `pkce_`-prefixed in the PKCE flow).
    public var tokenHash: String
    /// The confirmation link as a path and query under the project URL:
    /// `/auth/v1/verify?token=…&type=…&redirect_to=…` (nil for reauthentication, which has no link).
    public var actionLink: String?
}

/// GoTrue's per-user e-mail tokens, PKCE flow states, e-mails sent and external-provider states
/// (`confirmation_token`, `recovery_token`, `reauthentication_token` columns and `auth.flow_state`
/// upstream). Kept apart from sessions and refresh tokens.
///
/// Its mutable state is a `State` behind a `Guarded` lock (the backend's one discipline), reached
/// only through `withLock`.
final class GoTrueFlows: Sendable {
    /// Which column a token lives in.
    enum TokenKind: Hashable { case confirmation, recovery, reauthentication }
    /// A stored token: the hash (with `pkce_` when the flow is PKCE; nil once used) and when it
    /// was sent. Using a token clears the token but not the time (models/user.go `Recover`,
    /// `Confirm`: `recovery_token` is emptied, `recovery_sent_at` stays), so the send rate
    /// limit still counts from it and the user still shows `recovery_sent_at`.
    struct EmailToken { var token: String?; var sentAt: Date }
    /// An `auth.flow_state` row.
    struct FlowState {
        let id: String
        let userID: String?
        let authCode: String
        let codeChallenge: String
        let codeChallengeMethod: String
        /// `magiclink`, `recovery`, `email/signup`, `oauth`.
        let authenticationMethod: String
        let providerType: String
        let createdAt: Date
        var authCodeIssuedAt: Date?
    }
    /// An external sign-in in progress (`/authorize` → provider → `/callback`).
    struct OAuthState { let provider: String; let redirectTo: String; let flowStateID: String?; let createdAt: Date }

    /// The tokens, flow states, outbox and OAuth states.
    struct State {
        var tokens: [String: [TokenKind: EmailToken]] = [:]
        var flowStates: [String: FlowState] = [:]
        var outbox: [String: [SentEmail]] = [:]
        var oauthStates: [String: OAuthState] = [:]
    }
    private let state = Guarded(State())

    func reset() { state.withLock { $0 = State() } }

    /// Runs `body` with exclusive access to the state (a leaf lock: `body` calls no other service).
    func withLock<T>(_ body: (inout State) throws -> T) rethrows -> T { try state.withLock(body) }

    /// `crypto.GenerateTokenHash`: upstream hex(SHA-224(email + otp)); the mock uses the first 56 hex
    /// digits of SHA-256 (same length and alphabet; the value is opaque to clients).
    static func tokenHash(_ email: String, _ otp: String) -> String {
        String(SHA256.hash(Array((email + otp).utf8)).map { String(format: "%02x", $0) }.joined().prefix(56))
    }

    /// `security.VerifyPKCEChallenge`.
    static func verifyPKCE(challenge: String, method: String, verifier: String) -> String? {
        switch method.lowercased() {
        case "s256":
            let enc = Base64URL.encode(SHA256.hash(Array(verifier.utf8)))
            return enc == challenge ? nil : "code challenge does not match previously saved code verifier"
        case "plain":
            return challenge == verifier ? nil : "code challenge does not match previously saved code verifier"
        default:
            return "code challenge method not supported"
        }
    }
}

/// Go's `url.QueryEscape` and `url.Values.Encode` (keys sorted, space as `+`), which GoTrue uses
/// for every redirect it builds.
enum GoQuery {
    static func escape(_ s: String) -> String {
        var out = ""
        for b in s.utf8 {
            switch b {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(b))
            case UInt8(ascii: " "): out += "+"
            default: out += String(format: "%%%02X", b)
            }
        }
        return out
    }

    static func encode(_ pairs: [(String, String)]) -> String {
        pairs.sorted { $0.0 < $1.0 }.map { escape($0.0) + "=" + escape($0.1) }.joined(separator: "&")
    }

    /// Sets query values on a URL as `u.Query(); q.Set(…); u.RawQuery = q.Encode()` does: the
    /// existing query is re-encoded with the new keys, sorted; the fragment is dropped.
    static func settingQuery(_ url: String, _ set: [(String, String)]) -> String {
        var base = url
        if let h = base.firstIndex(of: "#") { base = String(base[..<h]) }
        var existing: [(String, String)] = []
        if let q = base.firstIndex(of: "?") {
            for part in base[base.index(after: q)...].split(separator: "&") where !part.isEmpty {
                let kv = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                let dec = { (s: Substring) in HTTPRequest.percentDecoded(Substring(s.replacingOccurrences(of: "+", with: " "))) }
                existing.append((dec(kv[0]), kv.count > 1 ? dec(kv[1]) : ""))
            }
            base = String(base[..<q])
        }
        let keys = Set(set.map(\.0))
        let all = existing.filter { !keys.contains($0.0) } + set
        return all.isEmpty ? base : base + "?" + encode(all)
    }
}

extension MockSupabase {
    /// The e-mails sent to an address, oldest first.
    package func sentEmails(to email: String) -> [SentEmail] {
        flows.withLock { held in held.outbox[email.lowercased()] ?? [] }
    }

    /// The last e-mail sent to an address.
    public func lastEmail(to email: String) -> SentEmail? { sentEmails(to: email).last }

    var authSettings: AuthSettings { configuration.spec.auth }

    func nowTimestamp() -> String { PGTime.timestamptz(configuration.clock.now()) }

    /// The redirect GoTrue would use (`utilities.GetReferrer`): a `redirect_to` header, else the
    /// query's `redirect_to`, when allowed; else the Referer when allowed; else the site URL.
    func referrer(_ request: HTTPRequest) -> String {
        let asked = request.headers["redirect_to"] ?? request.queryValue("redirect_to")
        if let a = asked, authSettings.isRedirectAllowed(a) { return a }
        if let r = request.headers["Referer"], authSettings.isRedirectAllowed(r) { return r }
        return authSettings.siteURL
    }

    /// `validatePKCEParams`: nil when the body has no PKCE parameters, the pair when valid, an error
    /// response otherwise.
    func pkceParameters(_ body: [String: JSONValue]) -> Result<(challenge: String, method: String)?, HTTPResponseBox> {
        let c = body["code_challenge"]?.stringValue ?? "", m = body["code_challenge_method"]?.stringValue ?? ""
        if c.isEmpty != m.isEmpty {
            return .failure(HTTPResponseBox(authError(400, "validation_failed", "PKCE flow requires code_challenge_method and code_challenge")))
        }
        if c.isEmpty { return .success(nil) }
        guard (43...128).contains(c.utf8.count) else {
            return .failure(HTTPResponseBox(authError(400, "validation_failed", "code challenge has to be between 43 and 128 characters")))
        }
        guard
            c.utf8.allSatisfy({ b in
                (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x2E || b == 0x5F || b == 0x7E || b == 0x2D
            })
        else {
            return .failure(
                HTTPResponseBox(
                    authError(
                        400, "validation_failed",
                        "code challenge can only contain alphanumeric characters, hyphens, periods, underscores and tildes")))
        }
        guard ["s256", "plain"].contains(m.lowercased()) else {
            // models.NewFlowState fails with a plain error: GoTrue's default 500 handler answers.
            return .failure(HTTPResponseBox(authError(500, "unexpected_failure", "Unexpected failure, please check server logs for more information")))
        }
        return .success((c, m.lowercased()))
    }

    /// Creates an `auth.flow_state` row (`generateFlowState`) and returns its id.
    @discardableResult
    func createFlowState(userID: String?, pkce: (challenge: String, method: String), method: String, provider: String) -> String {
        let fs = GoTrueFlows.FlowState(
            id: configuration.ids.uuid(), userID: userID, authCode: configuration.ids.uuid(),
            codeChallenge: pkce.challenge, codeChallengeMethod: pkce.method,
            authenticationMethod: method, providerType: provider, createdAt: configuration.clock.now(),
            authCodeIssuedAt: nil)
        flows.withLock { held in held.flowStates[fs.id] = fs }
        return fs.id
    }

    /// Sends an e-mail with a fresh one-time password (`sendConfirmation`, `sendMagicLink`,
    /// `sendPasswordRecovery`, `sendReauthenticationOtp`), refusing with 429
    /// `over_email_send_rate_limit` inside `SMTP_MAX_FREQUENCY` of the previous one of its kind.
    func sendEmail(user: [String: JSONValue], kind: GoTrueFlows.TokenKind, type: String, pkce: Bool, redirectTo: String) -> HTTPResponse? {
        if case .failure(let e) = issueEmailToken(user: user, kind: kind, type: type, pkce: pkce, redirectTo: redirectTo, deliver: true) { return e.response }
        return nil
    }

    /// Stores a fresh e-mail token; `deliver` puts the e-mail in the outbox under the send rate
    /// limit (`admin/generate_link` does neither).
    func issueEmailToken(
        user: [String: JSONValue], kind: GoTrueFlows.TokenKind, type: String, pkce: Bool, redirectTo: String,
        deliver: Bool
    ) -> Result<SentEmail, HTTPResponseBox> {
        let id = user["id"]?.stringValue ?? "", email = user["email"]?.stringValue ?? ""
        let now = configuration.clock.now()
        let freq = TimeInterval(authSettings.emailMaxFrequencySeconds)
        return flows.withLock { (held: inout GoTrueFlows.State) -> Result<SentEmail, HTTPResponseBox> in
            if deliver, let prev = held.tokens[id]?[kind], prev.sentAt.addingTimeInterval(freq) > now {
                let left = Int(prev.sentAt.addingTimeInterval(freq).timeIntervalSince(now))
                return .failure(
                    HTTPResponseBox(authError(429, "over_email_send_rate_limit", "For security purposes, you can only request this after \(left) seconds.")))
            }
            let otp = configuration.ids.bytes(6).map { String(Int($0) % 10) }.joined()
            let hash = GoTrueFlows.tokenHash(email, otp)
            let token = pkce ? "pkce_" + hash : hash
            held.tokens[id, default: [:]][kind] = GoTrueFlows.EmailToken(token: token, sentAt: now)
            let link =
                kind == .reauthentication
                ? nil
                : "/auth/v1/verify?" + GoQuery.encode([("token", token), ("type", type), ("redirect_to", redirectTo)])
            let sent = SentEmail(to: email, type: type, otp: otp, tokenHash: token, actionLink: link)
            if deliver { held.outbox[email, default: []].append(sent) }
            return .success(sent)
        }
    }

    /// When the last e-mail of a kind went to a user (for `confirmation_sent_at` / `recovery_sent_at`).
    func emailSentAt(userID: String, kind: GoTrueFlows.TokenKind) -> Date? {
        flows.withLock { held in held.tokens[userID]?[kind]?.sentAt }
    }

    func isConfirmed(_ user: [String: JSONValue]) -> Bool { user["email_confirmed_at"].map { !$0.isNull } ?? false }

    func confirm(userID: String) {
        _ = try? database.update("auth.users", set: ["email_confirmed_at": .string(nowTimestamp())], where: .eq("id", userID))
    }

    /// The user whose token of `kinds` equals `token` (or `pkce_` + token), unexpired; clears it.
    /// `tokenIsHash`: the link's token hash, else an OTP checked against the e-mail's hash.
    func consumeEmailToken(email: String?, token: String, kinds: [GoTrueFlows.TokenKind], tokenIsHash: Bool)
        -> (user: [String: JSONValue], kind: GoTrueFlows.TokenKind, pkce: Bool)?
    {
        let now = configuration.clock.now()
        let exp = TimeInterval(authSettings.otpExpirySeconds)
        var candidates: [[String: JSONValue]] = []
        if let email { if let u = findUser(email: email) { candidates = [u] } } else { candidates = (try? database.rows("auth.users", where: nil)) ?? [] }
        return flows.withLock { (held: inout GoTrueFlows.State) -> (user: [String: JSONValue], kind: GoTrueFlows.TokenKind, pkce: Bool)? in
            for u in candidates {
                let id = u["id"]?.stringValue ?? ""
                for k in kinds {
                    guard let t = held.tokens[id]?[k], let stored = t.token, t.sentAt.addingTimeInterval(exp) >= now else { continue }
                    let actual = tokenIsHash ? token : GoTrueFlows.tokenHash(u["email"]?.stringValue ?? "", token)
                    if stored == actual || stored == "pkce_" + actual {
                        held.tokens[id]?[k]?.token = nil
                        return (u, k, stored.hasPrefix("pkce_"))
                    }
                }
            }
            return nil
        }
    }
}
