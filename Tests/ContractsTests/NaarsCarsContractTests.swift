import XCTest
import MockBinding
import NaarsCars

/// The contract files against the document: FR-001..FR-008 (tables and constraints), FR-010 (the
/// matrix words), FR-013/FR-014/FR-019 (what the backend registers), FR-017 (buckets), FR-021/FR-022
/// and Appendix B (the seed), and strict loading with errors naming file and path.
final class NaarsCarsContractTests: GateTestCase {
    func testContractsLoadStrictly() throws {
        let spec = try NaarsCarsApp.spec()
        XCTAssertEqual(spec.app, "naarscars")
        _ = try NaarsCarsContracts.load()
        XCTAssertEqual(spec.buckets.count, 3)
    }

    /// Bad input names the file and JSON path, and nothing else changes.
    func testBrokenContractFilesNameFileAndPath() throws {
        func node(_ text: String, _ file: String) throws -> SpecNode { SpecNode(value: try JSONValue.parse(text), file: file) }
        let rulesText = try String(contentsOf: ContractsLocator.app("naarscars").appendingPathComponent("rules.json"), encoding: .utf8)
        let badRules = rulesText.replacingOccurrences(of: "\"claimedBy\": \"caller\"", with: "\"claimedBy\": \"anyone\"")
        XCTAssertThrowsError(try node(badRules, "Contracts/naarscars/rules.json").decode(NaarsCarsRules.self)) { e in
            XCTAssertEqual("\(e)", "Contracts/naarscars/rules.json: $.requestLifecycle.transitions[0].claimedBy: unknown claimedBy (caller, keep, clear)")
        }
        let extra = rulesText.replacingOccurrences(of: "\"initialStatus\": \"open\",", with: "\"initialStatus\": \"open\", \"initalStatus\": \"open\",")
        XCTAssertThrowsError(try node(extra, "Contracts/naarscars/rules.json").decode(NaarsCarsRules.self)) { e in
            XCTAssertTrue("\(e)".hasPrefix("Contracts/naarscars/rules.json: $.requestLifecycle.initalStatus: unknown key 'initalStatus'"), "\(e)")
        }
        let fnText = try String(contentsOf: ContractsLocator.app("naarscars").appendingPathComponent("functions.json"), encoding: .utf8)
        let badFn = fnText.replacingOccurrences(of: "\"staleAfterDays\": 90", with: "\"staleAfterDays\": \"90\"")
        XCTAssertThrowsError(try node(badFn, "Contracts/naarscars/functions.json").decode(NaarsCarsFunctions.self)) { e in
            XCTAssertEqual("\(e)", "Contracts/naarscars/functions.json: $.pushTokens.staleAfterDays: expected an integer, found string")
        }
        let errText = try String(contentsOf: ContractsLocator.app("naarscars").appendingPathComponent("errors.json"), encoding: .utf8)
        let badErr = errText.replacingOccurrences(of: "\"case\": \"unauthorized\"", with: "\"case\": \"forbidden\"")
        XCTAssertThrowsError(try node(badErr, "Contracts/naarscars/errors.json").decode(AppErrorCatalog.self)) { e in
            XCTAssertTrue("\(e)".contains("Contracts/naarscars/errors.json: $.appErrors[7].case: unknown AppError case 'forbidden'"), "\(e)")
        }
    }

    /// FR-001: the 14 tables, plus the FR-015 view.
    func testFR001FourteenTablesAndTheView() throws {
        let schema = try NaarsCarsApp.spec().schema
        let tables = schema.tables.filter { $0.schema == "public" }
        XCTAssertEqual(
            Set(tables.filter { !$0.isView }.map(\.name)),
            [
                "profiles", "invite_codes", "rides", "ride_participants", "favors", "favor_participants", "request_qa",
                "conversations", "conversation_participants", "messages", "notifications", "push_tokens", "reviews", "town_hall_posts"
            ])
        XCTAssertEqual(tables.filter(\.isView).map(\.name), ["leaderboard_stats"])
    }

