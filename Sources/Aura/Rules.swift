import Foundation
import ContractKit

/// Aura's domain rules, read from `Contracts/aura/rules.json` (zodiac table, MBTI sign convention,
/// reading generation limits, free/premium entitlements, updated_at triggers).
///
/// Every threshold lives in the file; this type only decodes it strictly (unknown keys and bad
/// values are errors naming the file and JSON path).
public struct AuraRules: Sendable, Equatable {
    /// One sign's inclusive range of month-days; a range may wrap the year end (capricorn).
    public struct SignRange: Sendable, Equatable {
        /// The sign (`aries`).
        public var sign: ZodiacSign
        /// First day, inclusive.
        public var from: MonthDay
        /// Last day, inclusive.
        public var to: MonthDay
    }

    /// A documented input → expected sign.
    public struct ZodiacCase: Sendable, Equatable {
        /// The birth date.
        public var date: PGDate
        /// The expected sign.
        public var sign: ZodiacSign
        /// Where the case comes from.
        public var source: String
    }

    /// One MBTI dimension and its sign convention.
    public struct Dimension: Sendable, Equatable {
        /// `E/I`, `S/N`, `T/F` or `J/P`.
        public var name: String
        /// The letter a positive score gives.
        public var positive: Character
        /// The letter a negative score gives.
        public var negative: Character
        /// The letter a score of exactly 0 gives.
        public var tie: Character
    }

    /// A documented score sheet → expected type.
    public struct MBTICase: Sendable, Equatable {
        /// Score per dimension.
        public var scores: [String: Double]
        /// The expected type code.
        public var type: String
        /// Where the case comes from.
        public var source: String
    }

    /// A strength and a weakness attached to one MBTI letter.
    public struct LetterTrait: Sendable, Equatable {
        /// The strength.
        public var strength: String
        /// The weakness.
        public var weakness: String
    }

    /// An inclusive integer range.
    public struct IntRange: Sendable, Equatable {
        /// Lower bound.
        public var min: Int
        /// Upper bound.
        public var max: Int
        /// The range as a Swift closed range.
        public var closed: ClosedRange<Int> { min...max }
    }

    /// A fortune-score colour band of the FortuneCard.
    public struct FortuneBand: Sendable, Equatable {
        /// The range of scores.
        public var range: IntRange
        /// The colour name.
        public var color: String
    }

    /// What one tier may do.
    public struct TierEntitlements: Sendable, Equatable {
        /// §9.1 `canAccessPremiumContent`.
        public var canAccessPremiumContent: Bool
        /// §9.1 `canViewHistoricalData`.
        public var canViewHistoricalData: Bool
        /// Categories the tier may generate readings for.
        public var categories: [SituationCategory]
        /// Which word-count range applies (`free` or `premium`).
        public var readingLength: SubscriptionTier
        /// Days of the weekly outlook shown.
        public var weeklyOutlookDays: Int
        /// Whether retrograde alerts are on.
        public var retrogradeAlerts: Bool
    }

    /// A documented subscription row → expected tier.
    public struct EntitlementCase: Sendable, Equatable {
        /// The row (`tier`, `is_active`, `expires_at`), or nil for no row.
        public var subscription: [String: JSONValue]?
        /// The expected tier.
        public var tier: SubscriptionTier
        /// Where the case comes from.
        public var source: String
    }

    /// A BEFORE UPDATE trigger that stamps a column with now().
    public struct TimestampTrigger: Sendable, Equatable {
        /// Trigger name (`users_updated_at`).
        public var name: String
        /// Table.
        public var table: String
        /// Column set to now().
        public var column: String
    }

