import XCTest
import MockBinding
import MockSupabase
@testable import CivicForge

/// A CivicForge backend and its fixture personas, for the domain checks.
struct CivicForgeWorld {
    let backend: MockSupabase
    /// redeem_invitation as the backend runs it (a mutant world may replace it).
    var redeem: (String, AuthContext, Database) throws -> JSONValue = { code, auth, db in
        try CivicForgeInvitations.redeem(code: code, auth: auth, database: db, rules: CivicForgeRules.load())
    }
    var db: Database { backend.database }

    /// A backend with the app's pieces registered as shipped.
    static func shipped() throws -> CivicForgeWorld {
        CivicForgeWorld(backend: try CivicForgeApp.makeBackend(clock: ManualClock(InteractionReplay.defaultStartTime), ids: SeededIDGenerator(seed: 2)))
    }

    /// A backend with fixtures but the app's pieces installed by `install` (a mutant).
    static func with(_ install: (MockSupabase) throws -> Void) throws -> CivicForgeWorld {
        let b = try MockSupabase(
            contracts: ContractsLocator.app(CivicForgeApp.name), clock: ManualClock(InteractionReplay.defaultStartTime), ids: SeededIDGenerator(seed: 2))
        try install(b)
        return CivicForgeWorld(backend: b)
    }

    /// A world whose rules differ from the contract's (installed as given).
    static func with(rules: CivicForgeRules) throws -> CivicForgeWorld {
        var w = try with { try CivicForgeApp.install(on: $0, rules: rules) }
        w.redeem = { code, auth, db in try CivicForgeInvitations.redeem(code: code, auth: auth, database: db, rules: rules) }
        return w
    }

    func id(_ persona: String) -> String { backend.configuration.spec.fixtures.persona(persona)!.id }
    func auth(_ persona: String) -> AuthContext {
        let p = backend.configuration.spec.fixtures.persona(persona)!
        return .user(p.id, email: p.email)
    }
    func post(titled title: String) throws -> [String: JSONValue] {
        guard let p = try db.rows("posts").first(where: { $0["title"] == .string(title) }) else {
            throw PostgresError("XX000", "fixture post '\(title)' missing")
        }
        return p
    }
    func visiblePostTitles(_ persona: String) throws -> Set<String> {
        Set(try db.rows("posts", as: auth(persona)).compactMap { $0["title"]?.stringValue })
    }
    func profile(_ persona: String) throws -> [String: JSONValue] {
        try db.rows("profiles", where: .eq("id", id(persona))).first ?? [:]
    }
    @discardableResult
    func newPost(_ persona: String, title: String) throws -> [String: JSONValue] {
        try db.insert("posts", [["type": "need", "title": .string(title), "description": "test", "category": "test"]], as: auth(persona)).first ?? [:]
    }
}

/// CivicForge's domain rules as checks returning violations; expectations come from
/// Contracts/civicforge (rules.json, fixtures), never from the implementation under test.
enum CivicForgeDomainChecks {
    typealias Check = @Sendable (CivicForgeWorld, CivicForgeRules) throws -> [String]

