import Foundation
import MockBinding

// How report.json decodes: one small type per section, each checking itself; sections that
// depend on an earlier one (primary on preferences, refined and fallback on candidates) read it
// from the decoding state, filled in file order by `ReportRules`.

extension ReportRules.Normalisation: ContractEnum { package static var choicesLabel: String { "one of" } }
extension ReportRules.ZeroWeights: ContractEnum { package static var choicesLabel: String { "one of" } }
extension ReportRules.BonusFormula: ContractEnum { package static var choicesLabel: String { "one of" } }
extension ReportRules.Rounding: ContractEnum { package static var choicesLabel: String { "one of" } }
extension ReportRules.SortKey: ContractEnum { package static var choicesLabel: String { "one of" } }
extension ReportRules.TieBreak: ContractEnum { package static var choicesLabel: String { "one of" } }
extension ReportRules.RankOrder: ContractEnum { package static var choicesLabel: String { "one of" } }

private enum Shared {
    static let decisions = "report.decisions"
    static let keys = "report.keys"
    static let top = "report.top"
}

/// An integer of at least 1.
private struct Count: Decodable {
    var value: Int
    init(from decoder: Decoder) throws {
        value = try decoder.singleValueContainer().decode(Int.self)
        if value < 1 { throw decoder.fail("must be at least 1, found \(value)") }
    }
}

extension Decoder {
    /// Records a section's `decision` (by JSON path) for reports.
    fileprivate func record(decision text: String?) {
        guard let text, let state = contractState else { return }
        var all = state.values[Shared.decisions] as? [String: String] ?? [:]
        all[SpecNode.childPath(jsonPath, "decision")] = text
        state.values[Shared.decisions] = all
    }
    /// Checks a count of at least 1 at the member `key`.
    fileprivate func checkCount(_ value: Int, _ key: String) throws {
        if value < 1 { throw fail(key, "must be at least 1, found \(value)") }
    }
}

/// A section with a required `decision`, recorded for reports once its members decode; `check`
/// holds the section's own rules.
private protocol Decided: Decodable, ContractChecked {
    var decision: String { get }
    func check(_ decoder: Decoder) throws
}
extension Decided {
    func check(_ decoder: Decoder) throws {}
    func validate(_ decoder: Decoder) throws {
        decoder.record(decision: decision)
        try check(decoder)
    }
}

extension KeyedDecodingContainer {
    /// A template naming only `allowed` placeholders.
    fileprivate func template(_ key: Key, _ allowed: Set<String>) throws -> String {
        let t = try decode(String.self, forKey: key)
        if let problem = Template.problem(t, allowed: allowed) { throw fail(key, problem) }
        return t
    }
    /// `max` (at `key`) must be at least `min`.
    fileprivate func ordered(_ lo: Int, _ hi: Int, _ key: Key) throws {
        if hi < lo { throw fail(key, "max (\(hi)) must not be below min (\(lo))") }
    }
}

private struct Preferences: Decided {
    var decision: String, keys: [String], min: Double, max: Double
    func check(_ decoder: Decoder) throws {
        if Set(keys) != Set(ReportPreferences.CodingKeys.allCases.map(\.rawValue)) || keys.count != 4 {
            throw decoder.fail("keys", "must be the four request keys cost, climate, culture, job_market")
        }
        if !(min < max) {
            throw decoder.fail("max", "max (\(JSONValue.formatDouble(max))) must be greater than min (\(JSONValue.formatDouble(min)))")
        }
        decoder.contractState?.values[Shared.keys] = keys
    }
}

extension ReportRules.Primary: Decodable {
    enum CodingKeys: String, CodingKey { case decision, preference, category }
    package init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        decoder.record(decision: try c.decodeIfPresent(String.self, forKey: .decision))
        preference = try c.decode(String.self, forKey: .preference)
        let keys = decoder.contractState?.values[Shared.keys] as? [String] ?? []
        if !keys.contains(preference) { throw c.fail(.preference, "unknown preference '\(preference)' (one of: \(keys.joined(separator: ", ")))") }
        category = try c.decode(String.self, forKey: .category)
    }
}

private struct WeightedSum: Decided {
    var decision: String, normalisation: ReportRules.Normalisation, zeroWeights: ReportRules.ZeroWeights
}

private struct Bonus: Decided {
    var decision: String, categories: [String], weightEach: Double, formula: ReportRules.BonusFormula
    func check(_ decoder: Decoder) throws {
        if weightEach < 0 || (formula == .blend && Double(categories.count) * weightEach > 1) {
            throw decoder.fail(
                "weightEach",
                "weights must be non-negative and, for 'blend', sum to at most 1 (\(categories.count) x \(JSONValue.formatDouble(weightEach)))")
        }
    }
}

private struct Clamp: Decided {
    var decision: String, min: Double, max: Double
    func check(_ decoder: Decoder) throws {
        if !(min <= max) { throw decoder.fail("max", "max (\(JSONValue.formatDouble(max))) must not be below min (\(JSONValue.formatDouble(min)))") }
    }
}

/// The member a one-value section holds (`rounding.matchPercent`, `candidates.top`, …).
private protocol SectionMember { static var name: String { get } }
private enum MatchPercent: SectionMember { static let name = "matchPercent" }
private enum Top: SectionMember { static let name = "top" }
private enum Value: SectionMember { static let name = "value" }
private enum SaveWhenAuthenticated: SectionMember { static let name = "saveWhenAuthenticated" }

