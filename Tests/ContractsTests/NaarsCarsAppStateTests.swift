import XCTest
import MockBinding
import MockSupabase
import NaarsCars

/// The gate: FR-035's authState for every documented situation (app-state.json), checked on a
/// client's implementation; mutants that ignore approval or loading are rejected.
final class NaarsCarsAppStateTests: GateTestCase {
    func testReferenceAppStateConforms() throws {
        let rules = try AppStateRules.load()
        let spec = try NaarsCarsApp.spec()
        XCTAssertEqual(rules.cases.count, 6)
        XCTAssertEqual(rules.violations(AppStateRules.authState, spec: spec), [])
        XCTAssertEqual(rules.navigation, [.loading, .unauthenticated, .pendingApproval, .authenticated])
    }

    func testMutantAppStatesAreRejected() throws {
        let rules = try AppStateRules.load()
        let spec = try NaarsCarsApp.spec()
        // Signed in is enough: a pending user reaches the main tabs.
        let noApproval = rules.violations({ loading, profile in loading ? .loading : profile == nil ? .unauthenticated : .authenticated }, spec: spec)
        XCTAssertEqual(noApproval, ["isLoading false, eve's profile: authenticated, FR-035 gives pendingApproval"])
        // A known profile wins over loading.
        let profileFirst = rules.violations(
            { loading, profile in
                if let profile { return profile["approved"] == .bool(true) ? .authenticated : .pendingApproval }
                return loading ? .loading : .unauthenticated
            }, spec: spec)
        XCTAssertEqual(profileFirst, ["isLoading true, eve's profile: pendingApproval, FR-035 gives loading"])
        // Admin only.
        let adminOnly = rules.violations(
            { loading, profile in
                loading ? .loading : profile == nil ? .unauthenticated : (profile?["is_admin"] == .bool(true) ? .authenticated : .pendingApproval)
            }, spec: spec)
        XCTAssertEqual(adminOnly, ["isLoading false, bob's profile: pendingApproval, FR-035 gives authenticated"])
    }

    func testAFileWithAnUnknownStateNamesItsPath() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("app-state-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        var text = try String(contentsOf: ContractsLocator.app("naarscars").appendingPathComponent("app-state.json"), encoding: .utf8)
        text = text.replacingOccurrences(of: "\"pendingApproval\"", with: "\"pending\"")
        try text.write(to: dir.appendingPathComponent("app-state.json"), atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try AppStateRules.load(folder: dir)) {
            XCTAssertEqual(
                "\($0)", "Contracts/naarscars/app-state.json: $.cases[3].state: unknown state (loading, unauthenticated, pendingApproval, authenticated)")
        }
    }
}
