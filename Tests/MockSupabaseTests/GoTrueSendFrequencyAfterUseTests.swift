import XCTest
import MockBinding
@testable import MockSupabase

/// Using an e-mailed code does not reset GoTrue's send rate limit: verifying clears the token
/// but keeps `recovery_sent_at` (supabase/auth internal/models/user.go `Recover`), and
/// `sendMagicLink` (internal/api/mail.go) counts `SMTP_MAX_FREQUENCY` from it.
final class GoTrueSendFrequencyAfterUseTests: XCTestCase {
    /// What the second magic link right after a used one must be: 429 with the seconds left.
    static func violations(_ r: HTTPResponse, secondsLeft: Int) -> [String] {
        goTrueErrorViolations(
            r, version: .v20240101, status: 429, code: "over_email_send_rate_limit",
            message: "For security purposes, you can only request this after \(secondsLeft) seconds.")
    }

    func testAUsedMagicLinkStillCountsTowardsTheSendRateLimit() throws {
        let f = try AuthFixture()
        _ = try f.session("otp@example.com")
        XCTAssertEqual(try f.auth("POST", "/otp", json: ["email": "otp@example.com"]).status, 200)
        let otp = try XCTUnwrap(f.backend.lastEmail(to: "otp@example.com")?.otp)
        f.clock.advance(by: 10)
        let verified = try f.auth("POST", "/verify", json: ["type": "email", "email": "otp@example.com", "token": .string(otp)])
        XCTAssertEqual(verified.status, 200, verified.text)
        XCTAssertNotNil(verified.jsonBody?["user"]?["recovery_sent_at"]?.stringValue, "the send time outlives the token")
        let again = try f.auth("POST", "/otp", json: ["email": "otp@example.com"], version: "2024-01-01")
        XCTAssertEqual(Self.violations(again, secondsLeft: 50), [])
        // The used code stays used.
        XCTAssertEqual(
            try f.auth("POST", "/verify", json: ["type": "email", "email": "otp@example.com", "token": .string(otp)]).status, 403)
        f.clock.advance(by: 50)
        XCTAssertEqual(try f.auth("POST", "/otp", json: ["email": "otp@example.com"]).status, 200)
    }

    func testAMutantThatForgetsTheSendTimeIsRejected() throws {
        // What a backend that drops the send time with the token answers: a fresh e-mail.
        let mutant = HTTPResponse.json(200, [:])
        XCTAssertFalse(Self.violations(mutant, secondsLeft: 50).isEmpty)
    }
}
