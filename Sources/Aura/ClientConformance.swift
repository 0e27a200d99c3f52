import Foundation
import MockBinding

/// What a client (or the generate-horoscope function) asks the model for, per tier (§3.2:
/// `max_tokens: isPremium ? 500 : 200`, `wordCount = isPremium ? '250-350' : '100-150'`).
public struct CompletionRequest: Sendable, Equatable {
    /// `max_tokens`.
    public var maxTokens: Int
    /// The word range the prompt asks for.
    public var words: ClosedRange<Int>

    /// The request rules.json gives a tier (the reference).
    package static func reference(_ tier: SubscriptionTier, rules: AuraRules) -> CompletionRequest {
        CompletionRequest(maxTokens: rules.maxTokens[tier]!, words: rules.wordCount[tier]!.closed)
    }
}

/// Conformance of an Aura client's subscription and generation rules: the checks take the
/// implementation under test and answer the violations (empty: it conforms).
public enum AuraClientConformance {
    /// §3.2: the request of each tier carries its `max_tokens` and word range, and the longest
    /// reading fits the token budget at `reading.tokenBudget.wordsPerToken`.
    package static func completionViolations(_ request: (SubscriptionTier) -> CompletionRequest, rules: AuraRules) -> [String] {
        var v: [String] = []
        for tier in SubscriptionTier.allCases {
            let got = request(tier), want = CompletionRequest.reference(tier, rules: rules)
            if got.maxTokens != want.maxTokens {
                v.append("\(tier.rawValue): max_tokens \(got.maxTokens), rules.json reading.maxTokens says \(want.maxTokens)")
            }
            if got.words != want.words { v.append("\(tier.rawValue): asks for \(got.words) words, rules.json reading.wordCount says \(want.words)") }
            let fits = Int((Double(got.maxTokens) * rules.wordsPerToken).rounded(.down))
            if got.words.upperBound > fits {
                v.append(
                    "\(tier.rawValue): a \(got.words.upperBound)-word reading does not fit \(got.maxTokens) tokens (at most \(fits) words at \(rules.wordsPerToken) words per token): the model would cut it off"
                )
            }
        }
        return v
    }

    /// §8.2/§9.1: every feature of each tier as rules.json `entitlements.tiers` gives it,
    /// retrograde alerts, history and the weekly outlook included.
    package static func featureViolations(_ features: (SubscriptionTier) -> AuraRules.TierEntitlements, rules: AuraRules) -> [String] {
        var v: [String] = []
        for tier in SubscriptionTier.allCases {
            let got = features(tier), want = rules.tiers[tier]!
            if got.retrogradeAlerts != want.retrogradeAlerts {
                v.append("\(tier.rawValue): retrogradeAlerts \(got.retrogradeAlerts), expected \(want.retrogradeAlerts)")
            }
            if got.canViewHistoricalData != want.canViewHistoricalData {
                v.append("\(tier.rawValue): canViewHistoricalData \(got.canViewHistoricalData), expected \(want.canViewHistoricalData)")
            }
            if got.canAccessPremiumContent != want.canAccessPremiumContent {
                v.append("\(tier.rawValue): canAccessPremiumContent \(got.canAccessPremiumContent), expected \(want.canAccessPremiumContent)")
            }
            if got.weeklyOutlookDays != want.weeklyOutlookDays {
                v.append("\(tier.rawValue): weekly outlook of \(got.weeklyOutlookDays) days, expected \(want.weeklyOutlookDays)")
            }
            if Set(got.categories) != Set(want.categories) {
                v.append("\(tier.rawValue): categories \(got.categories.map(\.rawValue)), expected \(want.categories.map(\.rawValue))")
            }
            if got.readingLength != want.readingLength {
                v.append("\(tier.rawValue): reading length \(got.readingLength.rawValue), expected \(want.readingLength.rawValue)")
            }
        }
        return v
    }

    /// A failure reading the subscription (RevenueCat's customerInfo, or the subscriptions row).
    public struct StatusUnavailable: Error, Sendable {
        public init() {}
    }

    /// §8.1 `checkStatus()`: the tier of the subscription read, and `entitlements.statusOnError`
    /// (free) when reading it fails, never an error and never premium. `checkStatus` gets a
    /// reader that returns the row (nil: none) or throws, and the time to judge expiry at.
    package static func statusViolations(_ checkStatus: (_ read: () throws -> [String: JSONValue]?, _ now: Date) -> SubscriptionTier, rules: AuraRules)
        -> [String]
    {
        var v: [String] = []
        let onError = checkStatus({ throw StatusUnavailable() }, rules.entitlementCasesNow)
        if onError != rules.statusOnError { v.append("a failing read gives \(onError.rawValue), §8.1 falls back to \(rules.statusOnError.rawValue)") }
        for c in rules.entitlementCases {
            let got = checkStatus({ c.subscription }, rules.entitlementCasesNow)
            let want = SubscriptionStatus.tier(row: c.subscription, now: rules.entitlementCasesNow, rules: rules)
            if got != want { v.append("\(c.subscription.map { JSONValue.object($0).serialized() } ?? "no row"): \(got.rawValue), expected \(want.rawValue)") }
        }
        return v
    }
}
