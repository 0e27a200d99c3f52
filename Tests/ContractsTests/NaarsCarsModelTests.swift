import XCTest
import MockBinding
import NaarsCars

/// FR-032..FR-034 and FR-040: the models cover exactly schema.json's columns and functions.json's
/// payloads, round-trip rows as PostgreSQL prints them, and AppError's messages come from
/// errors.json.
final class NaarsCarsModelTests: GateTestCase {
    /// A fixture backend with one row in each table the seed leaves empty.
    func populated() throws -> NaarsCarsFixture {
        let f = try NaarsCarsFixture()
        let db = f.backend.database
        try db.insert("ride_participants", [["ride_id": .string(f.fixtureID("rides", 0)), "user_id": .string(f.id("carol"))]])
        try db.insert("favor_participants", [["favor_id": .string(f.fixtureID("favors", 1)), "user_id": .string(f.id("dave"))]])
        try db.insert("push_tokens", [["user_id": .string(f.id("bob")), "token": .string(String(repeating: "ab", count: 32)), "device_id": "B0B-IPHONE"]])
        return f
    }

    /// The models kind on a backend with a row in every table (the fixtures leave three empty;
    /// the gate checks those with interaction responses).
    func testEveryTableHasAModelThatRoundTripsItsRows() throws {
        let f = try populated()
        for m in NaarsCarsModels.rows where m.table != "leaderboard_stats" {
            XCTAssertFalse(f.backend.database.count(m.table) == 0, "\(m.table) has no row to round-trip")
        }
        let results = try ModelSuite.tableResults(
            app: NaarsCarsApp.name, backend: f.backend, models: NaarsCarsApp.tableModels,
            registry: ModelSuite.registry(for: NaarsCarsApp.self))
        XCTAssertEqual(results.count, 2 * NaarsCarsModels.rows.count)
        for r in results where !r.passed { XCTFail("\(r)") }
    }

    func testFR034CoreModelsExist() {
        let names = Set(NaarsCarsModels.rows.map { String(describing: $0) })
        for required in ["Profile", "Ride", "Favor", "Message", "Conversation", "AppNotification", "InviteCode", "Review", "TownHallPost"] {
            XCTAssertTrue(names.contains(required), "FR-034 model \(required)")
        }
    }

    func testEnumsMatchSchema() throws {
        let schema = try NaarsCarsApp.spec().schema
        XCTAssertEqual(RideStatus.allCases.map(\.rawValue), schema.enums["ride_status"])
        XCTAssertEqual(FavorStatus.allCases.map(\.rawValue), schema.enums["favor_status"])
        XCTAssertEqual(FavorDuration.allCases.map(\.rawValue), schema.enums["favor_duration"])
        // FR-003/FR-004 name these values.
        XCTAssertEqual(schema.enums["ride_status"], ["open", "pending", "confirmed", "completed"])
        XCTAssertEqual(schema.enums["favor_duration"], ["under_hour", "couple_hours", "couple_days", "not_sure"])
    }

    func testRPCPayloadsMatchFunctionsJSON() throws {
        let functions = try NaarsCarsContracts.load().functions
        for rpc in functions.rpcs {
            XCTAssertEqual(
                Set(NaarsCarsModels.rpcArguments[rpc.name]?.fields.filter { $0 != "none" } ?? ["missing"]), Set(rpc.params.map(\.name)), "\(rpc.name) arguments"
            )
            switch rpc.returns {
            case .table(let cols):
                XCTAssertEqual(NaarsCarsModels.rpcResults[rpc.name]?.fields, cols.map(\.name), "\(rpc.name) result columns")
            case .void, .scalar:
                XCTAssertNil(NaarsCarsModels.rpcResults[rpc.name], "\(rpc.name) returns no rows")
            }
        }
        let push = try XCTUnwrap(functions.edge("send-push-notification"))
        XCTAssertEqual(Set(PushNotificationRequest.fields), Set(push.required.map(\.name) + push.optional.map(\.name)))
        XCTAssertEqual(Set(push.required.map(\.name)), ["user_id", "title", "body"], "FR-020 required fields")
        XCTAssertEqual(Set(push.optional.map(\.name)), ["data", "badge"], "FR-020 optional fields")
    }

