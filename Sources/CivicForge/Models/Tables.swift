import Foundation
import MockSupabase

// Codable models of every CivicForge table (Contracts/civicforge/schema.json), as §8's
// Shared/Models names them. Ids are lower-case uuid strings, as PostgREST prints them.

/// The `post_type` enum: need, offer.
public enum PostType: String, Codable, CaseIterable, Sendable {
    /// `need`.
    case need
    /// `offer`.
    case offer
}

/// The `post_status` enum: open, in_progress, fulfilled, closed.
public enum PostStatus: String, Codable, CaseIterable, Sendable {
    /// `open`.
    case open
    /// `in_progress`.
    case inProgress = "in_progress"
    /// `fulfilled`.
    case fulfilled
    /// `closed`.
    case closed
}

/// The `urgency_level` enum: low, medium, high.
public enum UrgencyLevel: String, Codable, CaseIterable, Sendable {
    /// `low`.
    case low
    /// `medium`.
    case medium
    /// `high`.
    case high
}

/// The `review_status` enum: none, pending, approved, removed.
public enum ReviewStatus: String, Codable, CaseIterable, Sendable {
    /// `none`.
    case noReview = "none"
    /// `pending`.
    case pending
    /// `approved`.
    case approved
    /// `removed`.
    case removed
}

/// The `response_status` enum: pending, accepted, declined.
public enum ResponseStatus: String, Codable, CaseIterable, Sendable {
    /// `pending`.
    case pending
    /// `accepted`.
    case accepted
    /// `declined`.
    case declined
}

/// The `device_platform` enum: ios, android, web.
public enum DevicePlatform: String, Codable, CaseIterable, Sendable {
    /// `ios`.
    case ios
    /// `android`.
    case android
    /// `web`.
    case web
}

/// A row of `neighborhoods`.
public struct Neighborhood: CivicForgeRow {
    /// `neighborhoods`.
    public static let table = "neighborhoods"
    /// The columns, in table order.
    public static var columns: [String] { CodingKeys.allCases.map(\.rawValue) }

    /// `id` (uuid, not null).
    public var id: String
    /// `name` (text, not null).
    public var name: String
    /// `description` (text).
    public var description: String?
    /// `created_by` (uuid).
    public var createdBy: String?
    /// `created_at` (timestamptz, not null).
    public var createdAt: Date
    /// `updated_at` (timestamptz, not null).
    public var updatedAt: Date

    /// A row from its columns.
    public init(id: String, name: String, description: String? = nil, createdBy: String? = nil, createdAt: Date, updatedAt: Date) {
        self.id = id
        self.name = name
        self.description = description
        self.createdBy = createdBy
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case id
        case name
        case description
        case createdBy = "created_by"
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }

    /// Decodes a row as PostgREST prints it (timestamps in PostgreSQL's text forms).
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(String.self, forKey: .id)
        name = try c.decode(String.self, forKey: .name)
        description = try c.decodeIfPresent(String.self, forKey: .description)
        createdBy = try c.decodeIfPresent(String.self, forKey: .createdBy)
        createdAt = try c.decodeTimestamp(forKey: .createdAt)
        updatedAt = try c.decodeTimestamp(forKey: .updatedAt)
    }

    /// Encodes every column, NULL as `null`, as PostgREST prints a row.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(name, forKey: .name)
        try c.encode(description, forKey: .description)
        try c.encode(createdBy, forKey: .createdBy)
        try c.encodeTimestamp(createdAt, forKey: .createdAt)
        try c.encodeTimestamp(updatedAt, forKey: .updatedAt)
    }
}

/// A row of `profiles`.
public struct Profile: CivicForgeRow {
    /// `profiles`.
    public static let table = "profiles"
    /// The columns, in table order.
    public static var columns: [String] { CodingKeys.allCases.map(\.rawValue) }

    /// `id` (uuid, not null).
    public var id: String
    /// `display_name` (text, not null).
    public var displayName: String
    /// `bio` (text).
    public var bio: String?
    /// `skills` (text[], not null).
    public var skills: [String]
    /// `avatar_url` (text).
    public var avatarUrl: String?
    /// `neighborhood_id` (uuid).
    public var neighborhoodId: String?
    /// `trust_tier` (smallint, not null).
    public var trustTier: Int
    /// `phone_verified` (boolean, not null).
    public var phoneVerified: Bool
    /// `terms_accepted_at` (timestamptz).
    public var termsAcceptedAt: Date?
    /// `created_at` (timestamptz, not null).
    public var createdAt: Date
    /// `updated_at` (timestamptz, not null).
    public var updatedAt: Date

