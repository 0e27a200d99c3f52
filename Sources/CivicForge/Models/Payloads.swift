import Foundation
import MockSupabase

// Request bodies the app sends. Insert payloads carry only what the client chooses; the
// server fills ids, owners (auth.uid()), neighbourhoods, moderation columns and timestamps.
// Absent optionals are omitted (so column defaults apply), unlike the row models.

/// Onboarding step 1 (and 2): `POST /rest/v1/profiles`.
public struct NewProfile: Codable, Equatable, Sendable {
    /// Must be the caller's auth uid.
    public var id: String
    /// Step 1: display name.
    public var displayName: String
    /// Step 2: the chosen neighbourhood.
    public var neighborhoodId: String?
    /// EULA acceptance (§4).
    public var termsAcceptedAt: Date?

    /// A payload.
    public init(id: String, displayName: String, neighborhoodId: String? = nil, termsAcceptedAt: Date? = nil) {
        self.id = id; self.displayName = displayName; self.neighborhoodId = neighborhoodId; self.termsAcceptedAt = termsAcceptedAt
    }
    enum CodingKeys: String, CodingKey { case id, displayName = "display_name", neighborhoodId = "neighborhood_id", termsAcceptedAt = "terms_accepted_at" }

    /// Decodes the payload (timestamp as PostgreSQL text).
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(String.self, forKey: .id)
        displayName = try c.decode(String.self, forKey: .displayName)
        neighborhoodId = try c.decodeIfPresent(String.self, forKey: .neighborhoodId)
        termsAcceptedAt = try c.decodeTimestampIfPresent(forKey: .termsAcceptedAt)
    }

    /// Encodes what is set; the timestamp as PostgREST prints it.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(displayName, forKey: .displayName)
        try c.encodeIfPresent(neighborhoodId, forKey: .neighborhoodId)
        if let termsAcceptedAt { try c.encodeTimestamp(termsAcceptedAt, forKey: .termsAcceptedAt) }
    }
}

/// CreatePostView's form: `POST /rest/v1/posts`.
public struct NewPost: Codable, Equatable, Sendable {
    /// Need or offer.
    public var type: PostType
    /// Title.
    public var title: String
    /// Description.
    public var description: String
    /// Category.
    public var category: String
    /// Urgency (server default when nil).
    public var urgency: UrgencyLevel?
    /// Availability, free text.
    public var availableTimes: String?
    /// Location hint, free text.
    public var locationHint: String?
    /// Whether AI helped write it.
    public var aiAssisted: Bool?

    /// A payload.
    public init(type: PostType, title: String, description: String, category: String, urgency: UrgencyLevel? = nil,
                availableTimes: String? = nil, locationHint: String? = nil, aiAssisted: Bool? = nil) {
        self.type = type; self.title = title; self.description = description; self.category = category
        self.urgency = urgency; self.availableTimes = availableTimes; self.locationHint = locationHint; self.aiAssisted = aiAssisted
    }
    enum CodingKeys: String, CodingKey {
        case type, title, description, category, urgency
        case availableTimes = "available_times", locationHint = "location_hint", aiAssisted = "ai_assisted"
    }
}

/// `POST /rest/v1/post_photos` after both files are uploaded.
public struct NewPostPhoto: Codable, Equatable, Sendable {
    /// The post.
    public var postId: String
    /// `{user_id}/{uuid}.jpg`.
    public var storagePath: String
    /// `{user_id}/{uuid}_thumb.jpg`.
    public var thumbnailPath: String
    /// 0-based slot.
    public var position: Int
    /// Output width.
    public var width: Int
    /// Output height.
    public var height: Int

    /// A payload.
    public init(postId: String, storagePath: String, thumbnailPath: String, position: Int, width: Int, height: Int) {
        self.postId = postId; self.storagePath = storagePath; self.thumbnailPath = thumbnailPath
        self.position = position; self.width = width; self.height = height
    }
    enum CodingKeys: String, CodingKey {
        case postId = "post_id", storagePath = "storage_path", thumbnailPath = "thumbnail_path", position, width, height
    }
}

/// `POST /rest/v1/responses`.
public struct NewResponse: Codable, Equatable, Sendable {
    /// The post responded to.
    public var postId: String
    /// The message.
    public var message: String
    /// A payload.
    public init(postId: String, message: String) { self.postId = postId; self.message = message }
    enum CodingKeys: String, CodingKey { case postId = "post_id", message }
}

/// The post author's decision: `PATCH /rest/v1/responses?id=eq.…`.
public struct ResponseDecision: Codable, Equatable, Sendable {
    /// accepted or declined.
    public var status: ResponseStatus
    /// A payload.
    public init(status: ResponseStatus) { self.status = status }
}

/// ThanksButton: `POST /rest/v1/thanks`.
public struct NewThanks: Codable, Equatable, Sendable {
    /// The post the thanks is about.
    public var postId: String
    /// The post's author or a responder.
    public var toUserId: String
    /// Optional note.
    public var message: String?
    /// A payload.
    public init(postId: String, toUserId: String, message: String? = nil) { self.postId = postId; self.toUserId = toUserId; self.message = message }
    enum CodingKeys: String, CodingKey { case postId = "post_id", toUserId = "to_user_id", message }
}

/// FlagButton: `POST /rest/v1/post_flags`.
public struct NewFlag: Codable, Equatable, Sendable {
    /// The post.
    public var postId: String
    /// Optional reason.
    public var reason: String?
    /// A payload.
    public init(postId: String, reason: String? = nil) { self.postId = postId; self.reason = reason }
    enum CodingKeys: String, CodingKey { case postId = "post_id", reason }
}

/// `POST /rest/v1/rpc/redeem_invitation`.
public struct RedeemInvitationRequest: Codable, Equatable, Sendable {
    /// The code as typed or from `/invite/{code}`.
    public var inviteCode: String
    /// A payload.
    public init(inviteCode: String) { self.inviteCode = inviteCode }
    enum CodingKeys: String, CodingKey { case inviteCode = "invite_code" }
}

/// PushNotificationService: `POST /rest/v1/device_tokens` (Prefer: resolution=ignore-duplicates).
public struct DeviceTokenRegistration: Codable, Equatable, Sendable {
    /// The APNs token, hex.
    public var token: String
    /// ios.
    public var platform: DevicePlatform
    /// A payload.
    public init(token: String, platform: DevicePlatform = .ios) { self.token = token; self.platform = platform }
}

/// Magic link step 2: `POST /auth/v1/otp` (supabase-swift `signInWithOTP(email:redirectTo:)`;
/// `redirect_to` travels in the query string).
public struct OTPRequest: Codable, Equatable, Sendable {
    /// The address the link and code go to.
    public var email: String
    /// Whether an unknown address signs up.
    public var createUser: Bool
    /// user_metadata for a new user.
    public var data: JSONValue?
    /// A payload.
    public init(email: String, createUser: Bool = true, data: JSONValue? = nil) { self.email = email; self.createUser = createUser; self.data = data }
    enum CodingKeys: String, CodingKey { case email, createUser = "create_user", data }
}

/// The 6-digit fallback (§3 step 6): `POST /auth/v1/verify`.
public struct VerifyOTPRequest: Codable, Equatable, Sendable {
    /// `email` for the code, `magiclink` for the link's token.
    public var type: String
    /// The address.
    public var email: String
    /// The code.
    public var token: String
    /// A payload.
    public init(type: String = "email", email: String, token: String) { self.type = type; self.email = email; self.token = token }
}
