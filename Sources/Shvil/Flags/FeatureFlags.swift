import Foundation
import MockSupabase
import ContractKit

/// The document's feature flags (§Feature Flag System), raw values as stored.
public enum Feature: String, CaseIterable, Sendable, Codable {
    /// Liquid Glass navigation, v1.
    case liquidGlassNavV1 = "liquid_glass_nav_v1"
    /// Advanced routing.
    case advancedRouting = "advanced_routing"
    /// Voice guide.
    case voiceGuide = "voice_guide"
    /// Social sharing (disabled for MVP).
    case socialSharing = "social_sharing"
    /// Hunt mode (disabled for MVP).
    case huntMode = "hunt_mode"
}

/// Anything that answers whether a feature is on in an environment (the app's flag store, a
/// remote-config client, the shipped resolver).
public protocol FeatureFlagResolving {
    /// Whether `feature` is enabled in `environment`.
    func isEnabled(_ feature: Feature, in environment: AppEnvironment) -> Bool
}

/// Contracts/shvil/flags.json: each flag's stage and MVP status, and the stages each
/// environment enables.
public struct FeatureFlagConfig: Sendable, Equatable, FeatureFlagResolving {
    /// One flag of flags.json.
    public struct Flag: Sendable, Equatable {
        /// The feature.
        public var feature: Feature
        /// Its stage.
        public var stage: FeatureStage
        /// Whether the MVP ships it disabled.
        public var mvpDisabled: Bool
        /// What it is.
        public var description: String
    }

    /// Flags in file order.
    public var flags: [Flag]
    /// Stages each environment enables.
    public var stagesEnabled: [AppEnvironment: Set<FeatureStage>]
    /// Environments where MVP-disabled flags still follow their stage.
    public var mvpDisabledEnabledIn: Set<AppEnvironment>

    /// Loads flags.json.
    public static func load(folder: URL = ContractsLocator.app(ShvilApp.name)) throws -> FeatureFlagConfig {
        try decode(SpecNode.load(folder.appendingPathComponent("flags.json"), displayName: "Contracts/shvil/flags.json"))
    }

    /// Decodes flags.json strictly: every `Feature` exactly once, known stages and environments.
    public static func decode(_ root: SpecNode) throws -> FeatureFlagConfig {
        func env(_ n: SpecNode) throws -> AppEnvironment {
            guard let e = AppEnvironment(rawValue: try n.string()) else { throw n.fail("unknown environment '\(try n.string())'") }
            return e
        }
        return try root.object { o in
            _ = o.optional("app"); _ = o.optional("source"); _ = o.optional("decisions"); _ = o.optional("analytics")
            let envNode = try o.required("environments")
            let envs = try envNode.array().map(env)
            guard Set(envs) == Set(AppEnvironment.allCases) else { throw envNode.fail("must list \(AppEnvironment.allCases.map(\.rawValue))") }
            var stages: [AppEnvironment: Set<FeatureStage>] = [:]
            let sNode = try o.required("stagesEnabled")
            for (k, n) in try sNode.map() {
                guard let e = AppEnvironment(rawValue: k) else { throw n.fail("unknown environment '\(k)'") }
                stages[e] = Set(try n.array().map { s in
                    guard let st = FeatureStage(rawValue: try s.string()) else { throw s.fail("unknown stage '\(try s.string())'") }
                    return st
                })
            }
            for e in envs where stages[e] == nil { throw sNode.fail("missing environment '\(e.rawValue)'") }
            let mvp = Set(try o.required("mvpDisabledEnabledIn").array().map(env))
            let fNode = try o.required("flags")
            var flags: [Flag] = []
            for f in try fNode.array() {
                flags.append(try f.object { fo in
                    let keyNode = try fo.required("key")
                    guard let feature = Feature(rawValue: try keyNode.string()) else { throw keyNode.fail("'\(try keyNode.string())' is not a case of Feature") }
                    let caseNode = try fo.required("case")
                    guard try caseNode.string() == "\(feature)" else { throw caseNode.fail("Feature.\(feature) is spelled '\(feature)'") }
                    let stageNode = try fo.required("stage")
                    guard let stage = FeatureStage(rawValue: try stageNode.string()) else { throw stageNode.fail("unknown stage") }
                    return Flag(feature: feature, stage: stage, mvpDisabled: try fo.required("mvpDisabled").bool(),
                                description: try fo.optional("description")?.string() ?? "")
                })
            }
            let keys = flags.map(\.feature)
            guard Set(keys).count == keys.count, Set(keys) == Set(Feature.allCases) else {
                throw fNode.fail("must list every Feature exactly once: \(Feature.allCases.map(\.rawValue))")
            }
            return FeatureFlagConfig(flags: flags, stagesEnabled: stages, mvpDisabledEnabledIn: mvp)
        }
    }

