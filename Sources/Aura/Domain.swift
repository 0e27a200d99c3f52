import Foundation
import MockBinding

/// An invalid input to one of Aura's domain rules.
package struct AuraRuleError: Error, CustomStringConvertible, Sendable, Equatable {
    /// What is wrong, in words a client can show.
    package var message: String
    package init(_ message: String) { self.message = message }
    package var description: String { message }
}

// MARK: - Zodiac (§2.1)

/// Zodiac sign from a birth date, by the table of rules.json (`zodiac.signs`).
package struct ZodiacCalculator: Sendable {
    /// The table in force.
    package let signs: [AuraRules.SignRange]

    /// A calculator from the rules.
    package init(rules: AuraRules) { signs = rules.signs }
    /// A calculator from an explicit table (mutation tests).
    package init(signs: [AuraRules.SignRange]) { self.signs = signs }

    /// The sign of a month-day; nil when the table leaves the day uncovered.
    package func sign(for day: MonthDay) -> ZodiacSign? {
        signs.first { r in
            r.from <= r.to ? (r.from <= day && day <= r.to) : (day >= r.from || day <= r.to)
        }?.sign
    }

    /// The sign of a birth date.
    package func sign(for date: PGDate) -> ZodiacSign? { sign(for: date.monthDay) }

    /// Days of a leap year the table covers zero times or more than once (must be empty).
    package func coverageProblems() -> [String] {
        var out: [String] = []
        for m in 1...12 {
            for d in 1...PGDate.daysInMonth(m, leap: true) {
                let md = MonthDay(month: m, day: d)!
                let n = signs.filter { r in r.from <= r.to ? (r.from <= md && md <= r.to) : (md >= r.from || md <= r.to) }.count
                if n != 1 { out.append("\(md) is covered \(n) times") }
            }
        }
        return out
    }
}

// MARK: - MBTI (§9.1)

/// MBTI type from dimension scores, by the sign convention of rules.json (`mbti.dimensions`).
package struct MBTICalculator: Sendable {
    /// The dimensions in type-code order with their sign convention.
    package let dimensions: [AuraRules.Dimension]
    package let scoreRange: AuraRules.IntRange

    /// A calculator from the rules.
    package init(rules: AuraRules) {
        dimensions = rules.dimensions
        scoreRange = rules.scoreRange
    }
    /// A calculator from an explicit convention (mutation tests).
    package init(dimensions: [AuraRules.Dimension], scoreRange: AuraRules.IntRange) {
        self.dimensions = dimensions
        self.scoreRange = scoreRange
    }

    /// One score per dimension (the mean of its answers), in type-code order.
    package func dimensionScores(from answers: [MBTIAnswer]) throws -> [DimensionScore] {
        var sums: [String: (Double, Int)] = [:]
        for (i, a) in answers.enumerated() {
            guard dimensions.contains(where: { $0.name == a.dimension }) else {
                throw AuraRuleError("answers[\(i)].dimension '\(a.dimension)' is not one of \(dimensions.map(\.name).joined(separator: ", "))")
            }
            guard a.score.isFinite, Double(scoreRange.min) <= a.score, a.score <= Double(scoreRange.max) else {
                throw AuraRuleError("answers[\(i)].score \(JSONValue.formatDouble(a.score)) is outside \(scoreRange.min)…\(scoreRange.max)")
            }
            let s = sums[a.dimension] ?? (0, 0)
            sums[a.dimension] = (s.0 + a.score, s.1 + 1)
        }
        return try dimensions.map { d in
            guard let (sum, n) = sums[d.name] else { throw AuraRuleError("no answer for dimension \(d.name)") }
            return DimensionScore(dimension: d.name, score: sum / Double(n))
        }
    }

    /// The type code of one score per dimension.
    package func typeCode(scores: [String: Double]) throws -> String {
        var code = ""
        for d in dimensions {
            guard let s = scores[d.name] else { throw AuraRuleError("no score for dimension \(d.name)") }
            code.append(s > 0 ? d.positive : (s < 0 ? d.negative : d.tie))
        }
        return code
    }

    /// §9.1 `MBTICalculator.calculate(from:)`: the type of a set of answers.
    package func calculate(from answers: [MBTIAnswer]) throws -> (typeCode: String, scores: [DimensionScore]) {
        let scores = try dimensionScores(from: answers)
        let code = try typeCode(scores: Dictionary(uniqueKeysWithValues: scores.map { ($0.dimension, $0.score) }))
        return (code, scores)
    }
}

/// A type's profile: cognitive functions, strengths and weaknesses (rules.json `mbti`).
package struct MBTIProfile: Sendable, Equatable {
    /// Function stack, positions `functionPositions` (1…4).
    package var cognitiveFunctions: [CognitiveFunction]
    /// One strength per letter.
    package var strengths: [String]
    /// One weakness per letter.
    package var weaknesses: [String]

    /// The profile of a type code.
    package init(typeCode: String, rules: AuraRules) throws {
        guard let stack = rules.cognitiveFunctions[typeCode] else { throw AuraRuleError("unknown MBTI type \(typeCode)") }
        cognitiveFunctions = stack.enumerated().map { CognitiveFunction(name: $1, position: $0 + rules.functionPositions.min) }
        strengths = []
        weaknesses = []
        for ch in typeCode {
            guard let t = rules.letterTraits[ch] else { throw AuraRuleError("no traits for letter \(ch)") }
            strengths.append(t.strength)
            weaknesses.append(t.weakness)
        }
    }
}

// MARK: - Subscription and entitlements (§8, §9.1)

/// §2.1 `SubscriptionStatus` with the entitlements of §9.1 `SubscriptionTests`.
package struct SubscriptionStatus: Sendable, Equatable {
    package var tier: SubscriptionTier
    /// What the tier may do.
    package var entitlements: AuraRules.TierEntitlements

    package init(tier: SubscriptionTier, rules: AuraRules) {
        self.tier = tier
        entitlements = rules.tiers[tier]!
    }

    /// The status a `subscriptions` row (or none) gives at a time.
    package init(row: [String: JSONValue]?, now: Date, rules: AuraRules) {
        self.init(tier: SubscriptionStatus.tier(row: row, now: now, rules: rules), rules: rules)
    }

    /// The tier a row gives: premium when tier, is_active and expires_at meet `premiumWhen`.
    package static func tier(row: [String: JSONValue]?, now: Date, rules: AuraRules) -> SubscriptionTier {
        guard let row, row["tier"]?.stringValue == rules.premiumTierValue else { return .free }
        if rules.premiumRequiresActive && row["is_active"] != .bool(true) { return .free }
        if rules.premiumRequiresUnexpired, let e = row["expires_at"]?.stringValue {
            guard let us = PGTime.parseTimestamp(e, assumeUTC: true), us > PGTime.micros(now) else { return .free }
        }
        return .premium
    }

    /// §9.1 `canAccessPremiumContent`.
    package var canAccessPremiumContent: Bool { entitlements.canAccessPremiumContent }
    /// §9.1 `canViewHistoricalData`.
    package var canViewHistoricalData: Bool { entitlements.canViewHistoricalData }
    /// Whether the tier may open a category (§9.2 paywall).
    package func canAccess(_ category: SituationCategory) -> Bool { entitlements.categories.contains(category) }
}

// MARK: - Fortune (§4.2)

/// The FortuneCard colour of a score (rules.json `reading.fortuneBands`); nil outside every band.
package func fortuneColor(_ score: Int, rules: AuraRules) -> String? {
    rules.fortuneBands.first { $0.range.closed.contains(score) }?.color
}
