import Foundation

/// The error-body version a GoTrue request asks for through `X-Supabase-Api-Version`.
///
/// GoTrue (supabase/auth `internal/api/apiversions.go`) parses the header as a `2006-01-02` date in
/// UTC; any date on or after 2024-01-01 selects the 2024-01-01 shape, an earlier date, a missing
/// header or one that does not parse selects the initial (legacy) shape.
enum GoTrueAPIVersion: Equatable, Sendable {
    /// `{"code": <status>, "error_code": …, "msg": …}`.
    case initial
    /// `{"code": "<error_code>", "message": …}`.
    case v20240101

    /// The version a header value selects.
    init(header: String?) {
        guard let h = header, let day = GoTrueAPIVersion.parseDay(h) else { self = .initial; return }
        self = day >= 20240101 ? .v20240101 : .initial
    }

    /// `yyyy-mm-dd` as the integer yyyymmdd, when it is a real calendar day (Go's layout parser
    /// wants exactly four, two and two digits and refuses 2023-02-30).
    static func parseDay(_ s: String) -> Int? {
        let u = Array(s.utf8)
        guard u.count == 10, u[4] == 0x2D, u[7] == 0x2D else { return nil }
        func num(_ r: Range<Int>) -> Int? {
            var v = 0
            for i in r { guard u[i] >= 0x30, u[i] <= 0x39 else { return nil }; v = v * 10 + Int(u[i] - 0x30) }
            return v
        }
        guard let y = num(0..<4), let m = num(5..<7), let d = num(8..<10), (1...12).contains(m), d >= 1 else { return nil }
        let leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0
        let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1]
        guard d <= days else { return nil }
        return y * 10000 + m * 100 + d
    }
}

/// A GoTrue API error (`apierrors.HTTPError`), rendered in the shape the request asks for.
struct GoTrueError: Error, Sendable {
    var status: Int
    /// One of GoTrue's error codes (`internal/api/apierrors/errorcode.go`).
    var code: String
    /// The human message (`msg` / `message`).
    var message: String
    /// `weak_password.reasons` for `WeakPasswordError` (rendered by its own handler upstream).
    var weakPasswordReasons: [String]?

    /// The response in the shape `version` selects, as `internal/api/errors.go` writes it:
    /// - HTTPError: `x-sb-error-code` header in both shapes; legacy body `{code:int, error_code, msg}`,
    ///   2024-01-01 body `{code, message}`.
    /// - WeakPasswordError: 422 with `weak_password: {reasons}`; the header only in the legacy shape
    ///   (the 2024-01-01 branch of `handleResponseErrorWeakPassword` never sets it).
    /// - The 2024-01-01 shape also echoes `X-Supabase-Api-Version: 2024-01-01` (`HandleResponseError`),
    ///   which supabase-swift reads to decide how to decode the body.
    func response(_ version: GoTrueAPIVersion) -> HTTPResponse {
        var headers: HTTPHeaders = ["Content-Type": "application/json"]
        var body: [String: JSONValue]
        switch version {
        case .initial:
            body = ["code": .int(Int64(status)), "error_code": .string(code), "msg": .string(message)]
            headers["x-sb-error-code"] = code
        case .v20240101:
            headers["X-Supabase-Api-Version"] = "2024-01-01"
            body = ["code": .string(code), "message": .string(message)]
            if weakPasswordReasons == nil { headers["x-sb-error-code"] = code }
        }
        if let reasons = weakPasswordReasons, !reasons.isEmpty {
            body["weak_password"] = ["reasons": .array(reasons.map { .string($0) })]
        }
        return .json(status, .object(body), headers: headers)
    }

    /// Reads back a legacy-shaped error response (the shape `authError` builds), or nil when the
    /// response is not one.
    init?(legacy r: HTTPResponse) {
        guard r.status >= 400, let o = r.jsonBody?.objectValue, case .int(let s)? = o["code"], Int(s) == r.status,
            let code = o["error_code"]?.stringValue, let msg = o["msg"]?.stringValue
        else { return nil }
        status = r.status
        self.code = code
        message = msg
        weakPasswordReasons = o["weak_password"]?["reasons"]?.arrayValue?.compactMap(\.stringValue)
    }

    init(status: Int, code: String, message: String, weakPasswordReasons: [String]? = nil) {
        self.status = status
        self.code = code
        self.message = message
        self.weakPasswordReasons = weakPasswordReasons
    }
}

extension GoTrueError {
    /// GoTrue's error codes (`internal/api/apierrors/errorcode.go`) the mock may emit; anything
    /// else is a bug in the mock (the wire tests check every emitted code against this list).
    static let knownCodes: Set<String> = [
        "unknown", "unexpected_failure", "validation_failed", "bad_json", "email_exists", "phone_exists", "bad_jwt",
        "not_admin", "no_authorization", "user_not_found", "session_not_found", "session_expired",
        "refresh_token_not_found", "refresh_token_already_used", "flow_state_not_found", "flow_state_expired",
        "flow_state_already_used", "signup_disabled", "user_banned", "provider_email_needs_verification",
        "invite_not_found", "bad_oauth_state", "bad_oauth_callback", "oauth_provider_not_supported",
        "unexpected_audience", "single_identity_not_deletable", "email_conflict_identity_not_deletable",
        "identity_already_exists", "email_provider_disabled", "phone_provider_disabled", "captcha_failed",
        "manual_linking_disabled", "email_not_confirmed", "phone_not_confirmed", "user_already_exists", "conflict",
        "provider_disabled", "reauthentication_needed", "same_password", "reauthentication_not_valid",
        "current_password_invalid", "current_password_required", "otp_expired", "otp_disabled", "identity_not_found",
        "weak_password", "over_request_rate_limit", "over_email_send_rate_limit", "over_sms_send_rate_limit",
        "bad_code_verifier", "anonymous_provider_disabled", "invalid_credentials", "email_address_not_authorized",
        "email_address_invalid", "request_timeout", "feature_disabled"
    ]
}

extension MockSupabase {
    /// Renders the legacy error responses the GoTrue handlers build in the shape the request's
    /// `X-Supabase-Api-Version` selects; other responses pass through.
    func shapeAuthError(_ response: HTTPResponse, for request: HTTPRequest) -> HTTPResponse {
        guard response.status >= 400, let e = GoTrueError(legacy: response) else {
            // OAuthError bodies keep their shape; HandleResponseError still echoes the version.
            var r = response
            if response.status >= 400, response.headers["Content-Type"] == "application/json",
                GoTrueAPIVersion(header: request.headers["X-Supabase-Api-Version"]) == .v20240101
            {
                r.headers["X-Supabase-Api-Version"] = "2024-01-01"
            }
            return r
        }
        var r = e.response(GoTrueAPIVersion(header: request.headers["X-Supabase-Api-Version"]))
        for (n, v) in response.headers where r.headers[n] == nil && !n.caseInsensitiveEquals("x-sb-error-code") { r.headers.add(n, v) }
        return r
    }
}
