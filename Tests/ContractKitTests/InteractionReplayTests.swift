import XCTest
import MockBinding
@testable import MockSupabase

/// The replay engine against scripted transports and a small app served over the wire.
final class InteractionReplayTests: XCTestCase {
    /// Answers from a script and records what it was sent.
    final class Scripted: InteractionTransport {
        var answers: [HTTPResponse]
        var sent: [(method: String, path: String, query: String?, headers: HTTPHeaders, body: Data?, actor: String)] = []
        let personas = [Persona(name: "ana", id: "a11ce000-0000-4000-8000-000000000001", email: "ana@x.test", password: "p", label: "", metadata: [:])]
        init(_ answers: [HTTPResponse]) { self.answers = answers }
        func send(_ r: WireRequest) throws -> HTTPResponse {
            var query: String?
            if case .written(let q) = r.query, !q.isEmpty { query = q }
            sent.append((r.method, r.path, query, r.headers, r.body.isEmpty ? nil : r.body, r.actor.name))
            return answers.removeFirst()
        }
    }

    func file(_ steps: [JSONValue]) throws -> InteractionFile {
        try SpecNode(value: ["name": "flow", "source": "test", "steps": .array(steps)], file: "Contracts/app/interactions/flow.json").decode(
            InteractionFile.self)
    }

    let insert: JSONValue = [
        "as": "ana",
        "request": [
            "method": "POST", "path": "/rest/v1/t", "query": "select=*&owner=eq.{{persona.ana.id}}", "headers": ["Prefer": "return=representation"],
            "body": ["owner": "{{persona.ana.id}}"]
        ],
        "response": [
            "status": 201, "headers": ["content-type": "application/json; charset=utf-8", "Location": "<string>"],
            "body": [["id": "<uuid>", "owner": "{{persona.ana.id}}"]]
        ],
        "capture": ["id": "$.body[0].id"]
    ]
    let read: JSONValue = [
        "as": "anon", "request": ["method": "GET", "path": "/rest/v1/t/{{capture.id}}"],
        "response": ["status": 200, "bodyMatch": "subset", "body": ["id": "{{capture.id}}"]]
    ]

    func testAFlowPassesWithTemplatesCapturesAndMatchers() throws {
        let id = "0f000000-0000-4000-8000-00000000a001"
        let t = Scripted([
            .json(201, [["id": .string(id), "owner": "a11ce000-0000-4000-8000-000000000001"]], headers: ["Location": "/t?id=eq.\(id)"]),
            .json(200, ["id": .string(id), "more": 1])
        ])
        let r = InteractionReplay.replay(try file([insert, read]), over: t)
        XCTAssertTrue(r.passed, r.failures.joined(separator: "\n"))
        XCTAssertEqual(t.sent[0].query, "select=*&owner=eq.a11ce000-0000-4000-8000-000000000001")
        XCTAssertEqual(t.sent[0].headers["Content-Type"], "application/json")
        XCTAssertEqual(t.sent[0].body.flatMap { try? JSONValue.parse($0) }, ["owner": "a11ce000-0000-4000-8000-000000000001"])
        XCTAssertEqual(t.sent[1].path, "/rest/v1/t/\(id)")
        XCTAssertEqual(t.sent[1].actor, "anon")
        XCTAssertEqual(r.transcript.count, 2)
        XCTAssertEqual(r.transcript[0].requestBody, ["owner": "a11ce000-0000-4000-8000-000000000001"])
    }

    func testFailuresNameFileStepAndPathAndStopTheFlow() throws {
        let t = Scripted([.json(409, ["code": "23505"]), .json(200, [:])])
        let r = InteractionReplay.replay(try file([insert, read]), over: t)
        XCTAssertFalse(r.passed)
        XCTAssertEqual(t.sent.count, 1, "later steps are not sent")
        let at = "Contracts/app/interactions/flow.json: step 1 of 2 (POST /rest/v1/t as ana): "
        XCTAssertEqual(
            r.failures,
            [
                at + "$.steps[0].response.status: expected 201, got 409 (body: {\"code\":\"23505\"})",
                at + "$.steps[0].response.headers.Location: missing (expected \"<string>\")",
                at + "$.steps[0].response.body: expected [{\"id\":\"<uuid>\",\"owner\":\"a11ce000-0000-4000-8000-000000000001\"}], got {\"code\":\"23505\"}"
            ])
    }

