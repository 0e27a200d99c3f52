import Foundation
import MockBinding

/// Aura's domain rules, read from `Contracts/aura/rules.json` (zodiac table, MBTI sign convention,
/// reading generation limits, free/premium entitlements, updated_at triggers).
///
/// Every threshold lives in the file; this type only decodes it strictly (unknown keys and bad
/// values are errors naming the file and JSON path).
package struct AuraRules: Sendable, Equatable {
    /// One sign's inclusive range of month-days; a range may wrap the year end (capricorn).
    package struct SignRange: Sendable, Equatable {
        /// The sign (`aries`).
        package var sign: ZodiacSign
        /// First day, inclusive.
        package var from: MonthDay
        /// Last day, inclusive.
        package var to: MonthDay
    }

    /// A documented input → expected sign.
    package struct ZodiacCase: Sendable, Equatable {
        package var date: PGDate
        package var sign: ZodiacSign
        /// Where the case comes from.
        package var source: String
    }

    /// One MBTI dimension and its sign convention.
    package struct Dimension: Sendable, Equatable {
        /// `E/I`, `S/N`, `T/F` or `J/P`.
        package var name: String
        /// The letter a positive score gives.
        package var positive: Character
        /// The letter a negative score gives.
        package var negative: Character
        /// The letter a score of exactly 0 gives.
        package var tie: Character
    }

    /// A documented score sheet → expected type.
    package struct MBTICase: Sendable, Equatable {
        /// Score per dimension.
        package var scores: [String: Double]
        /// The expected type code.
        package var type: String
        /// Where the case comes from.
        package var source: String
    }

    /// A strength and a weakness attached to one MBTI letter.
    package struct LetterTrait: Sendable, Equatable {
        package var strength: String
        package var weakness: String
    }

    /// An inclusive integer range.
    package struct IntRange: Sendable, Equatable {
        /// Lower bound.
        package var min: Int
        /// Upper bound.
        package var max: Int
        package var closed: ClosedRange<Int> { min...max }
    }

    /// A fortune-score colour band of the FortuneCard.
    package struct FortuneBand: Sendable, Equatable {
        package var range: IntRange
        /// The colour name.
        package var color: String
    }

    /// What one tier may do.
    package struct TierEntitlements: Sendable, Equatable {
        /// §9.1 `canAccessPremiumContent`.
        package var canAccessPremiumContent: Bool
        /// §9.1 `canViewHistoricalData`.
        package var canViewHistoricalData: Bool
        /// Categories the tier may generate readings for.
        package var categories: [SituationCategory]
        /// Which word-count range applies (`free` or `premium`).
        package var readingLength: SubscriptionTier
        /// Days of the weekly outlook shown.
        package var weeklyOutlookDays: Int
        package var retrogradeAlerts: Bool
    }

    /// A documented subscription row → expected tier.
    package struct EntitlementCase: Sendable, Equatable {
        /// The row (`tier`, `is_active`, `expires_at`), or nil for no row.
        package var subscription: [String: JSONValue]?
        package var tier: SubscriptionTier
        /// Where the case comes from.
        package var source: String
    }

    /// A BEFORE UPDATE trigger that stamps a column with now().
    package struct TimestampTrigger: Sendable, Equatable {
        /// Trigger name (`users_updated_at`).
        package var name: String
        package var table: String
        /// Column set to now().
        package var column: String
    }

    /// The zodiac table in document order.
    package var signs: [SignRange]
    /// The documented zodiac cases.
    package var zodiacCases: [ZodiacCase]
    package var scoreRange: IntRange
    /// The four dimensions in type-code order.
    package var dimensions: [Dimension]
    /// The 16 type codes.
    package var types: [String]
    /// Cognitive function stack per type (dominant first).
    package var cognitiveFunctions: [String: [String]]
    /// CognitiveFunction.position of the dominant and inferior function (§2.1 "1-4").
    package var functionPositions = IntRange(min: 1, max: 4)
    /// Strength and weakness per letter.
    package var letterTraits: [Character: LetterTrait]
    /// The documented MBTI cases.
    package var mbtiCases: [MBTICase]
    package var categories: [SituationCategory]
    /// The column's allowed fortune range (CHECK).
    package var fortuneScore: IntRange
    /// The range generated scores fall in.
    package var generatedFortune: IntRange
    /// The FortuneCard colour bands.
    package var fortuneBands: [FortuneBand]
    package var luckyNumberCount: Int
    /// Their range.
    package var luckyNumberRange: IntRange
    /// Whether they are distinct.
    package var luckyNumbersDistinct: Bool
    package var powerColors: [String]
    package var wordCount: [SubscriptionTier: IntRange]
    /// Token budget per tier (§3.2 max_tokens).
    package var maxTokens: [SubscriptionTier: Int]
    /// Words one token carries at most, for the check that a tier's longest reading fits its
    /// token budget (`reading.tokenBudget.wordsPerToken`).
    package var wordsPerToken: Double = 0
    /// The tier `checkStatus()` falls back to when the subscription cannot be read (§8.1).
    package var statusOnError: SubscriptionTier = .free
    /// Who enforces each paid feature (`entitlements.enforcement`).
    package var enforcement = PaywallEnforcement()
    /// Premium needs this tier value…
    package var premiumTierValue: String
    /// …an active flag equal to this…
    package var premiumRequiresActive: Bool
    /// …and, when true, expires_at NULL or after now.
    package var premiumRequiresUnexpired: Bool
    /// Entitlements per tier.
    package var tiers: [SubscriptionTier: TierEntitlements]
    /// The documented entitlement cases and the time they are evaluated at.
    package var entitlementCases: [EntitlementCase]
    package var entitlementCasesNow: Date
    /// The updated_at triggers.
    package var triggers: [TimestampTrigger]

    /// Loads `rules.json` from an app's contracts folder (default: `Contracts/aura`).
    package static func load(folder: URL = ContractsLocator.app(AuraApp.name)) throws -> AuraRules {
        // Once per folder while `LoadedSpecs` are bound: every backend's registration reads it.
        try LoadedSpecs.value("aura-rules", folder: folder) {
            try SpecNode.decode(AuraRules.self, from: folder.appendingPathComponent("rules.json"), displayName: "Contracts/aura/rules.json")
        }
    }
}

