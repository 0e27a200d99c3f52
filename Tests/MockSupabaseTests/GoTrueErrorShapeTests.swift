import XCTest
import MockBinding
@testable import MockSupabase

/// A backend for GoTrue tests with chosen auth settings, driven through `handle`.
final class AuthFixture {
    let clock = ManualClock()
    let backend: MockSupabase

    init(_ configure: (inout AuthSettings) -> Void = { _ in }) throws {
        var spec = try AppSpec.load(folder: ContractsLocator.app("teleportme"))
        configure(&spec.auth)
        backend = try MockSupabase(configuration: MockConfiguration(spec: spec, clock: clock, ids: SeededIDGenerator(seed: 7)))
    }

    /// Sends a request to `/auth/v1<path>` with the anon key; `version` sets `X-Supabase-Api-Version`.
    @discardableResult
    func auth(
        _ method: String, _ target: String, json: JSONValue? = nil, token: String? = nil, version: String? = nil,
        headers extra: HTTPHeaders = [:]
    ) throws -> HTTPResponse {
        var h: HTTPHeaders = ["apikey": backend.anonKey]
        if let token { h["Authorization"] = "Bearer \(token)" }
        if let version { h["X-Supabase-Api-Version"] = version }
        for (n, v) in extra { h[n] = v }
        return try backend.handle(HTTPRequest(method: method, target: "/auth/v1" + target, headers: h, body: json?.data() ?? Data()))
    }

    /// Signs up (auto-confirm) and returns the session body.
    func session(_ email: String, _ password: String = "secret-123") throws -> JSONValue {
        let r = try auth("POST", "/signup", json: ["email": .string(email), "password": .string(password)])
        XCTAssertEqual(r.status, 200, r.text)
        return r.jsonBody ?? .null
    }
}

/// What a GoTrue error must look like on the wire for a version; returns the violations.
func goTrueErrorViolations(
    _ r: HTTPResponse, version: GoTrueAPIVersion, status: Int, code: String, message: String,
    weakReasons: [String]? = nil
) -> [String] {
    var v: [String] = []
    if r.status != status { v.append("status \(r.status) != \(status)") }
    guard let body = r.jsonBody?.objectValue else { return v + ["body is not a JSON object: \(r.text)"] }
    var expected: [String: JSONValue]
    switch version {
    case .initial:
        expected = ["code": .int(Int64(status)), "error_code": .string(code), "msg": .string(message)]
        if r.headers["X-Supabase-Api-Version"] != nil { v.append("legacy error carries X-Supabase-Api-Version") }
        if r.headers["x-sb-error-code"] != code { v.append("x-sb-error-code \(r.headers["x-sb-error-code"] ?? "nil") != \(code)") }
    case .v20240101:
        expected = ["code": .string(code), "message": .string(message)]
        if r.headers["X-Supabase-Api-Version"] != "2024-01-01" { v.append("missing X-Supabase-Api-Version: 2024-01-01") }
        // handleResponseErrorWeakPassword's 2024-01-01 branch sets no x-sb-error-code.
        let wantHeader: String? = weakReasons == nil ? code : nil
        if r.headers["x-sb-error-code"] != wantHeader { v.append("x-sb-error-code \(r.headers["x-sb-error-code"] ?? "nil") != \(wantHeader ?? "nil")") }
    }
    if let w = weakReasons { expected["weak_password"] = ["reasons": .array(w.map { .string($0) })] }
    if body != expected { v.append("body \(JSONValue.object(body)) != \(JSONValue.object(expected))") }
    if !GoTrueError.knownCodes.contains(code) { v.append("\(code) is not a GoTrue error code") }
    return v
}

