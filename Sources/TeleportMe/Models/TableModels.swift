import Foundation
import ContractKit

/// A row model of one table of `Contracts/teleportme/schema.json`.
///
/// Every column is a coding key (checked against the schema by the models suite); optional
/// properties are exactly the nullable columns; `encode(to:)` writes every column, NULL as `null`,
/// as PostgREST prints a row.
public protocol TableModel: Codable, Sendable, Equatable {
    /// The table (`saved_cities`).
    static var table: String { get }
    /// The column names, in the schema's order.
    static var columns: [String] { get }
}

/// A row of `cities` (reference data, public read).
public struct City: TableModel {
    public static let table = "cities"
    public static var columns: [String] { CodingKeys.allCases.map(\.rawValue) }

    /// Slug, e.g. `san-francisco`.
    public var id: String
    /// `San Francisco`.
    public var name: String
    /// `San Francisco, California`.
    public var fullName: String
    /// Country name.
    public var country: String
    /// One of the 6 continents.
    public var continent: String
    /// Latitude in degrees.
    public var latitude: Double?
    /// Longitude in degrees.
    public var longitude: Double?
    /// Population of the urban area.
    public var population: Int?
    /// Teleport's overall quality-of-life index (0-100).
    public var teleportCityScore: Double?
    /// Plain-text summary.
    public var summary: String?
    /// Hero image.
    public var imageURL: String?
    /// Row creation.
    public var createdAt: PGTimestamp?
    /// Last update (`update_updated_at` trigger).
    public var updatedAt: PGTimestamp?

    /// The columns.
    public enum CodingKeys: String, CodingKey, CaseIterable {
        case id, name, fullName = "full_name", country, continent, latitude, longitude, population
        case teleportCityScore = "teleport_city_score", summary, imageURL = "image_url"
        case createdAt = "created_at", updatedAt = "updated_at"
    }

    /// A city.
    public init(id: String, name: String, fullName: String, country: String, continent: String,
                latitude: Double? = nil, longitude: Double? = nil, population: Int? = nil,
                teleportCityScore: Double? = nil, summary: String? = nil, imageURL: String? = nil,
                createdAt: PGTimestamp? = nil, updatedAt: PGTimestamp? = nil) {
        self.id = id; self.name = name; self.fullName = fullName; self.country = country
        self.continent = continent; self.latitude = latitude; self.longitude = longitude
        self.population = population; self.teleportCityScore = teleportCityScore
        self.summary = summary; self.imageURL = imageURL; self.createdAt = createdAt; self.updatedAt = updatedAt
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(name, forKey: .name)
        try c.encode(fullName, forKey: .fullName)
        try c.encode(country, forKey: .country)
        try c.encode(continent, forKey: .continent)
        try c.encode(latitude, forKey: .latitude)
        try c.encode(longitude, forKey: .longitude)
        try c.encode(population, forKey: .population)
        try c.encode(teleportCityScore, forKey: .teleportCityScore)
        try c.encode(summary, forKey: .summary)
        try c.encode(imageURL, forKey: .imageURL)
        try c.encode(createdAt, forKey: .createdAt)
        try c.encode(updatedAt, forKey: .updatedAt)
    }
}

/// A row of `city_scores`: one of the 17 categories of a city, 0-10.
public struct CityScore: TableModel {
    public static let table = "city_scores"
    public static var columns: [String] { CodingKeys.allCases.map(\.rawValue) }

    /// Row id.
    public var id: PGUUID
    /// The city.
    public var cityID: String?
    /// `Cost of Living`, `Safety`, …
    public var category: String
    /// 0-10.
    public var score: Double?

    /// The columns.
    public enum CodingKeys: String, CodingKey, CaseIterable {
        case id, cityID = "city_id", category, score
    }

    /// A score row.
    public init(id: PGUUID, cityID: String?, category: String, score: Double?) {
        self.id = id; self.cityID = cityID; self.category = category; self.score = score
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(cityID, forKey: .cityID)
        try c.encode(category, forKey: .category)
        try c.encode(score, forKey: .score)
    }
}

/// A row of `vibe_tags`.
public struct VibeTag: TableModel {
    public static let table = "vibe_tags"
    public static var columns: [String] { CodingKeys.allCases.map(\.rawValue) }

    /// Row id.
    public var id: PGUUID
    /// `Walkable`.
    public var name: String
    /// `🚶`.
    public var emoji: String?
    /// `lifestyle`.
    public var category: String?

    /// The columns.
    public enum CodingKeys: String, CodingKey, CaseIterable { case id, name, emoji, category }

    /// A tag.
    public init(id: PGUUID, name: String, emoji: String? = nil, category: String? = nil) {
        self.id = id; self.name = name; self.emoji = emoji; self.category = category
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(name, forKey: .name)
        try c.encode(emoji, forKey: .emoji)
        try c.encode(category, forKey: .category)
    }
}

