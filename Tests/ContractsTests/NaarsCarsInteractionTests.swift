import XCTest
import MockBinding
import NaarsCars

/// Naar's Cars's documented interactions (replayed for every app by InteractionContractsTests,
/// their bodies round-tripped by ModelContractsTests) name its models, document every function,
/// and reject backends missing the app's server pieces or with wrong rules.
final class NaarsCarsInteractionTests: GateTestCase {
    func testInteractionsNameEveryModel() throws {
        let files = try InteractionReplay.load(app: NaarsCarsApp.self)
        XCTAssertGreaterThanOrEqual(files.count, 49, "interaction files")
        let named = Set(files.flatMap { $0.steps.compactMap(\.model) + $0.steps.compactMap(\.requestModel) })
        XCTAssertGreaterThanOrEqual(named.count, 21)
        for m in [
            "Profile[]", "Ride[]", "Favor[]", "Message[]", "InviteCode[]", "Review[]", "TownHallPost[]", "RequestQA[]",
            "ConversationParticipant[]", "RideParticipant[]", "FavorParticipant[]", "PushToken[]", "LeaderboardEntry[]",
            "UserStats[]", "UnreadCounts[]", "InviteCodeValidation[]", "PendingReview[]", "PushNotificationResult",
            "PushNotificationRequest", "CleanupTokensResult", "RefreshLeaderboardResult"
        ] {
            XCTAssertTrue(named.contains(m), "no interaction decodes \(m)")
        }
    }

    /// Each function, trigger and edge function of the contracts has an interaction.
    func testEveryFunctionAndEdgeFunctionIsDocumented() throws {
        let files = try InteractionReplay.load(app: NaarsCarsApp.self)
        let paths = Set(files.flatMap { $0.steps.map(\.request.path) })
        for rpc in try NaarsCarsContracts.load().functions.rpcs { XCTAssertTrue(paths.contains("/rest/v1/rpc/\(rpc.name)"), rpc.name) }
        for e in NaarsCarsApp.edgeFunctionNames { XCTAssertTrue(paths.contains("/functions/v1/\(e)"), e) }
        XCTAssertTrue(paths.contains("/rest/v1/leaderboard_stats"))
        XCTAssertTrue(paths.contains("/auth/v1/signup"), "on_auth_user_created")
    }

    /// Without the app's triggers, functions, view and edge functions (a bare mock of the same
    /// contracts), every file about them fails: the replay checks what it claims to.
    func testReplayRejectsABackendWithoutTheAppsServerPieces() throws {
        let files = try InteractionReplay.load(app: NaarsCarsApp.self)
        var failed: Set<String> = []
        for f in files {
            let clock = ManualClock(try XCTUnwrap(f.startTime))
            let bare = try MockSupabase(contracts: ContractsLocator.app("naarscars"), clock: clock, ids: SeededIDGenerator(seed: 0x1D_7E2A_C710))
            if !InteractionReplay.replay(f, over: InteractionReplay.transport(for: bare), clock: clock).passed { failed.insert(f.file) }
        }
        for prefix in ["rpc-", "edge-", "trigger-", "lifecycle-", "view-"] {
            let group = files.map(\.file).filter { $0.split(separator: "/").last!.hasPrefix(prefix) }
            XCTAssertFalse(group.isEmpty, "no \(prefix)* files")
            for g in group { XCTAssertTrue(failed.contains(g), "\(g) passes without the app's server pieces") }
        }
    }

    /// Rules are data: a copy of the contracts whose rules.json lets the claimer confirm (pending →
    /// confirmed by owner or claimer) fails the lifecycle file at the refused confirmation; an RLS
    /// matrix letting anyone update rides fails the stranger file.
    func testReplayRejectsAWrongLifecycleAndAWrongMatrix() throws {
        let files = try InteractionReplay.load(app: NaarsCarsApp.self)
        let lifecycle = try XCTUnwrap(files.first { $0.file.hasSuffix("/lifecycle-ride-claim-confirm-complete.json") })
        let tmp = FileManager.default.temporaryDirectory.appendingPathComponent("naarscars-contracts-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: tmp) }
        try FileManager.default.copyItem(at: ContractsLocator.app("naarscars"), to: tmp)
        let rulesURL = tmp.appendingPathComponent("rules.json")
        let text = try String(contentsOf: rulesURL, encoding: .utf8)
        let mutated = text.replacingOccurrences(
            of: "\"from\": \"pending\",\n    \"to\": \"confirmed\",\n    \"by\": [\n     \"owner\"\n    ]",
            with: "\"from\": \"pending\",\n    \"to\": \"confirmed\",\n    \"by\": [\n     \"owner\",\n     \"claimer\"\n    ]")
        XCTAssertNotEqual(mutated, text, "the mutation applies")
        try mutated.write(to: rulesURL, atomically: true, encoding: .utf8)
        let clock = ManualClock(try XCTUnwrap(lifecycle.startTime))
        let backend = try MockSupabase(contracts: tmp, clock: clock, ids: SeededIDGenerator(seed: 1))
        NaarsCarsApp.register(on: backend)
        let wrongRules = InteractionReplay.replay(lifecycle, over: InteractionReplay.transport(for: backend), clock: clock)
        XCTAssertFalse(wrongRules.passed)
        XCTAssertTrue(wrongRules.failures.first?.contains("step 2 of 6") == true, wrongRules.failures.joined(separator: "\n"))

        let stranger = try XCTUnwrap(files.first { $0.file.hasSuffix("/rls-stranger-cannot-update-claimed-ride.json") })
        let wrongBackend = try MockSupabase(
            contracts: ContractsLocator.app("naarscars"), clock: ManualClock(try XCTUnwrap(stranger.startTime)), ids: SeededIDGenerator(seed: 1))
        NaarsCarsApp.register(on: wrongBackend)
        var policies = wrongBackend.database.policies
        let i = try XCTUnwrap(policies.tables.firstIndex { $0.table == "rides" })
        var cell = policies.tables[i].cell(.update)
        cell.using = .role("authenticated")
        cell.check = .role("authenticated")
        policies.tables[i].cells[.update] = cell
        wrongBackend.database.policies = policies
        let loose = InteractionReplay.replay(stranger, over: InteractionReplay.transport(for: wrongBackend))
        XCTAssertFalse(loose.passed)
        XCTAssertTrue(loose.failures.first?.contains("step 1 of 2") == true, loose.failures.joined(separator: "\n"))
    }

    /// The model check rejects a body a model cannot represent.
    func testModelCheckRejectsALossyBody() {
        let registry = ModelSuite.registry(for: NaarsCarsApp.self)
        XCTAssertFalse(registry.check("Ride[]", [["id": "x"]]).isEmpty)
        XCTAssertEqual(registry.check("NoSuchModel", [:]).first?.hasPrefix("unknown model 'NoSuchModel'"), true)
        let unread: JSONValue = [["unread_notifications": 2, "unread_messages": 1, "extra": true]]
        XCTAssertEqual(
            registry.check("UnreadCounts[]", unread), ["UnreadCounts[] round trip: $[0].extra: missing (expected true)"], "an unknown column is lost")
    }
}