/// GoTrue's two error shapes chosen by `X-Supabase-Api-Version` (supabase/auth
/// `internal/api/errors.go`, `apiversions.go`), and the codes the mock emits.
final class GoTrueErrorShapeTests: XCTestCase {
    func testHeaderDateSelectsTheShapeAsGoTrueParsesIt() {
        XCTAssertEqual(GoTrueAPIVersion(header: nil), .initial)
        XCTAssertEqual(GoTrueAPIVersion(header: "2024-01-01"), .v20240101)
        XCTAssertEqual(GoTrueAPIVersion(header: "2031-07-15"), .v20240101)
        XCTAssertEqual(GoTrueAPIVersion(header: "2023-12-31"), .initial)
        XCTAssertEqual(GoTrueAPIVersion(header: "2024-02-30"), .initial, "not a calendar day: Go's parser refuses it")
        XCTAssertEqual(GoTrueAPIVersion(header: "2024-1-01"), .initial)
        XCTAssertEqual(GoTrueAPIVersion(header: "2024-01-01T00:00:00Z"), .initial)
        XCTAssertEqual(GoTrueAPIVersion(header: "2024-02-29"), .v20240101, "leap day")
    }

    func testWrongPasswordInBothShapes() throws {
        let f = try AuthFixture()
        _ = try f.session("ada@example.com")
        let body: JSONValue = ["email": "ada@example.com", "password": "wrong-one"]
        let legacy = try f.auth("POST", "/token?grant_type=password", json: body)
        XCTAssertEqual(goTrueErrorViolations(legacy, version: .initial, status: 400, code: "invalid_credentials", message: "Invalid login credentials"), [])
        let current = try f.auth("POST", "/token?grant_type=password", json: body, version: "2024-01-01")
        XCTAssertEqual(goTrueErrorViolations(current, version: .v20240101, status: 400, code: "invalid_credentials", message: "Invalid login credentials"), [])
        let old = try f.auth("POST", "/token?grant_type=password", json: body, version: "2023-06-01")
        XCTAssertEqual(goTrueErrorViolations(old, version: .initial, status: 400, code: "invalid_credentials", message: "Invalid login credentials"), [])
    }

    func testWeakPasswordCarriesReasonsAndNoHeaderInTheNewShape() throws {
        let f = try AuthFixture()
        let body: JSONValue = ["email": "weak@example.com", "password": "abc"]
        let current = try f.auth("POST", "/signup", json: body, version: "2024-01-01")
        XCTAssertEqual(
            goTrueErrorViolations(
                current, version: .v20240101, status: 422, code: "weak_password",
                message: "Password should be at least 6 characters.", weakReasons: ["length"]), [])
        let legacy = try f.auth("POST", "/signup", json: body)
        XCTAssertEqual(
            goTrueErrorViolations(
                legacy, version: .initial, status: 422, code: "weak_password",
                message: "Password should be at least 6 characters.", weakReasons: ["length"]), [])
    }

    func testDuplicateEmailSessionNotFoundAndMissingBearer() throws {
        let f = try AuthFixture()
        let s = try f.session("dup@example.com")
        let dup = try f.auth("POST", "/signup", json: ["email": "dup@example.com", "password": "secret-123"], version: "2024-01-01")
        XCTAssertEqual(goTrueErrorViolations(dup, version: .v20240101, status: 422, code: "user_already_exists", message: "User already registered"), [])
        let token = try XCTUnwrap(s["access_token"]?.stringValue)
        XCTAssertEqual(try f.auth("POST", "/logout?scope=global", token: token).status, 204)
        let gone = try f.auth("GET", "/user", token: token, version: "2024-01-01")
        XCTAssertEqual(
            goTrueErrorViolations(
                gone, version: .v20240101, status: 403, code: "session_not_found",
                message: "Session from session_id claim in JWT does not exist"), [])
        let none = try f.auth("GET", "/user", version: "2024-01-01")
        XCTAssertEqual(
            goTrueErrorViolations(
                none, version: .v20240101, status: 401, code: "no_authorization",
                message: "This endpoint requires a valid Bearer token"), [])
        let wrongOTP = try f.auth("POST", "/verify", json: ["type": "email", "email": "dup@example.com", "token": "000000"], version: "2024-01-01")
        XCTAssertEqual(goTrueErrorViolations(wrongOTP, version: .v20240101, status: 403, code: "otp_expired", message: "Token has expired or is invalid"), [])
    }