    /// A row from its columns.
    public init(id: String, displayName: String, bio: String? = nil, skills: [String], avatarUrl: String? = nil, neighborhoodId: String? = nil, trustTier: Int, phoneVerified: Bool, termsAcceptedAt: Date? = nil, createdAt: Date, updatedAt: Date) {
        self.id = id
        self.displayName = displayName
        self.bio = bio
        self.skills = skills
        self.avatarUrl = avatarUrl
        self.neighborhoodId = neighborhoodId
        self.trustTier = trustTier
        self.phoneVerified = phoneVerified
        self.termsAcceptedAt = termsAcceptedAt
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case id
        case displayName = "display_name"
        case bio
        case skills
        case avatarUrl = "avatar_url"
        case neighborhoodId = "neighborhood_id"
        case trustTier = "trust_tier"
        case phoneVerified = "phone_verified"
        case termsAcceptedAt = "terms_accepted_at"
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }

    /// Decodes a row as PostgREST prints it (timestamps in PostgreSQL's text forms).
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(String.self, forKey: .id)
        displayName = try c.decode(String.self, forKey: .displayName)
        bio = try c.decodeIfPresent(String.self, forKey: .bio)
        skills = try c.decode([String].self, forKey: .skills)
        avatarUrl = try c.decodeIfPresent(String.self, forKey: .avatarUrl)
        neighborhoodId = try c.decodeIfPresent(String.self, forKey: .neighborhoodId)
        trustTier = try c.decode(Int.self, forKey: .trustTier)
        phoneVerified = try c.decode(Bool.self, forKey: .phoneVerified)
        termsAcceptedAt = try c.decodeTimestampIfPresent(forKey: .termsAcceptedAt)
        createdAt = try c.decodeTimestamp(forKey: .createdAt)
        updatedAt = try c.decodeTimestamp(forKey: .updatedAt)
    }

    /// Encodes every column, NULL as `null`, as PostgREST prints a row.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(displayName, forKey: .displayName)
        try c.encode(bio, forKey: .bio)
        try c.encode(skills, forKey: .skills)
        try c.encode(avatarUrl, forKey: .avatarUrl)
        try c.encode(neighborhoodId, forKey: .neighborhoodId)
        try c.encode(trustTier, forKey: .trustTier)
        try c.encode(phoneVerified, forKey: .phoneVerified)
        try c.encodeTimestamp(termsAcceptedAt, forKey: .termsAcceptedAt)
        try c.encodeTimestamp(createdAt, forKey: .createdAt)
        try c.encodeTimestamp(updatedAt, forKey: .updatedAt)
    }
}

/// A row of `reputation`.
public struct Reputation: CivicForgeRow {
    /// `reputation`.
    public static let table = "reputation"
    /// The columns, in table order.
    public static var columns: [String] { CodingKeys.allCases.map(\.rawValue) }

    /// `user_id` (uuid, not null).
    public var userId: String
    /// `score` (integer, not null).
    public var score: Int
    /// `thanks_received` (integer, not null).
    public var thanksReceived: Int
    /// `updated_at` (timestamptz, not null).
    public var updatedAt: Date

    /// A row from its columns.
    public init(userId: String, score: Int, thanksReceived: Int, updatedAt: Date) {
        self.userId = userId
        self.score = score
        self.thanksReceived = thanksReceived
        self.updatedAt = updatedAt
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case userId = "user_id"
        case score
        case thanksReceived = "thanks_received"
        case updatedAt = "updated_at"
    }

    /// Decodes a row as PostgREST prints it (timestamps in PostgreSQL's text forms).
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        userId = try c.decode(String.self, forKey: .userId)
        score = try c.decode(Int.self, forKey: .score)
        thanksReceived = try c.decode(Int.self, forKey: .thanksReceived)
        updatedAt = try c.decodeTimestamp(forKey: .updatedAt)
    }

    /// Encodes every column, NULL as `null`, as PostgREST prints a row.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(userId, forKey: .userId)
        try c.encode(score, forKey: .score)
        try c.encode(thanksReceived, forKey: .thanksReceived)
        try c.encodeTimestamp(updatedAt, forKey: .updatedAt)
    }
}