    /// The zodiac table in document order.
    public var signs: [SignRange]
    /// The documented zodiac cases.
    public var zodiacCases: [ZodiacCase]
    /// Allowed dimension score range.
    public var scoreRange: IntRange
    /// The four dimensions in type-code order.
    public var dimensions: [Dimension]
    /// The 16 type codes.
    public var types: [String]
    /// Cognitive function stack per type (dominant first).
    public var cognitiveFunctions: [String: [String]]
    /// CognitiveFunction.position of the dominant and inferior function (§2.1 "1-4").
    public var functionPositions = IntRange(min: 1, max: 4)
    /// Strength and weakness per letter.
    public var letterTraits: [Character: LetterTrait]
    /// The documented MBTI cases.
    public var mbtiCases: [MBTICase]
    /// Reading categories.
    public var categories: [SituationCategory]
    /// The column's allowed fortune range (CHECK).
    public var fortuneScore: IntRange
    /// The range generated scores fall in.
    public var generatedFortune: IntRange
    /// The FortuneCard colour bands.
    public var fortuneBands: [FortuneBand]
    /// How many lucky numbers.
    public var luckyNumberCount: Int
    /// Their range.
    public var luckyNumberRange: IntRange
    /// Whether they are distinct.
    public var luckyNumbersDistinct: Bool
    /// The power colours.
    public var powerColors: [String]
    /// Word-count range per tier.
    public var wordCount: [SubscriptionTier: IntRange]
    /// Token budget per tier (§3.2 max_tokens).
    public var maxTokens: [SubscriptionTier: Int]
    /// Words one token carries at most, for the check that a tier's longest reading fits its
    /// token budget (`reading.tokenBudget.wordsPerToken`).
    public var wordsPerToken: Double = 0
    /// The tier `checkStatus()` falls back to when the subscription cannot be read (§8.1).
    public var statusOnError: SubscriptionTier = .free
    /// Who enforces each paid feature (`entitlements.enforcement`).
    public var enforcement = PaywallEnforcement()
    /// Premium needs this tier value…
    public var premiumTierValue: String
    /// …an active flag equal to this…
    public var premiumRequiresActive: Bool
    /// …and, when true, expires_at NULL or after now.
    public var premiumRequiresUnexpired: Bool
    /// Entitlements per tier.
    public var tiers: [SubscriptionTier: TierEntitlements]
    /// The documented entitlement cases and the time they are evaluated at.
    public var entitlementCases: [EntitlementCase]
    /// The `now` of the entitlement cases.
    public var entitlementCasesNow: Date
    /// The updated_at triggers.
    public var triggers: [TimestampTrigger]

    /// Loads `rules.json` from an app's contracts folder (default: `Contracts/aura`).
    public static func load(folder: URL = ContractsLocator.app(AuraApp.name)) throws -> AuraRules {
        try decode(try SpecNode.load(folder.appendingPathComponent("rules.json"), displayName: "Contracts/aura/rules.json"))
    }