extension AuraRules: Decodable {
    enum CodingKeys: String, CodingKey, CaseIterable { case app, source, zodiac, mbti, reading, entitlements, triggers }
    enum ZodiacKeys: String, CodingKey, CaseIterable { case doc, decision, signs, cases }
    enum MBTIKeys: String, CodingKey, CaseIterable {
        case doc, decisions, cognitiveFunctionsDecision, letterTraitsDecision, scoreRange, aggregation, dimensions, types, functionPositions
        case cognitiveFunctions, letterTraits, cases
    }
    enum ReadingKeys: String, CodingKey, CaseIterable {
        case doc, decisions, fortuneBandsDoc, categories, fortuneScore, fortuneBands, luckyNumbers, powerColors, wordCount, maxTokens, tokenBudget
    }
    enum FortuneKeys: String, CodingKey, CaseIterable { case decision, min, max, generatedMin, generatedMax }
    enum LuckyKeys: String, CodingKey, CaseIterable { case decision, count, min, max, distinct }
    enum BudgetKeys: String, CodingKey, CaseIterable { case decision, wordsPerToken }
    enum EntitlementKeys: String, CodingKey, CaseIterable { case doc, decisions, premiumWhen, tiers, cases, statusOnError, enforcement, casesNow }
    enum PremiumKeys: String, CodingKey, CaseIterable { case decision, tier, isActive, expiresAfterNow }
    enum StatusKeys: String, CodingKey, CaseIterable { case decision, tier }