/// A row of `notification_preferences`.
public struct NotificationPreferences: CivicForgeRow {
    /// `notification_preferences`.
    public static let table = "notification_preferences"
    /// The columns, in table order.
    public static var columns: [String] { CodingKeys.allCases.map(\.rawValue) }

    /// `user_id` (uuid, not null).
    public var userId: String
    /// `new_response` (boolean, not null).
    public var newResponse: Bool
    /// `response_status` (boolean, not null).
    public var responseStatus: Bool
    /// `thanks` (boolean, not null).
    public var thanks: Bool
    /// `ai_match` (boolean, not null).
    public var aiMatch: Bool
    /// `updated_at` (timestamptz, not null).
    public var updatedAt: Date

    /// A row from its columns.
    public init(userId: String, newResponse: Bool, responseStatus: Bool, thanks: Bool, aiMatch: Bool, updatedAt: Date) {
        self.userId = userId
        self.newResponse = newResponse
        self.responseStatus = responseStatus
        self.thanks = thanks
        self.aiMatch = aiMatch
        self.updatedAt = updatedAt
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case userId = "user_id"
        case newResponse = "new_response"
        case responseStatus = "response_status"
        case thanks
        case aiMatch = "ai_match"
        case updatedAt = "updated_at"
    }

    /// Decodes a row as PostgREST prints it (timestamps in PostgreSQL's text forms).
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        userId = try c.decode(String.self, forKey: .userId)
        newResponse = try c.decode(Bool.self, forKey: .newResponse)
        responseStatus = try c.decode(Bool.self, forKey: .responseStatus)
        thanks = try c.decode(Bool.self, forKey: .thanks)
        aiMatch = try c.decode(Bool.self, forKey: .aiMatch)
        updatedAt = try c.decodeTimestamp(forKey: .updatedAt)
    }

    /// Encodes every column, NULL as `null`, as PostgREST prints a row.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(userId, forKey: .userId)
        try c.encode(newResponse, forKey: .newResponse)
        try c.encode(responseStatus, forKey: .responseStatus)
        try c.encode(thanks, forKey: .thanks)
        try c.encode(aiMatch, forKey: .aiMatch)
        try c.encodeTimestamp(updatedAt, forKey: .updatedAt)
    }
}

/// A row of `posts`.
public struct Post: CivicForgeRow {
    /// `posts`.
    public static let table = "posts"
    /// The columns, in table order.
    public static var columns: [String] { CodingKeys.allCases.map(\.rawValue) }

    /// `id` (uuid, not null).
    public var id: String
    /// `author_id` (uuid, not null).
    public var authorId: String
    /// `neighborhood_id` (uuid, not null).
    public var neighborhoodId: String
    /// `type` (post_type, not null).
    public var type: PostType
    /// `title` (text, not null).
    public var title: String
    /// `description` (text, not null).
    public var description: String
    /// `category` (text, not null).
    public var category: String
    /// `urgency` (urgency_level, not null).
    public var urgency: UrgencyLevel
    /// `status` (post_status, not null).
    public var status: PostStatus
    /// `available_times` (text).
    public var availableTimes: String?
    /// `location_hint` (text).
    public var locationHint: String?
    /// `ai_assisted` (boolean, not null).
    public var aiAssisted: Bool
    /// `hidden` (boolean, not null).
    public var hidden: Bool
    /// `review_status` (review_status, not null).
    public var reviewStatus: ReviewStatus
    /// `flag_count` (integer, not null).
    public var flagCount: Int
    /// `created_at` (timestamptz, not null).
    public var createdAt: Date
    /// `updated_at` (timestamptz, not null).
    public var updatedAt: Date

