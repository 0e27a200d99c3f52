import Foundation
import MockSupabase

// Request bodies the app sends that are not made of table columns; the insert and update
// bodies (NewPost, NewProfile, …) are generated with the table models (Generated/). Absent
// optionals are omitted, unlike the row models.

/// `POST /rest/v1/rpc/redeem_invitation`.
package struct RedeemInvitationRequest: Codable, Equatable, Sendable {
    /// The code as typed or from `/invite/{code}`.
    package var inviteCode: String
    enum CodingKeys: String, CodingKey { case inviteCode = "invite_code" }
}

/// Magic link step 2: `POST /auth/v1/otp` (supabase-swift `signInWithOTP(email:redirectTo:)`;
/// `redirect_to` travels in the query string).
package struct OTPRequest: Codable, Equatable, Sendable {
    /// The address the link and code go to.
    package var email: String
    /// Whether an unknown address signs up.
    package var createUser = true
    /// user_metadata for a new user.
    package var data: JSONValue?
    enum CodingKeys: String, CodingKey { case email, createUser = "create_user", data }
}

/// The 6-digit fallback (§3 step 6): `POST /auth/v1/verify`.
package struct VerifyOTPRequest: Codable, Equatable, Sendable {
    /// `email` for the code, `magiclink` for the link's token.
    package var type = "email"
    /// The address.
    package var email: String
    /// The code.
    package var token: String
}
