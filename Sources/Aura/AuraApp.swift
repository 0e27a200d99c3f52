import Foundation
@_exported import MockBinding // a client importing the app gets its mock backend and the rule machinery

/// Aura: its contracts folder and the server-side pieces it plugs into the mock.
///
/// - `generate-horoscope` (§3.2) and `mbti-calculate` (§3.3) edge functions, JWT verified;
/// - the BEFORE UPDATE triggers `users_updated_at` and `subscriptions_updated_at` (§6.1);
/// - the REST endpoints of §3.3 are PostgREST's table endpoints (`users`, `daily_readings`)
///   and GoTrue's signup and token endpoints (Contracts/aura/endpoints.json), so they need
///   nothing registered. UNIQUE(user_id, date, category) is a schema constraint.
public enum AuraApp: ContractApp, AppModule {
    public static let name = "aura"
    public static let title = "Aura"

    /// The edge functions' payloads, coded as `PostgresRowCoding` codes them (timestamps as PostgreSQL
    /// prints them); the table models are added by name.
    package static var modelRegistry: ModelRegistry {
        var r = ModelRegistry(coder: ModelCoder(decoder: PostgresRowCoding.decoder, encoder: PostgresRowCoding.encoder))
        r.register(GenerateHoroscopeRequest.self); r.register(GenerateHoroscopeResponse.self)
        r.register(MBTICalculateRequest.self); r.register(MBTICalculateResponse.self)
        r.register(UserProfileUpdate.self); r.register(FunctionError.self)
        return r
    }

    /// Registers the app's edge functions and triggers, reading rules.json from the backend's
    /// contracts folder. The stand-in text generator uses seed 0.
    public static func register(on backend: MockSupabase) {
        register(on: backend, seed: 0)
    }

    /// Registers the app's pieces with a chosen seed for the stand-in text generator.
    package static func register(on backend: MockSupabase, seed: UInt64) {
        register(on: backend, rules: Result { try AuraRules.load(folder: backend.configuration.spec.folder) }, seed: seed)
    }

    /// Registers the app's pieces with explicit rules (to run the suites against changed rules).
    /// When the rules failed to load, both functions answer 500 with the load error.
    package static func register(on backend: MockSupabase, rules loaded: Result<AuraRules, any Error>, seed: UInt64 = 0) {
        if case .success(let rules) = loaded {
            for t in rules.triggers {
                let column = t.column
                backend.registerTrigger(t.name, on: t.table, timing: .before, events: [.update]) { ctx in
                    ctx.new?[column] = .string(PGTime.timestamptz(ctx.now))
                }
            }
        }
        let bodies: [(String, @Sendable (AuraFunctions, FunctionCall) -> HTTPResponse)] = [
            ("generate-horoscope", { $0.generateHoroscope($1) }), ("mbti-calculate", { $0.mbtiCalculate($1) })
        ]
        for (name, body) in bodies {
            backend.registerFunction(name) { call in
                switch loaded {
                case .failure(let e): return AuraFunctions.error(500, "\(e)")
                case .success(let rules): return body(AuraFunctions(rules: rules, seed: seed), call)
                }
            }
        }
    }
}