    func testUnsupportedGrantTypeAndUnknownRoute() throws {
        let f = try AuthFixture()
        let r = try f.auth("POST", "/token?grant_type=client_credentials", json: [:], version: "2024-01-01")
        XCTAssertEqual(goTrueErrorViolations(r, version: .v20240101, status: 400, code: "invalid_credentials", message: "unsupported_grant_type"), [])
        let missing = try f.auth("GET", "/no-such-route")
        XCTAssertEqual(missing.status, 404)
        XCTAssertEqual(missing.text, "404 page not found\n")
        XCTAssertEqual(missing.headers["Content-Type"], "text/plain; charset=utf-8")
    }

    /// Every error the auth routes answer to a battery of bad requests uses one of GoTrue's codes.
    func testEveryEmittedCodeIsGoTrues() throws {
        let f = try AuthFixture { $0.mailerAutoconfirm = false }
        let requests: [(String, String, JSONValue?)] = [
            ("POST", "/signup", ["email": "x@example.com"]), ("POST", "/signup", ["email": "bad", "password": "secret-123"]),
            ("POST", "/signup", [:]),
            ("POST", "/signup", ["email": "p@example.com", "password": "secret-123", "code_challenge": "short", "code_challenge_method": "s256"]),
            ("POST", "/token?grant_type=password", [:]), ("POST", "/token?grant_type=refresh_token", ["refresh_token": "nope"]),
            ("POST", "/token?grant_type=pkce", [:]), ("POST", "/token?grant_type=pkce", ["auth_code": "x", "code_verifier": "y"]),
            ("POST", "/verify", [:]), ("POST", "/verify", ["type": "magiclink", "email": "x@example.com", "token": "1"]),
            ("POST", "/recover", [:]), ("POST", "/resend", [:]), ("POST", "/resend", ["type": "signup"]),
            ("POST", "/otp", [:]), ("GET", "/authorize?provider=nope", nil), ("GET", "/authorize?provider=google", nil),
            ("GET", "/callback", nil), ("GET", "/callback?state=unknown", nil), ("GET", "/reauthenticate", nil), ("GET", "/verify", nil)
        ]
        let table = try ContractsLocator.goTrueErrors()
        var seen = 0
        for (m, t, b) in requests {
            let r = try f.auth(m, t, json: b, version: "2024-01-01")
            guard r.status >= 400, let code = r.jsonBody?["code"]?.stringValue else { continue }
            seen += 1
            XCTAssertTrue(GoTrueError.knownCodes.contains(code), "\(m) \(t): \(code)")
            XCTAssertTrue(
                table.allows(code: code, status: r.status), "\(m) \(t): GoTrue never answers \(code) with \(r.status) (Contracts/shared/gotrue-errors.json)")
            XCTAssertEqual(r.headers["x-sb-error-code"], code, "\(m) \(t)")
        }
        XCTAssertGreaterThanOrEqual(seen, requests.count - 1)
    }

    /// Mutant: an implementation that always answers the legacy shape (what the official Swift
    /// client cannot decode) is rejected by the shape check.
    func testMutantAlwaysLegacyIsRejected() {
        let e = GoTrueError(status: 400, code: "invalid_credentials", message: "Invalid login credentials")
        let mutant = e.response(.initial)
        XCTAssertFalse(
            goTrueErrorViolations(mutant, version: .v20240101, status: 400, code: "invalid_credentials", message: "Invalid login credentials").isEmpty)
        var noEcho = e.response(.v20240101)
        noEcho.headers["X-Supabase-Api-Version"] = nil
        XCTAssertFalse(
            goTrueErrorViolations(noEcho, version: .v20240101, status: 400, code: "invalid_credentials", message: "Invalid login credentials").isEmpty)
        let invented = GoTrueError(status: 404, code: "not_found", message: "Not Found").response(.v20240101)
        XCTAssertFalse(goTrueErrorViolations(invented, version: .v20240101, status: 404, code: "not_found", message: "Not Found").isEmpty)
    }
}
