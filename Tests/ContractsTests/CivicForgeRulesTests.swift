import XCTest
import MockBinding
import MockSupabase
@testable import CivicForge

/// The gate: CivicForge's rule files load strictly, the fixtures agree with the rules, and the
/// photo processing limits (photos.json) accept exactly the conforming processor output.
final class CivicForgeRulesTests: GateTestCase {
    func testRulesLoadAndValidateAgainstTheSchema() throws {
        let rules = try CivicForgeRules.load()
        XCTAssertNoThrow(try rules.validate(against: try CivicForgeApp.spec().schema))
        XCTAssertEqual(Set(rules.invitationErrors.keys), Set(CivicForgeRules.invitationErrorKeys))
    }

    func testBadRulesNameFileAndPath() throws {
        let url = ContractsLocator.app(CivicForgeApp.name).appendingPathComponent("rules.json")
        guard case .object(var o) = try JSONValue.parse(Data(contentsOf: url)), case .object(var m) = o["moderation"]! else { return XCTFail() }
        m["flagThresholdHid"] = 3
        o["moderation"] = .object(m)
        XCTAssertThrowsError(try SpecNode(value: .object(o), file: "Contracts/civicforge/rules.json").decode(CivicForgeRules.self)) { e in
            XCTAssertTrue("\(e)".hasPrefix("Contracts/civicforge/rules.json: $.moderation.flagThresholdHid: unknown key 'flagThresholdHid'"), "\(e)")
        }
        var rules = try CivicForgeRules.load()
        rules.serverManaged[0].columns.append("karma")
        XCTAssertThrowsError(try rules.validate(against: try CivicForgeApp.spec().schema)) { e in
            XCTAssertEqual("\(e)", "Contracts/civicforge/rules.json: $.serverManagedColumns.tables[0]: unknown column 'karma' of table 'profiles'")
        }
    }

    /// The fixtures are what the triggers would have produced (they load with triggers off).
    func testFixturesAgreeWithTheRules() throws {
        let rules = try CivicForgeRules.load()
        let db = try CivicForgeApp.makeBackend(clock: ManualClock(InteractionReplay.defaultStartTime), ids: SeededIDGenerator(seed: 12)).database
        let flags = try db.rows("post_flags")
        for p in try db.rows("posts") {
            let n = flags.filter { $0["post_id"] == p["id"] }.count
            XCTAssertEqual(p["flag_count"], .int(Int64(n)), "\(p["title"]!): flag_count")
            XCTAssertEqual(p["hidden"], .bool(n >= rules.flagThresholdHide), "\(p["title"]!): hidden")
            if n >= rules.flagThresholdHide { XCTAssertEqual(p["review_status"], .string(rules.reviewStatusWhenHidden)) }
        }
        let thanks = try db.rows("thanks")
        for r in try db.rows("reputation") {
            let n = thanks.filter { $0["to_user_id"] == r["user_id"] }.count
            XCTAssertEqual(r["thanks_received"], .int(Int64(n)))
            XCTAssertEqual(r["score"], .int(Int64(n * rules.pointsPerThanks)))
        }
        let profiles = try db.rows("profiles").compactMap { $0["id"] }
        XCTAssertEqual(Set(try db.rows("reputation").compactMap { $0["user_id"] }), Set(profiles), "every profile has its reputation row")
        XCTAssertEqual(Set(try db.rows("notification_preferences").compactMap { $0["user_id"] }), Set(profiles))
        for i in try db.rows("invitations") {
            let created = PGTime.parseTimestamp(i["created_at"]!.stringValue!, assumeUTC: true)!
            let expires = PGTime.parseTimestamp(i["expires_at"]!.stringValue!, assumeUTC: true)!
            XCTAssertEqual(expires - created, Int64(rules.invitationValidDays) * 86_400_000_000, "\(i["code"]!): validDays")
            XCTAssertEqual(i["code"]!.stringValue!.count, rules.invitationCodeLength)
        }
    }

