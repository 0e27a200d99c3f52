import Foundation
import MockBinding

extension NaarsCarsApp {
    /// Naar's Cars' own rule files, read and checked by `contracts verify`'s `app-rules` kind.
    package static var contractFiles: [ContractFile] {
        [
            ContractFile("rules.json", kind: AppRulesSuite.kind) { folder in
                _ = try NaarsCarsContracts.load(folder: folder).rules
                return [RuleCheck("loads strictly against schema.json (the triggers read it; the interactions check them)", violations: [])]
            },
            ContractFile("functions.json", kind: AppRulesSuite.kind) { folder in
                let declared = Set(try NaarsCarsContracts.load(folder: folder).functions.rpcs.map(\.name))
                let registered = Set(try NaarsCarsApp.makeBackend(clock: ManualClock(), ids: SeededIDGenerator(seed: 1)).rpcNames)
                return [
                    RuleCheck(
                        "the backend registers exactly the database functions functions.json declares",
                        violations: declared.subtracting(registered).sorted().map { "\($0): declared, not registered" }
                            + registered.subtracting(declared).sorted().map { "\($0): registered, not declared" })
                ]
            },
            ContractFile("app-state.json", kind: AppRulesSuite.kind) { folder in
                let rules = try AppStateRules.load(folder: folder)
                let spec = try AppSpec.load(folder: folder)
                return [
                    RuleCheck(
                        "FR-035 authState of every documented case (the reference AppState)",
                        violations: rules.violations(AppStateRules.authState, spec: spec))
                ]
            },
            ContractFile("errors.json", kind: AppRulesSuite.kind) { folder in
                let catalog = try NaarsCarsContracts.load(folder: folder).errors
                return [
                    RuleCheck(
                        "every FR-040 AppError has a message",
                        violations: AppError.caseNames.filter { catalog.messages[$0]?.isEmpty ?? true }.map { "\($0): no message" }),
                    RuleCheck("mapping rules exist", violations: catalog.rules.isEmpty ? ["no mapping rule: every backend answer would be .unknown"] : [])
                ]
            }
        ]
    }
}