    /// The error a statement raised, or nil.
    static func failure(_ body: () throws -> Void) -> PostgresError? {
        do { try body(); return nil } catch let e as PostgresError { return e } catch { return PostgresError("XX000", "\(error)") }
    }
    static func expect(_ label: String, _ error: PostgresError?, code: String, message: String? = nil) -> [String] {
        guard let error else { return ["\(label): expected \(code), the statement succeeded"] }
        if error.code != code || (message != nil && error.message != message) {
            return ["\(label): expected \(code)\(message.map { " \"\($0)\"" } ?? ""), got \(error)"]
        }
        return []
    }

    static let checks: [(name: String, check: Check)] = [
        (
            "tier gate: posting",
            { w, _ in
                var v = expect(
                    "tova (tier 1) posts", failure { try w.newPost("tova", title: "t1") },
                    code: "42501", message: "new row violates row-level security policy for table \"posts\"")
                if let e = failure({ try w.newPost("ben", title: "t2") }) { v.append("ben (tier 2) posts: \(e)") }
                return v
            }
        ),
        (
            "tier gate: responding",
            { w, _ in
                let post = try w.newPost("ana", title: "needs a hand")
                let row: [String: JSONValue] = ["post_id": post["id"]!, "message": "me"]
                var v = expect(
                    "tova (tier 1) responds", failure { try w.db.insert("responses", [row], as: w.auth("tova")) },
                    code: "42501", message: "new row violates row-level security policy for table \"responses\"")
                v += expect("omar (other neighbourhood) responds", failure { try w.db.insert("responses", [row], as: w.auth("omar")) }, code: "42501")
                v += expect("ana responds to her own post", failure { try w.db.insert("responses", [row], as: w.auth("ana")) }, code: "42501")
                if let e = failure({ try w.db.insert("responses", [row], as: w.auth("ben")) }) { v.append("ben (tier 2) responds: \(e)") }
                return v
            }
        ),
        (
            "same-neighbourhood reads",
            { w, _ in
                var v: [String] = []
                let omar = try w.visiblePostTitles("omar")
                if omar != ["Dog walker for a week"] { v.append("omar sees posts \(omar.sorted()), expected only Southside's") }
                let omarProfiles = Set(try w.db.rows("profiles", as: w.auth("omar")).compactMap { $0["display_name"]?.stringValue })
                if omarProfiles != ["Omar"] { v.append("omar sees profiles \(omarProfiles.sorted())") }
                let tova = try w.visiblePostTitles("tova")
                if tova != ["Help moving a couch", "Ladder to lend"] { v.append("tova sees \(tova.sorted())") }
                if try !w.db.rows("posts", as: .anon).isEmpty { v.append("anon sees posts") }
                return v
            }
        ),
        (
            "hidden post invisible to others",
            { w, _ in
                var v: [String] = []
                if try w.visiblePostTitles("ana").contains("Cheap concert tickets") { v.append("ana sees cal's hidden post") }
                if try !w.visiblePostTitles("cal").contains("Cheap concert tickets") { v.append("cal does not see her own hidden post") }
                let couch = try w.post(titled: "Help moving a couch")
                if try w.db.rows("post_photos", as: w.auth("omar")).contains(where: { $0["post_id"] == couch["id"] }) {
                    v.append("omar sees a Northside photo")
                }
                if try !w.db.rows("post_photos", as: w.auth("tova")).contains(where: { $0["post_id"] == couch["id"] }) {
                    v.append("tova does not see the couch photo")
                }
                return v
            }
        ),
        (
            "auto-hide at the flag threshold",
            { w, rules in
                var v: [String] = []
                let post = try w.newPost("ana", title: "flag me")
                let flaggers = ["ben", "cal", "tova"]
                guard flaggers.count >= rules.flagThresholdHide else {
                    return ["fixtures have \(flaggers.count) flaggers, threshold is \(rules.flagThresholdHide)"]
                }
                for (i, f) in flaggers.prefix(rules.flagThresholdHide).enumerated() {
                    if let e = failure({ try w.db.insert("post_flags", [["post_id": post["id"]!, "reason": "spam"]], as: w.auth(f)) }) {
                        v.append("\(f) flags: \(e)"); return v
                    }
                    let now = try w.db.rows("posts", where: .eq("id", post["id"]!.stringValue!)).first!
                    let count = i + 1
                    if now["flag_count"] != .int(Int64(count)) { v.append("after \(count) flags flag_count = \(now["flag_count"]!)") }
                    let shouldHide = count >= rules.flagThresholdHide
                    if now["hidden"] != .bool(shouldHide) { v.append("after \(count) flags hidden = \(now["hidden"]!), expected \(shouldHide)") }
                    if shouldHide && now["review_status"] != .string(rules.reviewStatusWhenHidden) {
                        v.append("hidden post review_status = \(now["review_status"]!)")
                    }
                    if try w.visiblePostTitles("ben").contains("flag me") == shouldHide { v.append("after \(count) flags ben's view is wrong") }
                }
                if try !w.visiblePostTitles("ana").contains("flag me") { v.append("the author lost sight of her hidden post") }
                v += expect(
                    "second flag by the same user",
                    failure { try w.db.insert("post_flags", [["post_id": w.post(titled: "Ladder to lend")["id"]!]], as: w.auth("ana")) },
                    code: "23505")
                return v
            }
        ),
        (
            "third flag on the fixture ladder",
            { w, rules in
                let ladder = try w.post(titled: "Ladder to lend")
                guard ladder["flag_count"] == .int(Int64(rules.flagThresholdHide - 1)) else {
                    return ["fixture ladder has \(ladder["flag_count"]!) flags, expected threshold - 1"]
                }
                var v: [String] = []
                if let e = failure({ try w.db.insert("post_flags", [["post_id": ladder["id"]!]], as: w.auth("tova")) }) { return ["tova flags: \(e)"] }
                if try w.visiblePostTitles("ana").contains("Ladder to lend") { v.append("ana still sees the ladder after the third flag") }
                if try !w.visiblePostTitles("ben").contains("Ladder to lend") { v.append("ben (author) lost the ladder") }
                return v
            }
        ),
        (
            "server-managed columns",
            { w, _ in
                var v = expect(
                    "tova raises her own trust tier",
                    failure { try w.db.update("profiles", set: ["trust_tier": 2], where: .eq("id", w.id("tova")), as: w.auth("tova")) },
                    code: "42501", message: "column \"trust_tier\" of table \"profiles\" is managed by the server")
                if try w.profile("tova")["trust_tier"] != 1 { v.append("tova's tier changed") }
                if let e = failure({ try w.db.update("profiles", set: ["bio": "hello"], where: .eq("id", w.id("tova")), as: w.auth("tova")) }) {
                    v.append("tova edits her bio: \(e)")
                }
                let tickets = try w.post(titled: "Cheap concert tickets")
                v += expect(
                    "cal unhides her hidden post",
                    failure { try w.db.update("posts", set: ["hidden": false], where: .eq("id", tickets["id"]!.stringValue!), as: w.auth("cal")) },
                    code: "42501")
                v += expect(
                    "ben posts a pre-approved post",
                    failure {
                        try w.db.insert(
                            "posts", [["type": "offer", "title": "x", "description": "x", "category": "x", "flag_count": 0, "review_status": "approved"]],
                            as: w.auth("ben"))
                    }, code: "42501")
                return v
            }
        ),
        (
            "EULA and phone verification",
            { w, _ in
                // A fresh account (magic link) with no profile yet.
                let eve = "c0000000-0000-4000-8000-0000000000e1"
                try w.db.insert("auth.users", [["id": .string(eve), "email": "eve@civicforge.test"]])
                let auth = AuthContext.user(eve, email: "eve@civicforge.test")
                var v = expect(
                    "eve creates a profile without accepting the EULA",
                    failure {
                        try w.db.insert("profiles", [["id": .string(eve), "display_name": "Eve"]], as: auth)
                    }, code: "23502", message: "null value in column \"terms_accepted_at\" of relation \"profiles\" violates not-null constraint")
                if let e = failure({
                    try w.db.insert("profiles", [["id": .string(eve), "display_name": "Eve", "terms_accepted_at": "2026-03-01T11:59:00+00:00"]], as: auth)
                }) {
                    return v + ["eve creates a profile after accepting the EULA: \(e)"]
                }
                v += expect(
                    "eve rewrites her EULA acceptance",
                    failure {
                        try w.db.update("profiles", set: ["terms_accepted_at": "2026-03-01T12:00:00+00:00"], where: .eq("id", eve), as: auth)
                    }, code: "42501", message: "column \"terms_accepted_at\" of table \"profiles\" is managed by the server")
                v += expect(
                    "tova marks her own phone verified",
                    failure {
                        try w.db.update("profiles", set: ["phone_verified": true], where: .eq("id", w.id("tova")), as: w.auth("tova"))
                    }, code: "42501", message: "column \"phone_verified\" of table \"profiles\" is managed by the server")
                let finn = "c0000000-0000-4000-8000-0000000000e2"
                try w.db.insert("auth.users", [["id": .string(finn), "email": "finn@civicforge.test"]])
                v += expect(
                    "finn starts with a verified phone",
                    failure {
                        try w.db.insert(
                            "profiles",
                            [["id": .string(finn), "display_name": "Finn", "terms_accepted_at": "2026-03-01T11:59:00+00:00", "phone_verified": true]],
                            as: .user(finn, email: "finn@civicforge.test"))
                    }, code: "42501")
                if try w.profile("tova")["phone_verified"] != false { v.append("tova's phone_verified changed") }
                // The server (service role: the web's SMS verification) may set it.
                if let e = failure({ try w.db.update("profiles", set: ["phone_verified": true], where: .eq("id", w.id("tova"))) }) {
                    v.append("the service role verifies tova's phone: \(e)")
                }
                return v
            }
        ),
        (
            "invitation upgrades to tier 2",
            { w, rules in
                var v: [String] = []
                do {
                    let p = try w.redeem(" a1b2c3d4 ", w.auth("tova"), w.db)
                    if p["trust_tier"] != .int(Int64(rules.invitationGrantsTier)) { v.append("redeem returned tier \(p["trust_tier"] ?? .null)") }
                } catch { return ["tova redeems A1B2C3D4: \(error)"] }
                if try w.profile("tova")["trust_tier"] != .int(Int64(rules.invitationGrantsTier)) {
                    v.append("tova's tier is \(try w.profile("tova")["trust_tier"]!)")
                }
                let inv = try w.db.rows("invitations", where: .eq("code", "A1B2C3D4")).first!
                if inv["redeemed_by"] != .string(w.id("tova")) { v.append("invitation not marked redeemed") }
                if let e = failure({ try w.newPost("tova", title: "now I can") }) { v.append("tova posts after redeeming: \(e)") }
                return v
            }
        ),
        (
            "invitation errors",
            { w, rules in
                var v: [String] = []
                let cases: [(String, String, String)] = [
                    ("tova", "NOPE0000", "notFound"), ("tova", "DEADBEEF", "expired"), ("tova", "B0B1B2B3", "alreadyRedeemed"),
                    ("tova", "5007A5D1", "otherNeighborhood"), ("ben", "A1B2C3D4", "alreadyTier")
                ]
                for (who, code, key) in cases {
                    let want = rules.invitationErrors[key]!
                    v += expect(
                        "\(who) redeems \(code)", failure { _ = try w.redeem(code, w.auth(who), w.db) },
                        code: want.code, message: want.message)
                }
                if try w.profile("tova")["trust_tier"] != 1 { v.append("a failed redemption changed tova's tier") }
                return v
            }
        ),
        (
            "thanks add reputation",
            { w, rules in
                let couch = try w.post(titled: "Help moving a couch")
                let before = try w.db.rows("reputation", where: .eq("user_id", w.id("ben"))).first!
                let anaBefore = try w.db.rows("reputation", where: .eq("user_id", w.id("ana"))).first!
                if let e = failure({ try w.db.insert("thanks", [["post_id": couch["id"]!, "to_user_id": .string(w.id("ben"))]], as: w.auth("ana")) }) {
                    return ["ana thanks ben: \(e)"]
                }
                var v: [String] = []
                let after = try w.db.rows("reputation", where: .eq("user_id", w.id("ben"))).first!
                if after["score"]!.intValue! - before["score"]!.intValue! != Int64(rules.pointsPerThanks) {
                    v.append("ben's score went \(before["score"]!) -> \(after["score"]!)")
                }
                if after["thanks_received"]!.intValue! - before["thanks_received"]!.intValue! != 1 { v.append("ben's thanks_received did not grow by one") }
                if try w.db.rows("reputation", where: .eq("user_id", w.id("ana"))).first! != anaBefore { v.append("the sender's reputation changed") }
                v += expect(
                    "ana thanks herself",
                    failure { try w.db.insert("thanks", [["post_id": couch["id"]!, "to_user_id": .string(w.id("ana"))]], as: w.auth("ana")) }, code: "23514")
                v += expect(
                    "omar thanks across neighbourhoods",
                    failure { try w.db.insert("thanks", [["post_id": couch["id"]!, "to_user_id": .string(w.id("ana"))]], as: w.auth("omar")) }, code: "42501")
                return v
            }
        )
    ]

    /// Runs every check on a fresh copy of the fixtures; returns the violations, labelled.
    static func run(_ w: CivicForgeWorld, only: Set<String>? = nil) throws -> [String] {
        let rules = try CivicForgeRules.load()
        var out: [String] = []
        for (name, check) in checks where only?.contains(name) ?? true {
            try w.backend.reset()
            do { out += try check(w, rules).map { "\(name): \($0)" } } catch { out.append("\(name): \(error)") }
        }
        return out
    }
}

