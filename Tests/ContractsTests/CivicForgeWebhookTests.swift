import XCTest
import MockBinding
import MockSupabase
@testable import CivicForge

/// The gate: §4 "DB trigger fires (new response, new thanks, new AI match) -> Edge Function" as
/// database webhooks on the mock (sql/005_webhooks.sql on PostgreSQL, checked by
/// verify/domain_rules.sql), and two wrong webhook sets rejected.
final class CivicForgeWebhookTests: GateTestCase {
    func backend(_ webhooks: (NotificationRules, WebhookOutbox) -> [CivicForgeTrigger]) throws -> (MockSupabase, WebhookOutbox, NotificationRules) {
        let b = try MockSupabase(
            contracts: ContractsLocator.app(CivicForgeApp.name), clock: ManualClock(InteractionReplay.defaultStartTime), ids: SeededIDGenerator(seed: 17))
        let rules = try CivicForgeRules.load(), n = try NotificationRules.load(), outbox = WebhookOutbox()
        for t in try CivicForgeApp.triggers(rules, schema: b.configuration.spec.schema) + webhooks(n, outbox) {
            b.registerTrigger(t.name, on: t.table, timing: t.timing, events: t.events, handler: t.handler)
        }
        b.registerFunction(n.function, verifyJWT: true, CivicForgePush.handler(n))
        return (b, outbox, n)
    }

    func testShippedWebhooksConform() throws {
        let outbox = WebhookOutbox()
        let b = try MockSupabase(
            contracts: ContractsLocator.app(CivicForgeApp.name), clock: ManualClock(InteractionReplay.defaultStartTime), ids: SeededIDGenerator(seed: 17))
        try CivicForgeApp.install(on: b, rules: try CivicForgeRules.load(), outbox: outbox)
        let n = try NotificationRules.load()
        XCTAssertEqual(CivicForgeWebhookConformance.violations(backend: b, outbox: outbox, rules: n), [])
        // The trigger names are the ones schema.json declares (and PostgreSQL's catalog holds).
        let declared = Set(b.configuration.spec.schema.triggers?.map(\.name) ?? [])
        for t in CivicForgeWebhooks.triggers(n, outbox: outbox) { XCTAssertTrue(declared.contains(t.name), t.name) }
    }

    /// Mutant: no webhook on thanks.
    func testMissingThanksWebhookIsRejected() throws {
        let (b, outbox, n) = try backend { n, o in CivicForgeWebhooks.triggers(n, outbox: o).filter { $0.table != "thanks" } }
        let v = CivicForgeWebhookConformance.violations(backend: b, outbox: outbox, rules: n)
        XCTAssertEqual(v, ["a thanks: the webhook delivered [], expected [\"thanks\"]"])
    }

    /// Mutant: a webhook on every UPDATE of responses, status changed or not (the dashboard's
    /// default), and a rolled-back statement's request is not delivered.
    func testWebhookOnEveryUpdateIsRejected() throws {
        let (b, outbox, n) = try backend { n, o in
            CivicForgeWebhooks.triggers(n, outbox: o).filter { $0.name != "responses_push_response_status" } + [
                CivicForgeTrigger("responses_push_response_status", "responses", .after, [.update]) { ctx in
                    o.append(
                        .init(
                            trigger: "responses_push_response_status", function: n.function,
                            payload: .object([
                                "type": "UPDATE", "table": "responses", "schema": "public",
                                "record": ctx.new.map(JSONValue.object) ?? .null, "old_record": ctx.old.map(JSONValue.object) ?? .null
                            ])))
                }
            ]
        }
        let v = CivicForgeWebhookConformance.violations(backend: b, outbox: outbox, rules: n)
        XCTAssertTrue(
            v.contains { $0.hasPrefix("a response edited without a status change: the webhook delivered [") && !$0.hasSuffix("[], expected []") }, "\(v)")
    }
}
