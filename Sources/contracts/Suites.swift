import ContractKit
import TeleportMe

/// Every rule kind `verify` runs, one line each.
let allSuites: [VerifySuite] = [
    InteractionReplay.verifySuite(), TeleportMeModels.verifySuite(), GoldenSuite.verifySuite(),
]