/// The gate: CivicForge's domain rules hold on the shipped backend, and each deliberately wrong
/// implementation is caught.
final class CivicForgeDomainTests: GateTestCase {
    func testShippedBackendSatisfiesEveryDomainRule() throws {
        let v = try CivicForgeDomainChecks.run(.shipped())
        XCTAssertEqual(v, [], v.joined(separator: "\n"))
    }

    func testRulesFileDrivesTheImplementation() throws {
        let rules = try CivicForgeRules.load()
        XCTAssertEqual(rules.flagThresholdHide, 3, "§4: auto-hide at 3 flags")
        XCTAssertEqual(rules.invitationGrantsTier, 2, "§2: invite code upgrades to tier 2")
    }

    /// Mutant: posts_insert_tier2 without the tier lookup.
    func testMutantPostingWithoutTierIsRejected() throws {
        let w = try CivicForgeWorld.shipped()
        var p = w.db.policies
        let i = p.tables.firstIndex { $0.table == "posts" }!
        p.tables[i].cells[.insert]!.check = .all([.compare(.eq, .column("author_id"), .claim("sub")), .ref("same_neighborhood")])
        w.db.policies = p
        let v = try CivicForgeDomainChecks.run(w, only: ["tier gate: posting"])
        XCTAssertTrue(v.contains { $0.contains("tova (tier 1) posts: expected 42501") }, "\(v)")
    }

