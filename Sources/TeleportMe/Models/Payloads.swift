import Foundation
import ContractKit

/// The body of `POST /rest/v1/saved_cities` (§5.3 save).
public struct SavedCityInsert: Codable, Sendable, Equatable {
    /// Must be the caller (RLS: own only).
    public var userID: PGUUID
    /// The city to save.
    public var cityID: String

    /// The keys.
    public enum CodingKeys: String, CodingKey, CaseIterable { case userID = "user_id", cityID = "city_id" }

    /// A save.
    public init(userID: PGUUID, cityID: String) { self.userID = userID; self.cityID = cityID }
}

/// The body of the §5.2 preferences upsert (`POST /rest/v1/user_preferences?on_conflict=user_id`
/// with `Prefer: resolution=merge-duplicates`). Absent fields are left out of the JSON, so the
/// column defaults apply on insert and the stored values stay on merge.
public struct UserPreferencesUpsert: Codable, Sendable, Equatable {
    /// The caller.
    public var userID: PGUUID
    /// `city_i_love`, …
    public var startType: String?
    /// 0-10.
    public var costPreference: Double?
    /// 0-10.
    public var climatePreference: Double?
    /// 0-10.
    public var culturePreference: Double?
    /// 0-10.
    public var jobMarketPreference: Double?
    /// Vibe tag ids.
    public var selectedVibeTags: [PGUUID]?
    /// Free text.
    public var dealbreakers: [String]?

    /// The keys.
    public enum CodingKeys: String, CodingKey, CaseIterable {
        case userID = "user_id", startType = "start_type", costPreference = "cost_preference"
        case climatePreference = "climate_preference", culturePreference = "culture_preference"
        case jobMarketPreference = "job_market_preference", selectedVibeTags = "selected_vibe_tags", dealbreakers
    }

    /// An upsert.
    public init(userID: PGUUID, startType: String? = nil, costPreference: Double? = nil, climatePreference: Double? = nil,
                culturePreference: Double? = nil, jobMarketPreference: Double? = nil,
                selectedVibeTags: [PGUUID]? = nil, dealbreakers: [String]? = nil) {
        self.userID = userID; self.startType = startType; self.costPreference = costPreference
        self.climatePreference = climatePreference; self.culturePreference = culturePreference
        self.jobMarketPreference = jobMarketPreference; self.selectedVibeTags = selectedVibeTags
        self.dealbreakers = dealbreakers
    }
}

/// The body of `PATCH /rest/v1/profiles?id=eq.<uid>`: only the fields set are sent.
public struct ProfileUpdate: Codable, Sendable, Equatable {
    /// New display name.
    public var name: String?
    /// New current city.
    public var currentCityID: String?
    /// New avatar.
    public var avatarURL: String?

    /// The keys.
    public enum CodingKeys: String, CodingKey, CaseIterable {
        case name, currentCityID = "current_city_id", avatarURL = "avatar_url"
    }

    /// An update.
    public init(name: String? = nil, currentCityID: String? = nil, avatarURL: String? = nil) {
        self.name = name; self.currentCityID = currentCityID; self.avatarURL = avatarURL
    }
}

/// The row `generate-report` writes to `city_reports` (§4.6 step 10).
public struct CityReportInsert: Codable, Sendable, Equatable {
    /// The caller.
    public var userID: PGUUID
    /// The request's current city.
    public var currentCityID: String
    /// The request's preferences.
    public var preferences: ReportPreferences
    /// The response's matches.
    public var results: [CityMatch]
    /// The refiner's summary, null on fallback.
    public var aiSummary: String?

    /// The keys.
    public enum CodingKeys: String, CodingKey, CaseIterable {
        case userID = "user_id", currentCityID = "current_city_id", preferences, results, aiSummary = "ai_summary"
    }

    /// A report row to insert.
    public init(userID: PGUUID, currentCityID: String, preferences: ReportPreferences, results: [CityMatch], aiSummary: String?) {
        self.userID = userID; self.currentCityID = currentCityID; self.preferences = preferences
        self.results = results; self.aiSummary = aiSummary
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(userID, forKey: .userID)
        try c.encode(currentCityID, forKey: .currentCityID)
        try c.encode(preferences, forKey: .preferences)
        try c.encode(results, forKey: .results)
        try c.encode(aiSummary, forKey: .aiSummary)
    }
}

/// The body of `POST /rest/v1/engagement_events`.
public struct EngagementEventInsert: Codable, Sendable, Equatable {
    /// The caller.
    public var userID: PGUUID
    /// `city_viewed`, …
    public var eventType: String
    /// Free-form details.
    public var metadata: JSONValue

    /// The keys.
    public enum CodingKeys: String, CodingKey, CaseIterable { case userID = "user_id", eventType = "event_type", metadata }

    /// An event.
    public init(userID: PGUUID, eventType: String, metadata: JSONValue = .object([:])) {
        self.userID = userID; self.eventType = eventType; self.metadata = metadata
    }
}