    /// A row from its columns.
    public init(id: String, authorId: String, neighborhoodId: String, type: PostType, title: String, description: String, category: String, urgency: UrgencyLevel, status: PostStatus, availableTimes: String? = nil, locationHint: String? = nil, aiAssisted: Bool, hidden: Bool, reviewStatus: ReviewStatus, flagCount: Int, createdAt: Date, updatedAt: Date) {
        self.id = id
        self.authorId = authorId
        self.neighborhoodId = neighborhoodId
        self.type = type
        self.title = title
        self.description = description
        self.category = category
        self.urgency = urgency
        self.status = status
        self.availableTimes = availableTimes
        self.locationHint = locationHint
        self.aiAssisted = aiAssisted
        self.hidden = hidden
        self.reviewStatus = reviewStatus
        self.flagCount = flagCount
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case id
        case authorId = "author_id"
        case neighborhoodId = "neighborhood_id"
        case type
        case title
        case description
        case category
        case urgency
        case status
        case availableTimes = "available_times"
        case locationHint = "location_hint"
        case aiAssisted = "ai_assisted"
        case hidden
        case reviewStatus = "review_status"
        case flagCount = "flag_count"
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }

    /// Decodes a row as PostgREST prints it (timestamps in PostgreSQL's text forms).
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(String.self, forKey: .id)
        authorId = try c.decode(String.self, forKey: .authorId)
        neighborhoodId = try c.decode(String.self, forKey: .neighborhoodId)
        type = try c.decode(PostType.self, forKey: .type)
        title = try c.decode(String.self, forKey: .title)
        description = try c.decode(String.self, forKey: .description)
        category = try c.decode(String.self, forKey: .category)
        urgency = try c.decode(UrgencyLevel.self, forKey: .urgency)
        status = try c.decode(PostStatus.self, forKey: .status)
        availableTimes = try c.decodeIfPresent(String.self, forKey: .availableTimes)
        locationHint = try c.decodeIfPresent(String.self, forKey: .locationHint)
        aiAssisted = try c.decode(Bool.self, forKey: .aiAssisted)
        hidden = try c.decode(Bool.self, forKey: .hidden)
        reviewStatus = try c.decode(ReviewStatus.self, forKey: .reviewStatus)
        flagCount = try c.decode(Int.self, forKey: .flagCount)
        createdAt = try c.decodeTimestamp(forKey: .createdAt)
        updatedAt = try c.decodeTimestamp(forKey: .updatedAt)
    }

    /// Encodes every column, NULL as `null`, as PostgREST prints a row.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(authorId, forKey: .authorId)
        try c.encode(neighborhoodId, forKey: .neighborhoodId)
        try c.encode(type, forKey: .type)
        try c.encode(title, forKey: .title)
        try c.encode(description, forKey: .description)
        try c.encode(category, forKey: .category)
        try c.encode(urgency, forKey: .urgency)
        try c.encode(status, forKey: .status)
        try c.encode(availableTimes, forKey: .availableTimes)
        try c.encode(locationHint, forKey: .locationHint)
        try c.encode(aiAssisted, forKey: .aiAssisted)
        try c.encode(hidden, forKey: .hidden)
        try c.encode(reviewStatus, forKey: .reviewStatus)
        try c.encode(flagCount, forKey: .flagCount)
        try c.encodeTimestamp(createdAt, forKey: .createdAt)
        try c.encodeTimestamp(updatedAt, forKey: .updatedAt)
    }
}

/// A row of `post_photos`.
public struct PostPhoto: CivicForgeRow {
    /// `post_photos`.
    public static let table = "post_photos"
    /// The columns, in table order.
    public static var columns: [String] { CodingKeys.allCases.map(\.rawValue) }

    /// `id` (uuid, not null).
    public var id: String
    /// `post_id` (uuid, not null).
    public var postId: String
    /// `storage_path` (text, not null).
    public var storagePath: String
    /// `thumbnail_path` (text, not null).
    public var thumbnailPath: String
    /// `position` (smallint, not null).
    public var position: Int
    /// `width` (integer, not null).
    public var width: Int
    /// `height` (integer, not null).
    public var height: Int
    /// `created_at` (timestamptz, not null).
    public var createdAt: Date

    /// A row from its columns.
    public init(id: String, postId: String, storagePath: String, thumbnailPath: String, position: Int, width: Int, height: Int, createdAt: Date) {
        self.id = id
        self.postId = postId
        self.storagePath = storagePath
        self.thumbnailPath = thumbnailPath
        self.position = position
        self.width = width
        self.height = height
        self.createdAt = createdAt
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case id
        case postId = "post_id"
        case storagePath = "storage_path"
        case thumbnailPath = "thumbnail_path"
        case position
        case width
        case height
        case createdAt = "created_at"
    }

