import Foundation
import ContractKit

// MARK: - Enums of §2.1

/// §2.1 `ZodiacSign`; raw values are the `users.zodiac_sign` CHECK list of §6.1.
public enum ZodiacSign: String, Codable, CaseIterable, Sendable {
    case aries, taurus, gemini, cancer, leo, virgo
    case libra, scorpio, sagittarius, capricorn, aquarius, pisces
}

/// §2.1 `MBTIType`; raw values are the `users.mbti_type` CHECK list of §6.1.
public enum MBTIType: String, Codable, CaseIterable, Sendable {
    case INTJ, INTP, ENTJ, ENTP
    case INFJ, INFP, ENFJ, ENFP
    case ISTJ, ISFJ, ESTJ, ESFJ
    case ISTP, ISFP, ESTP, ESFP
}

/// §2.1 `SituationCategory`; raw values are the `daily_readings.category` CHECK list of §6.1.
public enum SituationCategory: String, Codable, CaseIterable, Sendable {
    case career = "Career"
    case love = "Love"
    case social = "Social"
    case health = "Health"
    case personalGrowth = "Personal Growth"
}

/// §2.1 `SubscriptionTier`; raw values are the `subscriptions.tier` CHECK list of §6.1.
public enum SubscriptionTier: String, Codable, CaseIterable, Sendable {
    case free
    case premium
}

/// A uuid coded in PostgreSQL's canonical lower-case form (Foundation's `UUID` encodes upper case).
@propertyWrapper
public struct LowercaseUUID: Codable, Hashable, Sendable {
    /// The uuid.
    public var wrappedValue: UUID
    /// Wraps a uuid.
    public init(wrappedValue: UUID) { self.wrappedValue = wrappedValue }

    public init(from decoder: Decoder) throws {
        let c = try decoder.singleValueContainer()
        let s = try c.decode(String.self)
        guard let u = UUID(uuidString: s) else { throw DecodingError.dataCorruptedError(in: c, debugDescription: "not a uuid: \(s)") }
        wrappedValue = u
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(wrappedValue.uuidString.lowercased())
    }
}

/// A model of one table row: its coding keys are exactly the table's columns.
public protocol AuraRow: Codable, Equatable, Sendable {
    /// The table (`daily_readings`).
    static var table: String { get }
    /// The column names the model codes, in declaration order.
    static var columns: [String] { get }
}

// MARK: - Table rows (§6.1)

/// A row of `public.users` (§6.1): the profile of a GoTrue user.
public struct AuraUser: AuraRow {
    public static let table = "users"
    public static var columns: [String] { CodingKeys.allCases.map(\.rawValue) }

    /// The auth user's id.
    @LowercaseUUID public var id: UUID
    /// Display name.
    public var name: String
    /// Birth date.
    public var birthdate: CalendarDate
    /// Sign computed from the birth date (§2.1).
    public var zodiacSign: ZodiacSign
    /// The user's MBTI type.
    public var mbtiType: MBTIType
    /// Creation time.
    public var createdAt: Date?
    /// Last update time (trigger `users_updated_at`).
    public var updatedAt: Date?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case id, name, birthdate
        case zodiacSign = "zodiac_sign", mbtiType = "mbti_type"
        case createdAt = "created_at", updatedAt = "updated_at"
    }

    /// Encodes every column, NULL included, as PostgREST prints a row.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(_id, forKey: .id)
        try c.encode(name, forKey: .name)
        try c.encode(birthdate, forKey: .birthdate)
        try c.encode(zodiacSign, forKey: .zodiacSign)
        try c.encode(mbtiType, forKey: .mbtiType)
        try c.encode(createdAt, forKey: .createdAt)
        try c.encode(updatedAt, forKey: .updatedAt)
    }

    /// A profile row.
    public init(id: UUID, name: String, birthdate: CalendarDate, zodiacSign: ZodiacSign, mbtiType: MBTIType, createdAt: Date? = nil, updatedAt: Date? = nil) {
        self.id = id
        self.name = name
        self.birthdate = birthdate
        self.zodiacSign = zodiacSign
        self.mbtiType = mbtiType
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

/// A row of `public.daily_readings` (§6.1).
public struct DailyReading: AuraRow {
    public static let table = "daily_readings"
    public static var columns: [String] { CodingKeys.allCases.map(\.rawValue) }

    /// Row id.
    @LowercaseUUID public var id: UUID
    /// Owner.
    @LowercaseUUID public var userID: UUID
    /// The day of the reading.
    public var date: CalendarDate
    /// Situation category.
    public var category: SituationCategory
    /// The reading text.
    public var content: String
    /// 0…100.
    public var fortuneScore: Int
    /// Lucky numbers (NULL allowed by the column).
    public var luckyNumbers: [Int]?
    /// Power colours (NULL allowed by the column).
    public var powerColors: [String]?
    /// Premium-length reading.
    public var isPremium: Bool?
    /// Creation time.
    public var createdAt: Date?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case id, userID = "user_id", date, category, content
        case fortuneScore = "fortune_score", luckyNumbers = "lucky_numbers", powerColors = "power_colors"
        case isPremium = "is_premium", createdAt = "created_at"
    }

    /// Encodes every column, NULL included, as PostgREST prints a row.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(_id, forKey: .id)
        try c.encode(_userID, forKey: .userID)
        try c.encode(date, forKey: .date)
        try c.encode(category, forKey: .category)
        try c.encode(content, forKey: .content)
        try c.encode(fortuneScore, forKey: .fortuneScore)
        try c.encode(luckyNumbers, forKey: .luckyNumbers)
        try c.encode(powerColors, forKey: .powerColors)
        try c.encode(isPremium, forKey: .isPremium)
        try c.encode(createdAt, forKey: .createdAt)
    }

    /// A reading row.
    public init(id: UUID, userID: UUID, date: CalendarDate, category: SituationCategory, content: String, fortuneScore: Int,
                luckyNumbers: [Int]?, powerColors: [String]?, isPremium: Bool?, createdAt: Date?) {
        self.id = id
        self.userID = userID
        self.date = date
        self.category = category
        self.content = content
        self.fortuneScore = fortuneScore
        self.luckyNumbers = luckyNumbers
        self.powerColors = powerColors
        self.isPremium = isPremium
        self.createdAt = createdAt
    }
}

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

