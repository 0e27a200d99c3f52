import XCTest
import MockBinding
import TeleportMe

/// TeleportMe's documented interactions (Contracts/teleportme/interactions/) name its payload
/// models, and their replays reject wrong backends.
final class TeleportMeInteractionTests: GateTestCase {
    func file(_ name: String) throws -> InteractionFile {
        try XCTUnwrap(try InteractionReplay.load(app: TeleportMeApp.self).first { $0.file.hasSuffix("/\(name).json") }, name)
    }

    /// The replays and round trips themselves run in the gate (InteractionContractsTests,
    /// ModelContractsTests); here: the files exercise every payload model of §4.6 and §5.
    func testInteractionsNameEveryPayloadModel() throws {
        let files = try InteractionReplay.load(app: TeleportMeApp.self)
        XCTAssertGreaterThanOrEqual(files.count, 9)
        let named = Set(files.flatMap { $0.steps.compactMap(\.model) + $0.steps.compactMap(\.requestModel) })
        for m in [
            "GenerateReportResponse", "GenerateReportRequest", "SavedCity[]", "SavedCityInsert", "UserPreferences[]", "UserPreferencesUpsert",
            "Profile", "ProfileUpdate", "CityReport[]", "City[]", "ReportErrorBody"
        ] {
            XCTAssertTrue(named.contains(m), "no interaction decodes \(m)")
        }
    }

    /// Mutant: a backend whose saved_cities answers a duplicate save with 201 instead of 409.
    func testReplayRejectsAWrongResponse() throws {
        let f = try file("saved-cities")
        let backend = try InteractionReplay.makeBackend(TeleportMeApp.self, for: f).0.mock
        let wrong = HTTPResponse.json(
            201,
            [
                [
                    "id": "5a000000-0000-4000-8000-00000000a009", "user_id": .string(TeleportMeTestSupport.ana),
                    "city_id": "berlin", "created_at": "2026-03-01T12:00:00+00:00"
                ]
            ])
        // Steps 1 and 2 reach the real table; the duplicate save (step 3) gets the wrong answer.
        var result = InteractionReplay.replay(f, over: FaultAfter(base: InteractionReplay.transport(for: backend), backend: backend, after: 2, fault: wrong))
        XCTAssertFalse(result.passed)
        XCTAssertEqual(result.transcript.count, 3, "the replay stops at the failing step")
        XCTAssertTrue(result.failures[0].contains("step 3 of 7"), result.failures[0])
        XCTAssertTrue(result.failures[0].contains("$.steps[2].response.status: expected 409, got 201"), result.failures[0])

        // Mutant: a schema without UNIQUE(user_id, city_id) lets the duplicate in.
        let spec = try AppSpec.load(folder: ContractsLocator.app("teleportme"))
        var schema = spec.schema
        let i = try XCTUnwrap(schema.tables.firstIndex { $0.name == "saved_cities" })
        schema.tables[i].uniques = []
        let loose = try MockSupabase(
            configuration: MockConfiguration(
                spec: AppSpec(app: "teleportme", folder: spec.folder, schema: schema, policies: spec.policies, fixtures: spec.fixtures),
                clock: ManualClock(try XCTUnwrap(f.startTime)), ids: SeededIDGenerator(seed: 3)))
        TeleportMeApp.register(on: loose)
        result = InteractionReplay.replay(f, over: InteractionReplay.transport(for: loose))
        XCTAssertFalse(result.passed)
        XCTAssertTrue(result.failures[0].contains("expected 409, got 201"), result.failures[0])
    }

    /// Mutants of the app's server pieces: without triggers sign-up has no profile; a
    /// generate-report that answers the wrong shape fails the §4.6 example.
    func testReplayRejectsMissingTriggersAndAWrongReportShape() throws {
        let signupFile = try file("sign-up-creates-profile")
        let bare = try MockSupabase(
            contracts: ContractsLocator.app("teleportme"), clock: ManualClock(try XCTUnwrap(signupFile.startTime)), ids: SeededIDGenerator(seed: 3))
        let signup = InteractionReplay.replay(signupFile, over: InteractionReplay.transport(for: bare))
        XCTAssertFalse(signup.passed)
        XCTAssertTrue(signup.failures[0].contains("step 2 of 2"), signup.failures[0])

        let exampleFile = try file("generate-report-example")
        let backend = try InteractionReplay.makeBackend(TeleportMeApp.self, for: exampleFile).0.mock
        backend.registerFunction("generate-report") { _ in
            .json(200, ["report_id": nil, "current_city": ["id": "san-francisco", "name": "San Francisco", "scores": [:]], "matches": []])
        }
        let example = InteractionReplay.replay(exampleFile, over: InteractionReplay.transport(for: backend))
        XCTAssertFalse(example.passed)
        let text = example.failures.joined(separator: "\n")
        XCTAssertTrue(text.contains("$.steps[0].response.body.report_id: expected <uuid>, got null"), text)
        XCTAssertTrue(text.contains("$.steps[0].response.body.matches: expected 5 elements, got 0"), text)
    }
}

/// A transport that answers `fault` for every request after the first `after` ones.
final class FaultAfter: InteractionTransport {
    let base: any InteractionTransport
    let backend: MockSupabase
    let after: Int
    let fault: HTTPResponse
    var sent = 0

    init(base: any InteractionTransport, backend: MockSupabase, after: Int, fault: HTTPResponse) {
        self.base = base; self.backend = backend; self.after = after; self.fault = fault
    }

    var personas: [Persona] { base.personas }

    func send(_ request: WireRequest) throws -> HTTPResponse {
        sent += 1
        if sent > after { backend.inject(InjectedFault(method: request.method, pathPrefix: request.path, kind: .response(fault), remaining: 1)) }
        return try base.send(request)
    }
}
