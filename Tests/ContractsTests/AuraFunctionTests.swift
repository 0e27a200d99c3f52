import Foundation
import XCTest
import MockBinding
import MockSupabase
@testable import Aura

/// Aura's edge functions, triggers and constraints, driven through the mock's request handler.
final class AuraFunctionTests: GateTestCase {
    var backend: MockSupabase!
    var rules: AuraRules!

    override func setUpWithError() throws {
        backend = try AuraTestSupport.backend()
        rules = try AuraTestSupport.rules()
    }

    func generate(
        _ actor: String?, user: String? = nil, category: String, premium: Bool = false,
        zodiac: String = "aries", mbti: String = "INTJ"
    ) throws -> HTTPResponse {
        let id = user ?? actor.flatMap { backend.configuration.spec.fixtures.persona($0)?.id } ?? "f10a0000-0000-4000-8000-000000000001"
        return try AuraTestSupport.send(
            backend, "POST", "/functions/v1/generate-horoscope", as: actor,
            body: [
                "userId": .string(id), "zodiacSign": .string(zodiac), "mbtiType": .string(mbti),
                "category": .string(category), "isPremium": .bool(premium)
            ])
    }

    func testFreeReadingIsGeneratedStoredAndFreeLength() throws {
        let r = try generate("fiona", category: "Social")
        XCTAssertEqual(r.status, 200, r.text)
        XCTAssertEqual(r.headers["Content-Type"], "application/json")
        let body = try PostgresRowCoding.decode(GenerateHoroscopeResponse.self, from: try XCTUnwrap(r.jsonBody))
        let words = HoroscopeStandIn.wordCount(body.content)
        XCTAssertTrue((100...150).contains(words), "§3.2 free reading is 100-150 words, got \(words)")
        XCTAssertEqual(body.reading.content, body.content)
        XCTAssertEqual(body.reading.category, .social)
        XCTAssertEqual(body.reading.date.description, "2026-01-01")
        XCTAssertEqual(body.reading.isPremium, false)
        XCTAssertTrue((60...99).contains(body.reading.fortuneScore))
        XCTAssertEqual(body.reading.powerColors, ["Purple", "Gold", "Teal"])
        XCTAssertEqual(body.reading.luckyNumbers?.count, 5)
        let stored = try backend.database.rows("daily_readings", where: .eq("id", body.reading.id.uuid.uuidString.lowercased()))
        XCTAssertEqual(stored.count, 1)
        XCTAssertEqual(stored.first.map(JSONValue.object), r.jsonBody?["reading"], "the response's reading is the stored row")
    }

    func testPremiumReadingIsPremiumLength() throws {
        let r = try generate("priya", category: "Health", premium: true, zodiac: "capricorn", mbti: "ENFP")
        XCTAssertEqual(r.status, 200, r.text)
        let body = try PostgresRowCoding.decode(GenerateHoroscopeResponse.self, from: try XCTUnwrap(r.jsonBody))
        let words = HoroscopeStandIn.wordCount(body.content)
        XCTAssertTrue((250...350).contains(words), "§3.2 premium reading is 250-350 words, got \(words)")
        XCTAssertEqual(body.reading.isPremium, true)
    }

    func testSecondCallOfTheDayReturnsTheStoredReading() throws {
        let first = try generate("fiona", category: "Health")
        let second = try generate("fiona", category: "Health")
        XCTAssertEqual(first.status, 200)
        XCTAssertEqual(second.status, 200)
        XCTAssertEqual(first.jsonBody, second.jsonBody)
        XCTAssertEqual(
            try backend.database.rows("daily_readings", where: .and([.eq("user_id", "f10a0000-0000-4000-8000-000000000001"), .eq("category", "Health")])).count,
            1)
        // The fixture's Love reading of 2026-01-01 is returned as stored.
        let love = try generate("fiona", category: "Love")
        XCTAssertEqual(love.jsonBody?["reading"]?["id"], "d0000000-0000-4000-8000-000000000101")
        // The next day is a new reading.
        (backend.configuration.clock as! ManualClock).advance(by: 86_400)
        let tomorrow = try generate("fiona", category: "Health")
        XCTAssertEqual(tomorrow.jsonBody?["reading"]?["date"], "2026-01-02")
        XCTAssertNotEqual(tomorrow.jsonBody?["reading"]?["id"], first.jsonBody?["reading"]?["id"])
    }