    /// rules.json: every section present, dimensions consistent, a stack per type, every tier
    /// with entitlements, a word count and a token budget.
    package init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let z = try c.nestedContainer(keyedBy: ZodiacKeys.self, forKey: .zodiac)
        signs = try z.decode([SignRange].self, forKey: .signs)
        zodiacCases = try z.decode([ZodiacCase].self, forKey: .cases)

        let m = try c.nestedContainer(keyedBy: MBTIKeys.self, forKey: .mbti)
        scoreRange = try m.decode(IntRange.self, forKey: .scoreRange)
        let aggregation = try m.decode(String.self, forKey: .aggregation)
        guard aggregation == "mean" else { throw m.fail(.aggregation, "unknown aggregation '\(aggregation)' (supported: mean)") }
        dimensions = try m.decode([Dimension].self, forKey: .dimensions)
        for (i, d) in dimensions.enumerated() where !(d.tie == d.positive || d.tie == d.negative) || d.positive == d.negative {
            throw m.fail([MBTIKeys.dimensions, AnyKey(intValue: i)!], "positive, negative must differ and tie must be one of them")
        }
        types = try m.decode([String].self, forKey: .types)
        functionPositions = try m.decode(IntRange.self, forKey: .functionPositions)
        cognitiveFunctions = [:]
        letterTraits = [:]
        let stackSize = functionPositions.max - functionPositions.min + 1
        for (t, stack) in try m.decode([String: [String]].self, forKey: .cognitiveFunctions).sorted(by: { $0.key < $1.key }) {
            let at: [CodingKey] = [MBTIKeys.cognitiveFunctions, AnyKey(t)]
            guard types.contains(t) else { throw m.fail(at, "unknown type '\(t)'") }
            guard stack.count == stackSize else {
                throw m.fail(at, "\(t) lists \(stack.count) functions; positions \(functionPositions.min)-\(functionPositions.max) need \(stackSize)")
            }
            cognitiveFunctions[t] = stack
        }
        for (k, trait) in try m.decode([String: LetterTrait].self, forKey: .letterTraits).sorted(by: { $0.key < $1.key }) {
            guard k.count == 1 else { throw m.fail([MBTIKeys.letterTraits, AnyKey(k)], "a letter trait key is one letter") }
            letterTraits[Character(k)] = trait
        }
        mbtiCases = try m.decode([MBTICase].self, forKey: .cases)

        let rd = try c.nestedContainer(keyedBy: ReadingKeys.self, forKey: .reading)
        categories = try rd.categories(.categories)
        let f = try rd.nestedContainer(keyedBy: FortuneKeys.self, forKey: .fortuneScore)
        fortuneScore = IntRange(min: try f.decode(Int.self, forKey: .min), max: try f.decode(Int.self, forKey: .max))
        generatedFortune = IntRange(min: try f.decode(Int.self, forKey: .generatedMin), max: try f.decode(Int.self, forKey: .generatedMax))
        fortuneBands = try rd.decode([FortuneBand].self, forKey: .fortuneBands)
        let l = try rd.nestedContainer(keyedBy: LuckyKeys.self, forKey: .luckyNumbers)
        luckyNumberCount = try l.decode(Int.self, forKey: .count)
        luckyNumberRange = IntRange(min: try l.decode(Int.self, forKey: .min), max: try l.decode(Int.self, forKey: .max))
        luckyNumbersDistinct = try l.decode(Bool.self, forKey: .distinct)
        powerColors = try rd.decode([String].self, forKey: .powerColors)
        wordCount = try rd.byTier(IntRange.self, .wordCount)
        maxTokens = try rd.byTier(Int.self, .maxTokens)
        let budget = try rd.nestedContainer(keyedBy: BudgetKeys.self, forKey: .tokenBudget)
        wordsPerToken = try budget.decode(Double.self, forKey: .wordsPerToken)
        if wordsPerToken <= 0 { throw budget.fail(.wordsPerToken, "must be positive") }