    /// Mutant: responses_insert_tier2 that forgets the post's neighbourhood.
    func testMutantRespondingAcrossNeighbourhoodsIsRejected() throws {
        let w = try CivicForgeWorld.shipped()
        var p = w.db.policies
        let i = p.tables.firstIndex { $0.table == "responses" }!
        p.tables[i].cells[.insert]!.check = .all([.compare(.eq, .column("responder_id"), .claim("sub")), .ref("tier2_member")])
        w.db.policies = p
        let v = try CivicForgeDomainChecks.run(w, only: ["tier gate: responding"])
        XCTAssertTrue(v.contains { $0.contains("omar (other neighbourhood) responds") }, "\(v)")
    }

    /// Mutant: posts readable by every signed-in user (no neighbourhood scope, hidden ignored).
    func testMutantGlobalReadsAreRejected() throws {
        let w = try CivicForgeWorld.shipped()
        var p = w.db.policies
        let i = p.tables.firstIndex { $0.table == "posts" }!
        p.tables[i].cells[.select]!.using = .role("authenticated")
        w.db.policies = p
        let v = try CivicForgeDomainChecks.run(w, only: ["same-neighbourhood reads", "hidden post invisible to others"])
        XCTAssertTrue(v.contains { $0.contains("omar sees posts") }, "\(v)")
        XCTAssertTrue(v.contains { $0.contains("ana sees cal's hidden post") }, "\(v)")
    }

