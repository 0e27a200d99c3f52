import XCTest
import MockBinding
import TeleportMe
import NaarsCars

/// The `client-rules` kind over `--target`: what TeleportMe's cache loader fetches and its
/// optimistic save/unsave send pass against the served mock; a served mutant whose policies hide
/// the persona's saved cities, or refuse its saves, fails naming the client rule.
final class LiveClientRulesGateTests: GateTestCase {
    func served(_ flip: (table: String, command: PolicyCommand)?) throws -> [VerifyRow] {
        let backend = try TeleportMeApp.makeBackend()
        if let flip {
            let spec = try TeleportMeApp.spec()
            let f = try XCTUnwrap(
                RLSFlip.all(spec.policies, schema: spec.schema).first { $0.table == flip.table && $0.command == flip.command && $0.kind == "nobody" },
                "no 'nobody' flip of \(flip.table) \(flip.command.rawValue)")
            backend.database.policies = f.policies
        }
        let (server, endpoint) = try ServedMocks.serve(backend)
        defer { server.stop() }
        return LiveVerify.run(TeleportMeApp.self, endpoint: endpoint, options: LiveOptions(kinds: [LiveClientRules.kind]))
    }

    func testTheLoaderAndOptimisticResourcesPassAgainstTheServedMock() throws {
        let rows = try served(nil)
        XCTAssertEqual(ServedMocks.failures(rows), "")
        let names = rows.first { $0.kind == LiveClientRules.kind }?.cases.map(\.name) ?? []
        XCTAssertTrue(names.contains { $0.hasPrefix("loader.cities · ") }, "\(names)")
        XCTAssertTrue(names.contains { $0.hasPrefix("loader.savedCities · ") }, "\(names)")
        XCTAssertTrue(names.contains { $0.hasPrefix("optimistic.savedCities · save ") }, "\(names)")
        XCTAssertTrue(names.contains { $0.hasPrefix("optimistic.savedCities · unsave ") }, "\(names)")
    }

    func testHiddenSavedCitiesFailTheLoaderRule() throws {
        let failing = try served(("saved_cities", .select)).flatMap(\.failures).map(\.name)
        XCTAssertTrue(failing.contains { $0.hasPrefix("loader.savedCities · ") }, "\(failing)")
        XCTAssertFalse(failing.contains { $0.hasPrefix("loader.cities · ") }, "\(failing)")
    }

    func testRefusedSavesFailTheOptimisticRule() throws {
        let failing = try served(("saved_cities", .insert)).flatMap(\.failures).map(\.name)
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

        for (folder, mutant) in [(nil as URL?, false), (copy, true)] {
            let backend = try NaarsCarsApp.makeBackend(folder: folder)
            let (server, endpoint) = try ServedMocks.serve(backend)
            defer { server.stop() }
            let rows = LiveVerify.run(NaarsCarsApp.self, endpoint: endpoint, options: LiveOptions(kinds: ["storage"]))
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