    func testEntitlementsAreEnforced() throws {
        var r = try generate("fiona", category: "Career")
        XCTAssertEqual(r.status, 403)
        XCTAssertEqual(r.jsonBody, ["error": "the Career category needs an active premium subscription"])
        r = try generate("fiona", category: "Love", premium: true)
        XCTAssertEqual(r.status, 403)
        XCTAssertEqual(r.jsonBody, ["error": "a premium reading needs an active premium subscription"])
        XCTAssertEqual(try generate("priya", category: "Social", premium: false).status, 200, "a premium user may ask for a free-length reading")
        // Premium lapses at expires_at.
        (backend.configuration.clock as! ManualClock).set(Date(timeIntervalSince1970: 1_798_675_200)) // 2027-01-01
        r = try generate("priya", category: "Career", premium: true)
        XCTAssertEqual(r.status, 403, r.text)
        XCTAssertEqual(backend.database.count("daily_readings"), 6, "refused calls store nothing")
    }

    func testCallerAndInputAreChecked() throws {
        var r = try generate("omar", user: "f10a0000-0000-4000-8000-000000000001", category: "Love")
        XCTAssertEqual(r.status, 403)
        XCTAssertEqual(r.jsonBody, ["error": "userId must be the signed-in user"])
        r = try generate("anon", category: "Love")
        XCTAssertEqual(r.status, 401)
        XCTAssertEqual(r.jsonBody, ["error": "a signed-in user is required"])
        r = try generate(nil, category: "Love")
        XCTAssertEqual(r.status, 401, "JWT verification runs before the function")
        XCTAssertEqual(r.jsonBody?["message"], "Missing authorization header")
        r = try generate("fiona", category: "Money")
        XCTAssertEqual(r.status, 400)
        XCTAssertEqual(r.jsonBody, ["error": "category must be one of Career, Love, Social, Health, Personal Growth"])
        r = try generate("fiona", category: "Love", zodiac: "ophiuchus")
        XCTAssertEqual(r.status, 400)
        r = try AuraTestSupport.send(backend, "POST", "/functions/v1/generate-horoscope", as: "fiona", body: ["userId": "f10a0000-0000-4000-8000-000000000001"])
        XCTAssertEqual(r.status, 400)
        XCTAssertEqual(
            r.jsonBody,
            ["error": "zodiacSign must be one of aries, taurus, gemini, cancer, leo, virgo, libra, scorpio, sagittarius, capricorn, aquarius, pisces"])
        XCTAssertEqual(backend.database.count("daily_readings"), 5, "nothing stored")
    }

    func testMBTICalculateStoresTheCallersResult() throws {
        let body: JSONValue = [
            "answers": [
                ["dimension": "E/I", "score": -80], ["dimension": "S/N", "score": 60],
                ["dimension": "T/F", "score": -70], ["dimension": "J/P", "score": 50]
            ]
        ]
        let r = try AuraTestSupport.send(backend, "POST", "/functions/v1/mbti-calculate", as: "omar", body: body)
        XCTAssertEqual(r.status, 200, r.text)
        let res = try PostgresRowCoding.decode(MBTICalculateResponse.self, from: try XCTUnwrap(r.jsonBody))
        XCTAssertEqual(res.typeCode, "INTJ")
        XCTAssertEqual(res.cognitiveFunctions.map(\.name), ["Ni", "Te", "Fi", "Se"])
        let stored = try XCTUnwrap(res.result)
        XCTAssertEqual(stored.userID.uuid.uuidString.lowercased(), "0a1a0000-0000-4000-8000-000000000003")
        XCTAssertEqual(stored.typeCode, "INTJ")
        XCTAssertEqual(stored.takenAt?.date, Date(timeIntervalSince1970: 1_767_225_600))
        XCTAssertEqual(try backend.database.rows("mbti_results", where: .eq("user_id", "0a1a0000-0000-4000-8000-000000000003")).count, 2)
    }

