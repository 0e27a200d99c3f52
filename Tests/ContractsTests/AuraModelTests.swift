import Foundation
import XCTest
import MockBinding
import MockSupabase
@testable import Aura

/// Aura's models beyond the generic `models` kind (ModelContractsTests): rows PostgreSQL prints
/// with microseconds and NULLs, mutant models, the edge functions' payload keys.
final class AuraModelTests: GateTestCase {
    func testContractsLoad() throws {
        let spec = try AuraApp.spec()
        XCTAssertEqual(spec.schema.tables.filter { $0.schema == "public" }.map(\.name), ["users", "daily_readings", "mbti_results", "subscriptions"])
        XCTAssertEqual(spec.fixtures.personas.map(\.name), ["fiona", "priya", "omar"])
        let b = try AuraTestSupport.backend()
        for t in ["users", "daily_readings", "mbti_results", "subscriptions"] {
            XCTAssertGreaterThan(b.database.count(t), 0, "fixtures.json seeds \(t)")
        }
    }

    /// The models suite on a backend whose rows carry microseconds and NULLs, as PostgreSQL
    /// stores and prints them.
    func testRowsRoundTripAsPostgresPrintsThem() throws {
        let b = try AuraTestSupport.backend()
        try b.database.update(
            "subscriptions", set: ["expires_at": "2026-03-04T05:06:07.123456+00:00", "revenuecat_customer_id": .null],
            where: .eq("user_id", AuraTestSupport.persona(b, "omar").id))
        XCTAssertTrue(try b.database.rows("subscriptions").contains { $0["expires_at"] == "2026-03-04T05:06:07.123456+00:00" })
        let results = try ModelSuite.tableResults(app: AuraApp.name, backend: b, models: AuraApp.tableModels, registry: ModelSuite.registry(for: AuraApp.self))
        XCTAssertEqual(results.count, 8)
        for r in results where !r.passed { XCTFail("\(r)") }
    }

    /// A model that codes uuids the Foundation way (upper case), one that drops NULL columns, and
    /// one whose fortune score is optional although the column is NOT NULL are rejected.
    func testModelsSuiteRejectsMutantModels() throws {
        let b = try AuraTestSupport.backend()
        let registry = ModelSuite.registry(for: AuraApp.self)
        struct UpperCaseUUIDUser: Codable {
            var id: UUID, name: String, birthdate: String, zodiac_sign: String, mbti_type: String, created_at: String?, updated_at: String?
        }
        let users = try b.database.rows("users")
        XCTAssertTrue(users.allSatisfy { !registry.check(UpperCaseUUIDUser.self, .object($0)).isEmpty }, "upper-case uuid model")
        struct SecondsOnlySubscription: Codable {
            var id: String, user_id: String, tier: String, revenuecat_customer_id: String?, original_purchase_date: String?
            var expires_at: String?, is_active: Bool?, updated_at: String?
        }
        let subs = try b.database.rows("subscriptions")
        XCTAssertTrue(subs.contains { !registry.check(SecondsOnlySubscription.self, .object($0)).isEmpty }, "model that omits NULL columns when encoding")

        struct LaxReading: TableModel {
            static var table: String { "daily_readings" }
            static var columns: [String] {
                ["id", "user_id", "date", "category", "content", "fortune_score", "lucky_numbers", "power_colors", "is_premium", "created_at"]
            }
            var id: String, user_id: String, date: String, category: String, content: String, fortune_score: Int?
            var lucky_numbers: [Int]?, power_colors: [String]?, is_premium: Bool?, created_at: String?
            func encode(to encoder: Encoder) throws {
                var c = encoder.container(keyedBy: CodingKeys.self)
                try c.encode(id, forKey: .id); try c.encode(user_id, forKey: .user_id); try c.encode(date, forKey: .date)
                try c.encode(category, forKey: .category); try c.encode(content, forKey: .content); try c.encode(fortune_score, forKey: .fortune_score)
                try c.encode(lucky_numbers, forKey: .lucky_numbers); try c.encode(power_colors, forKey: .power_colors)
                try c.encode(is_premium, forKey: .is_premium); try c.encode(created_at, forKey: .created_at)
            }
        }
        let table = try XCTUnwrap(try AuraApp.spec().schema.table("daily_readings"))
        let reading = try XCTUnwrap(try b.database.rows("daily_readings").first)
        XCTAssertEqual(ModelSuite.coverage(DailyReading.self, table: table, row: reading, coder: registry.coder), [])
        XCTAssertEqual(
            ModelSuite.coverage(LaxReading.self, table: table, row: reading, coder: registry.coder),
            ["LaxReading.fortune_score accepts NULL but the column is NOT NULL"])
    }

    /// The generate-horoscope request codes exactly the keys §3.2 destructures.
    func testFunctionPayloadKeys() throws {
        let req = GenerateHoroscopeRequest(
            userId: PGUUID(UUID(uuidString: "F10A0000-0000-4000-8000-000000000001")!), zodiacSign: .aries,
            mbtiType: .INTJ, category: .personalGrowth, isPremium: false)
        let json = try PostgresRowCoding.encode(req)
        XCTAssertEqual(json.objectValue.map { Set($0.keys) }, ["userId", "zodiacSign", "mbtiType", "category", "isPremium"])
        XCTAssertEqual(json["userId"], "f10a0000-0000-4000-8000-000000000001")
        XCTAssertEqual(json["category"], "Personal Growth")
        XCTAssertEqual(try PostgresRowCoding.decode(GenerateHoroscopeRequest.self, from: json), req)
        let patch = try PostgresRowCoding.encode(UserProfileUpdate(name: "Fi"))
        XCTAssertEqual(patch, ["name": "Fi"], "a profile patch sends only the fields it changes")
    }
}
