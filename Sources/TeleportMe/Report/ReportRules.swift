import Foundation
import MockBinding

/// The report algorithm's rules, read strictly from `Contracts/teleportme/report.json`: every
/// number and choice of §4.6 steps 4-9 the document leaves open, each with its `decision`.
package struct ReportRules: Sendable, Equatable {
    /// A primary category: a request preference and the score category it weights.
    package struct Primary: Sendable, Equatable {
        /// Request key (`cost`).
        package var preference: String
        /// Score category (`Cost of Living`).
        package var category: String
    }

    /// How the weighted sum of the primary categories is brought to 0-100.
    package enum Normalisation: String, Sendable, CaseIterable {
        /// Divide by the sum of the weights (pref_weight/10): a weighted mean.
        case weightedMean
        /// Divide by the number of primary categories: the share of the 400-point maximum.
        case maxPossible
    }

    /// What the weighted mean does when every weight is 0.
    package enum ZeroWeights: String, Sendable, CaseIterable {
        /// Treat as equal weights.
        case equal
        /// The primary part is 0.
        case zero
    }

    /// How the bonus categories combine with the primary part.
    package enum BonusFormula: String, Sendable, CaseIterable {
        /// final = (1 - n*w) * primary + Σ w * score*10.
        case blend
        /// final = primary + Σ w * score*10.
        case additive
    }

    /// Rounding of match_percent and comparison values.
    package enum Rounding: String, Sendable, CaseIterable {
        /// Half away from zero (PostgreSQL numeric round, Math.round for positives).
        case halfAwayFromZero
        /// Banker's rounding.
        case halfEven
        /// Toward zero.
        case truncate

        /// Rounds `x` to `decimals` places.
        package func apply(_ x: Double, decimals: Int = 0) -> Double {
            let rule: FloatingPointRoundingRule
            switch self {
            case .halfAwayFromZero: rule = .toNearestOrAwayFromZero
            case .halfEven: rule = .toNearestOrEven
            case .truncate: rule = .towardZero
            }
            if decimals == 0 { return x.rounded(rule) }
            let p = pow(10.0, Double(decimals))
            return (x * p).rounded(rule) / p
        }
    }

    /// What ranks candidates.
    package enum SortKey: String, Sendable, CaseIterable {
        /// The unclamped, unrounded score.
        case rawScore
        /// The rounded match_percent (ties then fall to the tie-break more often).
        case matchPercent
    }

    /// The tie-break between equal scores.
    package enum TieBreak: String, Sendable, CaseIterable {
        /// City id ascending, bytewise.
        case cityIdAscending
        /// City id descending, bytewise.
        case cityIdDescending
    }

    /// How kept refiner picks are ranked.
    package enum RankOrder: String, Sendable, CaseIterable {
        /// By the algorithmic score (candidate order).
        case score
        /// In the refiner's order.
        case refiner
    }

    /// A display category of step 9.
    package struct Display: Sendable, Equatable, Decodable {
        /// `cost`.
        package var display: String
        /// `Cost of Living`.
        package var category: String
    }

    /// The mock's deterministic refiner.
    package struct MockRefiner: Sendable, Equatable {
        /// Candidates within this many match-percent points of the best are picked.
        package var closeToBest: Double
        /// At least this many picks.
        package var min: Int
        /// At most this many picks.
        package var max: Int
        /// One sentence per city.
        package var insightTemplate: String
        package var summaryTemplate: String
    }

    /// Request preference keys, in order.
    package var preferenceKeys: [String]
    /// Lowest allowed slider value.
    package var preferenceMin: Double
    /// Highest allowed slider value.
    package var preferenceMax: Double
    /// The 4 primary categories.
    package var primary: [Primary]
    /// Weighted-sum normalisation.
    package var normalisation: Normalisation
    package var zeroWeights: ZeroWeights
    package var bonusCategories: [String]
    /// Weight of each bonus category (0.10).
    package var bonusWeight: Double
    package var bonusFormula: BonusFormula
    /// Clamp lower bound.
    package var clampMin: Double
    /// Clamp upper bound.
    package var clampMax: Double
    /// match_percent rounding.
    package var rounding: Rounding
    package var sortBy: SortKey
    package var tieBreak: TieBreak
    /// Candidates sent to the refiner (8).
    package var topCandidates: Int
    /// Fewest valid refiner picks (3).
    package var refinedMin: Int
    /// Most refiner picks kept (5).
    package var refinedMax: Int
    /// Ranking of kept picks.
    package var rankOrder: RankOrder
    /// Whether a Markdown code fence around the refiner's JSON is removed.
    package var stripCodeFences: Bool
    /// Fallback size (4).
    package var fallbackCount: Int
    package var fallbackInsightTemplate: String
    /// The 5 display categories.
    package var comparison: [Display]
    package var comparisonDecimals: Int
    package var missingScore: Double
    /// Whether authenticated calls save the report.
    package var saveWhenAuthenticated: Bool
    package var mockRefiner: MockRefiner
    /// Every `decision` text by JSON path, for reports.
    package var decisions: [String: String]

    /// Placeholders the fallback insight template may use.
    package static let fallbackPlaceholders: Set<String> = ["city_name", "match_percent", "strongest_category", "strongest_score"]
    /// Placeholders of the mock refiner's insight template.
    package static let mockInsightPlaceholders: Set<String> = ["city_name", "top_category", "top_score", "current_top_score", "current_city_name"]
    /// Placeholders of the mock refiner's summary template.
    package static let mockSummaryPlaceholders: Set<String> = ["first_city_name", "current_city_name"]

    /// `Contracts/teleportme/report.json`.
    package static var defaultURL: URL { ContractsLocator.app("teleportme").appendingPathComponent("report.json") }

    /// Loads and validates report.json.
    package static func load(_ url: URL = defaultURL) throws -> ReportRules {
        // Once per file while `LoadedSpecs` are bound: every backend's registration reads it.
        try LoadedSpecs.value("teleportme-report", folder: url) {
            try SpecNode.decode(ReportRules.self, from: url, displayName: "Contracts/teleportme/report.json")
        }
    }
}

/// `{name}` placeholders in a rule's text.
package enum Template {
    /// The placeholder names of a template, in order of appearance.
    package static func placeholders(_ template: String) -> [String] {
        var out: [String] = []
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            out.append(String(rest[rest.index(after: open)..<close]))
            rest = rest[rest.index(after: close)...]
        }
        return out
    }

    /// The first placeholder of `template` not in `allowed`, as an error message.
    package static func problem(_ template: String, allowed: Set<String>) -> String? {
        placeholders(template).first { !allowed.contains($0) }.map {
            "unknown placeholder '{\($0)}' (allowed: \(allowed.sorted().map { "{\($0)}" }.joined(separator: ", ")))"
        }
    }

    /// Fills a template.
    package static func render(_ template: String, _ values: [String: String]) -> String {
        var out = ""
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            out += rest[..<open]
            let key = String(rest[rest.index(after: open)..<close])
            out += values[key] ?? "{\(key)}"
            rest = rest[rest.index(after: close)...]
        }
        return out + rest
    }
}
