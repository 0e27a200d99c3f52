import XCTest
import AppRegistry
import MockBinding

/// The app registry (`allApps`) and the contract folders name the same apps: a folder under
/// `Contracts/` that no registered app reads would never be checked, and a registered app without
/// its folder could not load.
final class AppRegistryContractsTests: GateTestCase {
    func testEveryContractsFolderIsARegisteredApp() throws {
        let root = ContractsLocator.contracts
        let folders = try FileManager.default.contentsOfDirectory(at: root, includingPropertiesForKeys: [.isDirectoryKey])
            .filter { (try? $0.resourceValues(forKeys: [.isDirectoryKey]).isDirectory) == true }
            .map(\.lastPathComponent)
            .filter { $0 != "shared" }
        XCTAssertEqual(Set(folders), Set(allApps.map { $0.name }), "Contracts/ folders vs AppRegistry's allApps")
        XCTAssertEqual(Set(allApps.map { $0.name }).count, allApps.count, "an app registered twice")
    }
}
