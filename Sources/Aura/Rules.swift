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
        /// The birth date.
        package var date: PGDate
        /// The expected sign.
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
        /// The strength.
        package var strength: String
        /// The weakness.
        package var weakness: String
    }

    /// An inclusive integer range.
    package struct IntRange: Sendable, Equatable {
        /// Lower bound.
        package var min: Int
        /// Upper bound.
        package var max: Int
        /// The range as a Swift closed range.
        package var closed: ClosedRange<Int> { min...max }
    }

    /// A fortune-score colour band of the FortuneCard.
    package struct FortuneBand: Sendable, Equatable {
        /// The range of scores.
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
        /// Whether retrograde alerts are on.
        package var retrogradeAlerts: Bool
    }

    /// A documented subscription row → expected tier.
    package struct EntitlementCase: Sendable, Equatable {
        /// The row (`tier`, `is_active`, `expires_at`), or nil for no row.
        package var subscription: [String: JSONValue]?
        /// The expected tier.
        package var tier: SubscriptionTier
        /// Where the case comes from.
        package var source: String
    }

    /// A BEFORE UPDATE trigger that stamps a column with now().
    package struct TimestampTrigger: Sendable, Equatable {
        /// Trigger name (`users_updated_at`).
        package var name: String
        /// Table.
        package var table: String
        /// Column set to now().
        package var column: String
    }

    /// The zodiac table in document order.
    package var signs: [SignRange]
    /// The documented zodiac cases.
    package var zodiacCases: [ZodiacCase]
    /// Allowed dimension score range.
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
    /// Reading categories.
    package var categories: [SituationCategory]
    /// The column's allowed fortune range (CHECK).
    package var fortuneScore: IntRange
    /// The range generated scores fall in.
    package var generatedFortune: IntRange
    /// The FortuneCard colour bands.
    package var fortuneBands: [FortuneBand]
    /// How many lucky numbers.
    package var luckyNumberCount: Int
    /// Their range.
    package var luckyNumberRange: IntRange
    /// Whether they are distinct.
    package var luckyNumbersDistinct: Bool
    /// The power colours.
    package var powerColors: [String]
    /// Word-count range per tier.
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
    /// The `now` of the entitlement cases.
    package var entitlementCasesNow: Date
    /// The updated_at triggers.
    package var triggers: [TimestampTrigger]

    /// Loads `rules.json` from an app's contracts folder (default: `Contracts/aura`).
    package static func load(folder: URL = ContractsLocator.app(AuraApp.name)) throws -> AuraRules {
        try decode(try SpecNode.load(folder.appendingPathComponent("rules.json"), displayName: "Contracts/aura/rules.json"))
    }

    /// Decodes a parsed rules.json.
    package static func decode(_ root: SpecNode) throws -> AuraRules {
        try root.object { o in
            _ = o.optional("app"); _ = o.optional("source")
            var r = AuraRules(
                signs: [], zodiacCases: [], scoreRange: IntRange(min: 0, max: 0), dimensions: [], types: [],
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
                        return SignRange(
                            sign: try sign(try s.required("sign")), from: try monthDay(try s.required("from")), to: try monthDay(try s.required("to")))
                    }
                }
                r.zodiacCases = try z.required("cases").array().map { n in
                    try n.object { c in
                        ZodiacCase(
                            date: try calendarDate(try c.required("date")), sign: try sign(try c.required("sign")),
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
                        return Dimension(
                            name: try d.required("dimension").string(), positive: try letter(try d.required("positive")),
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
                        throw n.fail(
                            "\(t) lists \(r.cognitiveFunctions[t]?.count ?? 0) functions; positions \(r.functionPositions.min)-\(r.functionPositions.max) need \(stackSize)"
                        )
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
                        FortuneBand(
                            range: IntRange(min: try b.required("min").int(), max: try b.required("max").int()), color: try b.required("color").string())
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
                        return TierEntitlements(
                            canAccessPremiumContent: try t.required("canAccessPremiumContent").bool(),
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
                    return TimestampTrigger(
                        name: try t.required("name").string(), table: try t.required("table").string(), column: try t.required("column").string())
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
