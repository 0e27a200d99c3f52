import Foundation
import MockBinding

extension ShvilApp {
    /// Shvil's own rule files, each read and checked by `contracts verify`'s `app-rules` kind with
    /// the same conformance suites the gate tests run.
    package static var contractFiles: [ContractFile] {
        [
            ContractFile("flags.json", kind: AppRulesSuite.kind) { folder in
                let config = try FeatureFlagConfig.load(folder: folder)
                let named = Set(config.flags.map(\.feature))
                let backend = try ShvilApp.makeBackend(clock: ManualClock(), ids: SeededIDGenerator(seed: 5))
                let rows = try backend.database.rows("feature_flags", as: .anon).map { try PostgresRowCoding.decode(FeatureFlagRow.self, from: .object($0)) }
                let analytics = try AnalyticsPolicy.load(folder: folder)
                return [
                    RuleCheck(
                        "telemetry is sent only where analyticsEnabled and the user opted in (analytics)",
                        violations: ShvilAnalyticsConformance.violations(of: analytics.shouldSend, policy: analytics)),
                    RuleCheck(
                        "every Feature has a flag (§Feature Flag System)",
                        violations: Feature.allCases.filter { !named.contains($0) }.map { "\($0.rawValue): no flag in flags.json" }),
                    RuleCheck(
                        "every flag × environment as its stage and MVP rule give it",
                        violations: ShvilFeatureFlagConformance.violations(of: config, config: config)),
                    RuleCheck(
                        "the feature_flags rows anon reads agree with flags.json",
                        violations: ShvilFeatureFlagConformance.violations(of: FeatureFlagTable(rows: rows), config: config)
                            + (rows.count == Feature.allCases.count * AppEnvironment.allCases.count
                                ? []
                                : [
                                    "anon reads \(rows.count) feature_flags rows, expected \(Feature.allCases.count * AppEnvironment.allCases.count) (feature × environment)"
                                ]))
                ]
            },
            ContractFile("errors.json", kind: AppRulesSuite.kind) { folder in
                let catalog = try ErrorCatalog.load(folder: folder)
                return [
                    RuleCheck(
                        "every AppError has an entry, a message in every language and a sane retry policy",
                        violations: ShvilErrorCatalogConformance.violations(of: catalog)),
                    RuleCheck(
                        "the reference handler retries, waits and routes every AppError as its entry says (handling)",
                        violations: ShvilErrorHandlingConformance.violations(of: CatalogErrorHandler(catalog: catalog), catalog: catalog)),
                    RuleCheck(
                        "responses map to AppErrors at and around every rule's status bounds",
                        violations: ShvilErrorHandlingConformance.mappingViolations(
                            of: { catalog.error(status: $0, body: $1, expecting: JSONValue.self) }, catalog: catalog)),
                    RuleCheck(
                        "the reference executor refreshes once on 401 and retries with the new token (session)",
                        violations: ShvilTokenRefreshConformance.violations(rule: catalog.session, folder: folder) {
                            RefreshingExecutor(rule: $0, apiKey: $1, tokens: $2, transport: $3)
                        })
                ]
            },
            ContractFile("sync.json", kind: AppRulesSuite.kind) { folder in
                let rules = try SyncRules.load(folder: folder)
                let clock = ManualClock(InteractionReplay.defaultStartTime)
                let backend = try ShvilApp.makeBackend(clock: clock, ids: SeededIDGenerator(seed: 6), folder: folder)
                let noa = backend.configuration.spec.fixtures.personas.first
                let adventure = try backend.database.rows("adventures", where: .eq("user_id", noa?.id ?? "")).first?["id"]?.stringValue ?? ""
                return [
                    RuleCheck(
                        "the reference resolver (last write wins) decides every operation × timestamp order as sync.json says",
                        violations: ShvilSyncConformance.violations(of: LastWriteWins(rules: rules), rules: rules)),
                    RuleCheck(
                        "a write stamped ahead of the server's clock is stored at the server's time (futureTimestamps)",
                        violations: ShvilClockSkewConformance.violations(
                            rules: rules, send: { try backend.handle($0) }, apiKey: backend.anonKey,
                            token: noa.map { backend.accessToken(for: $0.id, email: $0.email) } ?? "",
                            adventureID: adventure, now: clock.now()))
                ]
            },
            ContractFile("rules.json", kind: AppRulesSuite.kind) { folder in
                _ = try ShvilRules.load(folder: folder)
                return [RuleCheck("loads strictly (reorder_adventure_stops reads it; its interactions check the behaviour)", violations: [])]
            }
        ]
    }
}