    /// FR-005..FR-008 as rules over every table.
    func testFR005ToFR008HoldForEveryTable() throws {
        let spec = try NaarsCarsApp.spec()
        for t in spec.schema.tables where t.schema == "public" && !t.isView {
            let id = try XCTUnwrap(t.columns.first { $0.name == "id" }, t.name)
            XCTAssertEqual(t.primaryKey, ["id"], "FR-005 \(t.name)")
            XCTAssertEqual(id.type, .uuid, "FR-005 \(t.name)")
            if t.name != "profiles" { XCTAssertEqual(id.defaultValue, .genRandomUUID, "FR-005 \(t.name)") }
            let created = try XCTUnwrap(t.columns.first { $0.name == "created_at" }, "FR-006 \(t.name)")
            XCTAssertEqual(created.type, .timestamptz)
            XCTAssertEqual(created.defaultValue, .now)
            // FR-007: mutable = some client may UPDATE it (its UPDATE cell is not nobody).
            let mutable = spec.policies.table(t.name)?.cell(.update).effectiveUsing != .constant(false)
            XCTAssertEqual(t.columnIndex("updated_at") != nil, mutable, "FR-007 \(t.name): updated_at iff clients update it")
            for fk in t.foreignKeys { XCTAssertTrue([.cascade, .setNull].contains(fk.onDelete), "FR-008 \(fk.name)") }
        }
        // FR-002: profiles 1:1 with auth.users, cascading.
        let profiles = try XCTUnwrap(spec.schema.table("profiles"))
        XCTAssertEqual(profiles.foreignKeys.first { $0.columns == ["id"] }?.refTable, "auth.users")
        XCTAssertEqual(profiles.foreignKeys.first { $0.columns == ["id"] }?.onDelete, .cascade)
        XCTAssertEqual(profiles.foreignKeys.first { $0.columns == ["invited_by"] }?.onDelete, .setNull)
        XCTAssertTrue(profiles.uniques.contains { $0.columns == ["email"] })
        // FR-003/FR-004: status defaults and the claimed_by link.
        for name in ["rides", "favors"] {
            let t = try XCTUnwrap(spec.schema.table(name))
            XCTAssertEqual(t.columns.first { $0.name == "status" }?.defaultValue, .value("open"))
            XCTAssertEqual(t.foreignKeys.first { $0.columns == ["claimed_by"] }?.onDelete, .setNull)
            XCTAssertEqual(t.foreignKeys.first { $0.columns == ["user_id"] }?.onDelete, .cascade)
        }
    }

    /// FR-010's matrix, cell by cell, in the document's words.
    func testFR010MatrixWords() throws {
        let policies = try NaarsCarsApp.spec().policies
        let matrix: [(String, [String])] = [
            ("profiles", ["Own + approved users", "Own only", "Own only", "N/A"]),
            ("invite_codes", ["Own created + unused (for validation)", "Approved users", "Mark as used", "N/A"]),
            ("rides", ["Approved users", "Own only", "Own or claimed", "Own only"]),
            ("ride_participants", ["Approved users", "Ride owner", "N/A", "Ride owner"]),
            ("favors", ["Approved users", "Own only", "Own or claimed", "Own only"]),
            ("favor_participants", ["Approved users", "Favor owner", "N/A", "Favor owner"]),
            ("request_qa", ["Approved users", "Approved users", "N/A", "Own only"]),
            ("conversations", ["Participants only", "Approved users", "Admins", "N/A"]),
            ("conversation_participants", ["Participants", "Creator or self", "Own participation", "N/A"]),
            ("messages", ["Participants", "Participants as sender", "Participants (read_by)", "N/A"]),
            ("notifications", ["Own only", "System only", "Own only", "N/A"]),
            ("push_tokens", ["Own only", "Own only", "Own only", "Own only"]),
            ("reviews", ["Approved users", "Reviewer only", "N/A", "N/A"]),
            ("town_hall_posts", ["Approved users", "Own only", "N/A", "Own or admin"])
        ]
        XCTAssertEqual(policies.tables.map(\.table), matrix.map(\.0))
        for (table, words) in matrix {
            let tp = try XCTUnwrap(policies.table(table))
            XCTAssertTrue(tp.rlsEnabled, "FR-009 \(table)")
            for (cmd, w) in zip(PolicyCommand.allCases, words) {
                let cell = tp.cell(cmd)
                XCTAssertEqual(cell.doc, w, "\(table) \(cmd.rawValue)")
                let nobody = cmd == .insert ? cell.effectiveCheck(for: .insert) == .constant(false) : cell.effectiveUsing == .constant(false)
                if w == "N/A" || w == "System only" { XCTAssertTrue(nobody, "\(table) \(cmd.rawValue): '\(w)' is nobody") }
                if !nobody || w == "N/A" || w == "System only" { continue }
                XCTFail("\(table) \(cmd.rawValue): '\(w)' has no rule")
            }
        }
        // FR-011: admin is checked in the data.
        XCTAssertEqual(policies.definitions["is_admin"]?.referencedTables(definitions: policies.definitions), ["profiles"])
    }