        let e = try c.nestedContainer(keyedBy: EntitlementKeys.self, forKey: .entitlements)
        let p = try e.nestedContainer(keyedBy: PremiumKeys.self, forKey: .premiumWhen)
        premiumTierValue = try p.decode(String.self, forKey: .tier)
        premiumRequiresActive = try p.decode(Bool.self, forKey: .isActive)
        premiumRequiresUnexpired = try p.decode(Bool.self, forKey: .expiresAfterNow)
        tiers = try e.byTier(TierEntitlements.self, .tiers)
        entitlementCases = try e.decode([EntitlementCase].self, forKey: .cases)
        statusOnError = try e.nestedContainer(keyedBy: StatusKeys.self, forKey: .statusOnError).tier(.tier)
        enforcement = try e.decode(PaywallEnforcement.self, forKey: .enforcement)
        entitlementCasesNow = try e.parsed(.casesNow, { _ in "not a timestamp" }) { PGTime.parseTimestamp($0, assumeUTC: true).map(PGTime.date(micros:)) }

        triggers = try c.decode([TimestampTrigger].self, forKey: .triggers)
        for t in SubscriptionTier.allCases where tiers[t] == nil || wordCount[t] == nil || maxTokens[t] == nil {
            throw decoder.fail("tier '\(t.rawValue)' needs entitlements.tiers, reading.wordCount and reading.maxTokens entries")
        }
    }
}

extension KeyedDecodingContainer {
    /// A string member read by `parse`; nil from it is an error at the member saying `message`.
    fileprivate func parsed<T>(_ key: Key, _ message: (String) -> String, _ parse: (String) -> T?) throws -> T {
        let s = try decode(String.self, forKey: key)
        guard let v = parse(s) else { throw fail(key, message(s)) }
        return v
    }
    fileprivate func sign(_ key: Key) throws -> ZodiacSign { try parsed(key, { "unknown zodiac sign '\($0)'" }, ZodiacSign.init(rawValue:)) }
    fileprivate func tier(_ key: Key) throws -> SubscriptionTier {
        try parsed(key, { "unknown tier '\($0)' (free, premium)" }, SubscriptionTier.init(rawValue:))
    }
    fileprivate func letter(_ key: Key) throws -> Character { try parsed(key, { _ in "expected one letter" }) { $0.count == 1 ? Character($0) : nil } }
    fileprivate func categories(_ key: Key) throws -> [SituationCategory] {
        try decode([String].self, forKey: key).enumerated().map { i, s in
            guard let v = SituationCategory(rawValue: s) else { throw fail([key, AnyKey(intValue: i)!], "unknown category '\(s)'") }
            return v
        }
    }
    /// A map by tier name (`free`, `premium`).
    fileprivate func byTier<T: Decodable>(_ type: T.Type, _ key: Key) throws -> [SubscriptionTier: T] {
        var out: [SubscriptionTier: T] = [:]
        for (name, v) in try decode([String: T].self, forKey: key).sorted(by: { $0.key < $1.key }) {
            guard let t = SubscriptionTier(rawValue: name) else { throw fail([key, AnyKey(name)], "unknown tier '\(name)' (free, premium)") }
            out[t] = v
        }
        return out
    }
}

extension AuraRules.SignRange: Decodable {
    enum CodingKeys: String, CodingKey, CaseIterable { case sign, from, to, decision, doc }
    package init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        sign = try c.sign(.sign)
        from = try c.parsed(.from, { "expected MM-DD, found '\($0)'" }, MonthDay.init)
        to = try c.parsed(.to, { "expected MM-DD, found '\($0)'" }, MonthDay.init)
    }
}