private struct NamedKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ name: String) { stringValue = name }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { return nil }
}

/// A section holding one value plus its decision.
private struct Single<Member: SectionMember, V: Decodable>: Decodable {
    var value: V
    init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: NamedKey.self)
        decoder.record(decision: try c.decode(String.self, forKey: NamedKey("decision")))
        value = try c.decode(V.self, forKey: NamedKey(Member.name))
    }
}

private struct Ranking: Decided { var decision: String, sortBy: ReportRules.SortKey, tieBreak: ReportRules.TieBreak }

private struct Refined: Decided {
    var decision: String, min: Int, max: Int, rankOrder: ReportRules.RankOrder, stripCodeFences: Bool
    func check(_ decoder: Decoder) throws {
        try decoder.checkCount(min, "min")
        try decoder.checkCount(max, "max")
        if max < min { throw decoder.fail("max", "max (\(max)) must not be below min (\(min))") }
        let top = decoder.contractState?.values[Shared.top] as? Int ?? .max
        if max > top { throw decoder.fail("max", "max (\(max)) cannot exceed candidates.top (\(top))") }
    }
}

private struct Fallback: Decided {
    var decision: String, count: Int, insightTemplate: String
    func check(_ decoder: Decoder) throws {
        try decoder.checkCount(count, "count")
        let top = decoder.contractState?.values[Shared.top] as? Int ?? .max
        if count > top { throw decoder.fail("count", "count (\(count)) cannot exceed candidates.top (\(top))") }
        if let problem = Template.problem(insightTemplate, allowed: ReportRules.fallbackPlaceholders) { throw decoder.fail("insightTemplate", problem) }
    }
}

private struct Comparison: Decided {
    var decision: String, categories: [ReportRules.Display], decimals: Int
    func check(_ decoder: Decoder) throws {
        if decimals < 0 || decimals > 6 { throw decoder.fail("decimals", "must be within 0-6") }
    }
}

extension ReportRules.MockRefiner: Decodable {
    enum CodingKeys: String, CodingKey { case decision, min, max, insightTemplate, summaryTemplate, closeToBest }
    package init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        decoder.record(decision: try c.decode(String.self, forKey: .decision))
        min = try c.decode(Count.self, forKey: .min).value
        max = try c.decode(Count.self, forKey: .max).value
        try c.ordered(min, max, .max)
        insightTemplate = try c.template(.insightTemplate, ReportRules.mockInsightPlaceholders)
        summaryTemplate = try c.template(.summaryTemplate, ReportRules.mockSummaryPlaceholders)
        closeToBest = try c.decode(Double.self, forKey: .closeToBest)
    }
}

extension ReportRules: Decodable {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case app, source, preferences, primary, weightedSum, bonus, clamp, rounding, ranking, candidates, refined, fallback,
            comparison, missingScore, response, mockRefiner
    }

    /// report.json: unknown keys, wrong types, unknown enum values, inconsistent bounds and
    /// unknown template placeholders are errors naming the file and JSON path.
    package init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let p = try c.decode(Preferences.self, forKey: .preferences)
        (preferenceKeys, preferenceMin, preferenceMax) = (p.keys, p.min, p.max)
        primary = try c.decode([Primary].self, forKey: .primary)
        if Set(primary.map(\.preference)).count != p.keys.count || primary.count != p.keys.count {
            throw c.fail(.primary, "must name each of the \(p.keys.count) preferences exactly once")
        }
        let w = try c.decode(WeightedSum.self, forKey: .weightedSum)
        (normalisation, zeroWeights) = (w.normalisation, w.zeroWeights)
        let b = try c.decode(Bonus.self, forKey: .bonus)
        (bonusCategories, bonusWeight, bonusFormula) = (b.categories, b.weightEach, b.formula)
        let cl = try c.decode(Clamp.self, forKey: .clamp)
        (clampMin, clampMax) = (cl.min, cl.max)
        rounding = try c.decode(Single<MatchPercent, Rounding>.self, forKey: .rounding).value
        let r = try c.decode(Ranking.self, forKey: .ranking)
        (sortBy, tieBreak) = (r.sortBy, r.tieBreak)
        topCandidates = try c.decode(Single<Top, Count>.self, forKey: .candidates).value.value
        decoder.contractState?.values[Shared.top] = topCandidates
        let rf = try c.decode(Refined.self, forKey: .refined)
        (refinedMin, refinedMax, rankOrder, stripCodeFences) = (rf.min, rf.max, rf.rankOrder, rf.stripCodeFences)
        let f = try c.decode(Fallback.self, forKey: .fallback)
        (fallbackCount, fallbackInsightTemplate) = (f.count, f.insightTemplate)
        let cmp = try c.decode(Comparison.self, forKey: .comparison)
        (comparison, comparisonDecimals) = (cmp.categories, cmp.decimals)
        missingScore = try c.decode(Single<Value, Double>.self, forKey: .missingScore).value
        saveWhenAuthenticated = try c.decode(Single<SaveWhenAuthenticated, Bool>.self, forKey: .response).value
        mockRefiner = try c.decode(MockRefiner.self, forKey: .mockRefiner)
        decisions = decoder.contractState?.values[Shared.decisions] as? [String: String] ?? [:]
    }
}
