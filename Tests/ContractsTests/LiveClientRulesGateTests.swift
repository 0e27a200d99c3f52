import XCTest
import ContractKit
import TeleportMe

/// The `client-rules` kind over `--target`: what TeleportMe's cache loader fetches and its
/// optimistic save/unsave send pass against the served mock; a served mutant whose policies hide
/// the persona's saved cities, or refuse its saves, fails naming the client rule.
final class LiveClientRulesGateTests: XCTestCase {
    func served(_ flip: (table: String, command: PolicyCommand)?) throws -> [VerifyRow] {
        let backend = try TeleportMeApp.makeBackend()
        if let flip {
            let spec = try TeleportMeApp.spec()
            let f = try XCTUnwrap(RLSFlip.all(spec.policies, schema: spec.schema).first { $0.table == flip.table && $0.command == flip.command && $0.kind == "nobody" },
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
