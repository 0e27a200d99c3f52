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
        let root = try SpecNode.load(url, displayName: "Contracts/teleportme/fixtures/urban-areas.json")
        return try root.array().map { n in
            try n.object { o in
                for k in ["continent", "latitude", "longitude", "population", "teleport_city_score", "summary"] { _ = o.optional(k) }
                var scores: [String: Double] = [:]
                for (k, v) in try o.required("scores").map() { scores[k] = try v.double() }
                return ReportCity(
                    id: try o.required("id").string(), name: try o.required("name").string(),
                    fullName: try o.required("full_name").string(), country: try o.required("country").string(),
                    imageURL: nil, scores: scores)
            }
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
