import Foundation
import MockSupabase
import MockBinding

/// The document's feature flags (§Feature Flag System), raw values as stored.
public enum Feature: String, CaseIterable, Sendable, Codable {
    /// Liquid Glass navigation, v1.
    case liquidGlassNavV1 = "liquid_glass_nav_v1"
    case advancedRouting = "advanced_routing"
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
package struct FeatureFlagConfig: Sendable, Equatable, FeatureFlagResolving {
    package struct Flag: Sendable, Equatable {
        package var feature: Feature
        package var stage: FeatureStage
        /// Whether the MVP ships it disabled.
        package var mvpDisabled: Bool
        /// What it is.
        package var description: String
    }

    /// Flags in file order.
    package var flags: [Flag]
    /// Stages each environment enables.
    package var stagesEnabled: [AppEnvironment: Set<FeatureStage>]
    /// Environments where MVP-disabled flags still follow their stage.
    package var mvpDisabledEnabledIn: Set<AppEnvironment>

    /// Loads flags.json (the whole file, analytics included, is checked).
    package static func load(folder: URL = ContractsLocator.app(ShvilApp.name)) throws -> FeatureFlagConfig {
        try FlagsFile.load(folder).flags
    }

    /// The flag entry of a feature.
    package func flag(_ feature: Feature) -> Flag? { flags.first { $0.feature == feature } }

    /// On when the environment enables the flag's stage, unless the flag is MVP-disabled and the
    /// environment is not one where such flags stay on.
    package func isEnabled(_ feature: Feature, in environment: AppEnvironment) -> Bool {
        guard let f = flag(feature), stagesEnabled[environment]?.contains(f.stage) == true else { return false }
        return !f.mvpDisabled || mvpDisabledEnabledIn.contains(environment)
    }

    /// The feature_flags rows for every environment.
    package func rows(updatedAt: Date) -> [FeatureFlagRow] {
        flags.flatMap { f in
            AppEnvironment.allCases.map { e in
                FeatureFlagRow(
                    key: f.feature.rawValue, environment: e, enabled: isEnabled(f.feature, in: e), stage: f.stage,
                    description: f.description, updatedAt: PGTimestamp(updatedAt))
            }
        }
    }
}

/// Flags read from feature_flags rows (what the app fetches), as a resolver.
package struct FeatureFlagTable: FeatureFlagResolving, Sendable {
    package var rows: [FeatureFlagRow]
    /// A resolver over rows; a missing row is off.
    package init(rows: [FeatureFlagRow]) { self.rows = rows }
    /// Whether the feature is on in the environment.
    package func isEnabled(_ feature: Feature, in environment: AppEnvironment) -> Bool {
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
    package static func violations(of resolver: some FeatureFlagResolving, config: FeatureFlagConfig) -> [String] {
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

/// flags.json read whole: the flags and the analytics policy, one decoder for both.
struct FlagsFile: Decodable {
    var flags: FeatureFlagConfig
    var analytics: AnalyticsPolicy
    static func load(_ folder: URL) throws -> FlagsFile {
        try SpecNode.decode(FlagsFile.self, from: folder.appendingPathComponent("flags.json"), displayName: "Contracts/shvil/flags.json")
    }
    init(from decoder: Decoder) throws {
        flags = try FeatureFlagConfig(from: decoder)
        analytics = try decoder.container(keyedBy: FeatureFlagConfig.CodingKeys.self).decode(AnalyticsPolicy.self, forKey: .analytics)
    }
}

/// An environment named in flags.json.
struct EnvironmentName: Decodable {
    var value: AppEnvironment
    init(from decoder: Decoder) throws {
        let s = try decoder.singleValueContainer().decode(String.self)
        guard let e = AppEnvironment(rawValue: s) else { throw decoder.fail("unknown environment '\(s)'") }
        value = e
    }
}

extension KeyedDecodingContainer {
    /// A map keyed by environment name (every environment present).
    func byEnvironment<V: Decodable>(_ key: Key, _: V.Type) throws -> [AppEnvironment: V] {
        var out: [AppEnvironment: V] = [:]
        for (k, n) in try decode([String: SpecNode].self, forKey: key).sorted(by: { $0.key < $1.key }) {
            guard let e = AppEnvironment(rawValue: k) else { throw n.fail("unknown environment '\(k)'") }
            out[e] = try n.decode(V.self)
        }
        for e in AppEnvironment.allCases where out[e] == nil { throw fail(key, "missing environment '\(e.rawValue)'") }
        return out
    }
}

extension FeatureFlagConfig.Flag: Decodable {
    enum CodingKeys: String, CodingKey { case key, `case`, stage, mvpDisabled, description }
    package init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let key = try c.decode(String.self, forKey: .key)
        guard let f = Feature(rawValue: key) else { throw c.fail(.key, "'\(key)' is not a case of Feature") }
        feature = f
        guard try c.decode(String.self, forKey: .case) == "\(f)" else { throw c.fail(.case, "Feature.\(f) is spelled '\(f)'") }
        guard let st = FeatureStage(rawValue: try c.decode(String.self, forKey: .stage)) else { throw c.fail(.stage, "unknown stage") }
        stage = st
        mvpDisabled = try c.decode(Bool.self, forKey: .mvpDisabled)
        description = try c.decodeIfPresent(String.self, forKey: .description) ?? ""
    }
}

/// A stage named in `stagesEnabled`.
private struct StageName: Decodable {
    var value: FeatureStage
    init(from decoder: Decoder) throws {
        let s = try decoder.singleValueContainer().decode(String.self)
        guard let st = FeatureStage(rawValue: s) else { throw decoder.fail("unknown stage '\(s)'") }
        value = st
    }
}

extension FeatureFlagConfig: Decodable {
    enum CodingKeys: String, CodingKey, CaseIterable { case app, source, decisions, analytics, environments, stagesEnabled, mvpDisabledEnabledIn, flags }
    /// flags.json: every `Feature` exactly once, known stages and environments.
    package init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let envs = try c.decode([EnvironmentName].self, forKey: .environments).map(\.value)
        guard Set(envs) == Set(AppEnvironment.allCases) else { throw c.fail(.environments, "must list \(AppEnvironment.allCases.map(\.rawValue))") }
        stagesEnabled = try c.byEnvironment(.stagesEnabled, [StageName].self).mapValues { Set($0.map(\.value)) }
        mvpDisabledEnabledIn = Set(try c.decode([EnvironmentName].self, forKey: .mvpDisabledEnabledIn).map(\.value))
        flags = try c.decode([Flag].self, forKey: .flags)
        let keys = flags.map(\.feature)
        guard Set(keys).count == keys.count, Set(keys) == Set(Feature.allCases) else {
            throw c.fail(.flags, "must list every Feature exactly once: \(Feature.allCases.map(\.rawValue))")
        }
    }
}