    func testMBTICalculateWithoutProfileComputesOnly() throws {
        // A user who signed up but has no public.users row yet (onboarding, §7.2).
        let id = "00000000-0000-4000-8000-0000000000aa"
        try backend.database.seed("auth.users", rows: [["id": .string(id), "email": "new@aura.test"]])
        var h = HTTPHeaders()
        h.add("Authorization", "Bearer \(backend.accessToken(for: id, email: "new@aura.test"))")
        let body: JSONValue = [
            "answers": [
                ["dimension": "E/I", "score": 10], ["dimension": "S/N", "score": -10],
                ["dimension": "T/F", "score": 0], ["dimension": "J/P", "score": 0]
            ]
        ]
        let r = try backend.handle(HTTPRequest(method: "POST", target: "/functions/v1/mbti-calculate", headers: h, body: body.data()))
        XCTAssertEqual(r.status, 200, r.text)
        XCTAssertEqual(r.jsonBody?["typeCode"], "ESFP")
        XCTAssertEqual(r.jsonBody?["result"], .null)
    }

    func testMBTICalculateRejectsBadAnswers() throws {
        let cases: [(JSONValue, String)] = [
            (["answers": [["dimension": "E/I", "score": -80]]], "no answer for dimension S/N"),
            (
                [
                    "answers": [
                        ["dimension": "E/I", "score": 101], ["dimension": "S/N", "score": 1], ["dimension": "T/F", "score": 1], ["dimension": "J/P", "score": 1]
                    ]
                ],
                "answers[0].score 101 is outside -100…100"
            ),
            (["answers": [["dimension": "E/I", "score": "high"]]], "answers[0] must be {\"dimension\": string, \"score\": number}"),
            (["answer": []], "unknown field 'answer'"),
            ([1, 2], "the body must be a JSON object")
        ]
        for (body, message) in cases {
            let r = try AuraTestSupport.send(backend, "POST", "/functions/v1/mbti-calculate", as: "fiona", body: body)
            XCTAssertEqual(r.status, 400, "\(body)")
            XCTAssertEqual(r.jsonBody, ["error": .string(message)], "\(body)")
        }
        XCTAssertEqual(backend.database.count("mbti_results"), 3)
    }

    // MARK: Triggers and constraints of §6.1

    func testUpdatedAtTriggersStampNow() throws {
        let clock = backend.configuration.clock as! ManualClock
        clock.advance(by: 3600.5)
        let fiona = AuraTestSupport.persona(backend, "fiona")
        let rows = try backend.database.update("users", set: ["name": "Fi"], where: .eq("id", fiona.id), as: .user(fiona.id))
        XCTAssertEqual(rows.first?["updated_at"], "2026-01-01T01:00:00.5+00:00")
        XCTAssertEqual(rows.first?["created_at"], "2025-12-01T09:00:00+00:00", "created_at is untouched")
        let subs = try backend.database.update("subscriptions", set: ["is_active": false], where: .eq("user_id", fiona.id))
        XCTAssertEqual(subs.first?["updated_at"], "2026-01-01T01:00:00.5+00:00")
        // A client cannot back-date updated_at: the BEFORE trigger overrides it.
        let back = try backend.database.update("users", set: ["updated_at": "2000-01-01T00:00:00+00:00"], where: .eq("id", fiona.id), as: .user(fiona.id))
        XCTAssertEqual(back.first?["updated_at"], "2026-01-01T01:00:00.5+00:00")
    }

    func testOneReadingPerUserDateAndCategory() throws {
        let fiona = AuraTestSupport.persona(backend, "fiona")
        let row: [String: JSONValue] = ["user_id": .string(fiona.id), "date": "2026-01-01", "category": "Love", "content": "again", "fortune_score": 70]
        XCTAssertThrowsError(try backend.database.insert("daily_readings", [row], as: .user(fiona.id))) { e in
            XCTAssertEqual((e as? PostgresError)?.code, "23505")
            XCTAssertEqual((e as? PostgresError)?.message, "duplicate key value violates unique constraint \"daily_readings_user_id_date_category_key\"")
        }
        var other = row
        other["category"] = "Career"
        XCTAssertEqual(try backend.database.insert("daily_readings", [other], as: .user(fiona.id)).count, 1, "another category the same day is fine")
        other["fortune_score"] = 101
        other["category"] = "Social"
        XCTAssertThrowsError(try backend.database.insert("daily_readings", [other], as: .user(fiona.id))) { e in
            XCTAssertEqual(
                (e as? PostgresError)?.message, "new row for relation \"daily_readings\" violates check constraint \"daily_readings_fortune_score_check\"")
        }
    }
}
