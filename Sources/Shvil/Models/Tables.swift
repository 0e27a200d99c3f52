import Foundation
import MockSupabase

// Codable models of every Shvil table (Contracts/shvil/schema.json). Ids are lower-case uuid
// strings, jsonb columns are JSONValue, as PostgREST prints them.

/// The `adventure_status` enum: draft, active, completed, archived.
public enum AdventureStatus: String, Codable, CaseIterable, Sendable {
    /// `draft`.
    case draft
    /// `active`.
    case active
    /// `completed`.
    case completed
    /// `archived`.
    case archived
}

/// The `app_environment` enum: development, staging, production.
public enum AppEnvironment: String, Codable, CaseIterable, Sendable {
    /// `development`.
    case development
    /// `staging`.
    case staging
    /// `production`.
    case production
}

/// The `feature_stage` enum: stable, beta, experimental.
public enum FeatureStage: String, Codable, CaseIterable, Sendable {
    /// `stable`.
    case stable
    /// `beta`.
    case beta
    /// `experimental`.
    case experimental
}

/// A row of `users`.
public struct ShvilUser: ShvilRow {
    /// `users`.
    public static let table = "users"
    /// The columns, in table order.
    public static var columns: [String] { CodingKeys.allCases.map(\.rawValue) }

    /// `id` (uuid, not null).
    public var id: String
    /// `email` (text).
    public var email: String?
    /// `display_name` (text).
    public var displayName: String?
    /// `created_at` (timestamptz, not null).
    public var createdAt: Date
    /// `updated_at` (timestamptz, not null).
    public var updatedAt: Date

    /// A row from its columns.
    public init(id: String, email: String? = nil, displayName: String? = nil, createdAt: Date, updatedAt: Date) {
        self.id = id
        self.email = email
        self.displayName = displayName
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case id
        case email
        case displayName = "display_name"
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }

    /// Decodes a row as PostgREST prints it (timestamps in PostgreSQL's text forms).
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(String.self, forKey: .id)
        email = try c.decodeIfPresent(String.self, forKey: .email)
        displayName = try c.decodeIfPresent(String.self, forKey: .displayName)
        createdAt = try c.decodeTimestamp(forKey: .createdAt)
        updatedAt = try c.decodeTimestamp(forKey: .updatedAt)
    }

    /// Encodes every column, NULL as `null`, as PostgREST prints a row.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(email, forKey: .email)
        try c.encode(displayName, forKey: .displayName)
        try c.encodeTimestamp(createdAt, forKey: .createdAt)
        try c.encodeTimestamp(updatedAt, forKey: .updatedAt)
    }
}

/// A row of `adventures`.
public struct Adventure: ShvilRow {
    /// `adventures`.
    public static let table = "adventures"
    /// The columns, in table order.
    public static var columns: [String] { CodingKeys.allCases.map(\.rawValue) }

    /// `id` (uuid, not null).
    public var id: String
    /// `user_id` (uuid, not null).
    public var userId: String
    /// `title` (text, not null).
    public var title: String
    /// `description` (text).
    public var description: String?
    /// `route_data` (jsonb, not null).
    public var routeData: JSONValue
    /// `status` (adventure_status, not null).
    public var status: AdventureStatus
    /// `created_at` (timestamptz, not null).
    public var createdAt: Date
    /// `updated_at` (timestamptz, not null).
    public var updatedAt: Date

    /// A row from its columns.
    public init(id: String, userId: String, title: String, description: String? = nil, routeData: JSONValue, status: AdventureStatus, createdAt: Date, updatedAt: Date) {
        self.id = id
        self.userId = userId
        self.title = title
        self.description = description
        self.routeData = routeData
        self.status = status
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case id
        case userId = "user_id"
        case title
        case description
        case routeData = "route_data"
        case status
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }

    /// Decodes a row as PostgREST prints it (timestamps in PostgreSQL's text forms).
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(String.self, forKey: .id)
        userId = try c.decode(String.self, forKey: .userId)
        title = try c.decode(String.self, forKey: .title)
        description = try c.decodeIfPresent(String.self, forKey: .description)
        routeData = try c.decode(JSONValue.self, forKey: .routeData)
        status = try c.decode(AdventureStatus.self, forKey: .status)
        createdAt = try c.decodeTimestamp(forKey: .createdAt)
        updatedAt = try c.decodeTimestamp(forKey: .updatedAt)
    }

    /// Encodes every column, NULL as `null`, as PostgREST prints a row.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(userId, forKey: .userId)
        try c.encode(title, forKey: .title)
        try c.encode(description, forKey: .description)
        try c.encode(routeData, forKey: .routeData)
        try c.encode(status, forKey: .status)
        try c.encodeTimestamp(createdAt, forKey: .createdAt)
        try c.encodeTimestamp(updatedAt, forKey: .updatedAt)
    }
}

/// A row of `places`.
public struct Place: ShvilRow {
    /// `places`.
    public static let table = "places"
    /// The columns, in table order.
    public static var columns: [String] { CodingKeys.allCases.map(\.rawValue) }

    /// `id` (uuid, not null).
    public var id: String
    /// `name` (text, not null).
    public var name: String
    /// `description` (text).
    public var description: String?
    /// `latitude` (double precision, not null).
    public var latitude: Double
    /// `longitude` (double precision, not null).
    public var longitude: Double
    /// `metadata` (jsonb, not null).
    public var metadata: JSONValue
    /// `created_by` (uuid).
    public var createdBy: String?
    /// `created_at` (timestamptz, not null).
    public var createdAt: Date

