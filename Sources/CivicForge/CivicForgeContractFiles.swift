import Foundation
import MockBinding

extension CivicForgeApp {
    /// CivicForge's own rule files, each read and checked by `contracts verify`'s `app-rules`
    /// kind (the triggers, function and push function that use them are also exercised by the
    /// interactions kind).
    package static var contractFiles: [ContractFile] {
        [
            ContractFile("rules.json", kind: AppRulesSuite.kind) { folder in
                let rules = try CivicForgeRules.load(folder: folder)
                var schemaProblems: [String] = []
                do { try rules.validate(against: try AppSpec.load(folder: folder).schema) } catch { schemaProblems.append("\(error)") }
                let keys = Set(rules.invitationErrors.keys), wanted = Set(CivicForgeRules.invitationErrorKeys)
                return [
                    RuleCheck("names only tables and columns of schema.json", violations: schemaProblems),
                    RuleCheck(
                        "every invitation error has its message",
                        violations: wanted.subtracting(keys).sorted().map { "no message for \($0)" }
                            + keys.subtracting(wanted).sorted().map { "unknown invitation error \($0)" })
                ]
            },
            ContractFile("photos.json", kind: AppRulesSuite.kind) { folder in
                let l = try PhotoLimits.load(folder: folder)
                // The reference plan, checked against the limits on a landscape, a portrait and a small photo.
                let photos = [(4032, 3024), (3024, 4032), (800, 600)].map { w, h -> PhotoLimits.ProcessedPhoto in
                    let p = l.plan(source: .init(width: w, height: h))
                    return .init(
                        source: .init(width: w, height: h), output: p.output, thumbnail: p.thumbnail, quality: l.jpegQuality,
                        contentType: l.contentType, metadataKeys: ["{JFIF}"])
                }
                return [
                    RuleCheck(
                        "the reference photo plan meets the limits (size, thumbnail, quality, type, no location metadata)",
                        violations: l.violations(of: photos)),
                    RuleCheck(
                        "the reference processor's JPEG bytes: no APP1/APP13, baseline, planned size never upscaled, quality, centred thumbnail",
                        violations: PhotoBytesConformance.referenceViolations(l))
                ]
            },
            ContractFile("auth.json", kind: AppRulesSuite.kind) { folder in
                let b = try CivicForgeApp.makeBackend(clock: ManualClock(InteractionReplay.defaultStartTime), ids: SeededIDGenerator(seed: 11), folder: folder)
                let auth = b.configuration.spec.auth
                return [
                    RuleCheck(
                        "the magic link lands only on the allow-listed redirect, anything else on the Site URL",
                        violations: CivicForgeRedirectConformance.violations(
                            probes: CivicForgeRedirectConformance.probes(siteURL: auth.siteURL, redirectURLs: auth.redirectURLs),
                            apiKey: b.anonKey, send: { try b.handle($0) }, inbox: { b.lastEmail(to: $0) }))
                ]
            },
            ContractFile("client-rules.json", kind: AppRulesSuite.kind) { folder in
                guard
                    let rules = try ClientRules.load(folder.appendingPathComponent("client-rules.json"), displayName: "Contracts/civicforge/client-rules.json")
                        .offlineQueue
                else {
                    return [RuleCheck("offlineQueue is specified (§4 'Post creation queued locally')", violations: ["client-rules.json has no offlineQueue"])]
                }
                return [
                    RuleCheck(
                        "the reference offline post queue keeps, orders, drops and reports as offlineQueue says (§4)",
                        violations: CivicForgeOfflineQueueConformance.violations(rules: rules) { try OfflinePostQueue(rules: $0, restoring: $1) })
                ]
            },
            ContractFile("notifications.json", kind: AppRulesSuite.kind) { folder in
                let rules = try NotificationRules.load(folder: folder)
                let outbox = WebhookOutbox()
                let b = try MockSupabase(contracts: folder, clock: ManualClock(InteractionReplay.defaultStartTime), ids: SeededIDGenerator(seed: 17))
                try CivicForgeApp.install(on: b, rules: try CivicForgeRules.load(folder: folder), notifications: rules, outbox: outbox)
                return [
                    RuleCheck(
                        "database webhooks: each event of §4's table queues one push-notifications request, answered with its event",
                        violations: CivicForgeWebhookConformance.violations(backend: b, outbox: outbox, rules: rules))
                ]
            }
        ]
    }
}
