import ContractKit

/// Every rule kind `verify` runs, one line each.
let allSuites: [VerifySuite] = [
    FixtureSuite.suite,
]
