import ContractKit

/// Every rule kind `verify` runs, one line each.
let allSuites: [VerifySuite] = [
    FixtureSuite.suite,
    InteractionReplay.verifySuite(), ModelSuite.verifySuite(), GoldenSuite.verifySuite(),
    RLSSuite.verifySuite,
    ClientRulesReference.verifySuite,
    AppRulesSuite.suite,
    PostgresChecks.suite,
]
