import Foundation
import MockSupabase
import MockBinding

/// Contracts/shvil/flags.json `analytics`: `Environment.analyticsEnabled` per environment and
/// the user's opt-in (§Environment Variables, §Privacy Compliance).
package struct AnalyticsPolicy: Sendable, Equatable {
    /// `analyticsEnabled` of each environment.
    package var enabled: [AppEnvironment: Bool]
    /// Whether telemetry also needs the user's opt-in.
    package var requiresConsent: Bool

    /// Loads the `analytics` object of flags.json.
    package static func load(folder: URL = ContractsLocator.app(ShvilApp.name)) throws -> AnalyticsPolicy {
        try FlagsFile.load(folder).analytics
    }

    /// The reference decision: the environment allows it and, when required, the user opted in
    /// (nil: never asked, which is no).
    package func shouldSend(in environment: AppEnvironment, consent: Bool?) -> Bool {
        (enabled[environment] ?? false) && (!requiresConsent || consent == true)
    }
}

extension AnalyticsPolicy: Decodable {
    enum CodingKeys: String, CodingKey, CaseIterable { case decision, enabled, requiresConsent }
    package init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        enabled = try c.byEnvironment(.enabled, Bool.self)
        requiresConsent = try c.decode(Bool.self, forKey: .requiresConsent)
    }
}

/// The conformance suite of a client's analytics gate.
public enum ShvilAnalyticsConformance {
    /// The gate under test: whether telemetry is sent in an environment with the user's consent
    /// (true, false, nil when never asked).
    public typealias Gate = (AppEnvironment, Bool?) -> Bool

    /// Every environment × consent as the policy gives it; and the document's opt-in itself:
    /// a policy that sends without consent anywhere is a violation.
    package static func violations(of gate: Gate, policy: AnalyticsPolicy) -> [String] {
        var out: [String] = []
        if !policy.requiresConsent {
            out.append("flags.json analytics.requiresConsent is false: §Privacy Compliance asks for opt-in telemetry with user consent")
        }
        for e in AppEnvironment.allCases {
            for consent in [true, false, nil] as [Bool?] {
                let want = (policy.enabled[e] ?? false) && consent == true
                if gate(e, consent) != want {
                    out.append(
                        "\(e.rawValue), consent \(consent.map { "\($0)" } ?? "never asked"): \(want ? "sends nothing" : "sends"), expected \(want ? "send" : "nothing")"
                    )
                }
            }
        }
        return out
    }
}
