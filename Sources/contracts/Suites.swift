import MockBinding
import Foundation

/// `$SUPACONTRACTS_RECORD` as a golden mode (main.swift refuses an unknown value before any work).
let environmentRecordMode: GoldenRecordMode = (try? GoldenRecordMode.from(environment: ProcessInfo.processInfo.environment)) ?? .never

/// Every rule kind `verify` runs, one line each.
let allSuites: [VerifySuite] = [
    FixtureSuite.suite,
    InteractionReplay.verifySuite(), ModelSuite.verifySuite(), GoldenSuite.verifySuite(mode: environmentRecordMode),
    RLSSuite.verifySuite,
    ClientRulesReference.verifySuite,
    AppRulesSuite.suite,
    PostgresChecks.suite
]
