import Foundation
import MockBinding

// Table rows and §2.1's enums: Generated/TableModels.swift (contracts generate-models).

// MARK: - jsonb payloads of mbti_results (§2.1)

/// §2.1 `DimensionScore`: a dimension (`E/I`) and its score on -100…100.
public struct DimensionScore: Codable, Equatable, Sendable {
    /// `E/I`, `S/N`, `T/F` or `J/P`.
    public var dimension: String
    /// -100…100.
    public var score: Double

    public init(dimension: String, score: Double) {
        self.dimension = dimension
        self.score = score
    }
}

/// §2.1 `CognitiveFunction`: a function (`Ni`) and its position 1 (dominant) … 4 (inferior).
public struct CognitiveFunction: Codable, Equatable, Sendable {
    /// `Ni`, `Te`, …
    public var name: String
    /// 1…4.
    public var position: Int

    /// A function at a position.
    public init(name: String, position: Int) {
        self.name = name
        self.position = position
    }
}

// MARK: - Payloads (§3.2, §3.3)

/// The body of `POST /functions/v1/generate-horoscope` (§3.2 `req.json()`).
package struct GenerateHoroscopeRequest: Codable, Equatable, Sendable {
    /// The reading's owner; must be the caller.
    package var userId: UUID
    /// The owner's sign.
    package var zodiacSign: ZodiacSign
    /// The owner's type.
    package var mbtiType: MBTIType
    package var category: SituationCategory
    /// Premium length (needs an active premium subscription).
    package var isPremium: Bool

    package init(userId: UUID, zodiacSign: ZodiacSign, mbtiType: MBTIType, category: SituationCategory, isPremium: Bool) {
        self.userId = userId
        self.zodiacSign = zodiacSign
        self.mbtiType = mbtiType
        self.category = category
        self.isPremium = isPremium
    }

    /// Writes the uuid lower case, as PostgreSQL prints it.
    package func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeUUID(userId, forKey: .userId)
        try c.encode(zodiacSign, forKey: .zodiacSign)
        try c.encode(mbtiType, forKey: .mbtiType)
        try c.encode(category, forKey: .category)
        try c.encode(isPremium, forKey: .isPremium)
    }
}

/// The answer of generate-horoscope: §3.2's `{content}` plus the stored row.
package struct GenerateHoroscopeResponse: Codable, Equatable, Sendable {
    /// The reading text.
    package var content: String
    /// The stored `daily_readings` row.
    package var reading: DailyReading

    package init(content: String, reading: DailyReading) {
        self.content = content
        self.reading = reading
    }
}

/// §9.1 `MBTIAnswer`: one answer's dimension and score.
package struct MBTIAnswer: Codable, Equatable, Sendable {
    /// `E/I`, `S/N`, `T/F` or `J/P`.
    package var dimension: String
    /// -100…100.
    package var score: Double

    package init(dimension: String, score: Double) {
        self.dimension = dimension
        self.score = score
    }
}

/// The body of `POST /functions/v1/mbti-calculate` (§3.3 "Calculate MBTI from answers").
package struct MBTICalculateRequest: Codable, Equatable, Sendable {
    /// The answers, at least one per dimension.
    package var answers: [MBTIAnswer]

    package init(answers: [MBTIAnswer]) { self.answers = answers }
}

/// The answer of mbti-calculate.
package struct MBTICalculateResponse: Codable, Equatable, Sendable {
    package var typeCode: String
    /// One averaged score per dimension, in E/I, S/N, T/F, J/P order.
    package var dimensionScores: [DimensionScore]
    /// The type's function stack.
    package var cognitiveFunctions: [CognitiveFunction]
    /// Strengths of the type.
    package var strengths: [String]
    /// Weaknesses of the type.
    package var weaknesses: [String]
    /// The stored `mbti_results` row, or nil when the caller has no profile yet (onboarding).
    package var result: MBTIResult?

    package init(
        typeCode: String, dimensionScores: [DimensionScore], cognitiveFunctions: [CognitiveFunction],
        strengths: [String], weaknesses: [String], result: MBTIResult?
    ) {
        self.typeCode = typeCode
        self.dimensionScores = dimensionScores
        self.cognitiveFunctions = cognitiveFunctions
        self.strengths = strengths
        self.weaknesses = weaknesses
        self.result = result
    }

    package func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(typeCode, forKey: .typeCode)
        try c.encode(dimensionScores, forKey: .dimensionScores)
        try c.encode(cognitiveFunctions, forKey: .cognitiveFunctions)
        try c.encode(strengths, forKey: .strengths)
        try c.encode(weaknesses, forKey: .weaknesses)
        try c.encode(result, forKey: .result) // null when not stored
    }

    enum CodingKeys: String, CodingKey {
        case typeCode, dimensionScores, cognitiveFunctions, strengths, weaknesses, result
    }
}

/// An edge function's error body (`{"error": "…"}`).
package struct FunctionError: Codable, Equatable, Sendable {
    /// What went wrong.
    package var error: String

    package init(error: String) { self.error = error }
}
