import Foundation
import ContractKit

// Row models of every table of schema.json (FR-032/FR-033: Codable, Identifiable, Equatable,
// snake_case columns through CodingKeys). The `models` rule kind checks that each model's
// CodingKeys are exactly its table's columns and that every fixture row round-trips.

/// `public.ride_status`.
public enum RideStatus: String, Codable, CaseIterable, Sendable {
    /// Posted, nobody has claimed it.
    case open
    /// Claimed, waiting for the requester to confirm.
    case pending
    /// The requester accepted the claim.
    case confirmed
    /// Done (final).
    case completed
}

/// `public.favor_status`.
public enum FavorStatus: String, Codable, CaseIterable, Sendable {
    /// Posted, nobody has claimed it.
    case open
    /// Claimed, waiting for the requester to confirm.
    case pending
    /// The requester accepted the claim.
    case confirmed
    /// Done (final).
    case completed
}

/// `public.favor_duration`.
public enum FavorDuration: String, Codable, CaseIterable, Sendable {
    /// Under an hour.
    case underHour = "under_hour"
    /// A couple of hours.
    case coupleHours = "couple_hours"
    /// A couple of days.
    case coupleDays = "couple_days"
    /// Not sure (the default).
    case notSure = "not_sure"
}

/// A user profile (FR-002), 1:1 with auth.users. Table `profiles`.
public struct Profile: NaarsCarsRow {
    /// The table (or view) the rows come from.
    public static let table = "profiles"
    /// `id` (uuid).
    public let id: UUID
    /// `name` (text).
    public var name: String
    /// `email` (text).
    public var email: String
    /// `car` (text, nullable).
    public var car: String?
    /// `phone_number` (text, nullable).
    public var phoneNumber: String?
    /// `avatar_url` (text, nullable).
    public var avatarUrl: String?
    /// `is_admin` (boolean).
    public var isAdmin: Bool
    /// `approved` (boolean).
    public var approved: Bool
    /// `invited_by` (uuid, nullable).
    public var invitedBy: UUID?
    /// `notify_ride_updates` (boolean, nullable).
    public var notifyRideUpdates: Bool?
    /// `notify_messages` (boolean, nullable).
    public var notifyMessages: Bool?
    /// `notify_announcements` (boolean, nullable).
    public var notifyAnnouncements: Bool?
    /// `notify_new_requests` (boolean, nullable).
    public var notifyNewRequests: Bool?
    /// `notify_qa_activity` (boolean, nullable).
    public var notifyQaActivity: Bool?
    /// `notify_review_reminders` (boolean, nullable).
    public var notifyReviewReminders: Bool?
    /// `created_at` (timestamptz).
    public var createdAt: Timestamp
    /// `updated_at` (timestamptz).
    public var updatedAt: Timestamp

    /// The column names.
    public enum CodingKeys: String, CodingKey, CaseIterable {
        case id
        case name
        case email
        case car
        case phoneNumber = "phone_number"
        case avatarUrl = "avatar_url"
        case isAdmin = "is_admin"
        case approved
        case invitedBy = "invited_by"
        case notifyRideUpdates = "notify_ride_updates"
        case notifyMessages = "notify_messages"
        case notifyAnnouncements = "notify_announcements"
        case notifyNewRequests = "notify_new_requests"
        case notifyQaActivity = "notify_qa_activity"
        case notifyReviewReminders = "notify_review_reminders"
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }

