import XCTest
import AppRegistry
import MockBinding

/// The gate for generated models: every app's Sources/<App>/Generated/TableModels.swift is what
/// `contracts generate-models` writes from schema.json and models.json today.
final class GeneratedModelsTests: GateTestCase {
    func testEveryAppsGeneratedModelsAreFresh() throws {
        let stale = try ModelGenerator.staleFiles(allApps, root: ContractsLocator.root)
        for s in stale { XCTFail(s) }
    }

    /// Mutant: a generated file edited by hand, or missing, is reported stale, naming the command.
    func testAnEditedOrMissingFileIsStale() throws {
        let out = try ModelGenerator.generate(allApps[0], root: ContractsLocator.root)
        XCTAssertNil(ModelGenerator.staleness(out, onDisk: out.text))
        let edited = out.text.replacingOccurrences(of: "public var ", with: "public let ", options: [], range: out.text.range(of: "public var "))
        XCTAssertNotEqual(edited, out.text)
        let report = try XCTUnwrap(ModelGenerator.staleness(out, onDisk: edited))
        XCTAssertTrue(report.contains("swift run contracts generate-models"), report)
        XCTAssertTrue(report.contains(out.path), report)
        XCTAssertNotNil(ModelGenerator.staleness(out, onDisk: nil))
    }

    /// Mutant: a schema change (a column dropped) makes every committed file of that app stale.
    func testASchemaChangeMakesTheFileStale() throws {
        for app in allApps {
            let folder = ContractsLocator.app(app.name)
            var schema = try app.spec().schema
            let overlay = try ModelOverlay.load(folder: folder, app: app.name)
            guard let t = schema.tables.firstIndex(where: { $0.schema == "public" && (overlay.tables[$0.name]?.emit ?? true) }) else { continue }
            let fresh = try ModelGenerator.generate(app, root: ContractsLocator.root)
            let dropped = schema.tables[t].columns.removeLast()
            var o = overlay
            o.tables[schema.tables[t].name]?.columns[dropped.name] = nil
            let changed = try ModelGenerator.generate(
                app: app.name, module: fresh.path.split(separator: "/")[1].description,
                appType: String(describing: app), schema: schema, overlay: o)
            XCTAssertNotNil(ModelGenerator.staleness(changed, onDisk: fresh.text), "\(app.name): dropping \(dropped.name) went unnoticed")
        }
    }
}
