import XCTest
import MockBinding
import NaarsCars

/// §8 EDGE-001..003 beyond the documented interactions (what APNs receives, time moving past the
/// 90-day window) and FR-017's buckets through the Storage API, each with a mutant.
final class NaarsCarsEdgeAndStorageTests: GateTestCase {
    let validToken = String(repeating: "0123456789abcdef", count: 4)

    func addToken(_ f: NaarsCarsFixture, user: String, token: String, device: String) throws {
        try f.backend.database.insert("push_tokens", [["user_id": .string(f.id(user)), "token": .string(token), "device_id": .string(device)]])
    }

    /// EDGE-001: 200, and the device receives the FR-020 payload as an APNs alert.
    func testEDGE_001_validTokenReceivesTheNotification() throws {
        let f = try NaarsCarsFixture()
        try addToken(f, user: "bob", token: validToken, device: "bob-iphone")
        let r = try f.function(
            "send-push-notification",
            [
                "user_id": .string(f.id("bob")), "title": "Ride claimed", "body": "Carol claimed your ride",
                "data": ["ride_id": .string(f.fixtureID("rides", 0))], "badge": 3
            ], as: "service_role")
        XCTAssertEqual(r.status, 200, r.text)
        let apns = f.contracts.functions.apns
        XCTAssertEqual(f.apns.deliveries.count, 1)
        let d = try XCTUnwrap(f.apns.deliveries.first)
        XCTAssertEqual(d.deviceToken, validToken)
        XCTAssertEqual(
            d.payload,
            [
                "aps": ["alert": ["title": "Ride claimed", "body": "Carol claimed your ride"], "badge": 3, "sound": .string(apns.sound)],
                "ride_id": .string(f.fixtureID("rides", 0))
            ])
        XCTAssertEqual(d.headers, ["apns-topic": apns.topic, "apns-push-type": apns.pushType, "apns-priority": String(apns.priority)])
        let result = try JSONDecoder().decode(PushNotificationResult.self, from: r.body)
        XCTAssertEqual(result.sent, 1)
    }

    /// An APNs that accepts every token (mutant of the token-invalidation handling).
    struct AcceptEverything: APNsClient {
        func send(deviceToken: String, payload: JSONValue, headers: [String: String]) -> APNsResponse { APNsResponse(status: 200) }
    }

    /// EDGE-002: invalid tokens are removed; with an APNs that never reports one (mutant) they
    /// stay, and the check notices.
    func testEDGE_002_invalidTokensAreRemoved() throws {
        func run(_ apns: any APNsClient) throws -> (removed: Int, remaining: [String]) {
            let clock = ManualClock()
            let backend = try NaarsCarsApp.makeBackend(clock: clock, ids: SeededIDGenerator(seed: 5), apns: apns)
            let f = try NaarsCarsFixture(backend: backend, clock: clock)
            try addToken(f, user: "bob", token: "dead" + String(validToken.dropFirst(4)), device: "old-ipad")
            try addToken(f, user: "bob", token: "not-a-token", device: "watch")
            try addToken(f, user: "bob", token: validToken, device: "iphone")
            let r = try f.function("send-push-notification", ["user_id": .string(f.id("bob")), "title": "t", "body": "b"], as: "service_role")
            XCTAssertEqual(r.status, 200, r.text)
            return (Int(r.json()["removed"]?.intValue ?? -1), try f.rows("push_tokens").compactMap { $0["device_id"]?.stringValue }.sorted())
        }
        let real = try run(FakeAPNs())
        XCTAssertEqual(real.removed, 2)
        XCTAssertEqual(real.remaining, ["iphone"])
        let mutant = try run(AcceptEverything())
        XCTAssertNotEqual(mutant.remaining, ["iphone"], "an APNs that never reports invalid tokens is noticed")
    }

    /// EDGE-003: a token exactly 90 days old stays; one second later it is stale. The window comes
    /// from functions.json.
    func testEDGE_003_cleanupFollowsTheClock() throws {
        let f = try NaarsCarsFixture()
        try addToken(f, user: "bob", token: validToken, device: "iphone")
        let days = f.contracts.functions.staleTokenDays
        f.clock.advance(by: Double(days) * 86_400)
        XCTAssertEqual(try f.function("cleanup-tokens", [:], as: "service_role").json(), ["deleted": 0])
        f.clock.advance(by: 1)
        XCTAssertEqual(try f.function("cleanup-tokens", [:], as: "service_role").json(), ["deleted": 1])
        XCTAssertEqual(f.backend.database.count("push_tokens"), 0)
        // Re-registering refreshes updated_at (set_updated_at), which restarts the window.
        try addToken(f, user: "carol", token: validToken, device: "ipad")
        f.clock.advance(by: Double(days) * 86_400)
        try f.backend.database.update("push_tokens", set: ["token": .string(validToken)], where: .eq("device_id", "ipad"))
        f.clock.advance(by: 1)
        XCTAssertEqual(try f.rpc("cleanup_stale_push_tokens", as: "service_role").json(), 0)
    }

