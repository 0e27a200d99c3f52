import Foundation
import XCTest
import ContractKit
import MockSupabase
@testable import Aura

/// Aura's models against schema.json and the rows the mock prints (§6.1).
final class AuraModelTests: XCTestCase {
    func testContractsLoad() throws {
        let spec = try AuraApp.spec()
        XCTAssertEqual(spec.schema.tables.filter { $0.schema == "public" }.map(\.name), ["users", "daily_readings", "mbti_results", "subscriptions"])
        XCTAssertEqual(spec.fixtures.personas.map(\.name), ["fiona", "priya", "omar"])
        let b = try AuraTestSupport.backend()
        for t in ["users", "daily_readings", "mbti_results", "subscriptions"] {
            XCTAssertGreaterThan(b.database.count(t), 0, "fixtures.json seeds \(t)")
        }
    }

    func testModelsCodeExactlyTheSchemaColumns() throws {
        let schema = try AuraApp.spec().schema
        let models = AuraConformance.rowModels.map { (table: $0.table, columns: $0.columns) }
        AuraTestSupport.assertNoViolations(AuraConformance.modelColumnViolations(schema: schema, models: models), "models vs schema.json")

        // Mutants: a model that forgot a column, one with an extra column, a missing model.
        var dropped = models
        dropped[1].columns.removeAll { $0 == "power_colors" }
        AuraTestSupport.assertViolations(AuraConformance.modelColumnViolations(schema: schema, models: dropped), "model without power_colors")
        var extra = models
        extra[3].columns.append("plan")
        AuraTestSupport.assertViolations(AuraConformance.modelColumnViolations(schema: schema, models: extra), "model with an extra column")
        AuraTestSupport.assertViolations(AuraConformance.modelColumnViolations(schema: schema, models: Array(models.dropLast())), "no subscription model")
    }

    /// Every fixture row, as the mock prints it, decodes and re-encodes to equal JSON.
    func testRowsRoundTripAsPostgresPrintsThem() throws {
        let b = try AuraTestSupport.backend()
        let db = b.database
        // A row with microseconds and NULLs, as PostgreSQL stores and prints them.
        try db.update("subscriptions", set: ["expires_at": "2026-03-04T05:06:07.123456+00:00", "revenuecat_customer_id": .null],
                      where: .eq("user_id", AuraTestSupport.persona(b, "omar").id))
        var v: [String] = []
        v += AuraConformance.roundTripViolations(AuraUser.self, rows: try db.rows("users").map(JSONValue.object), label: "users")
        v += AuraConformance.roundTripViolations(DailyReading.self, rows: try db.rows("daily_readings").map(JSONValue.object), label: "daily_readings")
        v += AuraConformance.roundTripViolations(MBTIResult.self, rows: try db.rows("mbti_results").map(JSONValue.object), label: "mbti_results")
        v += AuraConformance.roundTripViolations(Subscription.self, rows: try db.rows("subscriptions").map(JSONValue.object), label: "subscriptions")
        AuraTestSupport.assertNoViolations(v, "round trip")
        XCTAssertTrue(try db.rows("subscriptions").contains { $0["expires_at"] == "2026-03-04T05:06:07.123456+00:00" })
    }

    /// A model that codes uuids the Foundation way (upper case) or drops NULL columns is rejected.
    func testRoundTripRejectsMutantModels() throws {
        let b = try AuraTestSupport.backend()
        let rows = try b.database.rows("users").map(JSONValue.object)
        struct UpperCaseUUIDUser: Codable {
            var id: UUID, name: String, birthdate: String, zodiac_sign: String, mbti_type: String, created_at: String?, updated_at: String?
        }
        AuraTestSupport.assertViolations(AuraConformance.roundTripViolations(UpperCaseUUIDUser.self, rows: rows, label: "users"), "upper-case uuid model")
        struct SecondsOnlySubscription: Codable {
            var id: String, user_id: String, tier: String, revenuecat_customer_id: String?, original_purchase_date: String?
            var expires_at: String?, is_active: Bool?, updated_at: String?
        }
        let subs = try b.database.rows("subscriptions").map(JSONValue.object)
        AuraTestSupport.assertViolations(AuraConformance.roundTripViolations(SecondsOnlySubscription.self, rows: subs, label: "subscriptions"),
                                         "model that omits NULL columns when encoding")
    }

    func testOptionalityMatchesNullability() throws {
        let b = try AuraTestSupport.backend()
        let schema = try AuraApp.spec().schema
        func sample(_ t: String) throws -> [String: JSONValue] { try XCTUnwrap(try b.database.rows(t).first) }
        var v: [String] = []
        v += AuraConformance.nullabilityViolations(AuraUser.self, table: schema.table("users")!, sample: try sample("users"))
        v += AuraConformance.nullabilityViolations(DailyReading.self, table: schema.table("daily_readings")!, sample: try sample("daily_readings"))
        v += AuraConformance.nullabilityViolations(MBTIResult.self, table: schema.table("mbti_results")!, sample: try sample("mbti_results"))
        v += AuraConformance.nullabilityViolations(Subscription.self, table: schema.table("subscriptions")!, sample: try sample("subscriptions"))
        AuraTestSupport.assertNoViolations(v, "optionality vs nullability")

        // Mutant: a reading model whose fortune score is optional although the column is NOT NULL.
        struct LaxReading: Codable {
            var id: String, user_id: String, date: String, category: String, content: String, fortune_score: Int?
            var lucky_numbers: [Int]?, power_colors: [String]?, is_premium: Bool?, created_at: String?
        }
        AuraTestSupport.assertViolations(AuraConformance.nullabilityViolations(LaxReading.self, table: schema.table("daily_readings")!,
                                                                                sample: try sample("daily_readings")), "optional fortune_score")
    }

    /// The generate-horoscope request codes exactly the keys §3.2 destructures.
    func testFunctionPayloadKeys() throws {
        let req = GenerateHoroscopeRequest(userId: UUID(uuidString: "F10A0000-0000-4000-8000-000000000001")!, zodiacSign: .aries,
                                           mbtiType: .INTJ, category: .personalGrowth, isPremium: false)
        let json = try AuraJSON.encode(req)
        XCTAssertEqual(json.objectValue.map { Set($0.keys) }, ["userId", "zodiacSign", "mbtiType", "category", "isPremium"])
        XCTAssertEqual(json["userId"], "f10a0000-0000-4000-8000-000000000001")
        XCTAssertEqual(json["category"], "Personal Growth")
        XCTAssertEqual(try AuraJSON.decode(GenerateHoroscopeRequest.self, from: json), req)
        let patch = try AuraJSON.encode(UserProfileUpdate(name: "Fi"))
        XCTAssertEqual(patch, ["name": "Fi"], "a profile patch sends only the fields it changes")
    }
}