    /// Mutants: the auto-hide trigger with an off-by-one threshold, either way.
    func testMutantFlagThresholdsAreRejected() throws {
        for wrong in [2, 4] {
            var rules = try CivicForgeRules.load()
            rules.flagThresholdHide = wrong
            let v = try CivicForgeDomainChecks.run(.with(rules: rules), only: ["auto-hide at the flag threshold", "third flag on the fixture ladder"])
            XCTAssertFalse(v.isEmpty, "threshold \(wrong) passed")
        }
    }

    /// Mutant: no auto-hide trigger at all.
    func testMutantWithoutAutoHideIsRejected() throws {
        let rules = try CivicForgeRules.load()
        let w = try CivicForgeWorld.with { b in
            for t in try CivicForgeApp.triggers(rules, schema: b.configuration.spec.schema) where t.name != "post_flags_auto_hide" {
                b.registerTrigger(t.name, on: t.table, timing: t.timing, events: t.events, handler: t.handler)
            }
        }
        let v = try CivicForgeDomainChecks.run(w, only: ["third flag on the fixture ladder"])
        XCTAssertTrue(v.contains { $0.contains("ana still sees the ladder") }, "\(v)")
    }

    /// Mutant: no guard on server-managed columns (a tier-1 user promotes itself).
    func testMutantWithoutColumnGuardIsRejected() throws {
        var rules = try CivicForgeRules.load()
        rules.serverManaged = []
        let v = try CivicForgeDomainChecks.run(.with(rules: rules), only: ["server-managed columns"])
        XCTAssertTrue(v.contains { $0.contains("tova raises her own trust tier") }, "\(v)")
    }