    /// Decodes a parsed rules.json.
    public static func decode(_ root: SpecNode) throws -> AuraRules {
        try root.object { o in
            _ = o.optional("app"); _ = o.optional("source")
            var r = AuraRules(signs: [], zodiacCases: [], scoreRange: IntRange(min: 0, max: 0), dimensions: [], types: [],
                              cognitiveFunctions: [:], letterTraits: [:], mbtiCases: [], categories: [],
                              fortuneScore: IntRange(min: 0, max: 0), generatedFortune: IntRange(min: 0, max: 0), fortuneBands: [],
                              luckyNumberCount: 0, luckyNumberRange: IntRange(min: 0, max: 0), luckyNumbersDistinct: false,
                              powerColors: [], wordCount: [:], maxTokens: [:], premiumTierValue: "", premiumRequiresActive: true,
                              premiumRequiresUnexpired: true, tiers: [:], entitlementCases: [], entitlementCasesNow: Date(timeIntervalSince1970: 0),
                              triggers: [])
            try o.required("zodiac").object { z in
                _ = z.optional("doc"); _ = z.optional("decision")
                r.signs = try z.required("signs").array().map { n in
                    try n.object { s in
                        _ = s.optional("decision"); _ = s.optional("doc")
                        return SignRange(sign: try sign(try s.required("sign")), from: try monthDay(try s.required("from")), to: try monthDay(try s.required("to")))
                    }
                }
                r.zodiacCases = try z.required("cases").array().map { n in
                    try n.object { c in
                        ZodiacCase(date: try calendarDate(try c.required("date")), sign: try sign(try c.required("sign")),
                                   source: try c.optional("source")?.string() ?? "")
                    }
                }
            }
            try o.required("mbti").object { m in
                _ = m.optional("doc"); _ = m.optional("decisions"); _ = m.optional("cognitiveFunctionsDecision"); _ = m.optional("letterTraitsDecision")
                r.scoreRange = try intRange(try m.required("scoreRange"))
                let agg = try m.required("aggregation")
                guard try agg.string() == "mean" else { throw agg.fail("unknown aggregation '\(try agg.string())' (supported: mean)") }
                r.dimensions = try m.required("dimensions").array().map { n in
                    try n.object { d in
                        _ = d.optional("doc")
                        return Dimension(name: try d.required("dimension").string(), positive: try letter(try d.required("positive")),
                                         negative: try letter(try d.required("negative")), tie: try letter(try d.required("tie")))
                    }
                }
                for (i, d) in r.dimensions.enumerated() where !(d.tie == d.positive || d.tie == d.negative) || d.positive == d.negative {
                    throw SpecError(file: root.file, path: "$.mbti.dimensions[\(i)]", message: "positive, negative must differ and tie must be one of them")
                }
                r.types = try m.required("types").strings()
                r.functionPositions = try intRange(try m.required("functionPositions"))
                let stackSize = r.functionPositions.max - r.functionPositions.min + 1
                for (t, n) in try m.required("cognitiveFunctions").map() {
                    guard r.types.contains(t) else { throw n.fail("unknown type '\(t)'") }
                    r.cognitiveFunctions[t] = try n.strings()
                    guard r.cognitiveFunctions[t]?.count == stackSize else {
                        throw n.fail("\(t) lists \(r.cognitiveFunctions[t]?.count ?? 0) functions; positions \(r.functionPositions.min)-\(r.functionPositions.max) need \(stackSize)")
                    }
                }
                for (k, n) in try m.required("letterTraits").map() {
                    guard k.count == 1 else { throw n.fail("a letter trait key is one letter") }
                    r.letterTraits[Character(k)] = try n.object { t in
                        LetterTrait(strength: try t.required("strength").string(), weakness: try t.required("weakness").string())
                    }
                }
                r.mbtiCases = try m.required("cases").array().map { n in
                    try n.object { c in
                        var scores: [String: Double] = [:]
                        for (k, v) in try c.required("scores").map() { scores[k] = try v.double() }
                        return MBTICase(scores: scores, type: try c.required("type").string(), source: try c.optional("source")?.string() ?? "")
                    }
                }
            }
            try o.required("reading").object { rd in
                _ = rd.optional("doc"); _ = rd.optional("decisions"); _ = rd.optional("fortuneBandsDoc")
                r.categories = try rd.required("categories").array().map(category)
                try rd.required("fortuneScore").object { f in
                    _ = f.optional("decision")
                    r.fortuneScore = IntRange(min: try f.required("min").int(), max: try f.required("max").int())
                    r.generatedFortune = IntRange(min: try f.required("generatedMin").int(), max: try f.required("generatedMax").int())
                }
                r.fortuneBands = try rd.required("fortuneBands").array().map { n in
                    try n.object { b in
                        FortuneBand(range: IntRange(min: try b.required("min").int(), max: try b.required("max").int()), color: try b.required("color").string())
                    }
                }
                try rd.required("luckyNumbers").object { l in
                    _ = l.optional("decision")
                    r.luckyNumberCount = try l.required("count").int()
                    r.luckyNumberRange = IntRange(min: try l.required("min").int(), max: try l.required("max").int())
                    r.luckyNumbersDistinct = try l.required("distinct").bool()
                }
                r.powerColors = try rd.required("powerColors").strings()
                for (k, n) in try rd.required("wordCount").map() { r.wordCount[try tier(k, n)] = try intRange(n) }
                for (k, n) in try rd.required("maxTokens").map() { r.maxTokens[try tier(k, n)] = try n.int() }
                r.wordsPerToken = try rd.required("tokenBudget").object { b in
                    _ = b.optional("decision")
                    let w = try b.required("wordsPerToken")
                    let v = try w.double()
                    if v <= 0 { throw w.fail("must be positive") }
                    return v
                }
            }
            try o.required("entitlements").object { e in
                _ = e.optional("doc"); _ = e.optional("decisions")
                try e.required("premiumWhen").object { p in
                    _ = p.optional("decision")
                    r.premiumTierValue = try p.required("tier").string()
                    r.premiumRequiresActive = try p.required("isActive").bool()
                    r.premiumRequiresUnexpired = try p.required("expiresAfterNow").bool()
                }
                for (k, n) in try e.required("tiers").map() {
                    r.tiers[try tier(k, n)] = try n.object { t in
                        let len = try t.required("readingLength")
                        return TierEntitlements(canAccessPremiumContent: try t.required("canAccessPremiumContent").bool(),
                                                canViewHistoricalData: try t.required("canViewHistoricalData").bool(),
                                                categories: try t.required("categories").array().map(category),
                                                readingLength: try tier(try len.string(), len),
                                                weeklyOutlookDays: try t.required("weeklyOutlookDays").int(),
                                                retrogradeAlerts: try t.required("retrogradeAlerts").bool())
                    }
                }
                r.entitlementCases = try e.required("cases").array().map { n in
                    try n.object { c in
                        var sub: [String: JSONValue]?
                        if let s = c.optional("subscription") {
                            guard case .object(let obj) = s.value else { throw s.fail("expected an object or null") }
                            sub = obj
                        }
                        let t = try c.required("tier")
                        return EntitlementCase(subscription: sub, tier: try tier(try t.string(), t), source: try c.optional("source")?.string() ?? "")
                    }
                }
                r.statusOnError = try e.required("statusOnError").object { so in
                    _ = so.optional("decision")
                    let t = try so.required("tier")
                    return try tier(try t.string(), t)
                }
                r.enforcement = try PaywallEnforcement.decode(try e.required("enforcement"))
                let nowNode = try e.required("casesNow")
                guard let us = PGTime.parseTimestamp(try nowNode.string(), assumeUTC: true) else { throw nowNode.fail("not a timestamp") }
                r.entitlementCasesNow = PGTime.date(micros: us)
            }
            r.triggers = try o.required("triggers").array().map { n in
                try n.object { t in
                    _ = t.optional("doc")
                    return TimestampTrigger(name: try t.required("name").string(), table: try t.required("table").string(), column: try t.required("column").string())
                }
            }
            for t in SubscriptionTier.allCases where r.tiers[t] == nil || r.wordCount[t] == nil || r.maxTokens[t] == nil {
                throw root.fail("tier '\(t.rawValue)' needs entitlements.tiers, reading.wordCount and reading.maxTokens entries")
            }
            return r
        }
    }