/// A row of `public.mbti_results` (§6.1).
public struct MBTIResult: AuraRow {
    public static let table = "mbti_results"
    public static var columns: [String] { CodingKeys.allCases.map(\.rawValue) }

    /// Row id.
    @LowercaseUUID public var id: UUID
    /// Owner.
    @LowercaseUUID public var userID: UUID
    /// `INTJ`.
    public var typeCode: String
    /// Scores per dimension.
    public var dimensionScores: [DimensionScore]
    /// The type's function stack.
    public var cognitiveFunctions: [CognitiveFunction]
    /// Strengths (NULL allowed by the column).
    public var strengths: [String]?
    /// Weaknesses (NULL allowed by the column).
    public var weaknesses: [String]?
    /// When the test was taken.
    public var takenAt: Date?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case id, userID = "user_id", typeCode = "type_code", dimensionScores = "dimension_scores"
        case cognitiveFunctions = "cognitive_functions", strengths, weaknesses, takenAt = "taken_at"
    }

    /// Encodes every column, NULL included, as PostgREST prints a row.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(_id, forKey: .id)
        try c.encode(_userID, forKey: .userID)
        try c.encode(typeCode, forKey: .typeCode)
        try c.encode(dimensionScores, forKey: .dimensionScores)
        try c.encode(cognitiveFunctions, forKey: .cognitiveFunctions)
        try c.encode(strengths, forKey: .strengths)
        try c.encode(weaknesses, forKey: .weaknesses)
        try c.encode(takenAt, forKey: .takenAt)
    }

    /// A result row.
    public init(id: UUID, userID: UUID, typeCode: String, dimensionScores: [DimensionScore], cognitiveFunctions: [CognitiveFunction],
                strengths: [String]?, weaknesses: [String]?, takenAt: Date?) {
        self.id = id
        self.userID = userID
        self.typeCode = typeCode
        self.dimensionScores = dimensionScores
        self.cognitiveFunctions = cognitiveFunctions
        self.strengths = strengths
        self.weaknesses = weaknesses
        self.takenAt = takenAt
    }
}

/// A row of `public.subscriptions` (§6.1).
public struct Subscription: AuraRow {
    public static let table = "subscriptions"
    public static var columns: [String] { CodingKeys.allCases.map(\.rawValue) }

