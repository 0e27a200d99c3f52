import Foundation
import MockBinding

/// A row model of one table or view of schema.json (ContractKit's `TableModel`, checked by the
/// `models` rule kind): its CodingKeys are the table's columns.
package protocol NaarsCarsRow: NaarsCarsPayload, TableModel, Identifiable {}

/// A JSON payload (RPC result, edge-function request or response) with named fields.
package protocol NaarsCarsPayload: Codable, Equatable, Sendable {
    /// The field names, one case per field.
    associatedtype CodingKeys: CodingKey & CaseIterable
}

extension NaarsCarsPayload {
    /// The field names this payload reads and writes.
    package static var fields: [String] { CodingKeys.allCases.map(\.stringValue) }
    /// The same names, for a payload that writes NULL as `null` (`ColumnEncodable`).
    package static var columns: [String] { fields }
}

/// Every model of the app: rows, database-function payloads, edge-function payloads.
package enum NaarsCarsModels {
    /// One model per table and view of schema.json.
    package static let rows: [any NaarsCarsRow.Type] = NaarsCarsApp.tableModels.compactMap { $0 as? any NaarsCarsRow.Type }
    /// Result models of the database functions, by function name (void functions have none).
    package static let rpcResults: [String: any NaarsCarsPayload.Type] = [
        "get_user_stats": UserStats.self, "get_unread_counts": UnreadCounts.self,
        "validate_invite_code": InviteCodeValidation.self, "get_leaderboard": LeaderboardEntry.self,
        "get_pending_reviews": PendingReview.self
    ]
    /// The payload models interaction files may name besides the row models (`UserStats`,
    /// `UserStats[]` for arrays of it).
    package static let payloads: [any NaarsCarsPayload.Type] = [
        NoArguments.self, UserIDArgument.self, MarkMessagesReadArguments.self, RequestConversationArguments.self,
        ValidateInviteCodeArguments.self, LeaderboardArguments.self, UserStats.self, UnreadCounts.self,
        InviteCodeValidation.self, PendingReview.self, PushNotificationRequest.self, PushDelivery.self,
        PushNotificationResult.self, CleanupTokensResult.self, RefreshLeaderboardResult.self, EdgeFunctionError.self
    ]

    /// Argument models of the database functions, by function name.
    package static let rpcArguments: [String: any NaarsCarsPayload.Type] = [
        "get_user_stats": UserIDArgument.self, "get_unread_counts": UserIDArgument.self,
        "get_pending_reviews": UserIDArgument.self, "mark_messages_read": MarkMessagesReadArguments.self,
        "get_or_create_request_conversation": RequestConversationArguments.self,
        "validate_invite_code": ValidateInviteCodeArguments.self, "get_leaderboard": LeaderboardArguments.self,
        "cleanup_stale_push_tokens": NoArguments.self
    ]
}

// MARK: - Database function arguments and results (FR-014)

/// `{}` for functions without parameters.
package struct NoArguments: NaarsCarsPayload {
    /// No fields.
    package enum CodingKeys: String, CodingKey, CaseIterable { case none }
    package init(from decoder: Decoder) throws {}
    package func encode(to encoder: Encoder) throws { _ = encoder.container(keyedBy: CodingKeys.self) }
}

/// `{user_id}`: get_user_stats, get_unread_counts, get_pending_reviews.
package struct UserIDArgument: NaarsCarsPayload {
    package var userId: PGUUID
    package enum CodingKeys: String, CodingKey, CaseIterable { case userId = "user_id" }
}

/// `mark_messages_read(conversation_id, user_id)`.
package struct MarkMessagesReadArguments: NaarsCarsPayload {
    package var conversationId: PGUUID
    /// The reader (must be the caller).
    package var userId: PGUUID
    package enum CodingKeys: String, CodingKey, CaseIterable { case conversationId = "conversation_id", userId = "user_id" }
}

/// `get_or_create_request_conversation(ride_id, favor_id)`: exactly one is set.
package struct RequestConversationArguments: NaarsCarsPayload {
    /// The ride, or nil.
    package var rideId: PGUUID?
    /// The favor, or nil.
    package var favorId: PGUUID?
    package enum CodingKeys: String, CodingKey, CaseIterable { case rideId = "ride_id", favorId = "favor_id" }
}

/// `validate_invite_code(code)`.
package struct ValidateInviteCodeArguments: NaarsCarsPayload {
    /// The code as typed.
    package var code: String
    package enum CodingKeys: String, CodingKey, CaseIterable { case code }
}

/// `get_leaderboard(time_filter, limit_count)`.
package struct LeaderboardArguments: NaarsCarsPayload {
    /// `all_time`, `year`, `month` or `week` (functions.json).
    package var timeFilter: String?
    /// At most this many rows.
    package var limitCount: Int?
    package enum CodingKeys: String, CodingKey, CaseIterable { case timeFilter = "time_filter", limitCount = "limit_count" }
}

