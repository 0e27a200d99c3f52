import Foundation
import XCTest
import MockBinding
import TeleportMe
import NaarsCars
import CivicForge
import Aura
import Shvil

/// The RLS gate's shared state: which apps have a matrix (every `Contracts/*/policies.json`, so
/// apps whose contracts land later are covered without a code change) and each app's report,
/// computed once per test process.
enum RLSGate {
    static let modules: [any AppModule.Type] = [TeleportMeApp.self, NaarsCarsApp.self, CivicForgeApp.self, AuraApp.self, ShvilApp.self]

    /// Folder names under Contracts/ that hold a policies.json, sorted.
    static func appsWithMatrix() -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: ContractsLocator.contracts.path)) ?? []
        return names.filter { RLSSuite.hasMatrix($0) }.sorted()
    }

    static func module(_ app: String) -> (any AppModule.Type)? { modules.first { $0.name == app } }

    /// The app's report: every case over the wire, then the flip test (`RLSSuite.sharedReport`:
    /// computed once per process, shared with every suite that reads it).
    static func report(_ app: String) throws -> RLSReport {
        guard let m = module(app) else { throw RLSTargetError("Contracts/\(app)/policies.json has no app module") }
        return try RLSSuite.sharedReport(m)
    }
}