    /// Row id.
    @LowercaseUUID public var id: UUID
    /// Owner (one row per user).
    @LowercaseUUID public var userID: UUID
    /// `free` or `premium`.
    public var tier: SubscriptionTier
    /// RevenueCat's app user id.
    public var revenuecatCustomerID: String?
    /// First purchase.
    public var originalPurchaseDate: Date?
    /// End of the current period.
    public var expiresAt: Date?
    /// Whether the entitlement is active.
    public var isActive: Bool?
    /// Last update (trigger `subscriptions_updated_at`).
    public var updatedAt: Date?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case id, userID = "user_id", tier, revenuecatCustomerID = "revenuecat_customer_id"
        case originalPurchaseDate = "original_purchase_date", expiresAt = "expires_at", isActive = "is_active", updatedAt = "updated_at"
    }

    /// Encodes every column, NULL included, as PostgREST prints a row.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(_id, forKey: .id)
        try c.encode(_userID, forKey: .userID)
        try c.encode(tier, forKey: .tier)
        try c.encode(revenuecatCustomerID, forKey: .revenuecatCustomerID)
        try c.encode(originalPurchaseDate, forKey: .originalPurchaseDate)
        try c.encode(expiresAt, forKey: .expiresAt)
        try c.encode(isActive, forKey: .isActive)
        try c.encode(updatedAt, forKey: .updatedAt)
    }

    /// A subscription row.
    public init(id: UUID, userID: UUID, tier: SubscriptionTier, revenuecatCustomerID: String?, originalPurchaseDate: Date?,
                expiresAt: Date?, isActive: Bool?, updatedAt: Date?) {
        self.id = id
        self.userID = userID
        self.tier = tier
        self.revenuecatCustomerID = revenuecatCustomerID
        self.originalPurchaseDate = originalPurchaseDate
        self.expiresAt = expiresAt
        self.isActive = isActive
        self.updatedAt = updatedAt
    }
}

// MARK: - Payloads (§3.2, §3.3)

/// The body of `PATCH /rest/v1/users` (§3.3 "Update user profile"): the columns a user edits.
public struct UserProfileUpdate: Codable, Equatable, Sendable {
    /// New name.
    public var name: String?
    /// New birth date.
    public var birthdate: CalendarDate?
    /// The sign of the new birth date (the client computes it, §2.1).
    public var zodiacSign: ZodiacSign?
    /// New MBTI type.
    public var mbtiType: MBTIType?

    enum CodingKeys: String, CodingKey {
        case name, birthdate, zodiacSign = "zodiac_sign", mbtiType = "mbti_type"
    }

    /// A patch; nil members are not sent.
    public init(name: String? = nil, birthdate: CalendarDate? = nil, zodiacSign: ZodiacSign? = nil, mbtiType: MBTIType? = nil) {
        self.name = name
        self.birthdate = birthdate
        self.zodiacSign = zodiacSign
        self.mbtiType = mbtiType
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeIfPresent(name, forKey: .name)
        try c.encodeIfPresent(birthdate, forKey: .birthdate)
        try c.encodeIfPresent(zodiacSign, forKey: .zodiacSign)
        try c.encodeIfPresent(mbtiType, forKey: .mbtiType)
    }
}

/// The body of `POST /functions/v1/generate-horoscope` (§3.2 `req.json()`).
public struct GenerateHoroscopeRequest: Codable, Equatable, Sendable {
    /// The reading's owner; must be the caller.
    @LowercaseUUID public var userId: UUID
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
    public init(typeCode: String, dimensionScores: [DimensionScore], cognitiveFunctions: [CognitiveFunction],
                strengths: [String], weaknesses: [String], result: MBTIResult?) {
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
        try c.encode(result, forKey: .result)  // null when not stored
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

// MARK: - JSON as PostgreSQL and PostgREST print it

/// Coders for Aura's wire JSON: timestamps as PostgreSQL prints `timestamptz`
/// (`2026-01-01T06:00:00+00:00`, microseconds when present), uuids lower case, dates `YYYY-MM-DD`.
public enum AuraJSON {
    /// A decoder for rows and payloads.
    public static func decoder() -> JSONDecoder {
        let d = JSONDecoder()
        d.dateDecodingStrategy = .custom { dec in
            let c = try dec.singleValueContainer()
            let s = try c.decode(String.self)
            guard let us = PGTime.parseTimestamp(s, assumeUTC: true) else {
                throw DecodingError.dataCorruptedError(in: c, debugDescription: "not a timestamp: \(s)")
            }
            return PGTime.date(micros: us)
        }
        return d
    }

    /// An encoder writing what PostgREST prints.
    public static func encoder() -> JSONEncoder {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys]
        e.dateEncodingStrategy = .custom { date, enc in
            var c = enc.singleValueContainer()
            try c.encode(PGTime.formatTimestamp(PGTime.micros(date), withZone: true))
        }
        return e
    }

    /// Decodes a JSON value as a model.
    public static func decode<T: Decodable>(_ type: T.Type, from json: JSONValue) throws -> T {
        try decoder().decode(T.self, from: json.data())
    }

    /// Encodes a model as a JSON value.
    public static func encode<T: Encodable>(_ value: T) throws -> JSONValue {
        try JSONValue.parse(try encoder().encode(value))
    }
}
