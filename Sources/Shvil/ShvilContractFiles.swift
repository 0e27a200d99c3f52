import Foundation
import ContractKit

extension ShvilApp {
    /// Shvil's own rule files, each read and checked by `contracts verify`'s `app-rules` kind with
    /// the same conformance suites the gate tests run.
    public static var contractFiles: [ContractFile] {
        [
            ContractFile("flags.json", kind: AppRulesSuite.kind) { folder in
                let config = try FeatureFlagConfig.load(folder: folder)
                let named = Set(config.flags.map(\.feature))
                let backend = try ShvilApp.makeBackend(clock: ManualClock(), ids: SeededIDGenerator(seed: 5))
                let rows = try backend.database.rows("feature_flags", as: .anon).map { try PostgresRowCoding.decode(FeatureFlagRow.self, from: .object($0)) }
                return [
                    RuleCheck("every Feature has a flag (§Feature Flag System)",
                              violations: Feature.allCases.filter { !named.contains($0) }.map { "\($0.rawValue): no flag in flags.json" }),
                    RuleCheck("every flag × environment as its stage and MVP rule give it",
                              violations: ShvilFeatureFlagConformance.violations(of: config, config: config)),
                    RuleCheck("the feature_flags rows anon reads agree with flags.json",
                              violations: ShvilFeatureFlagConformance.violations(of: FeatureFlagTable(rows: rows), config: config)
                                  + (rows.count == Feature.allCases.count * AppEnvironment.allCases.count ? []
                                     : ["anon reads \(rows.count) feature_flags rows, expected \(Feature.allCases.count * AppEnvironment.allCases.count) (feature × environment)"])),
                ]
            },
            ContractFile("errors.json", kind: AppRulesSuite.kind) { folder in
                let catalog = try ErrorCatalog.load(folder: folder)
                return [RuleCheck("every AppError has an entry, a message in every language and a sane retry policy",
                                  violations: ShvilErrorCatalogConformance.violations(of: catalog))]
            },
            ContractFile("sync.json", kind: AppRulesSuite.kind) { folder in
                let rules = try SyncRules.load(folder: folder)
                return [RuleCheck("the reference resolver (last write wins) decides every operation × timestamp order as sync.json says",
                                  violations: ShvilSyncConformance.violations(of: LastWriteWins(rules: rules), rules: rules))]
            },
            ContractFile("rules.json", kind: AppRulesSuite.kind) { folder in
                _ = try ShvilRules.load(folder: folder)
                return [RuleCheck("loads strictly (reorder_adventure_stops reads it; its interactions check the behaviour)", violations: [])]
            },
        ]
    }
}