    /// Decodes a row as PostgREST prints it (timestamps in PostgreSQL's text forms).
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(String.self, forKey: .id)
        postId = try c.decode(String.self, forKey: .postId)
        storagePath = try c.decode(String.self, forKey: .storagePath)
        thumbnailPath = try c.decode(String.self, forKey: .thumbnailPath)
        position = try c.decode(Int.self, forKey: .position)
        width = try c.decode(Int.self, forKey: .width)
        height = try c.decode(Int.self, forKey: .height)
        createdAt = try c.decodeTimestamp(forKey: .createdAt)
    }

    /// Encodes every column, NULL as `null`, as PostgREST prints a row.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(postId, forKey: .postId)
        try c.encode(storagePath, forKey: .storagePath)
        try c.encode(thumbnailPath, forKey: .thumbnailPath)
        try c.encode(position, forKey: .position)
        try c.encode(width, forKey: .width)
        try c.encode(height, forKey: .height)
        try c.encodeTimestamp(createdAt, forKey: .createdAt)
    }
}

/// A row of `responses`.
public struct Response: CivicForgeRow {
    /// `responses`.
    public static let table = "responses"
    /// The columns, in table order.
    public static var columns: [String] { CodingKeys.allCases.map(\.rawValue) }

    /// `id` (uuid, not null).
    public var id: String
    /// `post_id` (uuid, not null).
    public var postId: String
    /// `responder_id` (uuid, not null).
    public var responderId: String
    /// `message` (text, not null).
    public var message: String
    /// `status` (response_status, not null).
    public var status: ResponseStatus
    /// `created_at` (timestamptz, not null).
    public var createdAt: Date
    /// `updated_at` (timestamptz, not null).
    public var updatedAt: Date

    /// A row from its columns.
    public init(id: String, postId: String, responderId: String, message: String, status: ResponseStatus, createdAt: Date, updatedAt: Date) {
        self.id = id
        self.postId = postId
        self.responderId = responderId
        self.message = message
        self.status = status
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case id
        case postId = "post_id"
        case responderId = "responder_id"
        case message
        case status
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }

    /// Decodes a row as PostgREST prints it (timestamps in PostgreSQL's text forms).
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(String.self, forKey: .id)
        postId = try c.decode(String.self, forKey: .postId)
        responderId = try c.decode(String.self, forKey: .responderId)
        message = try c.decode(String.self, forKey: .message)
        status = try c.decode(ResponseStatus.self, forKey: .status)
        createdAt = try c.decodeTimestamp(forKey: .createdAt)
        updatedAt = try c.decodeTimestamp(forKey: .updatedAt)
    }

    /// Encodes every column, NULL as `null`, as PostgREST prints a row.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(postId, forKey: .postId)
        try c.encode(responderId, forKey: .responderId)
        try c.encode(message, forKey: .message)
        try c.encode(status, forKey: .status)
        try c.encodeTimestamp(createdAt, forKey: .createdAt)
        try c.encodeTimestamp(updatedAt, forKey: .updatedAt)
    }
}

/// A row of `thanks`.
public struct Thanks: CivicForgeRow {
    /// `thanks`.
    public static let table = "thanks"
    /// The columns, in table order.
    public static var columns: [String] { CodingKeys.allCases.map(\.rawValue) }

    /// `id` (uuid, not null).
    public var id: String
    /// `post_id` (uuid, not null).
    public var postId: String
    /// `from_user_id` (uuid, not null).
    public var fromUserId: String
    /// `to_user_id` (uuid, not null).
    public var toUserId: String
    /// `message` (text).
    public var message: String?
    /// `created_at` (timestamptz, not null).
    public var createdAt: Date

    /// A row from its columns.
    public init(id: String, postId: String, fromUserId: String, toUserId: String, message: String? = nil, createdAt: Date) {
        self.id = id
        self.postId = postId
        self.fromUserId = fromUserId
        self.toUserId = toUserId
        self.message = message
        self.createdAt = createdAt
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case id
        case postId = "post_id"
        case fromUserId = "from_user_id"
        case toUserId = "to_user_id"
        case message
        case createdAt = "created_at"
    }