    func testPGValuesRoundTripExactly() throws {
        let cases: [(String, String)] = [
            ("2026-01-01T00:00:00+00:00", "timestamptz"), ("2025-12-31T23:59:59.123456+00:00", "timestamptz"),
            ("2026-01-05", "date"), ("08:30:00", "time"), ("23:59:59.5", "time")
        ]
        for (text, kind) in cases {
            let json = JSONValue.string(text).data()
            let back: Data
            switch kind {
            case "timestamptz": back = try JSONEncoder().encode(JSONDecoder().decode(PGTimestamp.self, from: json))
            case "date": back = try JSONEncoder().encode(JSONDecoder().decode(PGDate.self, from: json))
            default: back = try JSONEncoder().encode(JSONDecoder().decode(PGTimeOfDay.self, from: json))
            }
            XCTAssertEqual(try JSONValue.parse(back), .string(text), kind)
        }
        XCTAssertThrowsError(try JSONDecoder().decode(PGDate.self, from: JSONValue.string("2026-02-30").data()))
        XCTAssertEqual(PGTimestamp("2026-01-01T01:00:00+01:00"), PGTimestamp("2026-01-01T00:00:00Z"))
    }

    func testAppErrorMessagesComeFromErrorsJSON() throws {
        let catalog = try NaarsCarsContracts.load().errors
        XCTAssertEqual(AppError.networkUnavailable.message(in: catalog), "No internet connection.", "FR-040 verbatim")
        XCTAssertEqual(AppError.invalidCredentials.message(in: catalog), "Invalid email or password.", "FR-040 verbatim")
        XCTAssertEqual(AppError.notFound("Ride").message(in: catalog), RuleError.fill(try XCTUnwrap(catalog.messages["notFound"]), ["detail": "Ride"]))
        XCTAssertEqual(AppError.networkUnavailable.errorDescription, "No internet connection.")
        for name in AppError.caseNames { XCTAssertNotNil(catalog.messages[name], name) }
    }

    /// errors.json's mapping, applied to answers the backend really gives.
    func testAppErrorMappingOfRealAnswers() throws {
        let f = try NaarsCarsFixture()
        let catalog = f.contracts.errors
        func map(_ r: HTTPResponse) -> AppError { catalog.map(ErrorObservation(response: r)) }
        XCTAssertEqual(catalog.map(ErrorObservation(offline: true)), .networkUnavailable)
        let badLogin = try f.send("POST", "/auth/v1/token", "grant_type=password", json: ["email": "bob@test.com", "password": "wrong"], as: "anon")
        XCTAssertEqual(map(badLogin), .invalidCredentials, badLogin.text)
        let admin = try f.patch("profiles", "id=eq.\(f.id("bob"))", ["is_admin": true], as: "bob")
        XCTAssertEqual(map(admin), .unauthorized, admin.text)
        let code = try f.patch("invite_codes", "code=eq.CAROL001", ["used_by": .string(f.id("carol"))], as: "carol")
        XCTAssertEqual(map(code), .invalidInviteCode, code.text)
        let single = try f.send(
            "GET", "/rest/v1/rides", "select=id&id=eq.\(f.fixtureID("rides", 0))", headers: ["Accept": "application/vnd.pgrst.object+json"], as: "eve")
        XCTAssertEqual(map(single), .notFound("Record"), single.text)
        let token = try XCTUnwrap(f.backend.accessToken(persona: "bob"))
        f.clock.advance(by: 7200)
        let expired = try f.wire.send(
            method: "GET", path: "/rest/v1/rides", query: "select=id",
            headers: ["apikey": f.backend.anonKey, "Authorization": "Bearer \(token)"])
        XCTAssertEqual(map(expired), .sessionExpired, expired.text)
        let noKey = try f.wire.send(
            method: "GET", path: "/rest/v1/rides", query: "select=id", headers: ["apikey": f.backend.anonKey, "Authorization": "Bearer x.y"])
        XCTAssertEqual(map(noKey), .notAuthenticated, noKey.text)
        XCTAssertEqual(catalog.map(ErrorObservation(status: 503, message: "upstream")), .serverError("upstream"))
        XCTAssertEqual(catalog.map(ErrorObservation(status: 418, message: "teapot")), .unknown("teapot"))
    }

