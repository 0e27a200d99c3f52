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
    /// The reading's owner; must be the caller (written lower case, as PostgreSQL prints it).
    package var userId: PGUUID
    /// The owner's sign.
    package var zodiacSign: ZodiacSign
    /// The owner's type.
    package var mbtiType: MBTIType
    package var category: SituationCategory
    /// Premium length (needs an active premium subscription).
    package var isPremium: Bool

}

/// The answer of generate-horoscope: §3.2's `{content}` plus the stored row.
package struct GenerateHoroscopeResponse: Codable, Equatable, Sendable {
    /// The reading text.
    package var content: String
    /// The stored `daily_readings` row.
    package var reading: DailyReading
}

/// §9.1 `MBTIAnswer`: one answer's dimension and score, a `DimensionScore`'s shape.
package typealias MBTIAnswer = DimensionScore

/// The body of `POST /functions/v1/mbti-calculate` (§3.3 "Calculate MBTI from answers").
package struct MBTICalculateRequest: Codable, Equatable, Sendable {
    /// The answers, at least one per dimension.
    package var answers: [MBTIAnswer]
}

/// The answer of mbti-calculate.
package struct MBTICalculateResponse: Codable, Equatable, Sendable, ColumnEncodable {
    package var typeCode: String
    /// One averaged score per dimension, in E/I, S/N, T/F, J/P order.
    package var dimensionScores: [DimensionScore]
    /// The type's function stack.
    package var cognitiveFunctions: [CognitiveFunction]
    package var strengths: [String]
    package var weaknesses: [String]
    /// The stored `mbti_results` row, or nil (written as `null`) when the caller has no profile
    /// yet (onboarding).
    package var result: MBTIResult?

    package static var columns: [String] { CodingKeys.allCases.map(\.rawValue) }
    enum CodingKeys: String, CodingKey, CaseIterable {
        case typeCode, dimensionScores, cognitiveFunctions, strengths, weaknesses, result
    }
}

/// An edge function's error body (`{"error": "…"}`).
package struct FunctionError: Codable, Equatable, Sendable {
    /// What went wrong.
    package var error: String
}
