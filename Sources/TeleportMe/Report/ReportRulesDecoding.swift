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

extension KeyedDecodingContainer {
    /// Records the section's `decision` (by JSON path) for reports; required unless told.
    fileprivate func decision(_ key: Key, required: Bool = true, _ decoder: Decoder) throws {
        let text: String? = required ? try decode(String.self, forKey: key) : try decodeIfPresent(String.self, forKey: key)
        guard let text, let state = decoder.contractState else { return }
        var all = state.values[Shared.decisions] as? [String: String] ?? [:]
        all[SpecNode.childPath(decoder.jsonPath, key.stringValue)] = text
        state.values[Shared.decisions] = all
    }
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

private struct Preferences: Decodable {
    var keys: [String], min: Double, max: Double
    enum CodingKeys: String, CodingKey { case decision, keys, min, max }
    init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        try c.decision(.decision, decoder)
        keys = try c.decode([String].self, forKey: .keys)
        if Set(keys) != Set(ReportPreferences.CodingKeys.allCases.map(\.rawValue)) || keys.count != 4 {
            throw c.fail(.keys, "must be the four request keys cost, climate, culture, job_market")
        }
        min = try c.decode(Double.self, forKey: .min)
        max = try c.decode(Double.self, forKey: .max)
        if !(min < max) {
            throw c.fail(.max, "max (\(JSONValue.formatDouble(max))) must be greater than min (\(JSONValue.formatDouble(min)))")
        }
        decoder.contractState?.values[Shared.keys] = keys
    }
}

extension ReportRules.Primary: Decodable {
    enum CodingKeys: String, CodingKey { case decision, preference, category }
    package init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        try c.decision(.decision, required: false, decoder)
        preference = try c.decode(String.self, forKey: .preference)
        let keys = decoder.contractState?.values[Shared.keys] as? [String] ?? []
        if !keys.contains(preference) { throw c.fail(.preference, "unknown preference '\(preference)' (one of: \(keys.joined(separator: ", ")))") }
        category = try c.decode(String.self, forKey: .category)
    }
}

private struct WeightedSum: Decodable {
    var normalisation: ReportRules.Normalisation, zeroWeights: ReportRules.ZeroWeights
    enum CodingKeys: String, CodingKey { case decision, normalisation, zeroWeights }
    init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        try c.decision(.decision, decoder)
        normalisation = try c.decode(ReportRules.Normalisation.self, forKey: .normalisation)
        zeroWeights = try c.decode(ReportRules.ZeroWeights.self, forKey: .zeroWeights)
    }
}

private struct Bonus: Decodable {
    var categories: [String], weight: Double, formula: ReportRules.BonusFormula
    enum CodingKeys: String, CodingKey { case decision, categories, weightEach, formula }
    init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        try c.decision(.decision, decoder)
        categories = try c.decode([String].self, forKey: .categories)
        weight = try c.decode(Double.self, forKey: .weightEach)
        formula = try c.decode(ReportRules.BonusFormula.self, forKey: .formula)
        if weight < 0 || (formula == .blend && Double(categories.count) * weight > 1) {
            throw c.fail(
                .weightEach, "weights must be non-negative and, for 'blend', sum to at most 1 (\(categories.count) x \(JSONValue.formatDouble(weight)))")
        }
    }
}

private struct Clamp: Decodable {
    var min: Double, max: Double
    enum CodingKeys: String, CodingKey { case decision, min, max }
    init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        try c.decision(.decision, decoder)
        min = try c.decode(Double.self, forKey: .min)
        max = try c.decode(Double.self, forKey: .max)
        if !(min <= max) { throw c.fail(.max, "max (\(JSONValue.formatDouble(max))) must not be below min (\(JSONValue.formatDouble(min)))") }
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
        try c.decision(NamedKey("decision"), decoder)
        value = try c.decode(V.self, forKey: NamedKey(Member.name))
    }
}

private struct Ranking: Decodable {
    var sortBy: ReportRules.SortKey, tieBreak: ReportRules.TieBreak
    enum CodingKeys: String, CodingKey { case decision, sortBy, tieBreak }
    init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        try c.decision(.decision, decoder)
        sortBy = try c.decode(ReportRules.SortKey.self, forKey: .sortBy)
        tieBreak = try c.decode(ReportRules.TieBreak.self, forKey: .tieBreak)
    }
}

private struct Refined: Decodable {
    var min: Int, max: Int, rankOrder: ReportRules.RankOrder, stripCodeFences: Bool
    enum CodingKeys: String, CodingKey { case decision, min, max, rankOrder, stripCodeFences }
    init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        try c.decision(.decision, decoder)
        min = try c.decode(Count.self, forKey: .min).value
        max = try c.decode(Count.self, forKey: .max).value
        try c.ordered(min, max, .max)
        let top = decoder.contractState?.values[Shared.top] as? Int ?? .max
        if max > top { throw c.fail(.max, "max (\(max)) cannot exceed candidates.top (\(top))") }
        rankOrder = try c.decode(ReportRules.RankOrder.self, forKey: .rankOrder)
        stripCodeFences = try c.decode(Bool.self, forKey: .stripCodeFences)
    }
}

private struct Fallback: Decodable {
    var count: Int, template: String
    enum CodingKeys: String, CodingKey { case decision, count, insightTemplate }
    init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        try c.decision(.decision, decoder)
        count = try c.decode(Count.self, forKey: .count).value
        let top = decoder.contractState?.values[Shared.top] as? Int ?? .max
        if count > top { throw c.fail(.count, "count (\(count)) cannot exceed candidates.top (\(top))") }
        template = try c.template(.insightTemplate, ReportRules.fallbackPlaceholders)
    }
}

private struct Comparison: Decodable {
    var categories: [ReportRules.Display], decimals: Int
    enum CodingKeys: String, CodingKey { case decision, categories, decimals }
    init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        try c.decision(.decision, decoder)
        categories = try c.decode([ReportRules.Display].self, forKey: .categories)
        decimals = try c.decode(Int.self, forKey: .decimals)
        if decimals < 0 || decimals > 6 { throw c.fail(.decimals, "must be within 0-6") }
    }
}

extension ReportRules.MockRefiner: Decodable {
    enum CodingKeys: String, CodingKey { case decision, min, max, insightTemplate, summaryTemplate, closeToBest }
    package init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        try c.decision(.decision, decoder)
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
        (bonusCategories, bonusWeight, bonusFormula) = (b.categories, b.weight, b.formula)
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
        (fallbackCount, fallbackInsightTemplate) = (f.count, f.template)
        let cmp = try c.decode(Comparison.self, forKey: .comparison)
        (comparison, comparisonDecimals) = (cmp.categories, cmp.decimals)
        missingScore = try c.decode(Single<Value, Double>.self, forKey: .missingScore).value
        saveWhenAuthenticated = try c.decode(Single<SaveWhenAuthenticated, Bool>.self, forKey: .response).value
        mockRefiner = try c.decode(MockRefiner.self, forKey: .mockRefiner)
        decisions = decoder.contractState?.values[Shared.decisions] as? [String: String] ?? [:]
    }
}
