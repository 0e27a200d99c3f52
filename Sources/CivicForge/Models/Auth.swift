import Foundation
import MockSupabase

// GoTrue's session and user, as /auth/v1/verify and /auth/v1/token return them. GoTrue prints
// timestamps in RFC 3339 UTC with `Z` (`2026-03-01T12:00:00Z`), unlike PostgREST.

/// A GoTrue timestamp: read in any form PostgreSQL or ISO 8601 writes, printed as GoTrue prints
/// it (UTC with `Z`).
package struct GoTrueTime: Codable, Equatable, Sendable {
    /// The instant.
    package var timestamp: PGTimestamp

    package init(from decoder: Decoder) throws { timestamp = try PGTimestamp(from: decoder) }
    package func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(PGTime.formatTimestamp(timestamp.microseconds, withZone: false) + "Z")
    }
}

/// A signed-in session (supabase-swift `Session`).
package struct AuthSession: Codable, Equatable, Sendable {
    /// The JWT for PostgREST, Storage and Functions.
    package var accessToken: String
    /// `bearer`.
    package var tokenType: String
    /// Seconds the access token lives.
    package var expiresIn: Int
    /// Unix time the access token expires.
    package var expiresAt: Int
    /// The single-use refresh token.
    package var refreshToken: String
    package var user: AuthUser

    enum CodingKeys: String, CodingKey {
        case accessToken = "access_token", tokenType = "token_type", expiresIn = "expires_in", expiresAt = "expires_at"
        case refreshToken = "refresh_token", user
    }
}

/// GoTrue's user object.
package struct AuthUser: Codable, Equatable, Sendable, ColumnEncodable {
    /// auth.users.id.
    package var id: String
    /// `authenticated`.
    package var aud: String
    /// `authenticated`.
    package var role: String
    /// The address.
    package var email: String?
    /// When the address was confirmed (the magic link or code confirms it).
    package var emailConfirmedAt: GoTrueTime?
    /// Phone, "" when none.
    package var phone: String
    /// When the account was confirmed.
    package var confirmedAt: GoTrueTime?
    package var lastSignInAt: GoTrueTime?
    /// Provider data.
    package var appMetadata: JSONValue
    /// Sign-up `data`.
    package var userMetadata: JSONValue
    /// Linked identities.
    package var identities: [AuthIdentity]
    package var createdAt: GoTrueTime?
    package var updatedAt: GoTrueTime?
    /// Anonymous sign-in.
    package var isAnonymous: Bool
    /// When the last confirmation e-mail went out (absent when none did); kept after the code
    /// is used (GoTrue models/user.go `Confirm` clears the token, not the time).
    package var confirmationSentAt: GoTrueTime? = nil
    /// When the last magic link or recovery e-mail went out (absent when none did); kept after
    /// the code is used (models/user.go `Recover`).
    package var recoverySentAt: GoTrueTime? = nil

    package static var columns: [String] { CodingKeys.allCases.map(\.rawValue) }
    enum CodingKeys: String, CodingKey, CaseIterable {
        case id, aud, role, email, emailConfirmedAt = "email_confirmed_at", phone, confirmedAt = "confirmed_at"
        case lastSignInAt = "last_sign_in_at", appMetadata = "app_metadata", userMetadata = "user_metadata", identities
        case createdAt = "created_at", updatedAt = "updated_at", isAnonymous = "is_anonymous"
        case confirmationSentAt = "confirmation_sent_at", recoverySentAt = "recovery_sent_at"
    }

    /// Every key as GoTrue prints it, `null` included, except the two send times, which GoTrue
    /// leaves out when unset (models/user.go: `json:"confirmation_sent_at,omitempty"`,
    /// `json:"recovery_sent_at,omitempty"`).
    package func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(aud, forKey: .aud)
        try c.encode(role, forKey: .role)
        try c.encode(email, forKey: .email)
        try c.encode(emailConfirmedAt, forKey: .emailConfirmedAt)
        try c.encode(phone, forKey: .phone)
        try c.encode(confirmedAt, forKey: .confirmedAt)
        try c.encode(lastSignInAt, forKey: .lastSignInAt)
        try c.encode(appMetadata, forKey: .appMetadata)
        try c.encode(userMetadata, forKey: .userMetadata)
        try c.encode(identities, forKey: .identities)
        try c.encode(createdAt, forKey: .createdAt)
        try c.encode(updatedAt, forKey: .updatedAt)
        try c.encode(isAnonymous, forKey: .isAnonymous)
        try c.encodeIfPresent(confirmationSentAt, forKey: .confirmationSentAt)
        try c.encodeIfPresent(recoverySentAt, forKey: .recoverySentAt)
    }
}

/// One linked identity of a user.
package struct AuthIdentity: Codable, Equatable, Sendable, ColumnEncodable {
    package var identityId: String
    /// The provider's id for the user.
    package var id: String
    /// auth.users.id.
    package var userId: String
    /// `email`, `google`.
    package var provider: String
    /// Provider claims.
    package var identityData: JSONValue
    /// The address.
    package var email: String?
    package var createdAt: GoTrueTime?
    package var updatedAt: GoTrueTime?
    package var lastSignInAt: GoTrueTime?

    package static var columns: [String] { CodingKeys.allCases.map(\.rawValue) }
    enum CodingKeys: String, CodingKey, CaseIterable {
        case identityId = "identity_id", id, userId = "user_id", provider, identityData = "identity_data", email
        case createdAt = "created_at", updatedAt = "updated_at", lastSignInAt = "last_sign_in_at"
    }
}
