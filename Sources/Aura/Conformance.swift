import Foundation
import MockBinding

/// Aura's conformance checks: public functions that take an implementation (a
/// calculator, a generator) and return the violations found, empty when it conforms.
/// The gate's XCTest adapters live in Tests/ContractsTests.
public enum AuraConformance {
    /// The zodiac calculator must give every documented case its sign and cover each day of a
    /// leap year exactly once; every boundary of the table must be a documented case.
    package static func zodiacViolations(_ calc: ZodiacCalculator, rules: AuraRules) -> [String] {
        var out = calc.coverageProblems()
        for c in rules.zodiacCases {
            let got = calc.sign(for: c.date)
            if got != c.sign { out.append("\(c.date) (\(c.source)): expected \(c.sign.rawValue), got \(got?.rawValue ?? "none")") }
        }
        for r in calc.signs {
            for day in [r.from, r.to] where !rules.zodiacCases.contains(where: { $0.date.monthDay == day && $0.sign == r.sign }) {
                out.append("\(r.sign.rawValue) boundary \(day) has no documented case")
            }
        }
        return out
    }

    /// The MBTI calculator must give every documented score sheet its type.
    package static func mbtiViolations(_ calc: MBTICalculator, rules: AuraRules) -> [String] {
        var out: [String] = []
        for c in rules.mbtiCases {
            do {
                let got = try calc.typeCode(scores: c.scores)
                if got != c.type { out.append("\(c.scores) (\(c.source)): expected \(c.type), got \(got)") }
            } catch {
                out.append("\(c.scores) (\(c.source)): \(error)")
            }
        }
        return out
    }

    /// Every documented subscription row must give its tier.
    package static func entitlementViolations(_ tierOf: ([String: JSONValue]?, Date) -> SubscriptionTier, rules: AuraRules) -> [String] {
        rules.entitlementCases.compactMap { c in
            let got = tierOf(c.subscription, rules.entitlementCasesNow)
            return got == c.tier
                ? nil
                : "\(c.subscription.map { JSONValue.object($0).serialized() } ?? "no row") (\(c.source)): expected \(c.tier.rawValue), got \(got.rawValue)"
        }
    }

    /// A generated reading must respect the tier's word count, the generated fortune range and
    /// the lucky-number and colour rules.
    package static func readingViolations(_ out: HoroscopeStandIn.Output, length: SubscriptionTier, rules: AuraRules, label: String) -> [String] {
        var v: [String] = []
        let words = HoroscopeStandIn.wordCount(out.content)
        let range = rules.wordCount[length]!
        if !range.closed.contains(words) { v.append("\(label): \(words) words, expected \(range.min)…\(range.max) for \(length.rawValue)") }
        if !rules.generatedFortune.closed.contains(out.fortuneScore) {
            v.append("\(label): fortune \(out.fortuneScore) outside \(rules.generatedFortune.closed)")
        }
        if !rules.fortuneScore.closed.contains(out.fortuneScore) { v.append("\(label): fortune \(out.fortuneScore) violates the column CHECK") }
        if out.luckyNumbers.count != rules.luckyNumberCount {
            v.append("\(label): \(out.luckyNumbers.count) lucky numbers, expected \(rules.luckyNumberCount)")
        }
        if out.luckyNumbers.contains(where: { !rules.luckyNumberRange.closed.contains($0) }) {
            v.append("\(label): lucky number outside \(rules.luckyNumberRange.closed)")
        }
        if rules.luckyNumbersDistinct && Set(out.luckyNumbers).count != out.luckyNumbers.count { v.append("\(label): repeated lucky number") }
        if out.powerColors != rules.powerColors { v.append("\(label): power colours \(out.powerColors), expected \(rules.powerColors)") }
        return v
    }
}