    /// Mutants: an invitation granting the wrong tier; a redemption that ignores expiry.
    func testMutantInvitationsAreRejected() throws {
        var rules = try CivicForgeRules.load()
        rules.invitationGrantsTier = 3
        XCTAssertFalse(try CivicForgeDomainChecks.run(.with(rules: rules), only: ["invitation upgrades to tier 2"]).isEmpty)

        var w = try CivicForgeWorld.shipped()
        let real = try CivicForgeRules.load()
        w.redeem = { code, auth, db in
            // Wrong: treats every invitation as unexpired by moving expiry into the future first.
            try db.update("invitations", set: ["expires_at": "2100-01-01T00:00:00+00:00"], where: .eq("code", code), as: .serviceRole)
            return try CivicForgeInvitations.redeem(code: code, auth: auth, database: db, rules: real)
        }
        let v = try CivicForgeDomainChecks.run(w, only: ["invitation errors"])
        XCTAssertTrue(v.contains { $0.contains("DEADBEEF") }, "\(v)")
    }

    /// Mutants: reputation with the wrong weight; reputation credited to the sender.
    func testMutantReputationIsRejected() throws {
        var rules = try CivicForgeRules.load()
        rules.pointsPerThanks = 2
        XCTAssertFalse(try CivicForgeDomainChecks.run(.with(rules: rules), only: ["thanks add reputation"]).isEmpty)

        let real = try CivicForgeRules.load()
        let w = try CivicForgeWorld.with { b in
            for t in try CivicForgeApp.triggers(real, schema: b.configuration.spec.schema) where t.name != "thanks_add_reputation" {
                b.registerTrigger(t.name, on: t.table, timing: t.timing, events: t.events, handler: t.handler)
            }
            let wrong = CivicForgeTriggers.addReputation(real)
            b.registerTrigger("thanks_add_reputation", on: "thanks", timing: .after, events: [.insert]) { ctx in
                let sender = ctx.new?["from_user_id"]
                ctx.new?["to_user_id"] = sender // credits the sender
                try wrong(&ctx)
            }
        }
        let v = try CivicForgeDomainChecks.run(w, only: ["thanks add reputation"])
        XCTAssertTrue(v.contains { $0.contains("sender's reputation changed") }, "\(v)")
    }

    /// Mutants: profiles whose phone_verified and EULA acceptance a client may write (rules), and a
    /// schema where terms_accepted_at may be NULL.
    func testMutantEULAAndPhoneVerificationAreRejected() throws {
        var rules = try CivicForgeRules.load()
        let i = try XCTUnwrap(rules.serverManaged.firstIndex { $0.table == "profiles" })
        rules.serverManaged[i].columns.removeAll { $0 == "phone_verified" }
        rules.serverManaged[i].immutable = []
        var v = try CivicForgeDomainChecks.run(.with(rules: rules), only: ["EULA and phone verification"])
        XCTAssertTrue(v.contains { $0.contains("tova marks her own phone verified: expected 42501, the statement succeeded") }, "\(v)")
        XCTAssertTrue(v.contains { $0.contains("eve rewrites her EULA acceptance: expected 42501, the statement succeeded") }, "\(v)")

        let root = FileManager.default.temporaryDirectory.appendingPathComponent("eula-\(UUID().uuidString)")
        let dir = root.appendingPathComponent("civicforge")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: ContractsLocator.app("civicforge"), to: dir)
        addTeardownBlock { try? FileManager.default.removeItem(at: root) }
        let schema = dir.appendingPathComponent("schema.json")
        let text = try String(contentsOf: schema, encoding: .utf8)
        let from = "\"name\": \"terms_accepted_at\",\n     \"type\": \"timestamptz\",\n     \"nullable\": false,"
        XCTAssertTrue(text.contains(from))
        try text.replacingOccurrences(of: from, with: "\"name\": \"terms_accepted_at\",\n     \"type\": \"timestamptz\",").write(
            to: schema, atomically: true, encoding: .utf8)
        let b = try MockSupabase(contracts: dir, clock: ManualClock(InteractionReplay.defaultStartTime), ids: SeededIDGenerator(seed: 2))
        try CivicForgeApp.install(on: b, rules: try CivicForgeRules.load())
        v = try CivicForgeDomainChecks.run(CivicForgeWorld(backend: b), only: ["EULA and phone verification"])
        XCTAssertTrue(v.contains { $0.contains("eve creates a profile without accepting the EULA: expected 23502") }, "\(v)")
    }
}
