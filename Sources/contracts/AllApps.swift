import ContractKit
import TeleportMe
import NaarsCars
import CivicForge
import Aura
import Shvil

/// Every app, in the README's order.
let allApps: [any AppModule.Type] = [TeleportMeApp.self, NaarsCarsApp.self, CivicForgeApp.self, AuraApp.self, ShvilApp.self]

/// Every command's spec, for `contracts help COMMAND`.
let commandSpecs: [String: CommandSpec] = ["verify": verifySpec, "serve": serveSpec, "goldens": goldensSpec, "report": reportSpec, "generate-models": generateModelsSpec]
