import XCTest
import MockBinding
@testable import MockSupabase

/// The documented-interaction format: strict reading, matchers, templates, JSONPath.
final class InteractionFormatTests: XCTestCase {
    func decode(_ json: JSONValue) throws -> InteractionFile {
        try SpecNode(value: json, file: "Contracts/app/interactions/x.json").decode(InteractionFile.self)
    }

    func error(_ json: JSONValue) -> String {
        do { _ = try decode(json); return "no error" } catch { return "\(error)" }
    }

    let step: JSONValue = ["as": "ana", "request": ["method": "GET", "path": "/rest/v1/t"], "response": ["status": 200]]

    func testFilesAreReadStrictly() throws {
        let ok = try decode(["name": "n", "source": "s", "steps": [step]])
        XCTAssertEqual(ok.steps.count, 1)
        XCTAssertNil(ok.steps[0].response.body, "no body key: the body is not checked")
        XCTAssertEqual(
            error(["name": "n", "source": "s", "steps": [step], "extra": 1]),
            "Contracts/app/interactions/x.json: $.extra: unknown key 'extra' (known here: clockBound, decision, name, source, startTime, steps)")
        XCTAssertEqual(error(["name": "n", "source": "s", "steps": []]), "Contracts/app/interactions/x.json: $.steps: an interaction has at least one step")
        var bad = step.objectValue!
        bad["request"] = ["method": "FETCH", "path": "/x"]
        XCTAssertEqual(
            error(["name": "n", "source": "s", "steps": [.object(bad)]]), "Contracts/app/interactions/x.json: $.steps[0].request.method: unknown method 'FETCH'"
        )
        bad["request"] = ["method": "GET", "path": "/x?a=1"]
        XCTAssertTrue(
            error(["name": "n", "source": "s", "steps": [.object(bad)]]).hasSuffix(
                "$.steps[0].request.path: a path starts with '/' and has no query (put it in \"query\")"))
        bad["request"] = ["method": "POST", "path": "/x", "body": [:], "rawBody": "{"]
        XCTAssertTrue(
            error(["name": "n", "source": "s", "steps": [.object(bad)]]).hasSuffix("$.steps[0].request.rawBody: give either body or rawBody, not both"))
        bad = step.objectValue!
        bad["response"] = ["status": 200, "bodyMatch": "loose"]
        XCTAssertTrue(
            error(["name": "n", "source": "s", "steps": [.object(bad)]]).hasSuffix(
                "$.steps[0].response.bodyMatch: unknown bodyMatch 'loose' (one of: exact, subset)"))
        bad = step.objectValue!
        bad["capture"] = ["id": "body[0].id"]
        XCTAssertTrue(
            error(["name": "n", "source": "s", "steps": [.object(bad)]]).hasSuffix("$.steps[0].capture.id: invalid JSONPath 'body[0].id': must start with '$'"))
        XCTAssertEqual(
            error(["name": "n", "source": "s", "startTime": "yesterday", "steps": [step]]),
            "Contracts/app/interactions/x.json: $.startTime: not a timestamp: \"yesterday\"")
        XCTAssertEqual(
            try decode(["name": "n", "source": "s", "startTime": "2026-03-01T12:00:00+00:00", "steps": [step]]).startTime,
            Date(timeIntervalSince1970: 1_772_366_400))
        bad = step.objectValue!
        bad["advanceClock"] = -5
        XCTAssertTrue(
            error(["name": "n", "source": "s", "steps": [.object(bad)]]).hasSuffix("$.steps[0].advanceClock: the clock only moves forward (seconds >= 0)"))
        bad = step.objectValue!
        bad["response"] = ["status": 200, "body": nil]
        XCTAssertEqual(try decode(["name": "n", "source": "s", "steps": [.object(bad)]]).steps[0].response.body, .null, "\"body\": null expects JSON null")
    }

    func testMatchers() {
        let m = JSONMatch.matchers
        XCTAssertTrue(m["<uuid>"]!("a11ce000-0000-4000-8000-000000000001"))
        XCTAssertFalse(m["<uuid>"]!("A11CE000-0000-4000-8000-000000000001"), "PostgreSQL prints lower case")
        XCTAssertFalse(m["<uuid>"]!(1))
        XCTAssertTrue(m["<timestamptz>"]!("2026-03-01T12:00:00+00:00"))
        XCTAssertTrue(m["<timestamptz>"]!("2026-03-01T12:00:00.123456+05:30"))
        XCTAssertFalse(m["<timestamptz>"]!("2026-03-01T12:00:00Z"), "PostgREST prints an offset, not Z")
        XCTAssertFalse(m["<timestamptz>"]!("2026-03-01 12:00:00+00"))
        XCTAssertTrue(m["<date>"]!("2026-02-28"))
        XCTAssertFalse(m["<date>"]!("2026-02-30"))
        XCTAssertTrue(m["<number>"]!(5.5))
        XCTAssertFalse(m["<number>"]!("5"))
        XCTAssertTrue(m["<string>"]!(""))
        XCTAssertTrue(m["<any>"]!(nil))
        XCTAssertTrue(m["<jwt>"]!("eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxIn0.c2ln"))
        XCTAssertFalse(m["<jwt>"]!("a.b.c"))
    }

