import XCTest
import AppRegistry
import MockBinding

/// The gate for documented interactions: every file of every app
/// (`Contracts/<app>/interactions/*.json`) replays over the wire with the shared engine; a
/// failure names the file, the step and the JSON path.
final class InteractionContractsTests: GateTestCase {
    func testEveryAppsInteractionsReplay() throws {
        var replayed: [String: Int] = [:]
        for app in allApps {
            // Shared with the models suite (`ModelSuite` reads the same replays).
            let results = try InteractionReplay.sharedRun(app: app)
            replayed[app.name] = results.count
            for r in results where !r.passed { XCTFail(r.failures.joined(separator: "\n")) }
        }
        for app in allApps where FileManager.default.fileExists(atPath: ContractsLocator.app(app.name).appendingPathComponent("interactions").path) {
            XCTAssertGreaterThan(replayed[app.name] ?? 0, 0, "\(app.name) has an interactions folder but no file replayed")
        }
        XCTAssertGreaterThanOrEqual(replayed.values.reduce(0, +), 42, "too few interaction files replayed: \(replayed)")
    }
}