/// A row of `city_vibe_tags` (junction).
public struct CityVibeTag: TableModel {
    public static let table = "city_vibe_tags"
    public static var columns: [String] { CodingKeys.allCases.map(\.rawValue) }

    /// The city.
    public var cityID: String
    /// The tag.
    public var vibeTagID: PGUUID
    /// 0-1.
    public var strength: Double?

    /// The columns.
    public enum CodingKeys: String, CodingKey, CaseIterable {
        case cityID = "city_id", vibeTagID = "vibe_tag_id", strength
    }

    /// A link.
    public init(cityID: String, vibeTagID: PGUUID, strength: Double? = nil) {
        self.cityID = cityID; self.vibeTagID = vibeTagID; self.strength = strength
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(cityID, forKey: .cityID)
        try c.encode(vibeTagID, forKey: .vibeTagID)
        try c.encode(strength, forKey: .strength)
    }
}

/// A row of `profiles` (one per auth user, created by `handle_new_user`).
public struct Profile: TableModel {
    public static let table = "profiles"
    public static var columns: [String] { CodingKeys.allCases.map(\.rawValue) }

    /// The auth user's id.
    public var id: PGUUID
    /// Display name.
    public var name: String?
    /// Email.
    public var email: String?
    /// The city the user lives in.
    public var currentCityID: String?
    /// Avatar.
    public var avatarURL: String?
    /// Row creation.
    public var createdAt: PGTimestamp?
    /// Last update.
    public var updatedAt: PGTimestamp?

    /// The columns.
    public enum CodingKeys: String, CodingKey, CaseIterable {
        case id, name, email, currentCityID = "current_city_id", avatarURL = "avatar_url"
        case createdAt = "created_at", updatedAt = "updated_at"
    }

    /// A profile.
    public init(id: PGUUID, name: String? = nil, email: String? = nil, currentCityID: String? = nil,
                avatarURL: String? = nil, createdAt: PGTimestamp? = nil, updatedAt: PGTimestamp? = nil) {
        self.id = id; self.name = name; self.email = email; self.currentCityID = currentCityID
        self.avatarURL = avatarURL; self.createdAt = createdAt; self.updatedAt = updatedAt
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(name, forKey: .name)
        try c.encode(email, forKey: .email)
        try c.encode(currentCityID, forKey: .currentCityID)
        try c.encode(avatarURL, forKey: .avatarURL)
        try c.encode(createdAt, forKey: .createdAt)
        try c.encode(updatedAt, forKey: .updatedAt)
    }
}

/// A row of `user_preferences` (one per user).
public struct UserPreferences: TableModel {
    public static let table = "user_preferences"
    public static var columns: [String] { CodingKeys.allCases.map(\.rawValue) }

    /// Row id.
    public var id: PGUUID
    /// Owner.
    public var userID: PGUUID
    /// `city_i_love` (default).
    public var startType: String?
    /// 0-10, default 5.
    public var costPreference: Double?
    /// 0-10, default 5.
    public var climatePreference: Double?
    /// 0-10, default 5.
    public var culturePreference: Double?
    /// 0-10, default 5.
    public var jobMarketPreference: Double?
    /// `uuid[]` of vibe tags.
    public var selectedVibeTags: [PGUUID]?
    /// `text[]`.
    public var dealbreakers: [String]?
    /// Row creation.
    public var createdAt: PGTimestamp?
    /// Last update.
    public var updatedAt: PGTimestamp?

    /// The columns.
    public enum CodingKeys: String, CodingKey, CaseIterable {
        case id, userID = "user_id", startType = "start_type", costPreference = "cost_preference"
        case climatePreference = "climate_preference", culturePreference = "culture_preference"
        case jobMarketPreference = "job_market_preference", selectedVibeTags = "selected_vibe_tags"
        case dealbreakers, createdAt = "created_at", updatedAt = "updated_at"
    }

    /// A preferences row.
    public init(id: PGUUID, userID: PGUUID, startType: String? = nil, costPreference: Double? = nil,
                climatePreference: Double? = nil, culturePreference: Double? = nil,
                jobMarketPreference: Double? = nil, selectedVibeTags: [PGUUID]? = nil,
                dealbreakers: [String]? = nil, createdAt: PGTimestamp? = nil, updatedAt: PGTimestamp? = nil) {
        self.id = id; self.userID = userID; self.startType = startType; self.costPreference = costPreference
        self.climatePreference = climatePreference; self.culturePreference = culturePreference
        self.jobMarketPreference = jobMarketPreference; self.selectedVibeTags = selectedVibeTags
        self.dealbreakers = dealbreakers; self.createdAt = createdAt; self.updatedAt = updatedAt
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(userID, forKey: .userID)
        try c.encode(startType, forKey: .startType)
        try c.encode(costPreference, forKey: .costPreference)
        try c.encode(climatePreference, forKey: .climatePreference)
        try c.encode(culturePreference, forKey: .culturePreference)
        try c.encode(jobMarketPreference, forKey: .jobMarketPreference)
        try c.encode(selectedVibeTags, forKey: .selectedVibeTags)
        try c.encode(dealbreakers, forKey: .dealbreakers)
        try c.encode(createdAt, forKey: .createdAt)
        try c.encode(updatedAt, forKey: .updatedAt)
    }
}

