import Foundation
import MockSupabase
import MockBinding

/// Who keeps a paid feature from a free user.
public enum PaywallEnforcer: String, Sendable, CaseIterable {
    /// generate-horoscope refuses it (403).
    case server
    /// Only the app hides it; the backend serves it to its owner.
    case client
}

/// rules.json `entitlements.enforcement`: the enforcer of each paid feature (§8.2).
package struct PaywallEnforcement: Sendable, Equatable {
    /// Premium-only categories (Career).
    package var categories: PaywallEnforcer = .server
    /// Premium reading length (`isPremium: true`).
    package var readingLength: PaywallEnforcer = .server
    /// Past readings ("Unlimited historical access").
    package var history: PaywallEnforcer = .client
    /// The 7-day weekly outlook.
    package var weeklyOutlook: PaywallEnforcer = .client
    package var retrogradeAlerts: PaywallEnforcer = .client

    package init() {}
}

extension PaywallEnforcement: Decodable {
    enum CodingKeys: String, CodingKey, CaseIterable { case decision, categories, readingLength, history, weeklyOutlook, retrogradeAlerts }
    package init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        func e(_ key: CodingKeys) throws -> PaywallEnforcer {
            let s = try c.decode(String.self, forKey: key)
            guard let v = PaywallEnforcer(rawValue: s) else {
                throw c.fail(key, "expected \(PaywallEnforcer.allCases.map(\.rawValue).joined(separator: " or "))")
            }
            return v
        }
        self.init()
        (categories, readingLength, history) = (try e(.categories), try e(.readingLength), try e(.history))
        (weeklyOutlook, retrogradeAlerts) = (try e(.weeklyOutlook), try e(.retrogradeAlerts))
    }
}

/// The conformance suite of the paywall's enforcement on an Aura backend reached over HTTP.
public enum AuraPaywallConformance {
    /// Violations of `rules.enforcement` by `backend` (Aura's fixtures loaded; its clock is moved
    /// past the premium persona's expiry for the history case). `free` is a persona without
    /// premium, `lapsing` one whose premium has an expires_at and past readings.
    package static func violations(backend b: MockSupabase, clock: ManualClock, rules: AuraRules, free: String = "fiona", lapsing: String = "priya") -> [String]
    {
        var out: [String] = []
        func send(_ persona: String, _ method: String, _ target: String, _ body: JSONValue? = nil) -> HTTPResponse? {
            var h: HTTPHeaders = ["apikey": b.anonKey]
            if let t = b.accessToken(persona: persona) { h.add("Authorization", "Bearer \(t)") }
            if body != nil { h.add("Content-Type", "application/json") }
            return try? b.handle(HTTPRequest(method: method, target: target, headers: h, body: body?.data() ?? Data()))
        }
        func generate(_ persona: String, category: String, premium: Bool) -> Int {
            let id = b.configuration.spec.fixtures.persona(persona)?.id ?? ""
            return send(
                persona, "POST", "/functions/v1/generate-horoscope",
                [
                    "userId": .string(id), "zodiacSign": "aries", "mbtiType": "INTJ",
                    "category": .string(category), "isPremium": .bool(premium)
                ])?.status ?? 0
        }
        let open = rules.tiers[.free]?.categories ?? []
        guard let locked = rules.tiers[.premium]?.categories.first(where: { !open.contains($0) }), let freeCategory = open.first else {
            return ["rules.json: no category is premium-only, nothing to enforce"]
        }
        // Categories: server refuses a locked category to a free caller; client leaves it to the app.
        let lockedStatus = generate(free, category: locked.rawValue, premium: false)
        switch rules.enforcement.categories {
        case .server where lockedStatus != 403:
            out.append("categories: a free caller generating \(locked.rawValue) got \(lockedStatus), the server must refuse it (403)")
        case .client where lockedStatus == 403: out.append("categories: enforcement says client but the server refuses \(locked.rawValue) to a free caller")
        default: break
        }
        let longStatus = generate(free, category: freeCategory.rawValue, premium: true)
        switch rules.enforcement.readingLength {
        case .server where longStatus != 403:
            out.append("readingLength: a free caller asking for a premium reading got \(longStatus), the server must refuse it (403)")
        case .client where longStatus == 403: out.append("readingLength: enforcement says client but the server refuses a premium reading to a free caller")
        default: break
        }
        // History: after premium lapses, the owner still reads every past reading (the app hides them).
        let before = send(lapsing, "GET", "/rest/v1/daily_readings?select=id,date")?.jsonBody?.arrayValue?.count ?? -1
        let sub = (try? b.database.rows("subscriptions"))?.compactMap { row -> Date? in
            guard row["user_id"]?.stringValue == b.configuration.spec.fixtures.persona(lapsing)?.id, let s = row["expires_at"]?.stringValue,
                let t = PGTime.parseTimestamp(s, assumeUTC: true)
            else { return nil }
            return Date(timeIntervalSince1970: Double(t) / 1_000_000)
        }.first
        guard let expiry = sub else { return out + ["history: \(lapsing) has no subscription with an expires_at to lapse"] }
        clock.set(expiry.addingTimeInterval(86_400))
        let after = send(lapsing, "GET", "/rest/v1/daily_readings?select=id,date")?.jsonBody?.arrayValue?.count ?? -1
        if rules.enforcement.history == .client && (before < 2 || after != before) {
            out.append(
                "history: \(lapsing) reads \(before) readings while premium and \(after) after it lapsed; the database must keep them readable (the client hides them)"
            )
        }
        if rules.enforcement.history == .server && after >= before {
            out.append("history: enforcement says server but the lapsed user still reads every past reading")
        }
        if rules.tiers[.free]?.canViewHistoricalData != false { out.append("history: the free tier may view history, so there is no paywall to enforce") }
        return out
    }
}