    /// FR-013, FR-014, FR-015, FR-019: what the backend registers.
    func testBackendRegistersEveryFunctionAndEdgeFunction() throws {
        let backend = try NaarsCarsApp.makeBackend(clock: ManualClock(), ids: SeededIDGenerator(seed: 1))
        XCTAssertEqual(
            backend.rpcNames,
            [
                "cleanup_stale_push_tokens", "get_leaderboard", "get_or_create_request_conversation", "get_pending_reviews",
                "get_unread_counts", "get_user_stats", "mark_messages_read", "validate_invite_code"
            ], "FR-014's eight")
        XCTAssertEqual(backend.functionNames, ["cleanup-tokens", "refresh-leaderboard", "send-push-notification"], "FR-019's three")
        XCTAssertEqual(Set(try NaarsCarsContracts.load().functions.rpcs.map(\.name)), Set(backend.rpcNames))
    }

    /// FR-017: three buckets with the document's visibility, sizes and types.
    func testFR017Buckets() throws {
        let buckets = try NaarsCarsApp.spec().buckets
        let expected: [(String, Bool, Int64)] = [("avatars", true, 200 * 1024), ("town-hall-images", true, 500 * 1024), ("message-images", false, 500 * 1024)]
        XCTAssertEqual(buckets.compactMap { $0["id"]?.stringValue }, expected.map(\.0))
        for (b, e) in zip(buckets, expected) {
            XCTAssertEqual(b["public"], .bool(e.1), e.0)
            XCTAssertEqual(b["fileSizeLimit"]?.intValue, e.2, e.0)
            XCTAssertEqual(b["allowedMimeTypes"], ["image/jpeg", "image/png", "image/webp"], e.0)
        }
    }

