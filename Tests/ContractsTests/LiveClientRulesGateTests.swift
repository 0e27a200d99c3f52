import XCTest
import MockBinding
import AppRegistry
import TeleportMe
import NaarsCars

/// The `client-rules` kind over `--target`: what TeleportMe's cache loader fetches and its
/// optimistic save/unsave send pass against the served mock; a served mutant whose policies hide
/// the persona's saved cities, or refuse its saves, fails naming the client rule.
final class LiveClientRulesGateTests: GateTestCase {
    /// The served mock's `client-rules` rows: as the contracts have it, with saved cities hidden
    /// from everyone, and with their inserts refused (a 'nobody' flip of each policy).
    enum Served: CaseIterable { case asContracted, hiddenSavedCities, refusedSaves }

    /// The runs, once per process (each test checks one). As contracted, it is TeleportMe's full
    /// run against its own served mock (`LiveTargetGateTests.everyAppRuns`, the same backend
    /// served the same way): its `client-rules` row runs right after provisioning, as in a run
    /// of that kind alone, and every other row of it must pass too. The two mutants side by side.
    static let runs = Result { () throws -> [Served: [VerifyRow]] in
        let spec = try TeleportMeApp.spec()
        let flips = RLSFlip.all(spec.policies, schema: spec.schema)
        let mutants: [Served] = [.hiddenSavedCities, .refusedSaves]
        let rows = try SideBySide.map(mutants) { served -> [VerifyRow] in
            let backend = try TeleportMeApp.makeBackend()
            let flip: (table: String, command: PolicyCommand) =
                served == .hiddenSavedCities ? ("saved_cities", .select) : ("saved_cities", .insert)
            guard let f = flips.first(where: { $0.table == flip.table && $0.command == flip.command && $0.kind == "nobody" }) else {
                throw LiveBackendError("no 'nobody' flip of \(flip.table) \(flip.command.rawValue)")
            }
            backend.database.policies = f.policies
            let (server, endpoint) = try ServedMocks.serve(backend)
            defer { server.stop() }
            return LiveVerify.run(TeleportMeApp.self, endpoint: endpoint, options: LiveOptions(kinds: [LiveClientRules.kind]))
        }
        guard let teleportMe = allApps.firstIndex(where: { $0.name == TeleportMeApp.name }) else { throw LiveBackendError("TeleportMe is not among the apps") }
        let asContracted = try LiveTargetGateTests.everyAppRuns.get()[teleportMe].rows
        return Dictionary(uniqueKeysWithValues: zip(mutants, rows) + [(.asContracted, asContracted)])
    }

    func served(_ served: Served) throws -> [VerifyRow] { try XCTUnwrap(Self.runs.get()[served]) }

    func testTheLoaderAndOptimisticResourcesPassAgainstTheServedMock() throws {
        let rows = try served(.asContracted)
        XCTAssertEqual(ServedMocks.failures(rows), "")
        let names = rows.first { $0.kind == LiveClientRules.kind }?.cases.map(\.name) ?? []
        XCTAssertTrue(names.contains { $0.hasPrefix("loader.cities · ") }, "\(names)")
        XCTAssertTrue(names.contains { $0.hasPrefix("loader.savedCities · ") }, "\(names)")
        XCTAssertTrue(names.contains { $0.hasPrefix("optimistic.savedCities · save ") }, "\(names)")
        XCTAssertTrue(names.contains { $0.hasPrefix("optimistic.savedCities · unsave ") }, "\(names)")
    }

    func testHiddenSavedCitiesFailTheLoaderRule() throws {
        let failing = try served(.hiddenSavedCities).flatMap(\.failures).map(\.name)
        XCTAssertTrue(failing.contains { $0.hasPrefix("loader.savedCities · ") }, "\(failing)")
        XCTAssertFalse(failing.contains { $0.hasPrefix("loader.cities · ") }, "\(failing)")
    }

    func testRefusedSavesFailTheOptimisticRule() throws {
        let failing = try served(.refusedSaves).flatMap(\.failures).map(\.name)
        XCTAssertTrue(failing.contains { $0.hasPrefix("optimistic.savedCities · save ") }, "\(failing)")
        XCTAssertFalse(failing.contains { $0.hasPrefix("optimistic.savedCities · unsave ") }, "\(failing)")
    }
}

/// Bucket policies over `--target`: every persona's uploads into its own and another's folder,
/// and every read of what was stored, answer as the contracts' mock does; a served backend whose
/// avatars bucket lets anyone signed in upload into any folder fails naming that rule.
final class LiveStoragePoliciesGateTests: GateTestCase {
    func testAFolderOwnershipDroppedFailsNamingTheUpload() throws {
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("supacontracts-folder-mutant-\(UUID().uuidString)")
        try FileManager.default.copyItem(at: ContractsLocator.app(NaarsCarsApp.name), to: copy)
        defer { try? FileManager.default.removeItem(at: copy) }
        let url = copy.appendingPathComponent("storage.json")
        var doc = try XCTUnwrap(JSONValue.parse(Data(contentsOf: url)).objectValue)
        var buckets = try XCTUnwrap(doc["buckets"]?.arrayValue)
        let i = try XCTUnwrap(buckets.firstIndex { $0["id"]?.stringValue == "avatars" })
        var avatars = try XCTUnwrap(buckets[i].objectValue)
        var policies = try XCTUnwrap(avatars["policies"]?.objectValue)
        var insert = try XCTUnwrap(policies["insert"]?.objectValue)
        insert["check"] = "authenticated"
        policies["insert"] = .object(insert)
        avatars["policies"] = .object(policies)
        buckets[i] = .object(avatars)
        doc["buckets"] = .array(buckets)
        try JSONValue.object(doc).data().write(to: url)

        // The bundled contracts and the mutant served side by side; the checks after, in order.
        let runs = try SideBySide.map([(nil as URL?, false), (copy, true)]) { (folder: URL?, mutant: Bool) -> (rows: [VerifyRow], mutant: Bool) in
            let backend = try NaarsCarsApp.makeBackend(folder: folder)
            let (server, endpoint) = try ServedMocks.serve(backend)
            defer { server.stop() }
            return (LiveVerify.run(NaarsCarsApp.self, endpoint: endpoint, options: LiveOptions(kinds: ["storage"])), mutant)
        }
        for (rows, mutant) in runs {
            let cases = rows.first { $0.kind == "storage" }?.cases ?? []
            let failing = cases.filter { !$0.passed }.map(\.name)
            XCTAssertTrue(cases.contains { $0.name.hasPrefix("avatars · upload into its own folder as ") }, "\(cases.map(\.name))")
            XCTAssertTrue(cases.contains { $0.name.hasPrefix("message-images · read ") }, "\(cases.map(\.name))")
            if mutant {
                XCTAssertFalse(failing.isEmpty, "the mutant went unnoticed")
                XCTAssertTrue(failing.allSatisfy { $0.hasPrefix("avatars · upload into ") && $0.contains("'s folder as ") }, "\(failing)")
            } else {
                XCTAssertEqual(failing, [], ServedMocks.failures(rows))
            }
        }
    }
}