    func testMissingCaptureAndEmptyBody() throws {
        var step = read.objectValue!
        step["response"] = ["status": 204, "body": "<empty>"]
        step["capture"] = ["x": "$.body.id"]
        step["request"] = ["method": "DELETE", "path": "/rest/v1/t"]
        var r = InteractionReplay.replay(try file([.object(step)]), over: Scripted([HTTPResponse(status: 204)]))
        XCTAssertEqual(r.failures, ["Contracts/app/interactions/flow.json: step 1 of 1 (DELETE /rest/v1/t as anon): capture 'x': nothing at $.body.id"])
        step["capture"] = nil
        r = InteractionReplay.replay(try file([.object(step)]), over: Scripted([.json(204, [:])]))
        XCTAssertEqual(
            r.failures, ["Contracts/app/interactions/flow.json: step 1 of 1 (DELETE /rest/v1/t as anon): $.steps[0].response.body: expected no body, got {}"])
    }

    /// A tiny app's contracts folder (`notes`, owner-only; persona ana), removed after the test.
    func tinyApp() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("replay-\(UUID().uuidString)")
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try
            #"{"tables": [{"name": "notes", "columns": [{"name": "id", "type": "uuid", "primaryKey": true, "default": {"fn": "gen_random_uuid()"}}, {"name": "owner", "type": "uuid", "nullable": false, "default": {"fn": "auth.uid()"}}, {"name": "text", "type": "text"}, {"name": "created_at", "type": "timestamptz", "default": {"fn": "now()"}}]}]}"#
            .write(to: folder.appendingPathComponent("schema.json"), atomically: true, encoding: .utf8)
        try
            #"{"tables": [{"table": "notes", "select": {"doc": "own", "using": {"owner": "owner"}}, "insert": {"doc": "own", "check": {"owner": "owner"}}, "update": {"doc": "-", "using": "nobody"}, "delete": {"doc": "own", "using": {"owner": "owner"}}}]}"#
            .write(to: folder.appendingPathComponent("policies.json"), atomically: true, encoding: .utf8)
        try #"{"personas": [{"name": "ana", "id": "a11ce000-0000-4000-8000-000000000001", "email": "ana@x.test", "password": "secret-1"}]}"#
            .write(to: folder.appendingPathComponent("fixtures.json"), atomically: true, encoding: .utf8)
        return folder
    }

    /// A tiny app served by the mock: the same file replays alike in process and over the wire,
    /// and an unknown actor is an error, not a silent anonymous call.
    func testWireAndInProcessTransportsAgree() throws {
        let folder = try tinyApp()
        let flow = try file([
            [
                "as": "ana",
                "request": [
                    "method": "POST", "path": "/rest/v1/notes", "query": "select=id,owner,text,created_at", "headers": ["Prefer": "return=representation"],
                    "body": ["text": "hi there"]
                ],
                "response": [
                    "status": 201, "headers": ["Content-Type": "application/json; charset=utf-8"],
                    "body": [["id": "<uuid>", "owner": "{{persona.ana.id}}", "text": "hi there", "created_at": "<timestamptz>"]]
                ],
                "capture": ["id": "$.body[0].id"]
            ],
            ["as": "anon", "request": ["method": "GET", "path": "/rest/v1/notes", "query": "select=id"], "response": ["status": 200, "body": []]],
            [
                "as": "ana", "request": ["method": "GET", "path": "/rest/v1/notes", "query": "select=text&id=eq.{{capture.id}}&text=eq.hi there"],
                "response": ["status": 200, "body": [["text": "hi there"]]]
            ],
            [
                "as": "none", "request": ["method": "GET", "path": "/rest/v1/notes"],
                "response": ["status": 401, "bodyMatch": "subset", "body": ["message": "No API key found in request"]]
            ],
            [
                "as": "ana", "advanceClock": 90,
                "request": [
                    "method": "POST", "path": "/rest/v1/notes", "query": "select=created_at", "headers": ["Prefer": "return=representation"],
                    "body": ["text": "later"]
                ],
                "response": ["status": 201, "body": [["created_at": "2026-01-01T00:01:30+00:00"]]]
            ]
        ])
        var clocks: [ManualClock] = []
        func backend() throws -> MockSupabase {
            clocks.append(ManualClock())
            return try MockSupabase(contracts: folder, clock: clocks.last!, ids: SeededIDGenerator(seed: 1))
        }
        let wire = InteractionReplay.replay(flow, over: InteractionEndpoint.mock(try backend()), clock: clocks.last!)
        let local = InteractionReplay.replay(flow, over: InteractionEndpoint.mock(try backend(), inProcess: true), clock: clocks.last!)
        let noClock = InteractionReplay.replay(flow, over: InteractionEndpoint.mock(try backend(), inProcess: true))
        XCTAssertEqual(noClock.failures.first?.hasSuffix("advanceClock needs the backend's ManualClock (pass clock: to replay)"), true, "\(noClock.failures)")
        XCTAssertTrue(wire.passed, wire.failures.joined(separator: "\n"))
        XCTAssertTrue(local.passed, local.failures.joined(separator: "\n"))
        XCTAssertEqual(wire.transcript.map(\.responseBody), local.transcript.map(\.responseBody))

        let unknown = try file([["as": "eve", "request": ["method": "GET", "path": "/rest/v1/notes"], "response": ["status": 200]]])
        for t in [InteractionEndpoint.mock(try backend()), InteractionEndpoint.mock(try backend(), inProcess: true)] as [any InteractionTransport] {
            let r = InteractionReplay.replay(unknown, over: t)
            XCTAssertEqual(r.failures.first?.hasSuffix("unknown actor 'eve' (known: anon, service_role, none, ana)"), true, "\(r.failures)")
        }
    }

    /// `{{otp.EMAIL}}` reads the code the mock last emailed: a magic-link sign-in completes; a used
    /// code, an address never mailed and a transport without a mailbox fail naming the template.
    func testOTPTemplateReadsTheEmailedCode() throws {
        let folder = try tinyApp()
        let email = "zoe@x.test"
        let verify: JSONValue = [
            "as": "anon",
            "request": [
                "method": "POST", "path": "/auth/v1/verify",
                "body": ["type": "email", "email": .string(email), "token": .string("{{otp.\(email)}}")]
            ],
            "response": ["status": 200, "bodyMatch": "subset", "body": ["access_token": "<jwt>", "user": ["email": .string(email)]]],
            "capture": ["token": "$.body.access_token"]
        ]
        let flow = try file([
            [
                "as": "anon", "request": ["method": "POST", "path": "/auth/v1/otp", "body": ["email": .string(email), "create_user": true]],
                "response": ["status": 200, "body": [:]]
            ],
            verify,
            [
                "as": "anon", "request": ["method": "GET", "path": "/auth/v1/user", "headers": ["Authorization": "Bearer {{capture.token}}"]],
                "response": ["status": 200, "bodyMatch": "subset", "body": ["email": .string(email)]]
            ]
        ])
        let backend = try MockSupabase(contracts: folder, clock: ManualClock(), ids: SeededIDGenerator(seed: 1))
        let r = InteractionReplay.replay(flow, over: InteractionEndpoint.mock(backend, inProcess: true))
        XCTAssertTrue(r.passed, r.failures.joined(separator: "\n"))
        XCTAssertEqual(r.transcript[1].requestBody?["token"]?.stringValue?.count, 6)

        // The code was used: it is gone from the outbox, and an address never mailed has none.
        let gone =
            "Contracts/app/interactions/flow.json: step 1 of 1 (POST /auth/v1/verify as anon): $.steps[0].request.body.token: no one-time code was emailed to 'zoe@x.test' before {{otp.zoe@x.test}}"
        XCTAssertEqual(InteractionReplay.replay(try file([verify]), over: InteractionEndpoint.mock(backend)).failures, [gone])
        XCTAssertEqual(
            InteractionReplay.replay(
                try file([verify]), over: InteractionEndpoint.mock(try MockSupabase(contracts: folder, clock: ManualClock(), ids: SeededIDGenerator(seed: 1)))
            ).failures, [gone])
        XCTAssertEqual(
            InteractionReplay.replay(try file([verify]), over: Scripted([])).failures,
            [
                "Contracts/app/interactions/flow.json: step 1 of 1 (POST /auth/v1/verify as anon): $.steps[0].request.body.token: {{otp.zoe@x.test}} needs a transport that reads the backend's emailed codes"
            ])
    }
}
