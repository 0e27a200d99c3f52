import Foundation
import MockBinding

/// A deterministic stand-in for §3.2's OpenAI call and random draws: the same seed and inputs
/// always give the same text, fortune score and lucky numbers, within the limits of rules.json
/// (word counts per tier, generated fortune range, lucky-number count and range).
package struct HoroscopeStandIn: Sendable {
    /// What one generation produces.
    package struct Output: Sendable, Equatable {
        /// The reading text.
        package var content: String
        package var fortuneScore: Int
        /// Lucky numbers, ascending.
        package var luckyNumbers: [Int]
        package var powerColors: [String]
    }

    package let rules: AuraRules
    /// The seed mixed into every draw.
    package let seed: UInt64

    package init(rules: AuraRules, seed: UInt64 = 0) {
        self.rules = rules
        self.seed = seed
    }

    /// Words of a text: maximal runs of non-whitespace.
    package static func wordCount(_ text: String) -> Int {
        text.split(whereSeparator: { $0.isWhitespace }).count
    }

    /// Generates the reading of one user, day, category and length.
    package func generate(
        userID: String, date: PGDate, zodiac: ZodiacSign, mbti: MBTIType,
        category: SituationCategory, length: SubscriptionTier
    ) -> Output {
        var rng = SeededRandom(
            seed: seed ^ SeededRandom.fnv1a("\(userID)|\(date)|\(category.rawValue)|\(length.rawValue)|\(zodiac.rawValue)|\(mbti.rawValue)".utf8))
        let range = rules.wordCount[length]!
        let target = rng.modulo(in: range.closed)
        let sign = zodiac.rawValue.prefix(1).uppercased() + zodiac.rawValue.dropFirst()
        let focus = HoroscopeStandIn.focus[category] ?? ["your day"]
        var words: [Substring] = []
        var order = Array(HoroscopeStandIn.templates.indices)
        while true {
            if order.isEmpty { order = Array(HoroscopeStandIn.templates.indices) }
            let t = order.remove(at: rng.modulo(in: 0...(order.count - 1)))
            let sentence = HoroscopeStandIn.templates[t]
                .replacingOccurrences(of: "{Sign}", with: sign)
                .replacingOccurrences(of: "{type}", with: mbti.rawValue)
                .replacingOccurrences(of: "{category}", with: category.rawValue.lowercased())
                .replacingOccurrences(of: "{focus}", with: focus[rng.modulo(in: 0...(focus.count - 1))])
            let w = sentence.split(whereSeparator: { $0.isWhitespace })
            if words.count >= target || words.count + w.count > range.max { break }
            words += w
        }
        // Whole sentences land within the range whenever a sentence is shorter than the range is
        // wide; for narrower ranges, pad or trim word by word so the count is always in range.
        var filler = 0
        while words.count < range.min {
            words.append(Substring(HoroscopeStandIn.filler[filler % HoroscopeStandIn.filler.count]))
            filler += 1
        }
        if words.count > range.max { words = Array(words.prefix(range.max)) }
        let content = words.joined(separator: " ")

        let g = rules.generatedFortune
        let score = rng.modulo(in: g.closed)
        var numbers: [Int] = []
        let lr = rules.luckyNumberRange
        while numbers.count < rules.luckyNumberCount {
            let n = rng.modulo(in: lr.closed)
            if rules.luckyNumbersDistinct && numbers.contains(n) { continue }
            numbers.append(n)
        }
        return Output(content: content, fortuneScore: score, luckyNumbers: numbers.sorted(), powerColors: rules.powerColors)
    }

    static let templates = [
        "{Sign} energy meets your {type} instincts today, and {focus} is where it shows first.",
        "The Moon asks you to slow down around {focus}; a calm hour now saves a hectic evening later.",
        "As a {type}, you notice patterns others miss, so trust what you see in {focus}.",
        "Cosmic context: the planets favour steady steps over grand gestures in {category} matters.",
        "Your next step is simple: write down one thing about {focus} you want to be true by Friday.",
        "{Sign} is known for its resolve, and that resolve carries you through a small test today.",
        "Someone close may offer an idea about {focus}; listen fully before you answer.",
        "Let your {type} preferences guide the pace, but leave room for one surprise.",
        "Energy peaks in the early afternoon, which makes it the best moment to act on {focus}.",
        "Keep your promises small and your follow-through strong; that is how {category} momentum builds.",
        "A conversation you have postponed is ready to happen, and you are ready for it too.",
        "Notice what drains you and what restores you, then give the second a little more space.",
        "{Sign} and {type} together point to a practical truth: progress beats perfection today.",
        "Before the day ends, thank one person who helped with {focus}; the gesture comes back to you."
    ]

    static let focus: [SituationCategory: [String]] = [
        .career: ["your work", "a project you care about", "a decision at work", "your next career move"],
        .love: ["your relationships", "someone you care about", "an honest conversation", "your heart"],
        .social: ["your friendships", "a group plan", "a new connection", "your wider circle"],
        .health: ["your routine", "your sleep", "how you move your body", "your energy"],
        .personalGrowth: ["a habit you are building", "something you are learning", "your inner voice", "a long-term goal"]
    ]

    static let filler = ["Trust", "the", "process", "and", "keep", "going."]
}