    func testBodyDifferencesNameTheirPaths() {
        let expected: JSONValue = ["id": "<uuid>", "n": 5, "list": [1, ["k": "v"]], "odd key": true]
        XCTAssertEqual(
            JSONMatch.differences(
                expected: expected, actual: ["id": "a11ce000-0000-4000-8000-000000000001", "n": 5.0, "list": [1, ["k": "v"]], "odd key": true]), [])
        XCTAssertEqual(
            JSONMatch.differences(expected: expected, actual: ["id": "x", "n": 6, "list": [1, ["k": "w", "z": 1]], "extra": nil], path: "$.body"),
            [
                "$.body.id: expected <uuid>, got \"x\"",
                "$.body.list[1].k: expected \"v\", got \"w\"",
                "$.body.list[1].z: unexpected key (value 1); list it or set \"bodyMatch\": \"subset\"",
                "$.body.n: expected 5, got 6",
                "$.body[\"odd key\"]: missing (expected true)",
                "$.body.extra: unexpected key (value null); list it or set \"bodyMatch\": \"subset\""
            ])
        XCTAssertEqual(JSONMatch.differences(expected: ["a": 1], actual: ["a": 1, "b": 2], subset: true), [])
        XCTAssertEqual(JSONMatch.differences(expected: [1, 2], actual: [1]), ["$: expected 2 elements, got 1"])
        XCTAssertEqual(JSONMatch.differences(expected: "<uuid>", actual: "<uuid>", useMatchers: false), [])
        XCTAssertEqual(JSONMatch.differences(expected: 1, actual: true), ["$: expected 1, got true"])
    }

    func testTemplatesAndJSONPath() throws {
        let p = [Persona(name: "ana", id: "a11ce000-0000-4000-8000-000000000001", email: "ana@x.test", password: "p", label: "", metadata: [:])]
        let t = InteractionTemplates(personas: p, captures: ["n": 42, "s": "abc"])
        XCTAssertEqual(try t.fill("{{persona.ana.id}}", at: "$"), "a11ce000-0000-4000-8000-000000000001")
        XCTAssertEqual(try t.fill("user_id=eq.{{ persona.ana.id }}&x={{capture.s}}", at: "$"), "user_id=eq.a11ce000-0000-4000-8000-000000000001&x=abc")
        XCTAssertEqual(try t.fill("{{capture.n}}", at: "$"), 42, "a whole-string template keeps the captured JSON type")
        XCTAssertEqual(try t.fill("n={{capture.n}}", at: "$"), "n=42")
        XCTAssertEqual(try t.fill(["a": ["{{persona.ana.email}}"]] as JSONValue, at: "$.body"), ["a": ["ana@x.test"]])
        XCTAssertThrowsError(try t.fill(["a": "{{persona.eve.id}}"] as JSONValue, at: "$.body")) {
            XCTAssertEqual("\($0)", "$.body.a: unknown persona 'eve' in {{persona.eve.id}} (known: ana)")
        }
        XCTAssertThrowsError(try t.fill("{{capture.missing}}", at: "$.q")) {
            XCTAssertEqual("\($0)", "$.q: nothing captured as 'missing' before {{capture.missing}} (captured: n, s)")
        }
        XCTAssertThrowsError(try t.fill("{{env.HOME}}", at: "$"))
        XCTAssertThrowsError(try t.fill("a {{capture.n", at: "$"))

        let root: JSONValue = ["status": 201, "headers": ["Content-Range": "0-0/1"], "body": [["id": "x", "a b": [true]]]]
        XCTAssertEqual(try JSONPath.value(at: "$.body[0].id", in: root), "x")
        XCTAssertEqual(try JSONPath.value(at: "$.body[0][\"a b\"][0]", in: root), true)
        XCTAssertEqual(try JSONPath.value(at: "$.headers.content-range", in: root), "0-0/1", "header names are case-insensitive")
        XCTAssertEqual(try JSONPath.value(at: "$.status", in: root), 201)
        XCTAssertNil(try JSONPath.value(at: "$.body[3]", in: root))
        XCTAssertThrowsError(try JSONPath.parse("$.body[x]"))
        XCTAssertThrowsError(try JSONPath.parse("$..a"))
    }
}
