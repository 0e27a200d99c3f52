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
    public struct Display: Sendable, Equatable {
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

    /// Decodes report.json strictly: unknown keys, wrong types, unknown enum values, inconsistent
    /// bounds and unknown template placeholders are errors naming the file and JSON path.
    public static func decode(_ root: SpecNode) throws -> ReportRules {
        var decisions: [String: String] = [:]
        func decision(_ o: SpecObject, required: Bool = true) throws {
            if required {
                let d = try o.required("decision")
                decisions[d.path] = try d.string()
            } else if let d = o.optional("decision") {
                decisions[d.path] = try d.string()
            }
        }
        func choice<E: RawRepresentable & CaseIterable>(_ node: SpecNode, _: E.Type) throws -> E where E.RawValue == String {
            let s = try node.string()
            guard let v = E(rawValue: s) else {
                throw node.fail("unknown value '\(s)' (one of: \(E.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            return v
        }
        func positiveInt(_ node: SpecNode) throws -> Int {
            let v = try node.int()
            if v < 1 { throw node.fail("must be at least 1, found \(v)") }
            return v
        }
        return try root.object { o in
            _ = o.optional("app")
            _ = o.optional("source")
            let (keys, pmin, pmax) = try o.required("preferences").object { p -> ([String], Double, Double) in
                try decision(p)
                let keysNode = try p.required("keys")
                let keys = try keysNode.strings()
                if Set(keys) != Set(ReportPreferences.CodingKeys.allCases.map(\.rawValue)) || keys.count != 4 {
                    throw keysNode.fail("must be the four request keys cost, climate, culture, job_market")
                }
                let minNode = try p.required("min"), maxNode = try p.required("max")
                let lo = try minNode.double(), hi = try maxNode.double()
                if !(lo < hi) { throw maxNode.fail("max (\(JSONValue.formatDouble(hi))) must be greater than min (\(JSONValue.formatDouble(lo)))") }
                return (keys, lo, hi)
            }
            let primaryNode = try o.required("primary")
            let primary = try primaryNode.array().map { n in
                try n.object { po -> Primary in
                    try decision(po, required: false)
                    let prefNode = try po.required("preference")
                    let pref = try prefNode.string()
                    if !keys.contains(pref) { throw prefNode.fail("unknown preference '\(pref)' (one of: \(keys.joined(separator: ", ")))") }
                    return Primary(preference: pref, category: try po.required("category").string())
                }
            }
            if Set(primary.map(\.preference)).count != keys.count || primary.count != keys.count {
                throw primaryNode.fail("must name each of the \(keys.count) preferences exactly once")
            }
            let (norm, zero) = try o.required("weightedSum").object { w in
                try decision(w)
                return (try choice(try w.required("normalisation"), Normalisation.self),
                        try choice(try w.required("zeroWeights"), ZeroWeights.self))
            }
            let (bonusCats, bonusWeight, formula) = try o.required("bonus").object { b -> ([String], Double, BonusFormula) in
                try decision(b)
                let cats = try b.required("categories").strings()
                let wNode = try b.required("weightEach")
                let w = try wNode.double()
                let f = try choice(try b.required("formula"), BonusFormula.self)
                if w < 0 || (f == .blend && Double(cats.count) * w > 1) {
                    throw wNode.fail("weights must be non-negative and, for 'blend', sum to at most 1 (\(cats.count) x \(JSONValue.formatDouble(w)))")
                }
                return (cats, w, f)
            }
            let (cmin, cmax) = try o.required("clamp").object { c -> (Double, Double) in
                try decision(c)
                let lo = try c.required("min").double()
                let hiNode = try c.required("max")
                let hi = try hiNode.double()
                if !(lo <= hi) { throw hiNode.fail("max (\(JSONValue.formatDouble(hi))) must not be below min (\(JSONValue.formatDouble(lo)))") }
                return (lo, hi)
            }
            let rounding = try o.required("rounding").object { r in
                try decision(r)
                return try choice(try r.required("matchPercent"), Rounding.self)
            }
            let (sortBy, tie) = try o.required("ranking").object { r in
                try decision(r)
                return (try choice(try r.required("sortBy"), SortKey.self), try choice(try r.required("tieBreak"), TieBreak.self))
            }
            let top = try o.required("candidates").object { c in
                try decision(c)
                return try positiveInt(try c.required("top"))
            }
            let (rmin, rmax, order, fences) = try o.required("refined").object { r -> (Int, Int, RankOrder, Bool) in
                try decision(r)
                let lo = try positiveInt(try r.required("min"))
                let hiNode = try r.required("max")
                let hi = try positiveInt(hiNode)
                if hi < lo { throw hiNode.fail("max (\(hi)) must not be below min (\(lo))") }
                if hi > top { throw hiNode.fail("max (\(hi)) cannot exceed candidates.top (\(top))") }
                return (lo, hi, try choice(try r.required("rankOrder"), RankOrder.self), try r.required("stripCodeFences").bool())
            }
            let (fcount, ftemplate) = try o.required("fallback").object { f -> (Int, String) in
                try decision(f)
                let countNode = try f.required("count")
                let n = try positiveInt(countNode)
                if n > top { throw countNode.fail("count (\(n)) cannot exceed candidates.top (\(top))") }
                let t = try f.required("insightTemplate")
                try Template.validate(t, allowed: fallbackPlaceholders)
                return (n, try t.string())
            }
            let (displays, decimals) = try o.required("comparison").object { c -> ([Display], Int) in
                try decision(c)
                let ds = try c.required("categories").array().map { n in
                    try n.object { d in Display(display: try d.required("display").string(), category: try d.required("category").string()) }
                }
                let decNode = try c.required("decimals")
                let dec = try decNode.int()
                if dec < 0 || dec > 6 { throw decNode.fail("must be within 0-6") }
                return (ds, dec)
            }
            let missing = try o.required("missingScore").object { m in
                try decision(m)
                return try m.required("value").double()
            }
            let save = try o.required("response").object { r in
                try decision(r)
                return try r.required("saveWhenAuthenticated").bool()
            }
            let mock = try o.required("mockRefiner").object { m -> MockRefiner in
                try decision(m)
                let lo = try positiveInt(try m.required("min"))
                let hiNode = try m.required("max")
                let hi = try positiveInt(hiNode)
                if hi < lo { throw hiNode.fail("max (\(hi)) must not be below min (\(lo))") }
                let it = try m.required("insightTemplate"), st = try m.required("summaryTemplate")
                try Template.validate(it, allowed: mockInsightPlaceholders)
                try Template.validate(st, allowed: mockSummaryPlaceholders)
                return MockRefiner(closeToBest: try m.required("closeToBest").double(), min: lo, max: hi,
                                   insightTemplate: try it.string(), summaryTemplate: try st.string())
            }
            return ReportRules(preferenceKeys: keys, preferenceMin: pmin, preferenceMax: pmax, primary: primary,
                               normalisation: norm, zeroWeights: zero, bonusCategories: bonusCats, bonusWeight: bonusWeight,
                               bonusFormula: formula, clampMin: cmin, clampMax: cmax, rounding: rounding, sortBy: sortBy,
                               tieBreak: tie, topCandidates: top, refinedMin: rmin, refinedMax: rmax, rankOrder: order,
                               stripCodeFences: fences, fallbackCount: fcount, fallbackInsightTemplate: ftemplate,
                               comparison: displays, comparisonDecimals: decimals, missingScore: missing,
                               saveWhenAuthenticated: save, mockRefiner: mock, decisions: decisions)
        }
    }
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

    /// Checks a template node names only allowed placeholders.
    public static func validate(_ node: SpecNode, allowed: Set<String>) throws {
        for p in placeholders(try node.string()) where !allowed.contains(p) {
            throw node.fail("unknown placeholder '{\(p)}' (allowed: \(allowed.sorted().map { "{\($0)}" }.joined(separator: ", ")))")
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