    /// Writes every column as PostgREST prints a row: NULL as `null`, uuids in lower case.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeUUID(id, forKey: .id)
        try c.encodeColumn(name, forKey: .name)
        try c.encodeColumn(email, forKey: .email)
        try c.encodeColumn(car, forKey: .car)
        try c.encodeColumn(phoneNumber, forKey: .phoneNumber)
        try c.encodeColumn(avatarUrl, forKey: .avatarUrl)
        try c.encodeColumn(isAdmin, forKey: .isAdmin)
        try c.encodeColumn(approved, forKey: .approved)
        try c.encodeUUID(invitedBy, forKey: .invitedBy)
        try c.encodeColumn(notifyRideUpdates, forKey: .notifyRideUpdates)
        try c.encodeColumn(notifyMessages, forKey: .notifyMessages)
        try c.encodeColumn(notifyAnnouncements, forKey: .notifyAnnouncements)
        try c.encodeColumn(notifyNewRequests, forKey: .notifyNewRequests)
        try c.encodeColumn(notifyQaActivity, forKey: .notifyQaActivity)
        try c.encodeColumn(notifyReviewReminders, forKey: .notifyReviewReminders)
        try c.encodeColumn(createdAt, forKey: .createdAt)
        try c.encodeColumn(updatedAt, forKey: .updatedAt)
    }

    /// A row from its columns.
    public init(id: UUID, name: String, email: String, car: String? = nil, phoneNumber: String? = nil, avatarUrl: String? = nil, isAdmin: Bool, approved: Bool, invitedBy: UUID? = nil, notifyRideUpdates: Bool? = nil, notifyMessages: Bool? = nil, notifyAnnouncements: Bool? = nil, notifyNewRequests: Bool? = nil, notifyQaActivity: Bool? = nil, notifyReviewReminders: Bool? = nil, createdAt: Timestamp, updatedAt: Timestamp) {
        self.id = id
        self.name = name
        self.email = email
        self.car = car
        self.phoneNumber = phoneNumber
        self.avatarUrl = avatarUrl
        self.isAdmin = isAdmin
        self.approved = approved
        self.invitedBy = invitedBy
        self.notifyRideUpdates = notifyRideUpdates
        self.notifyMessages = notifyMessages
        self.notifyAnnouncements = notifyAnnouncements
        self.notifyNewRequests = notifyNewRequests
        self.notifyQaActivity = notifyQaActivity
        self.notifyReviewReminders = notifyReviewReminders
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

/// An invitation code. Table `invite_codes`.
public struct InviteCode: NaarsCarsRow {
    /// The table (or view) the rows come from.
    public static let table = "invite_codes"
    /// `id` (uuid).
    public let id: UUID
    /// `code` (text).
    public var code: String
    /// `created_by` (uuid).
    public var createdBy: UUID
    /// `used_by` (uuid, nullable).
    public var usedBy: UUID?
    /// `used_at` (timestamptz, nullable).
    public var usedAt: Timestamp?
    /// `created_at` (timestamptz).
    public var createdAt: Timestamp
    /// `updated_at` (timestamptz).
    public var updatedAt: Timestamp

    /// The column names.
    public enum CodingKeys: String, CodingKey, CaseIterable {
        case id
        case code
        case createdBy = "created_by"
        case usedBy = "used_by"
        case usedAt = "used_at"
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }

    /// Writes every column as PostgREST prints a row: NULL as `null`, uuids in lower case.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeUUID(id, forKey: .id)
        try c.encodeColumn(code, forKey: .code)
        try c.encodeUUID(createdBy, forKey: .createdBy)
        try c.encodeUUID(usedBy, forKey: .usedBy)
        try c.encodeColumn(usedAt, forKey: .usedAt)
        try c.encodeColumn(createdAt, forKey: .createdAt)
        try c.encodeColumn(updatedAt, forKey: .updatedAt)
    }

    /// A row from its columns.
    public init(id: UUID, code: String, createdBy: UUID, usedBy: UUID? = nil, usedAt: Timestamp? = nil, createdAt: Timestamp, updatedAt: Timestamp) {
        self.id = id
        self.code = code
        self.createdBy = createdBy
        self.usedBy = usedBy
        self.usedAt = usedAt
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

/// A ride request (FR-003). Table `rides`.
public struct Ride: NaarsCarsRow {
    /// The table (or view) the rows come from.
    public static let table = "rides"
    /// `id` (uuid).
    public let id: UUID
    /// `user_id` (uuid).
    public var userId: UUID
    /// `type` (text).
    public var type: String
    /// `date` (date).
    public var date: CalendarDate
    /// `time` (time).
    public var time: TimeOfDay
    /// `pickup` (text).
    public var pickup: String
    /// `destination` (text).
    public var destination: String
    /// `seats` (integer, nullable).
    public var seats: Int?
    /// `notes` (text, nullable).
    public var notes: String?
    /// `gift` (text, nullable).
    public var gift: String?
    /// `status` (ride_status).
    public var status: RideStatus
    /// `claimed_by` (uuid, nullable).
    public var claimedBy: UUID?
    /// `reviewed` (boolean).
    public var reviewed: Bool
    /// `review_skipped` (boolean, nullable).
    public var reviewSkipped: Bool?
    /// `review_skipped_at` (timestamptz, nullable).
    public var reviewSkippedAt: Timestamp?
    /// `created_at` (timestamptz).
    public var createdAt: Timestamp
    /// `updated_at` (timestamptz).
    public var updatedAt: Timestamp

    /// The column names.
    public enum CodingKeys: String, CodingKey, CaseIterable {
        case id
        case userId = "user_id"
        case type
        case date
        case time
        case pickup
        case destination
        case seats
        case notes
        case gift
        case status
        case claimedBy = "claimed_by"
        case reviewed
        case reviewSkipped = "review_skipped"
        case reviewSkippedAt = "review_skipped_at"
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }

    /// Writes every column as PostgREST prints a row: NULL as `null`, uuids in lower case.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeUUID(id, forKey: .id)
        try c.encodeUUID(userId, forKey: .userId)
        try c.encodeColumn(type, forKey: .type)
        try c.encodeColumn(date, forKey: .date)
        try c.encodeColumn(time, forKey: .time)
        try c.encodeColumn(pickup, forKey: .pickup)
        try c.encodeColumn(destination, forKey: .destination)
        try c.encodeColumn(seats, forKey: .seats)
        try c.encodeColumn(notes, forKey: .notes)
        try c.encodeColumn(gift, forKey: .gift)
        try c.encodeColumn(status, forKey: .status)
        try c.encodeUUID(claimedBy, forKey: .claimedBy)
        try c.encodeColumn(reviewed, forKey: .reviewed)
        try c.encodeColumn(reviewSkipped, forKey: .reviewSkipped)
        try c.encodeColumn(reviewSkippedAt, forKey: .reviewSkippedAt)
        try c.encodeColumn(createdAt, forKey: .createdAt)
        try c.encodeColumn(updatedAt, forKey: .updatedAt)
    }

    /// A row from its columns.
    public init(id: UUID, userId: UUID, type: String, date: CalendarDate, time: TimeOfDay, pickup: String, destination: String, seats: Int? = nil, notes: String? = nil, gift: String? = nil, status: RideStatus, claimedBy: UUID? = nil, reviewed: Bool, reviewSkipped: Bool? = nil, reviewSkippedAt: Timestamp? = nil, createdAt: Timestamp, updatedAt: Timestamp) {
        self.id = id
        self.userId = userId
        self.type = type
        self.date = date
        self.time = time
        self.pickup = pickup
        self.destination = destination
        self.seats = seats
        self.notes = notes
        self.gift = gift
        self.status = status
        self.claimedBy = claimedBy
        self.reviewed = reviewed
        self.reviewSkipped = reviewSkipped
        self.reviewSkippedAt = reviewSkippedAt
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

/// A co-requestor of a ride. Table `ride_participants`.
public struct RideParticipant: NaarsCarsRow {
    /// The table (or view) the rows come from.
    public static let table = "ride_participants"
    /// `id` (uuid).
    public let id: UUID
    /// `ride_id` (uuid).
    public var rideId: UUID
    /// `user_id` (uuid).
    public var userId: UUID
    /// `created_at` (timestamptz).
    public var createdAt: Timestamp

    /// The column names.
    public enum CodingKeys: String, CodingKey, CaseIterable {
        case id
        case rideId = "ride_id"
        case userId = "user_id"
        case createdAt = "created_at"
    }

    /// Writes every column as PostgREST prints a row: NULL as `null`, uuids in lower case.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeUUID(id, forKey: .id)
        try c.encodeUUID(rideId, forKey: .rideId)
        try c.encodeUUID(userId, forKey: .userId)
        try c.encodeColumn(createdAt, forKey: .createdAt)
    }

    /// A row from its columns.
    public init(id: UUID, rideId: UUID, userId: UUID, createdAt: Timestamp) {
        self.id = id
        self.rideId = rideId
        self.userId = userId
        self.createdAt = createdAt
    }
}

/// A favor request (FR-004). Table `favors`.
public struct Favor: NaarsCarsRow {
    /// The table (or view) the rows come from.
    public static let table = "favors"
    /// `id` (uuid).
    public let id: UUID
    /// `user_id` (uuid).
    public var userId: UUID
    /// `title` (text).
    public var title: String
    /// `description` (text, nullable).
    public var description: String?
    /// `location` (text).
    public var location: String
    /// `duration` (favor_duration).
    public var duration: FavorDuration
    /// `requirements` (text, nullable).
    public var requirements: String?
    /// `date` (date).
    public var date: CalendarDate
    /// `time` (time, nullable).
    public var time: TimeOfDay?
    /// `gift` (text, nullable).
    public var gift: String?
    /// `status` (favor_status).
    public var status: FavorStatus
    /// `claimed_by` (uuid, nullable).
    public var claimedBy: UUID?
    /// `reviewed` (boolean).
    public var reviewed: Bool
    /// `review_skipped` (boolean, nullable).
    public var reviewSkipped: Bool?
    /// `review_skipped_at` (timestamptz, nullable).
    public var reviewSkippedAt: Timestamp?
    /// `created_at` (timestamptz).
    public var createdAt: Timestamp
    /// `updated_at` (timestamptz).
    public var updatedAt: Timestamp

    /// The column names.
    public enum CodingKeys: String, CodingKey, CaseIterable {
        case id
        case userId = "user_id"
        case title
        case description
        case location
        case duration
        case requirements
        case date
        case time
        case gift
        case status
        case claimedBy = "claimed_by"
        case reviewed
        case reviewSkipped = "review_skipped"
        case reviewSkippedAt = "review_skipped_at"
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }

    /// Writes every column as PostgREST prints a row: NULL as `null`, uuids in lower case.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeUUID(id, forKey: .id)
        try c.encodeUUID(userId, forKey: .userId)
        try c.encodeColumn(title, forKey: .title)
        try c.encodeColumn(description, forKey: .description)
        try c.encodeColumn(location, forKey: .location)
        try c.encodeColumn(duration, forKey: .duration)
        try c.encodeColumn(requirements, forKey: .requirements)
        try c.encodeColumn(date, forKey: .date)
        try c.encodeColumn(time, forKey: .time)
        try c.encodeColumn(gift, forKey: .gift)
        try c.encodeColumn(status, forKey: .status)
        try c.encodeUUID(claimedBy, forKey: .claimedBy)
        try c.encodeColumn(reviewed, forKey: .reviewed)
        try c.encodeColumn(reviewSkipped, forKey: .reviewSkipped)
        try c.encodeColumn(reviewSkippedAt, forKey: .reviewSkippedAt)
        try c.encodeColumn(createdAt, forKey: .createdAt)
        try c.encodeColumn(updatedAt, forKey: .updatedAt)
    }

    /// A row from its columns.
    public init(id: UUID, userId: UUID, title: String, description: String? = nil, location: String, duration: FavorDuration, requirements: String? = nil, date: CalendarDate, time: TimeOfDay? = nil, gift: String? = nil, status: FavorStatus, claimedBy: UUID? = nil, reviewed: Bool, reviewSkipped: Bool? = nil, reviewSkippedAt: Timestamp? = nil, createdAt: Timestamp, updatedAt: Timestamp) {
        self.id = id
        self.userId = userId
        self.title = title
        self.description = description
        self.location = location
        self.duration = duration
        self.requirements = requirements
        self.date = date
        self.time = time
        self.gift = gift
        self.status = status
        self.claimedBy = claimedBy
        self.reviewed = reviewed
        self.reviewSkipped = reviewSkipped
        self.reviewSkippedAt = reviewSkippedAt
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

/// A co-requestor of a favor. Table `favor_participants`.
public struct FavorParticipant: NaarsCarsRow {
    /// The table (or view) the rows come from.
    public static let table = "favor_participants"
    /// `id` (uuid).
    public let id: UUID
    /// `favor_id` (uuid).
    public var favorId: UUID
    /// `user_id` (uuid).
    public var userId: UUID
    /// `created_at` (timestamptz).
    public var createdAt: Timestamp

    /// The column names.
    public enum CodingKeys: String, CodingKey, CaseIterable {
        case id
        case favorId = "favor_id"
        case userId = "user_id"
        case createdAt = "created_at"
    }

    /// Writes every column as PostgREST prints a row: NULL as `null`, uuids in lower case.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeUUID(id, forKey: .id)
        try c.encodeUUID(favorId, forKey: .favorId)
        try c.encodeUUID(userId, forKey: .userId)
        try c.encodeColumn(createdAt, forKey: .createdAt)
    }

    /// A row from its columns.
    public init(id: UUID, favorId: UUID, userId: UUID, createdAt: Timestamp) {
        self.id = id
        self.favorId = favorId
        self.userId = userId
        self.createdAt = createdAt
    }
}

/// A question (parent_id nil) or reply on a ride or favor. Table `request_qa`.
public struct RequestQA: NaarsCarsRow {
    /// The table (or view) the rows come from.
    public static let table = "request_qa"
    /// `id` (uuid).
    public let id: UUID
    /// `ride_id` (uuid, nullable).
    public var rideId: UUID?
    /// `favor_id` (uuid, nullable).
    public var favorId: UUID?
    /// `user_id` (uuid).
    public var userId: UUID
    /// `parent_id` (uuid, nullable).
    public var parentId: UUID?
    /// `content` (text).
    public var content: String
    /// `created_at` (timestamptz).
    public var createdAt: Timestamp

    /// The column names.
    public enum CodingKeys: String, CodingKey, CaseIterable {
        case id
        case rideId = "ride_id"
        case favorId = "favor_id"
        case userId = "user_id"
        case parentId = "parent_id"
        case content
        case createdAt = "created_at"
    }

    /// Writes every column as PostgREST prints a row: NULL as `null`, uuids in lower case.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeUUID(id, forKey: .id)
        try c.encodeUUID(rideId, forKey: .rideId)
        try c.encodeUUID(favorId, forKey: .favorId)
        try c.encodeUUID(userId, forKey: .userId)
        try c.encodeUUID(parentId, forKey: .parentId)
        try c.encodeColumn(content, forKey: .content)
        try c.encodeColumn(createdAt, forKey: .createdAt)
    }

    /// A row from its columns.
    public init(id: UUID, rideId: UUID? = nil, favorId: UUID? = nil, userId: UUID, parentId: UUID? = nil, content: String, createdAt: Timestamp) {
        self.id = id
        self.rideId = rideId
        self.favorId = favorId
        self.userId = userId
        self.parentId = parentId
        self.content = content
        self.createdAt = createdAt
    }
}

/// A message thread, optionally about one request. Table `conversations`.
public struct Conversation: NaarsCarsRow {
    /// The table (or view) the rows come from.
    public static let table = "conversations"
    /// `id` (uuid).
    public let id: UUID
    /// `ride_id` (uuid, nullable).
    public var rideId: UUID?
    /// `favor_id` (uuid, nullable).
    public var favorId: UUID?
    /// `created_by` (uuid, nullable).
    public var createdBy: UUID?
    /// `created_at` (timestamptz).
    public var createdAt: Timestamp
    /// `updated_at` (timestamptz).
    public var updatedAt: Timestamp

    /// The column names.
    public enum CodingKeys: String, CodingKey, CaseIterable {
        case id
        case rideId = "ride_id"
        case favorId = "favor_id"
        case createdBy = "created_by"
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }

    /// Writes every column as PostgREST prints a row: NULL as `null`, uuids in lower case.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeUUID(id, forKey: .id)
        try c.encodeUUID(rideId, forKey: .rideId)
        try c.encodeUUID(favorId, forKey: .favorId)
        try c.encodeUUID(createdBy, forKey: .createdBy)
        try c.encodeColumn(createdAt, forKey: .createdAt)
        try c.encodeColumn(updatedAt, forKey: .updatedAt)
    }

    /// A row from its columns.
    public init(id: UUID, rideId: UUID? = nil, favorId: UUID? = nil, createdBy: UUID? = nil, createdAt: Timestamp, updatedAt: Timestamp) {
        self.id = id
        self.rideId = rideId
        self.favorId = favorId
        self.createdBy = createdBy
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

/// A member of a thread. Table `conversation_participants`.
public struct ConversationParticipant: NaarsCarsRow {
    /// The table (or view) the rows come from.
    public static let table = "conversation_participants"
    /// `id` (uuid).
    public let id: UUID
    /// `conversation_id` (uuid).
    public var conversationId: UUID
    /// `user_id` (uuid).
    public var userId: UUID
    /// `last_read_at` (timestamptz, nullable).
    public var lastReadAt: Timestamp?
    /// `created_at` (timestamptz).
    public var createdAt: Timestamp
    /// `updated_at` (timestamptz).
    public var updatedAt: Timestamp

    /// The column names.
    public enum CodingKeys: String, CodingKey, CaseIterable {
        case id
        case conversationId = "conversation_id"
        case userId = "user_id"
        case lastReadAt = "last_read_at"
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }

    /// Writes every column as PostgREST prints a row: NULL as `null`, uuids in lower case.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeUUID(id, forKey: .id)
        try c.encodeUUID(conversationId, forKey: .conversationId)
        try c.encodeUUID(userId, forKey: .userId)
        try c.encodeColumn(lastReadAt, forKey: .lastReadAt)
        try c.encodeColumn(createdAt, forKey: .createdAt)
        try c.encodeColumn(updatedAt, forKey: .updatedAt)
    }

    /// A row from its columns.
    public init(id: UUID, conversationId: UUID, userId: UUID, lastReadAt: Timestamp? = nil, createdAt: Timestamp, updatedAt: Timestamp) {
        self.id = id
        self.conversationId = conversationId
        self.userId = userId
        self.lastReadAt = lastReadAt
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

/// A chat message. Table `messages`.
public struct Message: NaarsCarsRow {
    /// The table (or view) the rows come from.
    public static let table = "messages"
    /// `id` (uuid).
    public let id: UUID
    /// `conversation_id` (uuid).
    public var conversationId: UUID
    /// `from_id` (uuid).
    public var fromId: UUID
    /// `content` (text, nullable).
    public var content: String?
    /// `image_url` (text, nullable).
    public var imageUrl: String?
    /// `read_by` (uuid[]).
    public var readBy: [UUID]
    /// `created_at` (timestamptz).
    public var createdAt: Timestamp
    /// `updated_at` (timestamptz).
    public var updatedAt: Timestamp

    /// The column names.
    public enum CodingKeys: String, CodingKey, CaseIterable {
        case id
        case conversationId = "conversation_id"
        case fromId = "from_id"
        case content
        case imageUrl = "image_url"
        case readBy = "read_by"
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }

    /// Writes every column as PostgREST prints a row: NULL as `null`, uuids in lower case.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeUUID(id, forKey: .id)
        try c.encodeUUID(conversationId, forKey: .conversationId)
        try c.encodeUUID(fromId, forKey: .fromId)
        try c.encodeColumn(content, forKey: .content)
        try c.encodeColumn(imageUrl, forKey: .imageUrl)
        try c.encodeUUIDs(readBy, forKey: .readBy)
        try c.encodeColumn(createdAt, forKey: .createdAt)
        try c.encodeColumn(updatedAt, forKey: .updatedAt)
    }

    /// A row from its columns.
    public init(id: UUID, conversationId: UUID, fromId: UUID, content: String? = nil, imageUrl: String? = nil, readBy: [UUID], createdAt: Timestamp, updatedAt: Timestamp) {
        self.id = id
        self.conversationId = conversationId
        self.fromId = fromId
        self.content = content
        self.imageUrl = imageUrl
        self.readBy = readBy
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

/// An in-app notification. Table `notifications`.
public struct AppNotification: NaarsCarsRow {
    /// The table (or view) the rows come from.
    public static let table = "notifications"
    /// `id` (uuid).
    public let id: UUID
    /// `user_id` (uuid).
    public var userId: UUID
    /// `type` (text).
    public var type: String
    /// `title` (text).
    public var title: String
    /// `body` (text, nullable).
    public var body: String?
    /// `ride_id` (uuid, nullable).
    public var rideId: UUID?
    /// `favor_id` (uuid, nullable).
    public var favorId: UUID?
    /// `read` (boolean).
    public var read: Bool
    /// `pinned` (boolean).
    public var pinned: Bool
    /// `created_at` (timestamptz).
    public var createdAt: Timestamp
    /// `updated_at` (timestamptz).
    public var updatedAt: Timestamp

    /// The column names.
    public enum CodingKeys: String, CodingKey, CaseIterable {
        case id
        case userId = "user_id"
        case type
        case title
        case body
        case rideId = "ride_id"
        case favorId = "favor_id"
        case read
        case pinned
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }

    /// Writes every column as PostgREST prints a row: NULL as `null`, uuids in lower case.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeUUID(id, forKey: .id)
        try c.encodeUUID(userId, forKey: .userId)
        try c.encodeColumn(type, forKey: .type)
        try c.encodeColumn(title, forKey: .title)
        try c.encodeColumn(body, forKey: .body)
        try c.encodeUUID(rideId, forKey: .rideId)
        try c.encodeUUID(favorId, forKey: .favorId)
        try c.encodeColumn(read, forKey: .read)
        try c.encodeColumn(pinned, forKey: .pinned)
        try c.encodeColumn(createdAt, forKey: .createdAt)
        try c.encodeColumn(updatedAt, forKey: .updatedAt)
    }

    /// A row from its columns.
    public init(id: UUID, userId: UUID, type: String, title: String, body: String? = nil, rideId: UUID? = nil, favorId: UUID? = nil, read: Bool, pinned: Bool, createdAt: Timestamp, updatedAt: Timestamp) {
        self.id = id
        self.userId = userId
        self.type = type
        self.title = title
        self.body = body
        self.rideId = rideId
        self.favorId = favorId
        self.read = read
        self.pinned = pinned
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

/// An APNs device token. Table `push_tokens`.
public struct PushToken: NaarsCarsRow {
    /// The table (or view) the rows come from.
    public static let table = "push_tokens"
    /// `id` (uuid).
    public let id: UUID
    /// `user_id` (uuid).
    public var userId: UUID
    /// `token` (text).
    public var token: String
    /// `device_id` (text).
    public var deviceId: String
    /// `platform` (text).
    public var platform: String
    /// `created_at` (timestamptz).
    public var createdAt: Timestamp
    /// `updated_at` (timestamptz).
    public var updatedAt: Timestamp

    /// The column names.
    public enum CodingKeys: String, CodingKey, CaseIterable {
        case id
        case userId = "user_id"
        case token
        case deviceId = "device_id"
        case platform
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }

    /// Writes every column as PostgREST prints a row: NULL as `null`, uuids in lower case.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeUUID(id, forKey: .id)
        try c.encodeUUID(userId, forKey: .userId)
        try c.encodeColumn(token, forKey: .token)
        try c.encodeColumn(deviceId, forKey: .deviceId)
        try c.encodeColumn(platform, forKey: .platform)
        try c.encodeColumn(createdAt, forKey: .createdAt)
        try c.encodeColumn(updatedAt, forKey: .updatedAt)
    }

    /// A row from its columns.
    public init(id: UUID, userId: UUID, token: String, deviceId: String, platform: String, createdAt: Timestamp, updatedAt: Timestamp) {
        self.id = id
        self.userId = userId
        self.token = token
        self.deviceId = deviceId
        self.platform = platform
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

/// A community post. Table `town_hall_posts`.
public struct TownHallPost: NaarsCarsRow {
    /// The table (or view) the rows come from.
    public static let table = "town_hall_posts"
    /// `id` (uuid).
    public let id: UUID
    /// `user_id` (uuid).
    public var userId: UUID
    /// `title` (text, nullable).
    public var title: String?
    /// `content` (text).
    public var content: String
    /// `image_url` (text, nullable).
    public var imageUrl: String?
    /// `created_at` (timestamptz).
    public var createdAt: Timestamp

    /// The column names.
    public enum CodingKeys: String, CodingKey, CaseIterable {
        case id
        case userId = "user_id"
        case title
        case content
        case imageUrl = "image_url"
        case createdAt = "created_at"
    }

    /// Writes every column as PostgREST prints a row: NULL as `null`, uuids in lower case.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeUUID(id, forKey: .id)
        try c.encodeUUID(userId, forKey: .userId)
        try c.encodeColumn(title, forKey: .title)
        try c.encodeColumn(content, forKey: .content)
        try c.encodeColumn(imageUrl, forKey: .imageUrl)
        try c.encodeColumn(createdAt, forKey: .createdAt)
    }

    /// A row from its columns.
    public init(id: UUID, userId: UUID, title: String? = nil, content: String, imageUrl: String? = nil, createdAt: Timestamp) {
        self.id = id
        self.userId = userId
        self.title = title
        self.content = content
        self.imageUrl = imageUrl
        self.createdAt = createdAt
    }
}

/// A review of the user who fulfilled a request. Table `reviews`.
public struct Review: NaarsCarsRow {
    /// The table (or view) the rows come from.
    public static let table = "reviews"
    /// `id` (uuid).
    public let id: UUID
    /// `reviewer_id` (uuid).
    public var reviewerId: UUID
    /// `fulfiller_id` (uuid).
    public var fulfillerId: UUID
    /// `ride_id` (uuid, nullable).
    public var rideId: UUID?
    /// `favor_id` (uuid, nullable).
    public var favorId: UUID?
    /// `rating` (integer).
    public var rating: Int
    /// `comment` (text, nullable).
    public var comment: String?
    /// `town_hall_post_id` (uuid, nullable).
    public var townHallPostId: UUID?
    /// `created_at` (timestamptz).
    public var createdAt: Timestamp

    /// The column names.
    public enum CodingKeys: String, CodingKey, CaseIterable {
        case id
        case reviewerId = "reviewer_id"
        case fulfillerId = "fulfiller_id"
        case rideId = "ride_id"
        case favorId = "favor_id"
        case rating
        case comment
        case townHallPostId = "town_hall_post_id"
        case createdAt = "created_at"
    }

    /// Writes every column as PostgREST prints a row: NULL as `null`, uuids in lower case.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeUUID(id, forKey: .id)
        try c.encodeUUID(reviewerId, forKey: .reviewerId)
        try c.encodeUUID(fulfillerId, forKey: .fulfillerId)
        try c.encodeUUID(rideId, forKey: .rideId)
        try c.encodeUUID(favorId, forKey: .favorId)
        try c.encodeColumn(rating, forKey: .rating)
        try c.encodeColumn(comment, forKey: .comment)
        try c.encodeUUID(townHallPostId, forKey: .townHallPostId)
        try c.encodeColumn(createdAt, forKey: .createdAt)
    }

    /// A row from its columns.
    public init(id: UUID, reviewerId: UUID, fulfillerId: UUID, rideId: UUID? = nil, favorId: UUID? = nil, rating: Int, comment: String? = nil, townHallPostId: UUID? = nil, createdAt: Timestamp) {
        self.id = id
        self.reviewerId = reviewerId
        self.fulfillerId = fulfillerId
        self.rideId = rideId
        self.favorId = favorId
        self.rating = rating
        self.comment = comment
        self.townHallPostId = townHallPostId
        self.createdAt = createdAt
    }
}

/// A row of the leaderboard_stats view (FR-015) and of get_leaderboard(). Table `leaderboard_stats`.
public struct LeaderboardEntry: NaarsCarsRow {
    /// The table (or view) the rows come from.
    public static let table = "leaderboard_stats"
    /// `user_id` (uuid).
    public var userId: UUID
    /// `name` (text).
    public var name: String
    /// `avatar_url` (text, nullable).
    public var avatarUrl: String?
    /// `fulfilled_count` (bigint).
    public var fulfilledCount: Int
    /// `average_rating` (numeric).
    public var averageRating: Double
    /// `review_count` (bigint).
    public var reviewCount: Int
    /// `rank` (bigint).
    public var rank: Int
    /// The user is the row's identity.
    public var id: UUID { userId }

    /// The column names.
    public enum CodingKeys: String, CodingKey, CaseIterable {
        case userId = "user_id"
        case name
        case avatarUrl = "avatar_url"
        case fulfilledCount = "fulfilled_count"
        case averageRating = "average_rating"
        case reviewCount = "review_count"
        case rank
    }

    /// Writes every column as PostgREST prints a row: NULL as `null`, uuids in lower case.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeUUID(userId, forKey: .userId)
        try c.encodeColumn(name, forKey: .name)
        try c.encodeColumn(avatarUrl, forKey: .avatarUrl)
        try c.encodeColumn(fulfilledCount, forKey: .fulfilledCount)
        try c.encodeColumn(averageRating, forKey: .averageRating)
        try c.encodeColumn(reviewCount, forKey: .reviewCount)
        try c.encodeColumn(rank, forKey: .rank)
    }

    /// A row from its columns.
    public init(userId: UUID, name: String, avatarUrl: String? = nil, fulfilledCount: Int, averageRating: Double, reviewCount: Int, rank: Int) {
        self.userId = userId
        self.name = name
        self.avatarUrl = avatarUrl
        self.fulfilledCount = fulfilledCount
        self.averageRating = averageRating
        self.reviewCount = reviewCount
        self.rank = rank
    }
}