/// A row of `get_user_stats(user_id)`.
package struct UserStats: NaarsCarsPayload {
    /// Mean rating received, rounded; 0 without reviews.
    package var avgRating: Double
    /// Reviews received.
    package var reviewCount: Int
    /// Completed requests the user fulfilled.
    package var fulfilledCount: Int
    package enum CodingKeys: String, CodingKey, CaseIterable {
        case avgRating = "avg_rating", reviewCount = "review_count", fulfilledCount = "fulfilled_count"
    }
}

/// A row of `get_unread_counts(user_id)`.
package struct UnreadCounts: NaarsCarsPayload {
    package var unreadNotifications: Int
    /// Unread messages from others.
    package var unreadMessages: Int
    package enum CodingKeys: String, CodingKey, CaseIterable {
        case unreadNotifications = "unread_notifications", unreadMessages = "unread_messages"
    }
}

/// A row of `validate_invite_code(code)`.
package struct InviteCodeValidation: NaarsCarsPayload, ColumnEncodable {
    /// Whether an unused code matches.
    package var isValid: Bool
    /// The code's id when valid.
    package var codeId: PGUUID?
    /// Its creator when valid.
    package var createdBy: PGUUID?
    package enum CodingKeys: String, CodingKey, CaseIterable { case isValid = "is_valid", codeId = "code_id", createdBy = "created_by" }
}

/// `ride` or `favor`.
package enum RequestType: String, Codable, CaseIterable, Sendable {
    /// A row of rides.
    case ride
    case favor
}

/// A row of `get_pending_reviews(user_id)`.
package struct PendingReview: NaarsCarsPayload {
    /// Ride or favor.
    package var requestType: RequestType
    package var requestId: PGUUID
    /// Who fulfilled it.
    package var fulfillerId: PGUUID
    /// Their name.
    package var fulfillerName: String
    /// `pickup → destination` or the favor's title.
    package var title: String
    /// The request's date.
    package var date: PGDate
    package enum CodingKeys: String, CodingKey, CaseIterable {
        case requestType = "request_type", requestId = "request_id", fulfillerId = "fulfiller_id"
        case fulfillerName = "fulfiller_name", title, date
    }
}

// MARK: - Edge functions (FR-019, FR-020)

/// FR-020's payload `{user_id, title, body, data?, badge?}`.
package struct PushNotificationRequest: NaarsCarsPayload {
    /// The recipient.
    package var userId: PGUUID
    package var title: String
    package var body: String
    /// Custom keys delivered beside `aps`.
    package var data: [String: JSONValue]?
    /// App icon badge.
    package var badge: Int?
    package enum CodingKeys: String, CodingKey, CaseIterable { case userId = "user_id", title, body, data, badge }
}

/// The outcome for one device token.
package struct PushDelivery: NaarsCarsPayload, ColumnEncodable {
    /// push_tokens.id.
    package var tokenId: PGUUID
    /// push_tokens.device_id.
    package var deviceId: String
    /// APNs HTTP status.
    package var status: Int
    /// APNs reason for a failure.
    package var reason: String?
    /// Whether the token was deleted (EDGE-002).
    package var removed: Bool
    package enum CodingKeys: String, CodingKey, CaseIterable { case tokenId = "token_id", deviceId = "device_id", status, reason, removed }
}

/// send-push-notification's answer: the delivery log.
package struct PushNotificationResult: NaarsCarsPayload {
    /// The recipient.
    package var userId: PGUUID
    /// Tokens APNs accepted.
    package var sent: Int
    /// Tokens APNs refused.
    package var failed: Int
    /// Tokens removed as invalid.
    package var removed: Int
    /// Per token, in push_tokens order (created_at, id).
    package var results: [PushDelivery]
    package enum CodingKeys: String, CodingKey, CaseIterable { case userId = "user_id", sent, failed, removed, results }
}

/// cleanup-tokens' answer.
package struct CleanupTokensResult: NaarsCarsPayload {
    package var deleted: Int
    package enum CodingKeys: String, CodingKey, CaseIterable { case deleted }
}

/// refresh-leaderboard's answer.
package struct RefreshLeaderboardResult: NaarsCarsPayload {
    /// Whether a materialized view was refreshed (never: the view is plain).
    package var materialized: Bool
    /// Rows of leaderboard_stats.
    package var rows: Int
    package enum CodingKeys: String, CodingKey, CaseIterable { case materialized, rows }
}

/// An edge function's error body `{error}`.
package struct EdgeFunctionError: NaarsCarsPayload {
    /// What went wrong.
    package var error: String
    package enum CodingKeys: String, CodingKey, CaseIterable { case error }
}

extension LeaderboardEntry {
    /// The user is the row's identity (the view has no `id` column).
    public var id: PGUUID { userId }
}