/// The bodies of Aura's edge functions.
package struct AuraFunctions: Sendable {
    package let rules: AuraRules
    /// The stand-in generator's seed.
    package let seed: UInt64

    static func json(_ status: Int, _ value: JSONValue) -> HTTPResponse {
        HTTPResponse(status: status, headers: ["Content-Type": "application/json"], body: value.data())
    }

    static func error(_ status: Int, _ message: String) -> HTTPResponse { json(status, ["error": .string(message)]) }

    /// Parses the body as a JSON object, or gives the 400 answer.
    static func object(_ call: FunctionCall) -> (object: [String: JSONValue]?, failure: HTTPResponse?) {
        guard let body = try? call.json() else { return (nil, error(400, "the body is not valid JSON")) }
        guard case .object(let o) = body else { return (nil, error(400, "the body must be a JSON object")) }
        return (o, nil)
    }

    /// `POST /functions/v1/generate-horoscope` (§3.2).
    package func generateHoroscope(_ call: FunctionCall) -> HTTPResponse {
        guard let caller = call.auth.userID else { return Self.error(401, "a signed-in user is required") }
        let parsed = Self.object(call)
        guard let o = parsed.object else { return parsed.failure! }
        for key in o.keys.sorted() where !["userId", "zodiacSign", "mbtiType", "category", "isPremium"].contains(key) {
            return Self.error(400, "unknown field '\(key)'")
        }
        guard let rawUser = o["userId"]?.stringValue, let userID = SQLValue.canonicalUUID(rawUser) else {
            return Self.error(400, "userId must be a uuid")
        }
        guard let zodiac = o["zodiacSign"]?.stringValue.flatMap(ZodiacSign.init(rawValue:)) else {
            return Self.error(400, "zodiacSign must be one of " + ZodiacSign.allCases.map(\.rawValue).joined(separator: ", "))
        }
        guard let mbti = o["mbtiType"]?.stringValue.flatMap(MBTIType.init(rawValue:)) else {
            return Self.error(400, "mbtiType must be one of " + MBTIType.allCases.map(\.rawValue).joined(separator: ", "))
        }
        guard let category = o["category"]?.stringValue.flatMap(SituationCategory.init(rawValue:)), rules.categories.contains(category) else {
            return Self.error(400, "category must be one of " + rules.categories.map(\.rawValue).joined(separator: ", "))
        }
        guard case .bool(let isPremium)? = o["isPremium"] else { return Self.error(400, "isPremium must be a boolean") }
        guard userID == caller else { return Self.error(403, "userId must be the signed-in user") }

        let db = call.backend.database
        let now = call.backend.configuration.clock.now()
        do {
            guard try !db.rows("users", where: .eq("id", userID)).isEmpty else {
                return Self.error(404, "no profile in public.users for this user")
            }
            let sub = try db.rows("subscriptions", where: .eq("user_id", userID)).first
            let status = SubscriptionStatus(row: sub, now: now, rules: rules)
            if isPremium && status.entitlements.readingLength != .premium {
                return Self.error(403, "a premium reading needs an active premium subscription")
            }
            guard status.canAccess(category) else {
                return Self.error(403, "the \(category.rawValue) category needs an active premium subscription")
            }
            let today = PGDate(utc: now)
            let filter = RowFilter.and([.eq("user_id", userID), .eq("date", today.description), .eq("category", category.rawValue)])
            if let existing = try db.rows("daily_readings", where: filter).first {
                return Self.json(200, ["content": existing["content"] ?? .null, "reading": .object(existing)])
            }
            let length: SubscriptionTier = isPremium ? .premium : .free
            let out = HoroscopeStandIn(rules: rules, seed: seed)
                .generate(userID: userID, date: today, zodiac: zodiac, mbti: mbti, category: category, length: length)
            let row = try db.insert(
                "daily_readings",
                [
                    [
                        "user_id": .string(userID), "date": .string(today.description), "category": .string(category.rawValue),
                        "content": .string(out.content), "is_premium": .bool(isPremium), "fortune_score": .int(Int64(out.fortuneScore)),
                        "lucky_numbers": .array(out.luckyNumbers.map { .int(Int64($0)) }), "power_colors": .array(out.powerColors.map(JSONValue.string))
                    ]
                ], as: .serviceRole)
            guard let stored = row.first else { return Self.error(500, "the reading was not stored") }
            return Self.json(200, ["content": .string(out.content), "reading": .object(stored)])
        } catch let e as PostgresError {
            return Self.json(500, ["error": .string(e.message), "code": .string(e.code)])
        } catch {
            return Self.error(500, "\(error)")
        }
    }

    /// `POST /functions/v1/mbti-calculate` (§3.3, §9.1).
    package func mbtiCalculate(_ call: FunctionCall) -> HTTPResponse {
        guard let caller = call.auth.userID else { return Self.error(401, "a signed-in user is required") }
        let parsed = Self.object(call)
        guard let o = parsed.object else { return parsed.failure! }
        for key in o.keys.sorted() where key != "answers" { return Self.error(400, "unknown field '\(key)'") }
        guard case .array(let list)? = o["answers"] else { return Self.error(400, "answers must be an array of {dimension, score}") }
        var answers: [MBTIAnswer] = []
        for (i, a) in list.enumerated() {
            guard case .object(let ao) = a, ao.count == 2, let d = ao["dimension"]?.stringValue, let s = ao["score"]?.doubleValue else {
                return Self.error(400, "answers[\(i)] must be {\"dimension\": string, \"score\": number}")
            }
            answers.append(MBTIAnswer(dimension: d, score: s))
        }
        let calc = MBTICalculator(rules: rules)
        let typeCode: String
        let scores: [DimensionScore]
        let profile: MBTIProfile
        do {
            (typeCode, scores) = try calc.calculate(from: answers)
            profile = try MBTIProfile(typeCode: typeCode, rules: rules)
        } catch {
            return Self.error(400, "\(error)")
        }
        do {
            let scoresJSON = try PostgresRowCoding.encode(scores)
            let functionsJSON = try PostgresRowCoding.encode(profile.cognitiveFunctions)
            var stored: JSONValue = .null
            let db = call.backend.database
            if try !db.rows("users", where: .eq("id", caller)).isEmpty {
                let rows = try db.insert(
                    "mbti_results",
                    [
                        [
                            "user_id": .string(caller), "type_code": .string(typeCode),
                            "dimension_scores": scoresJSON, "cognitive_functions": functionsJSON,
                            "strengths": .array(profile.strengths.map(JSONValue.string)), "weaknesses": .array(profile.weaknesses.map(JSONValue.string))
                        ]
                    ], as: call.auth)
                stored = rows.first.map(JSONValue.object) ?? .null
            }
            return Self.json(
                200,
                [
                    "typeCode": .string(typeCode), "dimensionScores": scoresJSON, "cognitiveFunctions": functionsJSON,
                    "strengths": .array(profile.strengths.map(JSONValue.string)), "weaknesses": .array(profile.weaknesses.map(JSONValue.string)),
                    "result": stored
                ])
        } catch let e as PostgresError {
            return Self.json(500, ["error": .string(e.message), "code": .string(e.code)])
        } catch {
            return Self.error(500, "\(error)")
        }
    }
}
