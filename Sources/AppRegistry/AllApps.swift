import ContractKit
import TeleportMe
import NaarsCars
import CivicForge
import Aura
import Shvil

/// Every app this package ships, in the README's order: the one list the `contracts` command,
/// `contracts-bench`, `clientrules-tool` and the gate's tests iterate.
///
/// Adding an app: its contracts in `Contracts/<app>/`, its module in `Sources/<Module>/` (an enum
/// conforming to `AppModule`; its table models come from `contracts generate-models`), its module
/// name in Package.swift's `apps`, and its type here.
package let allApps: [any AppModule.Type] = [TeleportMeApp.self, NaarsCarsApp.self, CivicForgeApp.self, AuraApp.self, ShvilApp.self]
