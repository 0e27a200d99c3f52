import XCTest
import MockBinding
import MockSupabase
@testable import Aura

/// The gate: §3.2's max_tokens and word ranges, §8.2's features per tier (retrograde alerts
/// included) and §8.1's checkStatus fallback, each as a conformance check shown to reject a
/// mutant.
final class AuraClientRulesTests: GateTestCase {
    func testCompletionRequestsFollowTheRules() throws {
        let rules = try AuraTestSupport.rules()
        XCTAssertEqual(AuraClientConformance.completionViolations({ CompletionRequest.reference($0, rules: rules) }, rules: rules), [])
        XCTAssertEqual(rules.maxTokens[.free], 200)
        XCTAssertEqual(rules.maxTokens[.premium], 500)
        // Mutant: one budget for both tiers.
        let flat = AuraClientConformance.completionViolations({ CompletionRequest(maxTokens: 200, words: rules.wordCount[$0]!.closed) }, rules: rules)
        XCTAssertTrue(flat.contains("premium: max_tokens 200, rules.json reading.maxTokens says 500"), "\(flat)")
        XCTAssertTrue(flat.contains { $0.hasPrefix("premium: a 350-word reading does not fit 200 tokens") }, "\(flat)")
        // Mutant: premium length for free users.
        let long = AuraClientConformance.completionViolations({ _ in CompletionRequest.reference(.premium, rules: rules) }, rules: rules)
        XCTAssertTrue(long.contains("free: asks for 250...350 words, rules.json reading.wordCount says 100...150"), "\(long)")
    }

    /// A rules file whose budget no longer holds its longest reading fails for the reference.
    func testATooSmallBudgetInTheRulesFails() throws {
        var rules = try AuraTestSupport.rules()
        rules.maxTokens[.free] = 150
        let v = AuraClientConformance.completionViolations({ CompletionRequest.reference($0, rules: rules) }, rules: rules)
        XCTAssertEqual(v, ["free: a 150-word reading does not fit 150 tokens (at most 112 words at 0.75 words per token): the model would cut it off"])
    }

    func testFeaturesPerTierIncludeRetrogradeAlerts() throws {
        let rules = try AuraTestSupport.rules()
        XCTAssertEqual(AuraClientConformance.featureViolations({ SubscriptionStatus(tier: $0, rules: rules).entitlements }, rules: rules), [])
        XCTAssertEqual(rules.tiers[.free]?.retrogradeAlerts, false)
        XCTAssertEqual(rules.tiers[.premium]?.retrogradeAlerts, true)
        // Mutant: retrograde alerts for everyone.
        let mutant = AuraClientConformance.featureViolations(
            { tier in
                var e = SubscriptionStatus(tier: tier, rules: rules).entitlements
                e.retrogradeAlerts = true
                return e
            }, rules: rules)
        XCTAssertEqual(mutant, ["free: retrogradeAlerts true, expected false"])
    }

    func testCheckStatusFallsBackToFree() throws {
        let rules = try AuraTestSupport.rules()
        let reference: (() throws -> [String: JSONValue]?, Date) -> SubscriptionTier = { read, now in
            do { return SubscriptionStatus.tier(row: try read(), now: now, rules: rules) } catch { return rules.statusOnError }
        }
        XCTAssertEqual(AuraClientConformance.statusViolations(reference, rules: rules), [])
        XCTAssertEqual(rules.statusOnError, .free)
        // Mutant: an unreadable subscription keeps the user premium.
        let optimistic: (() throws -> [String: JSONValue]?, Date) -> SubscriptionTier = { read, now in
            do { return SubscriptionStatus.tier(row: try read(), now: now, rules: rules) } catch { return .premium }
        }
        XCTAssertEqual(AuraClientConformance.statusViolations(optimistic, rules: rules), ["a failing read gives premium, §8.1 falls back to free"])
        // Mutant: premium whatever the row says.
        let generous: (() throws -> [String: JSONValue]?, Date) -> SubscriptionTier = { read, _ in ((try? read()) ?? nil) == nil ? .free : .premium }
        XCTAssertFalse(AuraClientConformance.statusViolations(generous, rules: rules).isEmpty)
    }

    /// The paywall's enforcement (rules.json entitlements.enforcement): the server refuses Career
    /// and premium length to a free caller; history stays readable after premium lapses.
    func testPaywallIsEnforcedWhereTheRulesSay() throws {
        let rules = try AuraTestSupport.rules()
        XCTAssertEqual(rules.enforcement.categories, .server)
        XCTAssertEqual(rules.enforcement.history, .client)
        var clock = ManualClock()
        XCTAssertEqual(AuraPaywallConformance.violations(backend: try AuraTestSupport.backend(clock: clock), clock: clock, rules: rules), [])
        // Mutant database: past readings hidden (a server-side history limit against the decision).
        clock = ManualClock()
        let hiding = try AuraTestSupport.backend(clock: clock)
        var p = hiding.database.policies
        let i = try XCTUnwrap(p.tables.firstIndex { $0.table == "daily_readings" })
        let own = p.tables[i].cells[.select]?.using ?? .constant(true)
        p.tables[i].cells[.select]?.using = .all([own, .compare(.gte, .column("date"), .value("2026-12-31"))])
        hiding.database.policies = p
        let v = AuraPaywallConformance.violations(backend: hiding, clock: clock, rules: rules)
        XCTAssertTrue(v.contains { $0.hasPrefix("history: priya reads") }, "\(v)")
        // Mutant rules: the category lock declared a client rule while the server refuses it.
        var clientOnly = rules
        clientOnly.enforcement.categories = .client
        clock = ManualClock()
        XCTAssertEqual(
            AuraPaywallConformance.violations(backend: try AuraTestSupport.backend(clock: clock), clock: clock, rules: clientOnly),
            ["categories: enforcement says client but the server refuses Career to a free caller"])
    }
}