    // MARK: Mutants

    /// A ride model missing the gift column.
    struct RideWithoutGift: NaarsCarsRow {
        static let table = "rides"
        var id: UUID, userId: UUID, type: String, date: PGDate, time: PGTimeOfDay, pickup: String, destination: String
        var seats: Int?, notes: String?, status: RideStatus, claimedBy: UUID?, reviewed: Bool, reviewSkipped: Bool?
        var reviewSkippedAt: PGTimestamp?, createdAt: PGTimestamp, updatedAt: PGTimestamp
        enum CodingKeys: String, CodingKey, CaseIterable {
            case id, userId = "user_id", type, date, time, pickup, destination, seats, notes, status, claimedBy = "claimed_by", reviewed
            case reviewSkipped = "review_skipped", reviewSkippedAt = "review_skipped_at", createdAt = "created_at", updatedAt = "updated_at"
        }
    }

    /// A conversation model with the default (upper-case uuid, nil-omitting) encoding.
    struct ConversationDefaultEncoding: NaarsCarsRow {
        static let table = "conversations"
        var id: UUID, rideId: UUID?, favorId: UUID?, createdBy: UUID?, createdAt: PGTimestamp, updatedAt: PGTimestamp
        enum CodingKeys: String, CodingKey, CaseIterable {
            case id, rideId = "ride_id", favorId = "favor_id", createdBy = "created_by", createdAt = "created_at", updatedAt = "updated_at"
        }
    }

    /// A push token model whose device_id is optional though the column is NOT NULL.
    struct PushTokenLoose: NaarsCarsRow {
        static let table = "push_tokens"
        var id: UUID, userId: UUID, token: String, deviceId: String?, platform: String, createdAt: PGTimestamp, updatedAt: PGTimestamp
        enum CodingKeys: String, CodingKey, CaseIterable {
            case id, userId = "user_id", token, deviceId = "device_id", platform, createdAt = "created_at", updatedAt = "updated_at"
        }
        func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(id.uuidString.lowercased(), forKey: .id)
            try c.encode(userId.uuidString.lowercased(), forKey: .userId)
            try c.encode(token, forKey: .token)
            try c.encode(deviceId, forKey: .deviceId)
            try c.encode(platform, forKey: .platform)
            try c.encode(createdAt, forKey: .createdAt)
            try c.encode(updatedAt, forKey: .updatedAt)
        }
    }

    func testModelsKindRejectsWrongModels() throws {
        let f = try populated()
        let schema = f.spec.schema
        func row(_ t: String) throws -> [String: JSONValue] { try XCTUnwrap(try f.backend.database.rows(t).first) }
        let a = ModelSuite.coverage(RideWithoutGift.self, table: try XCTUnwrap(schema.table("rides")), row: try row("rides"))
        XCTAssertTrue(a.contains { $0.hasPrefix("RideWithoutGift has no key for column rides.") }, "\(a)")
        let b = ModelSuite.registry(for: NaarsCarsApp.self).check(ConversationDefaultEncoding.self, .object(try row("conversations")))
        XCTAssertTrue(b.contains { $0.hasPrefix("ConversationDefaultEncoding round trip: $.id: expected") }, "\(b)")
        let c = ModelSuite.coverage(PushTokenLoose.self, table: try XCTUnwrap(schema.table("push_tokens")), row: try row("push_tokens"))
        XCTAssertEqual(c, ["PushTokenLoose.device_id accepts NULL but the column is NOT NULL"])
        // The real models pass the same checks.
        XCTAssertEqual(ModelSuite.coverage(PushToken.self, table: try XCTUnwrap(schema.table("push_tokens")), row: try row("push_tokens")), [])
    }
}
