import XCTest
import MockBinding
import TeleportMe

/// Models beyond the generic `models` kind (ModelContractsTests): the kind rejects mutant
/// TeleportMe models, and the models decode what PostgreSQL prints and encode what PostgREST
/// accepts.
final class TeleportMeModelsTests: GateTestCase {
    /// Mutants: a model missing a column, one with an extra key, one whose optionality disagrees
    /// with the column's nullability, and one that omits NULL columns when encoding.
    func testCoverageRejectsWrongModels() throws {
        let schema = try AppSpec.load(folder: ContractsLocator.app("teleportme")).schema
        let table = try XCTUnwrap(schema.table("saved_cities"))
        let row: [String: JSONValue] = [
            "id": "5a000000-0000-4000-8000-00000000a001", "user_id": .string(TeleportMeTestSupport.ana),
            "city_id": "berlin", "created_at": "2026-01-01T00:00:00+00:00"
        ]
        XCTAssertEqual(ModelSuite.coverage(SavedCity.self, table: table, row: row), [])
        let missing = ModelSuite.coverage(MutantSavedCityMissingColumn.self, table: table, row: row)
        XCTAssertTrue(missing.contains { $0.contains("no key for column saved_cities.created_at") }, "\(missing)")
        let extra = ModelSuite.coverage(MutantSavedCityExtraKey.self, table: table, row: row)
        XCTAssertTrue(extra.contains { $0.contains("has key 'note'") }, "\(extra)")
        let nullable = ModelSuite.coverage(MutantSavedCityOptionalCity.self, table: table, row: row)
        XCTAssertTrue(nullable.contains { $0.contains("city_id accepts NULL but the column is NOT NULL") }, "\(nullable)")
        let omits = ModelSuite.coverage(MutantSavedCityOmitsNulls.self, table: table, row: row.merging(["created_at": .null]) { $1 })
        XCTAssertTrue(omits.contains { $0.contains("does not write created_at") }, "\(omits)")
    }

    func testTimestamptzDecodesEveryPostgreSQLSpelling() throws {
        let cases: [(String, Int64)] = [
            ("2026-01-02T09:30:00+00:00", 1_767_346_200_000_000),
            ("2026-01-02T09:30:00.5+00:00", 1_767_346_200_500_000),
            ("2026-01-02T09:30:00.123456Z", 1_767_346_200_123_456),
            ("2026-01-02T15:00:00+05:30", 1_767_346_200_000_000),
            ("2026-01-02 04:30:00-05", 1_767_346_200_000_000),
            ("2026-01-02T09:30:00Z", 1_767_346_200_000_000)
        ]
        for (text, micros) in cases {
            let row: JSONValue = [
                "id": "5a000000-0000-4000-8000-00000000a001", "user_id": .string(TeleportMeTestSupport.ana),
                "city_id": "berlin", "created_at": .string(text)
            ]
            let saved = try PostgresRowCoding.decode(SavedCity.self, from: row)
            XCTAssertEqual(saved.createdAt?.microseconds, micros, text)
        }
        XCTAssertEqual(PGTimestamp(microseconds: 1_767_346_200_500_000).description, "2026-01-02T09:30:00.5+00:00")
        XCTAssertEqual(PGTimestamp(microseconds: 1_767_346_200_000_000).description, "2026-01-02T09:30:00+00:00")
        XCTAssertThrowsError(try PostgresRowCoding.decode(PGTimestamp.self, from: .string("yesterday")))
        XCTAssertThrowsError(try PostgresRowCoding.decode(PGTimestamp.self, from: .string("2026-02-30T00:00:00Z")))
    }

    func testUUIDArraysAndJSONBDecodeAndEncodeCanonically() throws {
        let row: JSONValue = [
            "id": "0F000000-0000-4000-8000-00000000A001", "user_id": .string(TeleportMeTestSupport.ana), "start_type": "city_i_love",
            "cost_preference": 7, "climate_preference": 6.5, "culture_preference": 8, "job_market_preference": 5,
            "selected_vibe_tags": ["E3798AA8-08DC-562D-82F9-018791AF1BC6", "{72fc273b-15fa-5a4b-b534-ca4176daea88}"],
            "dealbreakers": ["high crime", "no \"quotes\""], "created_at": "2026-01-01T00:00:00+00:00", "updated_at": nil
        ]
        let prefs = try PostgresRowCoding.decode(UserPreferences.self, from: row)
        XCTAssertEqual(prefs.selectedVibeTags?.map(\.rawValue), ["e3798aa8-08dc-562d-82f9-018791af1bc6", "72fc273b-15fa-5a4b-b534-ca4176daea88"])
        let back = try PostgresRowCoding.encode(prefs)
        XCTAssertEqual(back["id"], "0f000000-0000-4000-8000-00000000a001")
        XCTAssertEqual(back["updated_at"], .null, "NULL columns are written as null")
        XCTAssertThrowsError(
            try PostgresRowCoding.decode(UserPreferences.self, from: .object(row.objectValue!.merging(["selected_vibe_tags": ["not-a-uuid"]]) { $1 })))

        let event: JSONValue = [
            "id": "ee000000-0000-4000-8000-00000000a001", "user_id": .string(TeleportMeTestSupport.ana),
            "event_type": "city_viewed", "metadata": ["city_id": "berlin", "nested": ["n": [1, 2.5, nil, true]]],
            "created_at": "2026-01-01T00:00:00+00:00"
        ]
        let decoded = try PostgresRowCoding.decode(EngagementEvent.self, from: event)
        XCTAssertEqual(decoded.metadata?["nested"]?["n"], [1, 2.5, nil, true])
        XCTAssertEqual(JSONMatch.differences(expected: event, actual: try PostgresRowCoding.encode(decoded), useMatchers: false), [])

        let report: JSONValue = [
            "id": "4e000000-0000-4000-8000-00000000a001", "user_id": .string(TeleportMeTestSupport.ana),
            "current_city_id": "san-francisco", "preferences": ["cost": 7, "climate": 6, "culture": 8, "job_market": 5],
            "results": [], "ai_summary": nil, "created_at": "2026-01-01T00:00:00+00:00"
        ]
        XCTAssertEqual(
            try PostgresRowCoding.decode(CityReport.self, from: report).preferences, ReportPreferences(cost: 7, climate: 6, culture: 8, jobMarket: 5))
    }

