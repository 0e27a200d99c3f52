import Foundation
import MockBinding

extension AuraApp {
    /// Aura's own rule files, each read and checked by `contracts verify`'s `app-rules` kind with
    /// the conformance checks the gate tests run, against the shipped implementations.
    package static var contractFiles: [ContractFile] {
        [
            ContractFile("rules.json", kind: AppRulesSuite.kind) { folder in
                let rules = try AuraRules.load(folder: folder)
                return [
                    RuleCheck(
                        "zodiac: every documented date and every boundary gives its sign (§2.1, §9.1)",
                        violations: AuraConformance.zodiacViolations(ZodiacCalculator(rules: rules), rules: rules)),
                    RuleCheck(
                        "MBTI: every documented score sheet gives its type (§9.1)",
                        violations: AuraConformance.mbtiViolations(MBTICalculator(rules: rules), rules: rules)),
                    RuleCheck(
                        "entitlements: every documented subscription row gives its tier (§8.2)",
                        violations: AuraConformance.entitlementViolations(
                            { row, now in SubscriptionStatus.tier(row: row, now: now, rules: rules) }, rules: rules)),
                    RuleCheck(
                        "max_tokens and word range per tier, the longest reading within its budget (§3.2)",
                        violations: AuraClientConformance.completionViolations({ CompletionRequest.reference($0, rules: rules) }, rules: rules)),
                    RuleCheck(
                        "features per tier, retrograde alerts and history included (§8.2)",
                        violations: AuraClientConformance.featureViolations({ SubscriptionStatus(tier: $0, rules: rules).entitlements }, rules: rules)),
                    RuleCheck(
                        "checkStatus falls back to free when the subscription cannot be read (§8.1)",
                        violations: AuraClientConformance.statusViolations(
                            { read, now in
                                do { return SubscriptionStatus.tier(row: try read(), now: now, rules: rules) } catch { return rules.statusOnError }
                            }, rules: rules)),
                    RuleCheck(
                        "the paywall is enforced where entitlements.enforcement says (server: 403; client: rows stay readable)",
                        violations: try paywallViolations(folder: folder, rules: rules))
                ]
            },
            ContractFile("endpoints.json", kind: AppRulesSuite.kind) { folder in
                [
                    RuleCheck(
                        "every endpoint of §3.3 has a documented interaction",
                        violations: try AuraConformance.endpointViolations(
                            endpoints: folder.appendingPathComponent("endpoints.json"),
                            interactions: InteractionReplay.load(app: AuraApp.self)))
                ]
            }
        ]
    }
}

/// The paywall suite on a fresh backend of `folder`.
func paywallViolations(folder: URL, rules: AuraRules) throws -> [String] {
    let clock = ManualClock()
    let b = try MockSupabase(contracts: folder, clock: clock, ids: SeededIDGenerator(seed: 7))
    AuraApp.register(on: b, seed: 0)
    return AuraPaywallConformance.violations(backend: b, clock: clock, rules: rules)
}

extension AuraConformance {
    /// The endpoints of endpoints.json (§3.3) that no interaction step exercises (same method and
    /// path); a file that does not decode throws naming file and path.
    package static func endpointViolations(endpoints url: URL, interactions: [InteractionFile]) throws -> [String] {
        let endpoints = try SpecNode.decode(EndpointsFile.self, from: url, displayName: "Contracts/aura/endpoints.json").endpoints
            .map { ($0.method, $0.path) }
        if endpoints.isEmpty { return ["endpoints.json lists no endpoint (§3.3 lists seven)"] }
        let steps = interactions.flatMap(\.steps)
        return endpoints.compactMap { method, path in
            steps.contains { $0.request.method == method && $0.request.path == path } ? nil : "\(method) \(path) has no interaction"
        }
    }
}

/// endpoints.json: §3.3's table, each row mapped to where the contract sends it.
private struct EndpointsFile: Decodable {
    struct Endpoint: Decodable {
        var method: String, path: String
        enum CodingKeys: String, CodingKey, CaseIterable { case method, path, doc, auth, description, kind, query, request, response }
        init(from decoder: Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            (method, path) = (try c.decode(String.self, forKey: .method), try c.decode(String.self, forKey: .path))
        }
    }
    var endpoints: [Endpoint]
    enum CodingKeys: String, CodingKey, CaseIterable { case app, source, decisions, endpoints }
    init(from decoder: Decoder) throws { endpoints = try decoder.container(keyedBy: CodingKeys.self).decode([Endpoint].self, forKey: .endpoints) }
}
