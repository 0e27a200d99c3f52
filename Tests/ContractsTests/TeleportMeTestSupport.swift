import XCTest
import MockBinding
import TeleportMe

/// Shared helpers of the TeleportMe gate tests.
enum TeleportMeTestSupport {
    static let ana = "a11ce000-0000-4000-8000-000000000001"
    static let ben = "b0b00000-0000-4000-8000-000000000002"

    /// A backend with TeleportMe registered, on a manual clock, seeded ids.
    static func backend(clock: ManualClock = ManualClock(), refiner: (any Refiner)? = nil, seed: UInt64 = 11) throws -> MockSupabase {
        let b = try MockSupabase(contracts: ContractsLocator.app("teleportme"), clock: clock, ids: SeededIDGenerator(seed: seed))
        TeleportMeApp.register(on: b, refiner: refiner)
        return b
    }

    static func rules() throws -> ReportRules { try ReportRules.load() }

    /// report.json with one JSON edit applied, decoded (for mutants and strictness tests).
    static func rules(editing edit: (inout [String: JSONValue]) -> Void) throws -> ReportRules {
        guard case .object(var o) = try SpecNode.load(ReportRules.defaultURL).value else { throw RefinerError("report.json is not an object") }
        edit(&o)
        return try SpecNode(value: .object(o), file: "Contracts/teleportme/report.json").decode(ReportRules.self)
    }

    /// A temporary folder removed at the end of the test.
    static func temporaryFolder(_ test: XCTestCase) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("teleportme-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        test.addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        return url
    }

    /// Sets a nested member of a JSON object.
    static func set(_ o: inout [String: JSONValue], _ section: String, _ key: String, _ value: JSONValue) {
        guard case .object(var s)? = o[section] else { return }
        s[key] = value
        o[section] = .object(s)
    }
}

extension XCTestCase {
    /// Fails the test with every failing case result.
    func assertAllPassed(_ results: [CaseResult], minimum: Int = 1, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertGreaterThanOrEqual(results.count, minimum, "too few cases ran", file: file, line: line)
        for r in results where !r.passed { XCTFail(r.description, file: file, line: line) }
    }
}