    /// Payload models encode what PostgREST accepts: the mock takes them as they are.
    func testPayloadModelsAreAcceptedByPostgREST() throws {
        let backend = try TeleportMeTestSupport.backend()
        let wire = WireClient(backend)
        let ana = try XCTUnwrap(PGUUID(TeleportMeTestSupport.ana))
        let insert = try wire.send(
            method: "POST", path: "/rest/v1/saved_cities", query: "select=*", headers: ["Prefer": "return=representation"],
            json: try PostgresRowCoding.encode(SavedCityInsert(userID: ana, cityID: "paris")), as: "ana")
        XCTAssertEqual(insert.status, 201, insert.text)
        let saved = try PostgresRowCoding.decode([SavedCity].self, from: insert.body)
        XCTAssertEqual(saved.first?.cityID, "paris")

        let upsert = UserPreferencesUpsert(userID: ana, costPreference: 2, selectedVibeTags: [try XCTUnwrap(PGUUID("306c0735-b174-568e-9b60-b99f0f39d997"))])
        XCTAssertNil(try PostgresRowCoding.encode(upsert)["start_type"], "absent fields are left out so stored values stay")
        let up = try wire.send(
            method: "POST", path: "/rest/v1/user_preferences", query: "on_conflict=user_id&select=*",
            headers: ["Prefer": "resolution=merge-duplicates,return=representation"], json: try PostgresRowCoding.encode(upsert), as: "ana")
        XCTAssertEqual(up.status, 200, "an upsert that only updates answers 200: \(up.text)")
        let row = try XCTUnwrap(try PostgresRowCoding.decode([UserPreferences].self, from: up.body).first)
        XCTAssertEqual(row.costPreference, 2)
        XCTAssertEqual(row.culturePreference, 8, "merge keeps columns not sent")

        let patch = try wire.send(
            method: "PATCH", path: "/rest/v1/profiles", query: "id=eq.\(TeleportMeTestSupport.ana)&select=*",
            headers: ["Prefer": "return=representation"], json: try PostgresRowCoding.encode(ProfileUpdate(avatarURL: "https://a.example/p.png")), as: "ana")
        XCTAssertEqual(try PostgresRowCoding.decode([Profile].self, from: patch.body).first?.avatarURL, "https://a.example/p.png")
    }

    func testRegistryRoundTripRejectsLossyModel() {
        var registry = ModelSuite.registry(for: TeleportMeApp.self)
        registry.register(MutantSavedCityOmitsNulls.self, as: "Lossy")
        let body: JSONValue = [
            [
                "id": "5a000000-0000-4000-8000-00000000a001", "user_id": .string(TeleportMeTestSupport.ana),
                "city_id": "berlin", "created_at": nil
            ]
        ]
        XCTAssertEqual(registry.check("SavedCity[]", body), [])
        XCTAssertEqual(registry.check("Lossy[]", body), ["Lossy[] round trip: $[0].created_at: missing (expected null)"])
        XCTAssertEqual(registry.check("Nope", body).first?.hasPrefix("unknown model 'Nope'"), true)
    }
}

// MARK: - Mutant models

struct MutantSavedCityMissingColumn: TableModel {
    static let table = "saved_cities"
    static var columns: [String] { CodingKeys.allCases.map(\.rawValue) }
    var id: PGUUID; var userID: PGUUID; var cityID: String
    enum CodingKeys: String, CodingKey, CaseIterable { case id, userID = "user_id", cityID = "city_id" }
}

struct MutantSavedCityExtraKey: TableModel {
    static let table = "saved_cities"
    static var columns: [String] { CodingKeys.allCases.map(\.rawValue) }
    var id: PGUUID; var userID: PGUUID; var cityID: String; var createdAt: PGTimestamp?; var note: String?
    enum CodingKeys: String, CodingKey, CaseIterable { case id, userID = "user_id", cityID = "city_id", createdAt = "created_at", note }
}

struct MutantSavedCityOptionalCity: TableModel {
    static let table = "saved_cities"
    static var columns: [String] { CodingKeys.allCases.map(\.rawValue) }
    var id: PGUUID; var userID: PGUUID; var cityID: String?; var createdAt: PGTimestamp?
    enum CodingKeys: String, CodingKey, CaseIterable { case id, userID = "user_id", cityID = "city_id", createdAt = "created_at" }
    func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id); try c.encode(userID, forKey: .userID)
        try c.encode(cityID, forKey: .cityID); try c.encode(createdAt, forKey: .createdAt)
    }
}

/// Synthesised encoding: NULL columns are left out instead of written as null.
struct MutantSavedCityOmitsNulls: TableModel {
    static let table = "saved_cities"
    static var columns: [String] { CodingKeys.allCases.map(\.rawValue) }
    var id: PGUUID; var userID: PGUUID; var cityID: String; var createdAt: PGTimestamp?
    enum CodingKeys: String, CodingKey, CaseIterable { case id, userID = "user_id", cityID = "city_id", createdAt = "created_at" }
}