    /// FR-021, FR-022 and Appendix B: the seed's counts and credentials.
    func testFR021SeedAndAppendixBCredentials() throws {
        let f = try NaarsCarsApp.spec().fixtures
        let reference = try XCTUnwrap(PGTime.parseDate("2026-01-01"))
        XCTAssertEqual(f.personas.map(\.name), ["alice", "bob", "carol", "dave", "eve"])
        for p in f.personas {
            XCTAssertEqual(p.email, "\(p.name)@test.com", "FR-022")
            XCTAssertEqual(p.password, "TestPassword123!", "Appendix B")
        }
        let profiles = f.rows("profiles")
        func profile(_ n: String) throws -> JSONValue { try XCTUnwrap(profiles.first { $0["email"]?.stringValue == "\(n)@test.com" }) }
        XCTAssertEqual(try profile("alice")["is_admin"], true)
        for n in ["bob", "carol", "dave"] { XCTAssertEqual(try profile(n)["approved"], true); XCTAssertEqual(try profile(n)["is_admin"], false) }
        XCTAssertEqual(try profile("eve")["approved"], false)
        XCTAssertEqual(try profile("alice")["approved"], true)

        let codes = f.rows("invite_codes")
        XCTAssertEqual(codes.count, 6)
        XCTAssertEqual(codes.filter { !($0["used_by"] ?? .null).isNull }.count, 3)
        func statuses(_ t: String) -> [String: Int] { f.rows(t).reduce(into: [:]) { $0[$1["status"]?.stringValue ?? "", default: 0] += 1 } }
        XCTAssertEqual(statuses("rides"), ["open": 3, "confirmed": 1, "completed": 2])
        let openRides = f.rows("rides").filter { $0["status"] == "open" }
        XCTAssertTrue(openRides.allSatisfy { (PGTime.parseDate($0["date"]?.stringValue ?? "") ?? 0) > reference }, "open rides are in the future")
        XCTAssertEqual(statuses("favors"), ["open": 3, "confirmed": 1, "completed": 1])
        XCTAssertEqual(f.rows("conversations").count, 2)
        let messages = f.rows("messages")
        XCTAssertGreaterThanOrEqual(messages.count, 6)
        XCTAssertEqual(
            Set(messages.compactMap { $0["conversation_id"]?.stringValue }), Set(f.rows("conversations").compactMap { $0["id"]?.stringValue }),
            "every conversation has a thread")
        let completed = Set((f.rows("rides") + f.rows("favors")).filter { $0["status"] == "completed" }.compactMap { $0["id"]?.stringValue })
        let reviews = f.rows("reviews")
        XCTAssertGreaterThanOrEqual(reviews.count, 2)
        XCTAssertTrue(
            reviews.allSatisfy { completed.contains($0["ride_id"]?.stringValue ?? $0["favor_id"]?.stringValue ?? "") }, "reviews are for completed requests")
        let notes = f.rows("notifications")
        XCTAssertGreaterThanOrEqual(notes.count, 5)
        XCTAssertEqual(notes.filter { $0["pinned"] == true && $0["type"] == "announcement" }.count, 1, "one pinned admin announcement")
        let posts = f.rows("town_hall_posts")
        XCTAssertEqual(posts.count, 3)
        XCTAssertTrue(posts.contains { ($0["title"]?.stringValue ?? "").contains("Welcome") }, "a welcome post")
        let qa = f.rows("request_qa")
        XCTAssertEqual(qa.count, 4)
        XCTAssertEqual(qa.filter { ($0["parent_id"] ?? .null).isNull }.count, 2, "questions")
        XCTAssertEqual(qa.filter { !($0["parent_id"] ?? .null).isNull }.count, 2, "replies")
    }

    /// The seeded review posts are exactly what on_review_created writes (rules.json reviewPost):
    /// replaying the seed's reviews through the trigger gives the seed's posts.
    func testSeededReviewPostsAreWhatTheTriggerWrites() throws {
        let f = try NaarsCarsFixture()
        let fixtures = f.spec.fixtures
        for review in fixtures.rows("reviews") {
            let postID = try XCTUnwrap(review["town_hall_post_id"]?.stringValue)
            let seeded = try XCTUnwrap(try f.row("town_hall_posts", postID))
            // Re-insert the review (as the service role, triggers on) after removing the seeded one.
            try f.backend.database.delete("reviews", where: .eq("id", review["id"]!.stringValue!))
            var row = review.objectValue!
            row["town_hall_post_id"] = nil
            row["id"] = nil
            let inserted = try f.backend.database.insert("reviews", [row])
            let post = try XCTUnwrap(try f.row("town_hall_posts", try XCTUnwrap(inserted.first?["town_hall_post_id"]?.stringValue)))
            XCTAssertEqual(post["title"], seeded["title"])
            XCTAssertEqual(post["content"], seeded["content"])
            XCTAssertEqual(post["user_id"], seeded["user_id"])
        }
    }
}
