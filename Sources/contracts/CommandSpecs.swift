import MockBinding

/// Every command's spec, for `contracts help COMMAND`.
let commandSpecs: [String: CommandSpec] = [
    "verify": verifySpec, "serve": serveSpec, "goldens": goldensSpec, "report": reportSpec, "generate-models": generateModelsSpec
]
