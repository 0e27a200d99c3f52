import ContractKit
import TeleportMe

/// Every rule kind `verify` runs, one line each.
let allSuites: [VerifySuite] = [
    FixtureSuite.suite,
    InteractionReplay.verifySuite(), TeleportMeModels.verifySuite(), GoldenSuite.verifySuite(),
    RLSSuite.verifySuite,
    ClientRulesReference.verifySuite,
    PostgresChecks.suite,
]
