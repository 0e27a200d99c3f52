import Foundation
import XCTest
import MockBinding
import MockSupabase
@testable import Aura

/// Aura's documented interactions (Contracts/aura/interactions/*.json, replayed by the shared
/// engine in the gate, InteractionContractsTests) cover §3.3's endpoints and reject backends whose
/// rules or triggers are wrong.
final class AuraInteractionTests: GateTestCase {
    /// A backend with Aura's pieces registered under explicit rules.
    static func backend(rules: AuraRules, clock: ManualClock) throws -> MockSupabase {
        let b = try MockSupabase(contracts: ContractsLocator.app(AuraApp.name), clock: clock, ids: SeededIDGenerator(seed: 11))
        AuraApp.register(on: b, rules: .success(rules))
        return b
    }

    /// Every endpoint of §3.3 (endpoints.json) is exercised by at least one interaction.
    func testEveryDocumentedEndpointHasAnInteraction() throws {
        let root = try SpecNode.load(ContractsLocator.app(AuraApp.name).appendingPathComponent("endpoints.json"))
        let endpoints = try root.decode(EndpointsFile.self).endpoints.map { ($0.method, $0.path) }
        XCTAssertEqual(endpoints.count, 7, "§3.3 lists seven endpoints")
        let steps = try InteractionReplay.load(app: AuraApp.self).flatMap(\.steps)
        for (method, path) in endpoints {
            XCTAssertTrue(steps.contains { $0.request.method == method && $0.request.path == path }, "\(method) \(path) has no interaction")
        }
    }

    /// The interactions reject a backend whose rules or triggers are wrong.
    func testInteractionsRejectMutantBackends() throws {
        func replay(_ file: String, _ mutate: (inout AuraRules) -> Void) throws -> InteractionResult {
            var rules = try AuraTestSupport.rules()
            mutate(&rules)
            return try InteractionTestSupport.replay(AuraApp.self, file) { try Self.backend(rules: rules, clock: $0) }
        }
        XCTAssertTrue(try replay("mbti-calculate.json") { _ in }.passed, "the real rules pass")
        InteractionTestSupport.assertRejected(
            try replay("mbti-calculate.json") {
                $0.dimensions[1].positive = "S"; $0.dimensions[1].negative = "N"
            }, "S/N sign flipped")
        InteractionTestSupport.assertRejected(
            try replay("generate-horoscope-paywall.json") { $0.tiers[.free]!.categories.append(.career) }, "Career open to free users")
        InteractionTestSupport.assertRejected(try replay("users-profile.json") { $0.triggers = [] }, "no updated_at trigger")
        InteractionTestSupport.assertRejected(
            try replay("generate-horoscope-paywall.json") {
                $0.premiumRequiresActive = false; $0.premiumTierValue = "free"
            },
            "free rows count as premium")
    }
}

/// endpoints.json as the test reads it (strictly: unknown keys are errors).
private struct EndpointsFile: Decodable {
    struct Endpoint: Decodable {
        var method: String
        var path: String
        enum CodingKeys: String, CodingKey, CaseIterable { case method, path, doc, auth, description, kind, query, request, response }
        init(from decoder: Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            method = try c.decode(String.self, forKey: .method)
            path = try c.decode(String.self, forKey: .path)
        }
    }
    var endpoints: [Endpoint]
    enum CodingKeys: String, CodingKey, CaseIterable { case app, source, decisions, endpoints }
    init(from decoder: Decoder) throws {
        endpoints = try decoder.container(keyedBy: CodingKeys.self).decode([Endpoint].self, forKey: .endpoints)
    }
}
