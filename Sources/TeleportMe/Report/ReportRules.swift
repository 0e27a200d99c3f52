import Foundation
import ContractKit

/// The report algorithm's rules, read strictly from `Contracts/teleportme/report.json`: every
/// number and choice of §4.6 steps 4-9 the document leaves open, each with its `decision`.
public struct ReportRules: Sendable, Equatable {
    /// A primary category: a request preference and the score category it weights.
    public struct Primary: Sendable, Equatable {
        /// Request key (`cost`).
        public var preference: String
        /// Score category (`Cost of Living`).
        public var category: String
    }

    /// How the weighted sum of the primary categories is brought to 0-100.
    public enum Normalisation: String, Sendable, CaseIterable {
        /// Divide by the sum of the weights (pref_weight/10): a weighted mean.
        case weightedMean
        /// Divide by the number of primary categories: the share of the 400-point maximum.
        case maxPossible
    }

    /// What the weighted mean does when every weight is 0.
    public enum ZeroWeights: String, Sendable, CaseIterable {
        /// Treat as equal weights.
        case equal
        /// The primary part is 0.
        case zero
    }

    /// How the bonus categories combine with the primary part.
    public enum BonusFormula: String, Sendable, CaseIterable {
        /// final = (1 - n*w) * primary + Σ w * score*10.
        case blend
        /// final = primary + Σ w * score*10.
        case additive
    }

    /// Rounding of match_percent and comparison values.
    public enum Rounding: String, Sendable, CaseIterable {
        /// Half away from zero (PostgreSQL numeric round, Math.round for positives).
        case halfAwayFromZero
        /// Banker's rounding.
        case halfEven
        /// Toward zero.
        case truncate

        /// Rounds `x` to `decimals` places.
        public func apply(_ x: Double, decimals: Int = 0) -> Double {
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
    public enum SortKey: String, Sendable, CaseIterable {
        /// The unclamped, unrounded score.
        case rawScore
        /// The rounded match_percent (ties then fall to the tie-break more often).
        case matchPercent
    }

    /// The tie-break between equal scores.
    public enum TieBreak: String, Sendable, CaseIterable {
        /// City id ascending, bytewise.
        case cityIdAscending
        /// City id descending, bytewise.
        case cityIdDescending
    }

    /// How kept refiner picks are ranked.
    public enum RankOrder: String, Sendable, CaseIterable {
        /// By the algorithmic score (candidate order).
        case score
        /// In the refiner's order.
        case refiner
    }

    /// A display category of step 9.
    public struct Display: Sendable, Equatable, Decodable {
        /// `cost`.
        public var display: String
        /// `Cost of Living`.
        public var category: String
    }

    /// The mock's deterministic refiner.
    public struct MockRefiner: Sendable, Equatable {
        /// Candidates within this many match-percent points of the best are picked.
        public var closeToBest: Double
        /// At least this many picks.
        public var min: Int
        /// At most this many picks.
        public var max: Int
        /// One sentence per city.
        public var insightTemplate: String
        /// The report summary.
        public var summaryTemplate: String
    }

    /// Request preference keys, in order.
    public var preferenceKeys: [String]
    /// Lowest allowed slider value.
    public var preferenceMin: Double
    /// Highest allowed slider value.
    public var preferenceMax: Double
    /// The 4 primary categories.
    public var primary: [Primary]
    /// Weighted-sum normalisation.
    public var normalisation: Normalisation
    /// All-zero weights.
    public var zeroWeights: ZeroWeights
    /// Bonus categories.
    public var bonusCategories: [String]
    /// Weight of each bonus category (0.10).
    public var bonusWeight: Double
    /// Bonus formula.
    public var bonusFormula: BonusFormula
    /// Clamp lower bound.
    public var clampMin: Double
    /// Clamp upper bound.
    public var clampMax: Double
    /// match_percent rounding.
    public var rounding: Rounding
    /// Ranking key.
    public var sortBy: SortKey
    /// Tie-break.
    public var tieBreak: TieBreak
    /// Candidates sent to the refiner (8).
    public var topCandidates: Int
    /// Fewest valid refiner picks (3).
    public var refinedMin: Int
    /// Most refiner picks kept (5).
    public var refinedMax: Int
    /// Ranking of kept picks.
    public var rankOrder: RankOrder
    /// Whether a Markdown code fence around the refiner's JSON is removed.
    public var stripCodeFences: Bool
    /// Fallback size (4).
    public var fallbackCount: Int
    /// Generic insight template.
    public var fallbackInsightTemplate: String
    /// The 5 display categories.
    public var comparison: [Display]
    /// Decimals of comparison values.
    public var comparisonDecimals: Int
    /// Score used for a missing category.
    public var missingScore: Double
    /// Whether authenticated calls save the report.
    public var saveWhenAuthenticated: Bool
    /// The mock refiner.
    public var mockRefiner: MockRefiner
    /// Every `decision` text by JSON path, for reports.
    public var decisions: [String: String]

    /// Placeholders the fallback insight template may use.
    public static let fallbackPlaceholders: Set<String> = ["city_name", "match_percent", "strongest_category", "strongest_score"]
    /// Placeholders of the mock refiner's insight template.
    public static let mockInsightPlaceholders: Set<String> = ["city_name", "top_category", "top_score", "current_top_score", "current_city_name"]
    /// Placeholders of the mock refiner's summary template.
    public static let mockSummaryPlaceholders: Set<String> = ["first_city_name", "current_city_name"]

    /// `Contracts/teleportme/report.json`.
    public static var defaultURL: URL { ContractsLocator.app("teleportme").appendingPathComponent("report.json") }

    /// Loads and validates report.json.
    public static func load(_ url: URL = defaultURL) throws -> ReportRules {
        try decode(SpecNode.load(url, displayName: "Contracts/teleportme/report.json"))
    }

    /// Decodes report.json strictly (see ReportRulesDecoding.swift).
    public static func decode(_ root: SpecNode) throws -> ReportRules { try root.decode(ReportRules.self) }
}

/// `{name}` placeholders in a rule's text.
public enum Template {
    /// The placeholder names of a template, in order of appearance.
    public static func placeholders(_ template: String) -> [String] {
        var out: [String] = []
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            out.append(String(rest[rest.index(after: open)..<close]))
            rest = rest[rest.index(after: close)...]
        }
        return out
    }

    /// The first placeholder of `template` not in `allowed`, as an error message.
    public static func problem(_ template: String, allowed: Set<String>) -> String? {
        placeholders(template).first { !allowed.contains($0) }.map {
            "unknown placeholder '{\($0)}' (allowed: \(allowed.sorted().map { "{\($0)}" }.joined(separator: ", ")))"
        }
    }

    /// Fills a template.
    public static func render(_ template: String, _ values: [String: String]) -> String {
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
