import Foundation
import MockBinding

/// City catalogs beyond the 55 seed cities: the 266 real urban areas of
/// `Contracts/teleportme/fixtures/urban-areas.json` and seeded synthetic catalogs of any size,
/// for property tests and the report benchmark (§9.4 plans 200+ cities).
package enum ReportCatalogs {
    /// The 17 score categories of §4.7, in the document's order.
    package static let categories = [
        "Housing", "Cost of Living", "Startups", "Venture Capital", "Travel Connectivity", "Commute", "Business Freedom",
        "Safety", "Healthcare", "Education", "Environmental Quality", "Economy", "Taxation", "Internet Access",
        "Leisure & Culture", "Tolerance", "Outdoors"
    ]

    /// `Contracts/teleportme/fixtures/urban-areas.json` (a copy of the shared Teleport dataset).
    package static var urbanAreasURL: URL {
        ContractsLocator.app(TeleportMeApp.name).appendingPathComponent("fixtures/urban-areas.json")
    }

    /// The real urban areas with their 17 scores.
    package static func urbanAreas(_ url: URL = urbanAreasURL) throws -> [ReportCity] {
        try SpecNode.decode([UrbanArea].self, from: url, displayName: "Contracts/teleportme/fixtures/urban-areas.json").map(\.city)
    }

    /// One urban area of the dataset: the fields a report reads (the others are allowed, unread).
    private struct UrbanArea: Decodable {
        var city: ReportCity
        enum CodingKeys: String, CodingKey, CaseIterable {
            case id, name, fullName = "full_name", country, scores, continent, latitude, longitude, population
            case teleportCityScore = "teleport_city_score", summary
        }
        init(from decoder: Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            let scores = try c.decode([String: Double].self, forKey: .scores)
            city = ReportCity(
                id: try c.decode(String.self, forKey: .id), name: try c.decode(String.self, forKey: .name),
                fullName: try c.decode(String.self, forKey: .fullName), country: try c.decode(String.self, forKey: .country),
                imageURL: nil, scores: scores)
        }
    }

    /// `count` synthetic cities (`synthetic-000001`, …) with every category scored uniformly in
    /// 0-10 (4 decimals, like the dataset), reproducible from `seed`.
    package static func synthetic(count: Int, seed: UInt64) -> [ReportCity] {
        var rng = SeededRandom(seed: seed)
        return (0..<max(count, 0)).map { n in
            let i = n + 1
            let id = "synthetic-" + String(repeating: "0", count: max(0, 6 - String(i).count)) + String(i)
            var scores: [String: Double] = [:]
            for c in categories { scores[c] = (Double(rng.next() % 100_001) / 10_000) }
            return ReportCity(id: id, name: "Synthetic \(i)", fullName: "Synthetic \(i), Testland", country: "Testland", imageURL: nil, scores: scores)
        }
    }
}