    /// A row from its columns.
    public init(id: String, name: String, description: String? = nil, latitude: Double, longitude: Double, metadata: JSONValue, createdBy: String? = nil, createdAt: Date) {
        self.id = id
        self.name = name
        self.description = description
        self.latitude = latitude
        self.longitude = longitude
        self.metadata = metadata
        self.createdBy = createdBy
        self.createdAt = createdAt
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case id
        case name
        case description
        case latitude
        case longitude
        case metadata
        case createdBy = "created_by"
        case createdAt = "created_at"
    }

    /// Decodes a row as PostgREST prints it (timestamps in PostgreSQL's text forms).
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(String.self, forKey: .id)
        name = try c.decode(String.self, forKey: .name)
        description = try c.decodeIfPresent(String.self, forKey: .description)
        latitude = try c.decode(Double.self, forKey: .latitude)
        longitude = try c.decode(Double.self, forKey: .longitude)
        metadata = try c.decode(JSONValue.self, forKey: .metadata)
        createdBy = try c.decodeIfPresent(String.self, forKey: .createdBy)
        createdAt = try c.decodeTimestamp(forKey: .createdAt)
    }

    /// Encodes every column, NULL as `null`, as PostgREST prints a row.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(name, forKey: .name)
        try c.encode(description, forKey: .description)
        try c.encode(latitude, forKey: .latitude)
        try c.encode(longitude, forKey: .longitude)
        try c.encode(metadata, forKey: .metadata)
        try c.encode(createdBy, forKey: .createdBy)
        try c.encodeTimestamp(createdAt, forKey: .createdAt)
    }
}

/// A row of `adventure_stops`.
public struct AdventureStop: ShvilRow {
    /// `adventure_stops`.
    public static let table = "adventure_stops"
    /// The columns, in table order.
    public static var columns: [String] { CodingKeys.allCases.map(\.rawValue) }

    /// `id` (uuid, not null).
    public var id: String
    /// `adventure_id` (uuid, not null).
    public var adventureId: String
    /// `place_id` (uuid, not null).
    public var placeId: String
    /// `order_index` (integer, not null).
    public var orderIndex: Int
    /// `custom_data` (jsonb, not null).
    public var customData: JSONValue
    /// `created_at` (timestamptz, not null).
    public var createdAt: Date
    /// `updated_at` (timestamptz, not null).
    public var updatedAt: Date

    /// A row from its columns.
    public init(id: String, adventureId: String, placeId: String, orderIndex: Int, customData: JSONValue, createdAt: Date, updatedAt: Date) {
        self.id = id
        self.adventureId = adventureId
        self.placeId = placeId
        self.orderIndex = orderIndex
        self.customData = customData
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case id
        case adventureId = "adventure_id"
        case placeId = "place_id"
        case orderIndex = "order_index"
        case customData = "custom_data"
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }

    /// Decodes a row as PostgREST prints it (timestamps in PostgreSQL's text forms).
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(String.self, forKey: .id)
        adventureId = try c.decode(String.self, forKey: .adventureId)
        placeId = try c.decode(String.self, forKey: .placeId)
        orderIndex = try c.decode(Int.self, forKey: .orderIndex)
        customData = try c.decode(JSONValue.self, forKey: .customData)
        createdAt = try c.decodeTimestamp(forKey: .createdAt)
        updatedAt = try c.decodeTimestamp(forKey: .updatedAt)
    }

    /// Encodes every column, NULL as `null`, as PostgREST prints a row.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(adventureId, forKey: .adventureId)
        try c.encode(placeId, forKey: .placeId)
        try c.encode(orderIndex, forKey: .orderIndex)
        try c.encode(customData, forKey: .customData)
        try c.encodeTimestamp(createdAt, forKey: .createdAt)
        try c.encodeTimestamp(updatedAt, forKey: .updatedAt)
    }
}

/// A row of `feature_flags`.
public struct FeatureFlagRow: ShvilRow {
    /// `feature_flags`.
    public static let table = "feature_flags"
    /// The columns, in table order.
    public static var columns: [String] { CodingKeys.allCases.map(\.rawValue) }

    /// `key` (text, not null).
    public var key: String
    /// `environment` (app_environment, not null).
    public var environment: AppEnvironment
    /// `enabled` (boolean, not null).
    public var enabled: Bool
    /// `stage` (feature_stage, not null).
    public var stage: FeatureStage
    /// `description` (text).
    public var description: String?
    /// `updated_at` (timestamptz, not null).
    public var updatedAt: Date

    /// A row from its columns.
    public init(key: String, environment: AppEnvironment, enabled: Bool, stage: FeatureStage, description: String? = nil, updatedAt: Date) {
        self.key = key
        self.environment = environment
        self.enabled = enabled
        self.stage = stage
        self.description = description
        self.updatedAt = updatedAt
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case key
        case environment
        case enabled
        case stage
        case description
        case updatedAt = "updated_at"
    }

    /// Decodes a row as PostgREST prints it (timestamps in PostgreSQL's text forms).
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        key = try c.decode(String.self, forKey: .key)
        environment = try c.decode(AppEnvironment.self, forKey: .environment)
        enabled = try c.decode(Bool.self, forKey: .enabled)
        stage = try c.decode(FeatureStage.self, forKey: .stage)
        description = try c.decodeIfPresent(String.self, forKey: .description)
        updatedAt = try c.decodeTimestamp(forKey: .updatedAt)
    }

    /// Encodes every column, NULL as `null`, as PostgREST prints a row.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(key, forKey: .key)
        try c.encode(environment, forKey: .environment)
        try c.encode(enabled, forKey: .enabled)
        try c.encode(stage, forKey: .stage)
        try c.encode(description, forKey: .description)
        try c.encodeTimestamp(updatedAt, forKey: .updatedAt)
    }
}