/// A row of `city_reports`: a saved `generate-report` result.
public struct CityReport: TableModel {
    public static let table = "city_reports"
    public static var columns: [String] { CodingKeys.allCases.map(\.rawValue) }

    /// Row id (the response's `report_id`).
    public var id: PGUUID
    /// Owner.
    public var userID: PGUUID
    /// The city the report compares against.
    public var currentCityID: String?
    /// `jsonb`: the request's preferences at generation time.
    public var preferences: ReportPreferences?
    /// `jsonb`: the response's matches.
    public var results: [CityMatch]?
    /// The refiner's summary (null on fallback).
    public var aiSummary: String?
    /// Row creation.
    public var createdAt: PGTimestamp?

    /// The columns.
    public enum CodingKeys: String, CodingKey, CaseIterable {
        case id, userID = "user_id", currentCityID = "current_city_id", preferences, results
        case aiSummary = "ai_summary", createdAt = "created_at"
    }

    /// A report row.
    public init(id: PGUUID, userID: PGUUID, currentCityID: String? = nil, preferences: ReportPreferences? = nil,
                results: [CityMatch]? = nil, aiSummary: String? = nil, createdAt: PGTimestamp? = nil) {
        self.id = id; self.userID = userID; self.currentCityID = currentCityID; self.preferences = preferences
        self.results = results; self.aiSummary = aiSummary; self.createdAt = createdAt
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(userID, forKey: .userID)
        try c.encode(currentCityID, forKey: .currentCityID)
        try c.encode(preferences, forKey: .preferences)
        try c.encode(results, forKey: .results)
        try c.encode(aiSummary, forKey: .aiSummary)
        try c.encode(createdAt, forKey: .createdAt)
    }
}

/// A row of `saved_cities` (UNIQUE(user_id, city_id)).
public struct SavedCity: TableModel {
    public static let table = "saved_cities"
    public static var columns: [String] { CodingKeys.allCases.map(\.rawValue) }

    /// Row id.
    public var id: PGUUID
    /// Owner.
    public var userID: PGUUID
    /// The saved city.
    public var cityID: String
    /// When it was saved.
    public var createdAt: PGTimestamp?

    /// The columns.
    public enum CodingKeys: String, CodingKey, CaseIterable {
        case id, userID = "user_id", cityID = "city_id", createdAt = "created_at"
    }

    /// A saved city.
    public init(id: PGUUID, userID: PGUUID, cityID: String, createdAt: PGTimestamp? = nil) {
        self.id = id; self.userID = userID; self.cityID = cityID; self.createdAt = createdAt
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(userID, forKey: .userID)
        try c.encode(cityID, forKey: .cityID)
        try c.encode(createdAt, forKey: .createdAt)
    }
}

/// A row of `engagement_events`.
public struct EngagementEvent: TableModel {
    public static let table = "engagement_events"
    public static var columns: [String] { CodingKeys.allCases.map(\.rawValue) }

    /// Row id.
    public var id: PGUUID
    /// Owner.
    public var userID: PGUUID
    /// `city_viewed`, `report_generated`, …
    public var eventType: String?
    /// Free-form `jsonb`.
    public var metadata: JSONValue?
    /// When it happened.
    public var createdAt: PGTimestamp?

    /// The columns.
    public enum CodingKeys: String, CodingKey, CaseIterable {
        case id, userID = "user_id", eventType = "event_type", metadata, createdAt = "created_at"
    }

    /// An event.
    public init(id: PGUUID, userID: PGUUID, eventType: String? = nil, metadata: JSONValue? = nil, createdAt: PGTimestamp? = nil) {
        self.id = id; self.userID = userID; self.eventType = eventType; self.metadata = metadata; self.createdAt = createdAt
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(userID, forKey: .userID)
        try c.encode(eventType, forKey: .eventType)
        try c.encode(metadata, forKey: .metadata)
        try c.encode(createdAt, forKey: .createdAt)
    }
}

/// Every table model, for the schema-coverage check.
public let teleportMeTableModels: [any TableModel.Type] = [
    City.self, CityScore.self, VibeTag.self, CityVibeTag.self, Profile.self,
    UserPreferences.self, CityReport.self, SavedCity.self, EngagementEvent.self,
]