    /// Decodes a row as PostgREST prints it (timestamps in PostgreSQL's text forms).
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(String.self, forKey: .id)
        postId = try c.decode(String.self, forKey: .postId)
        fromUserId = try c.decode(String.self, forKey: .fromUserId)
        toUserId = try c.decode(String.self, forKey: .toUserId)
        message = try c.decodeIfPresent(String.self, forKey: .message)
        createdAt = try c.decodeTimestamp(forKey: .createdAt)
    }

    /// Encodes every column, NULL as `null`, as PostgREST prints a row.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(postId, forKey: .postId)
        try c.encode(fromUserId, forKey: .fromUserId)
        try c.encode(toUserId, forKey: .toUserId)
        try c.encode(message, forKey: .message)
        try c.encodeTimestamp(createdAt, forKey: .createdAt)
    }
}

/// A row of `post_flags`.
public struct PostFlag: CivicForgeRow {
    /// `post_flags`.
    public static let table = "post_flags"
    /// The columns, in table order.
    public static var columns: [String] { CodingKeys.allCases.map(\.rawValue) }

    /// `id` (uuid, not null).
    public var id: String
    /// `post_id` (uuid, not null).
    public var postId: String
    /// `flagger_id` (uuid, not null).
    public var flaggerId: String
    /// `reason` (text).
    public var reason: String?
    /// `created_at` (timestamptz, not null).
    public var createdAt: Date

    /// A row from its columns.
    public init(id: String, postId: String, flaggerId: String, reason: String? = nil, createdAt: Date) {
        self.id = id
        self.postId = postId
        self.flaggerId = flaggerId
        self.reason = reason
        self.createdAt = createdAt
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case id
        case postId = "post_id"
        case flaggerId = "flagger_id"
        case reason
        case createdAt = "created_at"
    }

    /// Decodes a row as PostgREST prints it (timestamps in PostgreSQL's text forms).
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(String.self, forKey: .id)
        postId = try c.decode(String.self, forKey: .postId)
        flaggerId = try c.decode(String.self, forKey: .flaggerId)
        reason = try c.decodeIfPresent(String.self, forKey: .reason)
        createdAt = try c.decodeTimestamp(forKey: .createdAt)
    }

    /// Encodes every column, NULL as `null`, as PostgREST prints a row.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(postId, forKey: .postId)
        try c.encode(flaggerId, forKey: .flaggerId)
        try c.encode(reason, forKey: .reason)
        try c.encodeTimestamp(createdAt, forKey: .createdAt)
    }
}

/// A row of `ai_matches`.
public struct AIMatch: CivicForgeRow {
    /// `ai_matches`.
    public static let table = "ai_matches"
    /// The columns, in table order.
    public static var columns: [String] { CodingKeys.allCases.map(\.rawValue) }

    /// `id` (uuid, not null).
    public var id: String
    /// `post_id` (uuid, not null).
    public var postId: String
    /// `matched_post_id` (uuid, not null).
    public var matchedPostId: String
    /// `score` (double precision, not null).
    public var score: Double
    /// `reason` (text).
    public var reason: String?
    /// `created_at` (timestamptz, not null).
    public var createdAt: Date

    /// A row from its columns.
    public init(id: String, postId: String, matchedPostId: String, score: Double, reason: String? = nil, createdAt: Date) {
        self.id = id
        self.postId = postId
        self.matchedPostId = matchedPostId
        self.score = score
        self.reason = reason
        self.createdAt = createdAt
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case id
        case postId = "post_id"
        case matchedPostId = "matched_post_id"
        case score
        case reason
        case createdAt = "created_at"
    }

    /// Decodes a row as PostgREST prints it (timestamps in PostgreSQL's text forms).
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(String.self, forKey: .id)
        postId = try c.decode(String.self, forKey: .postId)
        matchedPostId = try c.decode(String.self, forKey: .matchedPostId)
        score = try c.decode(Double.self, forKey: .score)
        reason = try c.decodeIfPresent(String.self, forKey: .reason)
        createdAt = try c.decodeTimestamp(forKey: .createdAt)
    }

    /// Encodes every column, NULL as `null`, as PostgREST prints a row.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(postId, forKey: .postId)
        try c.encode(matchedPostId, forKey: .matchedPostId)
        try c.encode(score, forKey: .score)
        try c.encode(reason, forKey: .reason)
        try c.encodeTimestamp(createdAt, forKey: .createdAt)
    }
}