extension AuraRules.ZodiacCase: Decodable {
    enum CodingKeys: String, CodingKey, CaseIterable { case date, sign, source }
    package init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        date = try c.parsed(.date, { "expected YYYY-MM-DD, found '\($0)'" }, PGDate.init)
        sign = try c.sign(.sign)
        source = try c.decodeIfPresent(String.self, forKey: .source) ?? ""
    }
}

extension AuraRules.Dimension: Decodable {
    enum CodingKeys: String, CodingKey, CaseIterable { case dimension, positive, negative, tie, doc }
    package init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        name = try c.decode(String.self, forKey: .dimension)
        positive = try c.letter(.positive)
        negative = try c.letter(.negative)
        tie = try c.letter(.tie)
    }
}

extension AuraRules.MBTICase: Decodable {
    enum CodingKeys: String, CodingKey, CaseIterable { case scores, type, source }
    package init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        scores = try c.decode([String: Double].self, forKey: .scores)
        type = try c.decode(String.self, forKey: .type)
        source = try c.decodeIfPresent(String.self, forKey: .source) ?? ""
    }
}

extension AuraRules.LetterTrait: Decodable {}

extension AuraRules.IntRange: Decodable, ContractChecked {
    /// `{"min", "max"}` with min ≤ max.
    package func validate(_ decoder: Decoder) throws { if min > max { throw decoder.fail("min is greater than max") } }
}

extension AuraRules.FortuneBand: Decodable {
    enum CodingKeys: String, CodingKey, CaseIterable { case min, max, color }
    package init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        range = AuraRules.IntRange(min: try c.decode(Int.self, forKey: .min), max: try c.decode(Int.self, forKey: .max))
        color = try c.decode(String.self, forKey: .color)
    }
}

extension AuraRules.TierEntitlements: Decodable {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case readingLength, canAccessPremiumContent, canViewHistoricalData, categories, weeklyOutlookDays, retrogradeAlerts
    }
    package init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        canAccessPremiumContent = try c.decode(Bool.self, forKey: .canAccessPremiumContent)
        canViewHistoricalData = try c.decode(Bool.self, forKey: .canViewHistoricalData)
        categories = try c.categories(.categories)
        readingLength = try c.tier(.readingLength)
        weeklyOutlookDays = try c.decode(Int.self, forKey: .weeklyOutlookDays)
        retrogradeAlerts = try c.decode(Bool.self, forKey: .retrogradeAlerts)
    }
}

extension AuraRules.EntitlementCase: Decodable {
    enum CodingKeys: String, CodingKey, CaseIterable { case subscription, tier, source }
    package init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        if let s = try c.decodeIfPresent(JSONValue.self, forKey: .subscription) {
            guard case .object(let row) = s else { throw c.fail(.subscription, "expected an object or null") }
            subscription = row
        }
        tier = try c.tier(.tier)
        source = try c.decodeIfPresent(String.self, forKey: .source) ?? ""
    }
}

extension AuraRules.TimestampTrigger: Decodable {}

/// A month and day (`03-21`), ordered through the year.
package struct MonthDay: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// 1…12.
    package var month: Int
    /// 1…31.
    package var day: Int

    /// A month-day; nil when the day does not exist in a leap year.
    package init?(month: Int, day: Int) {
        guard (1...12).contains(month), day >= 1, day <= PGDate.daysInMonth(month, leap: true) else { return nil }
        self.month = month
        self.day = day
    }

    /// Parses `MM-DD`.
    package init?(_ text: String) {
        let p = text.split(separator: "-")
        guard p.count == 2, p[0].count == 2, p[1].count == 2, let m = Int(p[0]), let d = Int(p[1]) else { return nil }
        self.init(month: m, day: d)
    }

    package static func < (a: MonthDay, b: MonthDay) -> Bool { (a.month, a.day) < (b.month, b.day) }
    package var description: String { String(format: "%02d-%02d", month, day) }
}

extension PGDate {
    /// Month and day (the zodiac's calendar).
    package var monthDay: MonthDay { MonthDay(month: month, day: day)! }
}