    // MARK: Storage (FR-017, FR-018)

    func upload(_ f: NaarsCarsFixture, _ bucket: String, _ name: String, bytes: Int = 10, type: String = "image/jpeg", as actor: String) throws -> HTTPResponse
    {
        try f.wire.send(
            method: "POST", path: "/storage/v1/object/\(bucket)/\(name)", headers: ["Content-Type": type],
            body: Data(repeating: 0xFF, count: bytes), as: actor)
    }

    func download(_ f: NaarsCarsFixture, _ bucket: String, _ name: String, as actor: String) throws -> HTTPResponse {
        try f.wire.send(method: "GET", path: "/storage/v1/object/authenticated/\(bucket)/\(name)", as: actor)
    }

    func storageCode(_ r: HTTPResponse) -> String { r.jsonBody?["statusCode"]?.stringValue ?? "\(r.status)" }

    func testAvatarsOwnerUploadsIntoOwnFolderWithinLimits() throws {
        let f = try NaarsCarsFixture()
        let eve = f.id("eve"), bob = f.id("bob")
        XCTAssertEqual(try upload(f, "avatars", "\(eve)/me.jpg", as: "eve").status, 200, "a pending user sets a profile photo")
        XCTAssertEqual(storageCode(try upload(f, "avatars", "\(bob)/x.jpg", as: "eve")), "403", "another user's folder")
        XCTAssertEqual(storageCode(try upload(f, "avatars", "\(eve)/big.jpg", bytes: 204_801, as: "eve")), "413", "over 200KB")
        XCTAssertEqual(try upload(f, "avatars", "\(eve)/max.jpg", bytes: 204_800, as: "eve").status, 200, "exactly 200KB")
        XCTAssertEqual(storageCode(try upload(f, "avatars", "\(eve)/a.gif", type: "image/gif", as: "eve")), "415")
        XCTAssertEqual(try f.wire.send(method: "GET", path: "/storage/v1/object/public/avatars/\(eve)/me.jpg", as: nil).status, 200, "public read")
    }

    func testTownHallImagesNeedAnApprovedUser() throws {
        let f = try NaarsCarsFixture()
        XCTAssertEqual(storageCode(try upload(f, "town-hall-images", "\(f.id("eve"))/p.jpg", as: "eve")), "403")
        XCTAssertEqual(try upload(f, "town-hall-images", "\(f.id("bob"))/p.jpg", bytes: 512_000, as: "bob").status, 200)
        XCTAssertEqual(storageCode(try upload(f, "town-hall-images", "\(f.id("bob"))/q.jpg", bytes: 512_001, as: "bob")), "413", "over 500KB")
    }

    /// message-images: the uploader and the participants of the conversation whose message uses it.
    func testMessageImagesAreForParticipants() throws {
        let f = try NaarsCarsFixture()
        let name = "\(f.id("bob"))/receipt.jpg"
        XCTAssertEqual(try upload(f, "message-images", name, as: "bob").status, 200)
        XCTAssertEqual(try download(f, "message-images", name, as: "bob").status, 200, "uploader")
        XCTAssertEqual(storageCode(try download(f, "message-images", name, as: "carol")), "404", "not shared yet")
        let m = try f.post(
            "messages", ["conversation_id": .string(f.fixtureID("conversations", 0)), "from_id": .string(f.id("bob")), "image_url": .string(name)], as: "bob")
        XCTAssertEqual(m.status, 201, m.text)
        XCTAssertEqual(try download(f, "message-images", name, as: "carol").status, 200, "participant of the conversation")
        XCTAssertEqual(storageCode(try download(f, "message-images", name, as: "dave")), "404", "outsider")
        XCTAssertEqual(try f.wire.send(method: "GET", path: "/storage/v1/object/public/message-images/\(name)", as: nil).status, 400, "not public")
    }

    /// Mutant: a storage.json whose message-images SELECT is public lets the outsider read.
    func testOpenMessageImagesBucketIsNoticed() throws {
        let clock = ManualClock()
        var spec = try AppSpec.load(folder: ContractsLocator.app("naarscars"))
        spec.buckets = spec.buckets.map { b in
            guard b["id"] == "message-images", case .object(var o) = b, case .object(var p) = o["policies"]! else { return b }
            p["select"] = "public"
            o["policies"] = .object(p)
            return .object(o)
        }
        let backend = try MockSupabase(configuration: MockConfiguration(spec: spec, clock: clock, ids: SeededIDGenerator(seed: 9)))
        NaarsCarsApp.register(on: backend)
        let f = try NaarsCarsFixture(backend: backend, clock: clock)
        let name = "\(f.id("bob"))/receipt.jpg"
        XCTAssertEqual(try upload(f, "message-images", name, as: "bob").status, 200)
        XCTAssertEqual(try download(f, "message-images", name, as: "dave").status, 200, "the mutant lets the outsider read, which the real test forbids")
    }
}
