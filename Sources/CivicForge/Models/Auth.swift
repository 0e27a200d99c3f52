import Foundation
import MockSupabase

// GoTrue's session and user, as /auth/v1/verify and /auth/v1/token return them. GoTrue prints
// timestamps in RFC 3339 UTC with `Z` (`2026-03-01T12:00:00Z`), unlike PostgREST.

extension KeyedEncodingContainer {
    mutating func encodeGoTrueTime(_ date: Date?, forKey key: Key) throws {
        try encode(date.map { PGTime.formatTimestamp(PGTime.micros($0), withZone: false) + "Z" }, forKey: key)
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
package struct AuthUser: Codable, Equatable, Sendable {
    /// auth.users.id.
    package var id: String
    /// `authenticated`.
    package var aud: String
    /// `authenticated`.
    package var role: String
    /// The address.
    package var email: String?
    /// When the address was confirmed (the magic link or code confirms it).
    package var emailConfirmedAt: Date?
    /// Phone, "" when none.
    package var phone: String
    /// When the account was confirmed.
    package var confirmedAt: Date?
    /// Last sign-in.
    package var lastSignInAt: Date?
    /// Provider data.
    package var appMetadata: JSONValue
    /// Sign-up `data`.
    package var userMetadata: JSONValue
    /// Linked identities.
    package var identities: [AuthIdentity]
    package var createdAt: Date?
    package var updatedAt: Date?
    /// Anonymous sign-in.
    package var isAnonymous: Bool

    enum CodingKeys: String, CodingKey {
        case id, aud, role, email, emailConfirmedAt = "email_confirmed_at", phone, confirmedAt = "confirmed_at"
        case lastSignInAt = "last_sign_in_at", appMetadata = "app_metadata", userMetadata = "user_metadata", identities
        case createdAt = "created_at", updatedAt = "updated_at", isAnonymous = "is_anonymous"
    }

    /// Decodes GoTrue's user.
    package init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(String.self, forKey: .id)
        aud = try c.decode(String.self, forKey: .aud)
        role = try c.decode(String.self, forKey: .role)
        email = try c.decodeIfPresent(String.self, forKey: .email)
        emailConfirmedAt = try c.decodeTimestampIfPresent(forKey: .emailConfirmedAt)
        phone = try c.decode(String.self, forKey: .phone)
        confirmedAt = try c.decodeTimestampIfPresent(forKey: .confirmedAt)
        lastSignInAt = try c.decodeTimestampIfPresent(forKey: .lastSignInAt)
        appMetadata = try c.decode(JSONValue.self, forKey: .appMetadata)
        userMetadata = try c.decode(JSONValue.self, forKey: .userMetadata)
        identities = try c.decode([AuthIdentity].self, forKey: .identities)
        createdAt = try c.decodeTimestampIfPresent(forKey: .createdAt)
        updatedAt = try c.decodeTimestampIfPresent(forKey: .updatedAt)
        isAnonymous = try c.decode(Bool.self, forKey: .isAnonymous)
    }

    /// Encodes as GoTrue prints it.
    package func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(aud, forKey: .aud)
        try c.encode(role, forKey: .role)
        try c.encode(email, forKey: .email)
        try c.encodeGoTrueTime(emailConfirmedAt, forKey: .emailConfirmedAt)
        try c.encode(phone, forKey: .phone)
        try c.encodeGoTrueTime(confirmedAt, forKey: .confirmedAt)
        try c.encodeGoTrueTime(lastSignInAt, forKey: .lastSignInAt)
        try c.encode(appMetadata, forKey: .appMetadata)
        try c.encode(userMetadata, forKey: .userMetadata)
        try c.encode(identities, forKey: .identities)
        try c.encodeGoTrueTime(createdAt, forKey: .createdAt)
        try c.encodeGoTrueTime(updatedAt, forKey: .updatedAt)
        try c.encode(isAnonymous, forKey: .isAnonymous)
    }
}

/// One linked identity of a user.
package struct AuthIdentity: Codable, Equatable, Sendable {
    /// The identity's id.
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
    package var createdAt: Date?
    package var updatedAt: Date?
    /// Last sign-in.
    package var lastSignInAt: Date?

    enum CodingKeys: String, CodingKey {
        case identityId = "identity_id", id, userId = "user_id", provider, identityData = "identity_data", email
        case createdAt = "created_at", updatedAt = "updated_at", lastSignInAt = "last_sign_in_at"
    }

    package init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        identityId = try c.decode(String.self, forKey: .identityId)
        id = try c.decode(String.self, forKey: .id)
        userId = try c.decode(String.self, forKey: .userId)
        provider = try c.decode(String.self, forKey: .provider)
        identityData = try c.decode(JSONValue.self, forKey: .identityData)
        email = try c.decodeIfPresent(String.self, forKey: .email)
        createdAt = try c.decodeTimestampIfPresent(forKey: .createdAt)
        updatedAt = try c.decodeTimestampIfPresent(forKey: .updatedAt)
        lastSignInAt = try c.decodeTimestampIfPresent(forKey: .lastSignInAt)
    }

    /// Encodes as GoTrue prints it.
    package func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(identityId, forKey: .identityId)
        try c.encode(id, forKey: .id)
        try c.encode(userId, forKey: .userId)
        try c.encode(provider, forKey: .provider)
        try c.encode(identityData, forKey: .identityData)
        try c.encode(email, forKey: .email)
        try c.encodeGoTrueTime(createdAt, forKey: .createdAt)
        try c.encodeGoTrueTime(updatedAt, forKey: .updatedAt)
        try c.encodeGoTrueTime(lastSignInAt, forKey: .lastSignInAt)
    }
}
