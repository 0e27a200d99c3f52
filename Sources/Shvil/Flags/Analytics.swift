import Foundation
import MockSupabase
import ContractKit

/// Contracts/shvil/flags.json `analytics`: `Environment.analyticsEnabled` per environment and
/// the user's opt-in (§Environment Variables, §Privacy Compliance).
public struct AnalyticsPolicy: Sendable, Equatable {
    /// `analyticsEnabled` of each environment.
    public var enabled: [AppEnvironment: Bool]
    /// Whether telemetry also needs the user's opt-in.
    public var requiresConsent: Bool

    /// Loads the `analytics` object of flags.json.
    public static func load(folder: URL = ContractsLocator.app(ShvilApp.name)) throws -> AnalyticsPolicy {
        let root = try SpecNode.load(folder.appendingPathComponent("flags.json"), displayName: "Contracts/shvil/flags.json")
        return try root.object { o in
            for k in ["app", "source", "decisions", "environments", "stagesEnabled", "mvpDisabledEnabledIn", "flags"] { _ = o.optional(k) }
            return try o.required("analytics").object { a in
                _ = a.optional("decision")
                var enabled: [AppEnvironment: Bool] = [:]
                let eNode = try a.required("enabled")
                for (k, n) in try eNode.map() {
                    guard let e = AppEnvironment(rawValue: k) else { throw n.fail("unknown environment '\(k)'") }
                    enabled[e] = try n.bool()
                }
                for e in AppEnvironment.allCases where enabled[e] == nil { throw eNode.fail("missing environment '\(e.rawValue)'") }
                return AnalyticsPolicy(enabled: enabled, requiresConsent: try a.required("requiresConsent").bool())
            }
        }
    }

    /// The reference decision: the environment allows it and, when required, the user opted in
    /// (nil: never asked, which is no).
    public func shouldSend(in environment: AppEnvironment, consent: Bool?) -> Bool {
        (enabled[environment] ?? false) && (!requiresConsent || consent == true)
    }
}

/// The conformance suite of a client's analytics gate.
public enum ShvilAnalyticsConformance {
    /// The gate under test: whether telemetry is sent in an environment with the user's consent
    /// (true, false, nil when never asked).
    public typealias Gate = (AppEnvironment, Bool?) -> Bool

    /// Every environment × consent as the policy gives it; and the document's opt-in itself:
    /// a policy that sends without consent anywhere is a violation.
    public static func violations(of gate: Gate, policy: AnalyticsPolicy) -> [String] {
        var out: [String] = []
        if !policy.requiresConsent { out.append("flags.json analytics.requiresConsent is false: §Privacy Compliance asks for opt-in telemetry with user consent") }
        for e in AppEnvironment.allCases {
            for consent in [true, false, nil] as [Bool?] {
                let want = (policy.enabled[e] ?? false) && consent == true
                if gate(e, consent) != want {
                    out.append("\(e.rawValue), consent \(consent.map { "\($0)" } ?? "never asked"): \(want ? "sends nothing" : "sends"), expected \(want ? "send" : "nothing")")
                }
            }
        }
        return out
    }
}