/// A row of `invitations`.
public struct Invitation: CivicForgeRow {
    /// `invitations`.
    public static let table = "invitations"
    /// The columns, in table order.
    public static var columns: [String] { CodingKeys.allCases.map(\.rawValue) }

    /// `id` (uuid, not null).
    public var id: String
    /// `code` (text, not null).
    public var code: String
    /// `inviter_id` (uuid, not null).
    public var inviterId: String
    /// `neighborhood_id` (uuid, not null).
    public var neighborhoodId: String
    /// `redeemed_by` (uuid).
    public var redeemedBy: String?
    /// `redeemed_at` (timestamptz).
    public var redeemedAt: Date?
    /// `expires_at` (timestamptz, not null).
    public var expiresAt: Date
    /// `created_at` (timestamptz, not null).
    public var createdAt: Date

    /// A row from its columns.
    public init(id: String, code: String, inviterId: String, neighborhoodId: String, redeemedBy: String? = nil, redeemedAt: Date? = nil, expiresAt: Date, createdAt: Date) {
        self.id = id
        self.code = code
        self.inviterId = inviterId
        self.neighborhoodId = neighborhoodId
        self.redeemedBy = redeemedBy
        self.redeemedAt = redeemedAt
        self.expiresAt = expiresAt
        self.createdAt = createdAt
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case id
        case code
        case inviterId = "inviter_id"
        case neighborhoodId = "neighborhood_id"
        case redeemedBy = "redeemed_by"
        case redeemedAt = "redeemed_at"
        case expiresAt = "expires_at"
        case createdAt = "created_at"
    }

    /// Decodes a row as PostgREST prints it (timestamps in PostgreSQL's text forms).
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(String.self, forKey: .id)
        code = try c.decode(String.self, forKey: .code)
        inviterId = try c.decode(String.self, forKey: .inviterId)
        neighborhoodId = try c.decode(String.self, forKey: .neighborhoodId)
        redeemedBy = try c.decodeIfPresent(String.self, forKey: .redeemedBy)
        redeemedAt = try c.decodeTimestampIfPresent(forKey: .redeemedAt)
        expiresAt = try c.decodeTimestamp(forKey: .expiresAt)
        createdAt = try c.decodeTimestamp(forKey: .createdAt)
    }

    /// Encodes every column, NULL as `null`, as PostgREST prints a row.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(code, forKey: .code)
        try c.encode(inviterId, forKey: .inviterId)
        try c.encode(neighborhoodId, forKey: .neighborhoodId)
        try c.encode(redeemedBy, forKey: .redeemedBy)
        try c.encodeTimestamp(redeemedAt, forKey: .redeemedAt)
        try c.encodeTimestamp(expiresAt, forKey: .expiresAt)
        try c.encodeTimestamp(createdAt, forKey: .createdAt)
    }
}

/// A row of `device_tokens`.
public struct DeviceToken: CivicForgeRow {
    /// `device_tokens`.
    public static let table = "device_tokens"
    /// The columns, in table order.
    public static var columns: [String] { CodingKeys.allCases.map(\.rawValue) }

    /// `id` (uuid, not null).
    public var id: String
    /// `user_id` (uuid, not null).
    public var userId: String
    /// `token` (text, not null).
    public var token: String
    /// `platform` (device_platform, not null).
    public var platform: DevicePlatform
    /// `created_at` (timestamptz, not null).
    public var createdAt: Date

    /// A row from its columns.
    public init(id: String, userId: String, token: String, platform: DevicePlatform, createdAt: Date) {
        self.id = id
        self.userId = userId
        self.token = token
        self.platform = platform
        self.createdAt = createdAt
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case id
        case userId = "user_id"
        case token
        case platform
        case createdAt = "created_at"
    }

    /// Decodes a row as PostgREST prints it (timestamps in PostgreSQL's text forms).
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(String.self, forKey: .id)
        userId = try c.decode(String.self, forKey: .userId)
        token = try c.decode(String.self, forKey: .token)
        platform = try c.decode(DevicePlatform.self, forKey: .platform)
        createdAt = try c.decodeTimestamp(forKey: .createdAt)
    }

    /// Encodes every column, NULL as `null`, as PostgREST prints a row.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(userId, forKey: .userId)
        try c.encode(token, forKey: .token)
        try c.encode(platform, forKey: .platform)
        try c.encodeTimestamp(createdAt, forKey: .createdAt)
    }
}
