import XCTest
import AppRegistry
import MockBinding
import TeleportMe
import NaarsCars
import CivicForge
import Aura
import Shvil

/// The gate: every app's own rule files pass the `app-rules` kind of `contracts verify`, every
/// file of every contracts folder is read by some rule kind, and broken rule files fail it.
final class AppRulesContractsTests: GateTestCase {
    let apps = allApps

    func testEveryContractsFolderLoadsAndEveryFileIsRead() {
        for app in apps {
            XCTAssertEqual(ContractFolderCheck.problems(app), [], app.name)
        }
    }

    func testEveryAppRuleFilePassesItsChecks() throws {
        // Each app's checks side by side (as `contracts verify` runs them); the results checked
        // after, in the apps' order.
        let results = try Concurrently<[CaseResult]>.map(apps) { AppRulesSuite.run($0) }
        for rs in results {
            for r in rs { XCTAssertTrue(r.passed, "\(r)") }
        }
        let shvil = try XCTUnwrap(zip(apps, results).first { $0.0 == ShvilApp.self }?.1)
        XCTAssertEqual(
            shvil.filter { !$0.name.hasPrefix("trace · ") }.count, 11,
            "flags (4: analytics), errors (4: handling, mapping, session), sync (2: future clocks), rules")
    }

    /// A copy of an app's folder with one file changed.
    func mutated(_ app: any AppModule.Type, _ file: String, _ change: (inout [String: JSONValue]) -> Void) throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("app-rules-\(UUID().uuidString)/\(app.name)")
        try FileManager.default.createDirectory(at: dir.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: ContractsLocator.app(app.name), to: dir)
        addTeardownBlock { try? FileManager.default.removeItem(at: dir.deletingLastPathComponent()) }
        let url = dir.appendingPathComponent(file)
        guard case .object(var o) = try JSONValue.parse(Data(contentsOf: url)) else {
            throw TestSetupFailure(description: "\(file) is not a JSON object: the mutation cannot be applied")
        }
        change(&o)
        try Data(JSONValue.object(o).serialized(.pretty).utf8).write(to: url)
        return dir
    }

    func failures(_ app: any AppModule.Type, _ folder: URL) -> [String] {
        AppRulesSuite.run(app, folder: folder).filter { !$0.passed }.map(\.description)
    }

    /// Mutants of the data: a dropped flag, beta in production, an emptied error catalog, a
    /// photo limit that forgets location metadata, an undocumented endpoint, a wrong zodiac case.
    func testBrokenRuleFilesFailVerify() throws {
        let shvilFlags = try mutated(ShvilApp.self, "flags.json") { o in
            if case .array(var flags) = o["flags"] { flags.removeLast(); o["flags"] = .array(flags) }
        }
        XCTAssertTrue(failures(ShvilApp.self, shvilFlags).contains { $0.contains("must list every Feature") }, "\(failures(ShvilApp.self, shvilFlags))")
        let betaInProduction = try mutated(ShvilApp.self, "flags.json") { o in
            if case .object(var s) = o["stagesEnabled"] { s["production"] = ["stable", "beta"]; o["stagesEnabled"] = .object(s) }
        }
        XCTAssertFalse(failures(ShvilApp.self, betaInProduction).isEmpty)
        let emptyErrors = try mutated(ShvilApp.self, "errors.json") { o in o = [:] }
        XCTAssertTrue(failures(ShvilApp.self, emptyErrors).contains { $0.contains("errors.json · loads") }, "\(failures(ShvilApp.self, emptyErrors))")
        let noEndpoint = try mutated(AuraApp.self, "endpoints.json") { o in
            if case .array(var e) = o["endpoints"], case .object(var first) = e[0] {
                first["path"] = "/rest/v1/undocumented"; e[0] = .object(first); o["endpoints"] = .array(e)
            }
        }
        XCTAssertTrue(
            failures(AuraApp.self, noEndpoint).contains { $0.contains("/rest/v1/undocumented has no interaction") }, "\(failures(AuraApp.self, noEndpoint))")
        let photos = try mutated(CivicForgeApp.self, "photos.json") { o in o["maxPhotosPerPost"] = 1 }
        XCTAssertFalse(failures(CivicForgeApp.self, photos).isEmpty, "three photos exceed a limit of one")
    }
}

/// A precondition of a test that does not hold: a failure (never a skip).
struct TestSetupFailure: Error, CustomStringConvertible {
    let description: String
}