    func testPhotoPlanFollowsTheLimits() throws {
        let l = try PhotoLimits.load()
        typealias S = PhotoLimits.Size
        let wide = l.plan(source: S(width: 4032, height: 3024))
        XCTAssertEqual(wide.output.width, l.maxWidth)
        XCTAssertEqual(wide.output.height, Int((3024.0 * Double(l.maxWidth) / 4032.0).rounded()))
        XCTAssertEqual(wide.thumbnailCrop, PhotoLimits.Rect(x: (4032 - 3024) / 2, y: 0, width: 3024, height: 3024))
        XCTAssertEqual(wide.thumbnail, S(width: l.thumbnailWidth, height: l.thumbnailHeight))
        let tall = l.plan(source: S(width: 3024, height: 4032))
        XCTAssertEqual(tall.thumbnailCrop, PhotoLimits.Rect(x: 0, y: (4032 - 3024) / 2, width: 3024, height: 3024))
        XCTAssertEqual(l.plan(source: S(width: 800, height: 600)).output, S(width: 800, height: 600), "never upscaled")
    }

    func testProcessedPhotosAreChecked() throws {
        let l = try PhotoLimits.load()
        func good(_ w: Int, _ h: Int) -> PhotoLimits.ProcessedPhoto {
            let p = l.plan(source: .init(width: w, height: h))
            return .init(
                source: .init(width: w, height: h), output: p.output, thumbnail: p.thumbnail, quality: l.jpegQuality, contentType: l.contentType,
                metadataKeys: ["{JFIF}"])
        }
        XCTAssertEqual(l.violations(of: [good(4032, 3024), good(800, 600)]), [])
        XCTAssertEqual(l.violations(of: Array(repeating: good(10, 10), count: l.maxPhotosPerPost + 1)).count, 1)
        // Mutants of a processor: resizing by height, keeping GPS, upscaling, wrong quality or type.
        var byHeight = good(4032, 3024)
        byHeight.output = .init(width: 1600, height: l.maxWidth)
        var gps = good(4032, 3024)
        gps.metadataKeys.append("{GPS}")
        var up = good(800, 600)
        up.output = .init(width: l.maxWidth, height: 900)
        var q = good(800, 600)
        q.quality = 100
        var png = good(800, 600)
        png.contentType = "image/png"
        for (name, m) in [("by height", byHeight), ("gps", gps), ("upscaled", up), ("quality", q), ("png", png)] {
            XCTAssertEqual(l.violations(of: [m]).count, 1, "mutant '\(name)' not caught exactly once")
        }
    }
}

/// A broken rules file surfaces as a precise error on the first call, not as a crash.
final class CivicForgeUnreadableRulesTests: GateTestCase {
    func testBrokenRulesFileAnswersWithFileAndPath() throws {
        let fm = FileManager.default
        let tmp = fm.temporaryDirectory.appendingPathComponent("civicforge-broken-\(ProcessInfo.processInfo.processIdentifier)")
        try? fm.removeItem(at: tmp)
        try fm.copyItem(at: ContractsLocator.app(CivicForgeApp.name), to: tmp)
        defer { try? fm.removeItem(at: tmp) }
        var text = try String(contentsOf: tmp.appendingPathComponent("rules.json"), encoding: .utf8)
        text = text.replacingOccurrences(of: "\"flagThresholdHide\": 3", with: "\"flagThresholdHide\": \"three\"")
        try text.write(to: tmp.appendingPathComponent("rules.json"), atomically: true, encoding: .utf8)
        let b = try MockSupabase(contracts: tmp, clock: ManualClock(InteractionReplay.defaultStartTime), ids: SeededIDGenerator(seed: 1))
        CivicForgeApp.register(on: b)
        let expected = "Contracts/civicforge/rules.json: $.moderation.flagThresholdHide: expected an integer, found string"
        let wire = WireClient(b)
        let rpc = try wire.send(method: "POST", path: "/rest/v1/rpc/redeem_invitation", json: ["invite_code": "A1B2C3D4"], as: "tova")
        XCTAssertEqual(rpc.status, 500)
        XCTAssertEqual(rpc.jsonBody?["message"], .string(expected))
        let post = try wire.send(method: "POST", path: "/rest/v1/posts", json: ["type": "need", "title": "x", "description": "x", "category": "x"], as: "ben")
        XCTAssertEqual(post.jsonBody?["message"], .string(expected))
        XCTAssertEqual(try wire.send(method: "GET", path: "/rest/v1/posts", query: "select=id", as: "ben").status, 200, "reads still work")
    }
}