    static func sign(_ n: SpecNode) throws -> ZodiacSign {
        guard let s = ZodiacSign(rawValue: try n.string()) else { throw n.fail("unknown zodiac sign '\(try n.string())'") }
        return s
    }
    static func category(_ n: SpecNode) throws -> SituationCategory {
        guard let c = SituationCategory(rawValue: try n.string()) else { throw n.fail("unknown category '\(try n.string())'") }
        return c
    }
    static func tier(_ s: String, _ n: SpecNode) throws -> SubscriptionTier {
        guard let t = SubscriptionTier(rawValue: s) else { throw n.fail("unknown tier '\(s)' (free, premium)") }
        return t
    }
    static func letter(_ n: SpecNode) throws -> Character {
        let s = try n.string()
        guard s.count == 1 else { throw n.fail("expected one letter") }
        return Character(s)
    }
    static func monthDay(_ n: SpecNode) throws -> MonthDay {
        guard let md = MonthDay(try n.string()) else { throw n.fail("expected MM-DD, found '\(try n.string())'") }
        return md
    }
    static func calendarDate(_ n: SpecNode) throws -> PGDate {
        guard let d = PGDate(try n.string()) else { throw n.fail("expected YYYY-MM-DD, found '\(try n.string())'") }
        return d
    }
    static func intRange(_ n: SpecNode) throws -> IntRange {
        try n.object { o in
            let r = IntRange(min: try o.required("min").int(), max: try o.required("max").int())
            guard r.min <= r.max else { throw n.fail("min is greater than max") }
            return r
        }
    }
}

/// A month and day (`03-21`), ordered through the year.
public struct MonthDay: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// 1…12.
    public var month: Int
    /// 1…31.
    public var day: Int

    /// A month-day; nil when the day does not exist in a leap year.
    public init?(month: Int, day: Int) {
        guard (1...12).contains(month), day >= 1, day <= PGDate.daysInMonth(month, leap: true) else { return nil }
        self.month = month
        self.day = day
    }

    /// Parses `MM-DD`.
    public init?(_ text: String) {
        let p = text.split(separator: "-")
        guard p.count == 2, p[0].count == 2, p[1].count == 2, let m = Int(p[0]), let d = Int(p[1]) else { return nil }
        self.init(month: m, day: d)
    }

    public static func < (a: MonthDay, b: MonthDay) -> Bool { (a.month, a.day) < (b.month, b.day) }
    public var description: String { String(format: "%02d-%02d", month, day) }
}

extension PGDate {
    /// Month and day (the zodiac's calendar).
    public var monthDay: MonthDay { MonthDay(month: month, day: day)! }
}
