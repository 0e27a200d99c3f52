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

    /// A score.
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
public struct GenerateHoroscopeRequest: Codable, Equatable, Sendable {
    /// The reading's owner; must be the caller.
    public var userId: UUID
    /// The owner's sign.
    public var zodiacSign: ZodiacSign
    /// The owner's type.
    public var mbtiType: MBTIType
    /// The category.
    public var category: SituationCategory
    /// Premium length (needs an active premium subscription).
    public var isPremium: Bool

    /// A request.
    public init(userId: UUID, zodiacSign: ZodiacSign, mbtiType: MBTIType, category: SituationCategory, isPremium: Bool) {
        self.userId = userId
        self.zodiacSign = zodiacSign
        self.mbtiType = mbtiType
        self.category = category
        self.isPremium = isPremium
    }

    /// Writes the uuid lower case, as PostgreSQL prints it.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeUUID(userId, forKey: .userId)
        try c.encode(zodiacSign, forKey: .zodiacSign)
        try c.encode(mbtiType, forKey: .mbtiType)
        try c.encode(category, forKey: .category)
        try c.encode(isPremium, forKey: .isPremium)
    }
}

/// The answer of generate-horoscope: §3.2's `{content}` plus the stored row.
public struct GenerateHoroscopeResponse: Codable, Equatable, Sendable {
    /// The reading text.
    public var content: String
    /// The stored `daily_readings` row.
    public var reading: DailyReading

    /// A response.
    public init(content: String, reading: DailyReading) {
        self.content = content
        self.reading = reading
    }
}

/// §9.1 `MBTIAnswer`: one answer's dimension and score.
public struct MBTIAnswer: Codable, Equatable, Sendable {
    /// `E/I`, `S/N`, `T/F` or `J/P`.
    public var dimension: String
    /// -100…100.
    public var score: Double

    /// An answer.
    public init(dimension: String, score: Double) {
        self.dimension = dimension
        self.score = score
    }
}

/// The body of `POST /functions/v1/mbti-calculate` (§3.3 "Calculate MBTI from answers").
public struct MBTICalculateRequest: Codable, Equatable, Sendable {
    /// The answers, at least one per dimension.
    public var answers: [MBTIAnswer]

    /// A request.
    public init(answers: [MBTIAnswer]) { self.answers = answers }
}

/// The answer of mbti-calculate.
public struct MBTICalculateResponse: Codable, Equatable, Sendable {
    /// The type code.
    public var typeCode: String
    /// One averaged score per dimension, in E/I, S/N, T/F, J/P order.
    public var dimensionScores: [DimensionScore]
    /// The type's function stack.
    public var cognitiveFunctions: [CognitiveFunction]
    /// Strengths of the type.
    public var strengths: [String]
    /// Weaknesses of the type.
    public var weaknesses: [String]
    /// The stored `mbti_results` row, or nil when the caller has no profile yet (onboarding).
    public var result: MBTIResult?

    /// A response.
    public init(
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

    public func encode(to encoder: Encoder) throws {
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
public struct FunctionError: Codable, Equatable, Sendable {
    /// What went wrong.
    public var error: String

    /// An error body.
    public init(error: String) { self.error = error }
}
