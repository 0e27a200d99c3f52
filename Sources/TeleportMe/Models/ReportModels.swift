import Foundation
import MockBinding

/// The four preference sliders of a `generate-report` request (each 0-10), also the `jsonb`
/// snapshot in `city_reports.preferences`.
public struct ReportPreferences: Codable, Sendable, Equatable, Hashable {
    /// How much cost of living matters.
    public var cost: Double
    /// How much climate matters.
    public var climate: Double
    /// How much culture matters.
    public var culture: Double
    /// How much the job market matters.
    public var jobMarket: Double

    public enum CodingKeys: String, CodingKey, CaseIterable { case cost, climate, culture, jobMarket = "job_market" }

    public init(cost: Double, climate: Double, culture: Double, jobMarket: Double) {
        self.cost = cost; self.climate = climate; self.culture = culture; self.jobMarket = jobMarket
    }

    /// The weight of a request key (`cost`, `climate`, `culture`, `job_market`).
    package func weight(_ key: String) -> Double? {
        switch key {
        case "cost": return cost
        case "climate": return climate
        case "culture": return culture
        case "job_market": return jobMarket
        default: return nil
        }
    }
}

/// The body of a `generate-report` call (§4.6).
package struct GenerateReportRequest: Codable, Sendable, Equatable {
    /// The user's current city (`san-francisco`).
    package var currentCityID: String
    /// The sliders.
    package var preferences: ReportPreferences

    package enum CodingKeys: String, CodingKey, CaseIterable { case currentCityID = "current_city_id", preferences }
}

/// One display category of a match compared with the current city (§4.6 step 9).
public struct ComparisonEntry: Codable, Sendable, Equatable {
    /// The match's score (0-10).
    public var matchScore: Double
    /// The current city's score (0-10).
    public var currentScore: Double
    /// `match_score - current_score`.
    public var delta: Double

    public enum CodingKeys: String, CodingKey, CaseIterable {
        case matchScore = "match_score", currentScore = "current_score", delta
    }

    public init(matchScore: Double, currentScore: Double, delta: Double) {
        self.matchScore = matchScore; self.currentScore = currentScore; self.delta = delta
    }
}

/// A recommended city (§4.6 response `matches[]`, also `city_reports.results[]`).
/// Every column is printed, `city_image_url` as null when absent.
public struct CityMatch: Codable, Sendable, Equatable, ColumnEncodable {
    public var cityID: String
    /// `Berlin`.
    public var cityName: String
    /// `Berlin, Germany`.
    public var cityFullName: String
    /// `Germany`.
    public var cityCountry: String
    /// The city's image, if any.
    public var cityImageURL: String?
    /// 40-99.
    public var matchPercent: Int
    /// 1…n.
    public var rank: Int
    /// Display categories keyed by score category (`Cost of Living`).
    public var comparison: [String: ComparisonEntry]
    /// One sentence about the city for this user.
    public var aiInsight: String
    /// All the city's scores by category.
    public var scores: [String: Double]

    public enum CodingKeys: String, CodingKey, CaseIterable {
        case cityID = "city_id", cityName = "city_name", cityFullName = "city_full_name"
        case cityCountry = "city_country", cityImageURL = "city_image_url", matchPercent = "match_percent"
        case rank, comparison, aiInsight = "ai_insight", scores
    }
    public static var columns: [String] { CodingKeys.allCases.map(\.rawValue) }

    public init(
        cityID: String, cityName: String, cityFullName: String, cityCountry: String, cityImageURL: String?,
        matchPercent: Int, rank: Int, comparison: [String: ComparisonEntry], aiInsight: String, scores: [String: Double]
    ) {
        self.cityID = cityID; self.cityName = cityName; self.cityFullName = cityFullName
        self.cityCountry = cityCountry; self.cityImageURL = cityImageURL; self.matchPercent = matchPercent
        self.rank = rank; self.comparison = comparison; self.aiInsight = aiInsight; self.scores = scores
    }
}

/// The current city of a report (§4.6 response `current_city`).
package struct ReportCurrentCity: Codable, Sendable, Equatable {
    package var id: String
    package var name: String
    /// All its scores by category.
    package var scores: [String: Double]

    package enum CodingKeys: String, CodingKey, CaseIterable { case id, name, scores }
}

/// The response of `generate-report` (§4.6).
package struct GenerateReportResponse: Codable, Sendable, Equatable, ColumnEncodable {
    /// The saved `city_reports` row, or null when the caller is not signed in.
    package var reportID: PGUUID?
    /// The city compared against.
    package var currentCity: ReportCurrentCity
    /// 3-5 matches (4 on fallback), rank order.
    package var matches: [CityMatch]

    package static var columns: [String] { CodingKeys.allCases.map(\.rawValue) }
    package enum CodingKeys: String, CodingKey, CaseIterable {
        case reportID = "report_id", currentCity = "current_city", matches
    }
}

/// The body of a `generate-report` 400: `{"error": message, "code": code}`.
package struct ReportErrorBody: Codable, Sendable, Equatable {
    /// Human-readable message naming the field or city.
    package var error: String
    /// Machine code from functions.json (`unknown_city`, `invalid_preference`, `invalid_request`).
    package var code: String
}