    /// The flag entry of a feature.
    public func flag(_ feature: Feature) -> Flag? { flags.first { $0.feature == feature } }

    /// On when the environment enables the flag's stage, unless the flag is MVP-disabled and the
    /// environment is not one where such flags stay on.
    public func isEnabled(_ feature: Feature, in environment: AppEnvironment) -> Bool {
        guard let f = flag(feature), stagesEnabled[environment]?.contains(f.stage) == true else { return false }
        return !f.mvpDisabled || mvpDisabledEnabledIn.contains(environment)
    }

    /// The feature_flags rows for every environment.
    public func rows(updatedAt: Date) -> [FeatureFlagRow] {
        flags.flatMap { f in
            AppEnvironment.allCases.map { e in
                FeatureFlagRow(key: f.feature.rawValue, environment: e, enabled: isEnabled(f.feature, in: e), stage: f.stage,
                               description: f.description, updatedAt: PGTimestamp(updatedAt))
            }
        }
    }
}

/// Flags read from feature_flags rows (what the app fetches), as a resolver.
public struct FeatureFlagTable: FeatureFlagResolving, Sendable {
    /// The rows.
    public var rows: [FeatureFlagRow]
    /// A resolver over rows; a missing row is off.
    public init(rows: [FeatureFlagRow]) { self.rows = rows }
    /// Whether the feature is on in the environment.
    public func isEnabled(_ feature: Feature, in environment: AppEnvironment) -> Bool {
        rows.first { $0.key == feature.rawValue && $0.environment == environment }?.enabled ?? false
    }
}

/// The conformance suite of the flag configuration (§Feature Flag System): run it on any
/// resolver; an empty result means it conforms.
public enum ShvilFeatureFlagConformance {
    /// Violations by `resolver` of flags.json (each flag × environment as the stages and MVP
    /// rules give it) and of the document's invariants, which also hold the data to the
    /// document: development enables everything, production only stable flags and never an
    /// MVP-disabled one, and a flag on in an environment is on in every less strict one.
    public static func violations(of resolver: some FeatureFlagResolving, config: FeatureFlagConfig) -> [String] {
        var out: [String] = []
        for f in config.flags {
            let name = "\(f.feature.rawValue) (\(f.stage.rawValue)\(f.mvpDisabled ? ", disabled for MVP" : ""))"
            var on: [AppEnvironment: Bool] = [:]
            for e in AppEnvironment.allCases {
                on[e] = resolver.isEnabled(f.feature, in: e)
                let expected = config.stagesEnabled[e]?.contains(f.stage) == true && (!f.mvpDisabled || config.mvpDisabledEnabledIn.contains(e))
                if on[e] != expected { out.append("\(name): \(e.rawValue) is \(on[e]!), flags.json gives \(expected)") }
            }
            if on[.development] != true { out.append("\(name): off in development ('all experimental features enabled')") }
            if on[.production] == true && (f.stage != .stable || f.mvpDisabled) { out.append("\(name): on in production ('stable features only')") }
            if on[.staging] == true && f.mvpDisabled { out.append("\(name): on in staging although disabled for MVP") }
            if on[.production]! && !on[.staging]! { out.append("\(name): on in production but not in staging") }
            if on[.staging]! && !on[.development]! { out.append("\(name): on in staging but not in development") }
        }
        return out
    }
}
