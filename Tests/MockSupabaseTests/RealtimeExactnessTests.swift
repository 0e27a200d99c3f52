import MockBinding
import Foundation
import XCTest
@testable import MockSupabase

/// Realtime's exact texts and shapes (supabase/realtime: user_socket.ex, realtime_channel.ex,
/// channels_authorization.ex, subscriptions.ex, apply_rls): refused upgrades and joins, filter
/// and subscription errors as `system` messages on a joined channel, tokens that expire or are
/// replaced, private channels, `select`.
final class RealtimeExactnessTests: XCTestCase {
    var backend: MockSupabase!
    var server: HTTPServer!
    var clock: ManualClock!
    let north = "c1000000-0000-4000-8000-000000000001"

    override func setUpWithError() throws {
        clock = ManualClock()
        backend = try MockSupabase(contracts: ContractsLocator.app("civicforge"), clock: clock, ids: SeededIDGenerator(seed: 11))
        server = HTTPServer(backend: backend, configuration: .init(threads: 2))
        try server.start()
    }

    override func tearDown() { server.stop() }

    func client(_ version: PhoenixMessage.Version = .v1) throws -> RealtimeClient {
        try RealtimeClient(port: server.port, apikey: backend.anonKey, version: version)
    }

    func postRow(_ id: String, _ changes: [String: JSONValue] = [:]) -> [String: JSONValue] {
        var r = backend.configuration.spec.fixtures.rows("posts").first?.objectValue ?? [:]
        r["created_at"] = nil
        r["updated_at"] = nil
        r["id"] = .string(id)
        for (k, v) in changes { r[k] = v }
        return r
    }

    func testPreSerializedFramesDecodeAsTheMessage() {
        let payload: JSONValue = ["ids": [7], "data": ["record": ["t": "quote \" and \\ and é"]]]
        for v in [PhoenixMessage.Version.v1, .v2] {
            for joinRef in [nil, "3"] as [String?] {
                let text = PhoenixMessage.encode(v, topic: "realtime:a\"b", event: "postgres_changes", payloadJSON: payload.serialized(), joinRef: joinRef)
                XCTAssertEqual(
                    PhoenixMessage.decode(text, version: v),
                    PhoenixMessage(topic: "realtime:a\"b", event: "postgres_changes", payload: payload, ref: nil, joinRef: joinRef), text)
            }
        }
    }

    func testUnjoinedTopicsAnswerAsPhoenixDoes() throws {
        let c = try client(.v2)
        XCTAssertEqual(try c.reply(to: c.push(topic: "realtime:nowhere", event: "phx_leave", payload: [:]))?.payload, ["status": "ok", "response": [:]])
        XCTAssertEqual(
            try c.reply(to: c.push(topic: "phoenix", event: "ping", payload: [:]))?.payload,
            ["status": "error", "response": ["reason": "unmatched topic"]])
        XCTAssertEqual(
            try c.reply(to: c.push(topic: "room", event: "phx_join", payload: [:]))?.payload,
            ["status": "error", "response": ["reason": "unmatched topic"]])
    }

    func testRefusedUpgradeBodies() throws {
        func refusal(_ target: String) -> (Int, JSONValue?)? {
            guard case .reject(let r) = backend.realtime.acceptor(HTTPRequest(method: "GET", target: target)) else { return nil }
            return (r.status, try? JSONValue.parse(r.body))
        }
        XCTAssertEqual(refusal("/realtime/v1/websocket?vsn=1.0.0")?.1, ["error": "API key is missing"])
        let expired = JWT.sign(["role": "anon", "exp": .int(Int64(clock.now().timeIntervalSince1970) - 5)], secret: backend.configuration.jwtSecret)
        XCTAssertEqual(refusal("/realtime/v1/websocket?apikey=\(expired)")?.1, ["error": "Token has expired"])
        let noExp = JWT.sign(["role": "anon"], secret: backend.configuration.jwtSecret)
        XCTAssertEqual(refusal("/realtime/v1/websocket?apikey=\(noExp)")?.1, ["error": "Fields `role` and `exp` are required in JWT"])
        let forged = JWT.sign(["role": "anon", "exp": 9_999_999_999], secret: "another-secret-of-32-characters!!")
        XCTAssertEqual(refusal("/realtime/v1/websocket?apikey=\(forged)")?.0, 401)
        XCTAssertEqual(refusal("/realtime/v1/websocket?apikey=\(forged)")?.1, ["error": "Failed to validate JWT signature"])
        XCTAssertEqual(refusal("/realtime/v1/websocket?apikey=\(backend.anonKey)&vsn=3.0.0")?.0, 403)
    }

    func testJoinRefusalsCarryTheCodeAndMessage() throws {
        let c = try client()
        let now = Int64(clock.now().timeIntervalSince1970)
        let expired = JWT.sign(["role": "authenticated", "exp": .int(now - 42)], secret: backend.configuration.jwtSecret)
        XCTAssertEqual(
            try c.join("a", accessToken: expired)?.payload,
            ["status": "error", "response": ["reason": "InvalidJWTToken: Token has expired 42 seconds ago"]])
        let noRole = JWT.sign(["exp": .int(now + 60)], secret: backend.configuration.jwtSecret)
        XCTAssertEqual(
            try c.join("b", accessToken: noRole)?.payload["response"],
            ["reason": "InvalidJWTToken: Fields `role` and `exp` are required in JWT"])
        // A private channel with no policy on realtime.messages: only RLS-bypassing roles read it.
        let priv = c.push(
            topic: "realtime:ops", event: "phx_join",
            payload: ["config": ["private": true], "access_token": .string(backend.accessToken(persona: "ben")!)])
        XCTAssertEqual(
            try c.reply(to: priv)?.payload,
            ["status": "error", "response": ["reason": "Unauthorized: You do not have permissions to read from this Channel topic: ops"]])
        let admin = c.push(topic: "realtime:ops", event: "phx_join", payload: ["config": ["private": true], "access_token": .string(backend.serviceRoleKey)])
        XCTAssertEqual(try c.reply(to: admin)?.payload["status"], "ok")
    }

    /// Joins with one binding; returns the join reply and the `system` message that follows.
    func joinBinding(_ c: RealtimeClient, _ name: String, _ binding: JSONValue) throws -> (PhoenixMessage?, PhoenixMessage?) {
        let reply = try c.join(name, accessToken: backend.accessToken(persona: "ben"), postgresChanges: [binding])
        return (reply, try c.next { $0.event == "system" && $0.topic == "realtime:" + name })
    }

    func testBadBindingsJoinThenReportASystemError() throws {
        let c = try client(.v2)
        let cases: [(JSONValue, String)] = [
            (["event": "*", "schema": "public", "table": "posts", "filter": "title=foo.hey"], #"Error parsing `filter` params: ["foo", "hey"]"#),
            (["event": "*", "schema": "public", "table": "posts", "filter": "undefined"], #"Error parsing `filter` params: ["undefined"]"#),
            (
                ["event": "*", "schema": "public", "table": "posts", "filter": "id=in.1,2"],
                "Error parsing `filter` params: `in` filter value must be wrapped by parentheses"
            ),
            (
                ["event": "*", "schema": "public", "table": "posts", "filter": "id=eq.1,,title=eq.x"],
                "Error parsing `filter` params: filter must not contain empty segments (check for extra commas)"
            ),
            (
                ["event": "*", "schema": "public", "table": "posts", "filter": "nope=eq.1"],
                #"Unable to subscribe to changes with given parameters. An exception happened so please check your connect parameters: [event: "*", schema: "public", table: "posts", filters: [{"nope", "eq", "1", false}], select: nil]. Exception: ERROR P0001 (raise_exception) invalid column for filter nope"#
            ),
            (
                ["event": "INSERT", "schema": "public", "table": "thanks"],
                #"Unable to subscribe to changes with given parameters. Please check Realtime is enabled for the given connect parameters: [event: "INSERT", schema: "public", table: "thanks", filters: [], select: nil]"#
            ),
            (
                ["event": "*", "schema": "public", "table": "posts", "select": "title"],
                #"Error parsing `select` params: expected a list of column name strings, e.g. select: ["col1", "col2"]"#
            )
        ]
        for (i, (binding, message)) in cases.enumerated() {
            let (reply, system) = try joinBinding(c, "bad\(i)", binding)
            XCTAssertEqual(reply?.payload["status"], "ok", "the join itself succeeds: \(binding)")
            XCTAssertEqual(
                system?.payload, ["extension": "postgres_changes", "status": "error", "message": .string(message), "channel": .string("bad\(i)")], "\(binding)")
        }
        // None of them subscribed: an insert reaches nobody.
        try backend.database.insert("posts", [postRow("c2000000-0000-4000-8000-0000000000e1", ["neighborhood_id": .string(north)])])
        XCTAssertEqual(try c.next(timeout: 0.5) { $0.event == "postgres_changes" }, nil)
    }

    func testOperatorsNegationAndConjunctionFilterEvents() throws {
        let c = try client()
        let filters = [
            "title=like.Need%", "title=not.ilike.*ladder*", "title=match.^N.*r$", "neighborhood_id=eq.\(north),title=neq.Other",
            "title=in.(\"Need a ladder\",x)", "title=is.null", "title=isdistinct.Other"
        ]
        for (i, f) in filters.enumerated() {
            let (_, system) = try joinBinding(c, "op\(i)", ["event": "INSERT", "schema": "public", "table": "posts", "filter": .string(f)])
            XCTAssertEqual(system?.payload["status"], "ok", "\(f): \(String(describing: system))")
        }
        try backend.database.insert("posts", [postRow("c2000000-0000-4000-8000-0000000000e2", ["neighborhood_id": .string(north), "title": "Need a ladder"])])
        var got: Set<String> = []
        while let m = try c.next(timeout: 1, where: { $0.event == "postgres_changes" }) { got.insert(m.topic) }
        // ilike's wildcard is %, so *ladder* matches nothing and its negation passes; the title is not null.
        XCTAssertEqual(got, ["realtime:op0", "realtime:op1", "realtime:op2", "realtime:op3", "realtime:op4", "realtime:op6"])
    }

    func testSelectNarrowsTheRecordToTheColumnsAndTheKey() throws {
        let c = try client()
        _ = try joinBinding(c, "sel", ["event": "INSERT", "schema": "public", "table": "posts", "select": ["title"]])
        try backend.database.insert("posts", [postRow("c2000000-0000-4000-8000-0000000000e3", ["neighborhood_id": .string(north)])])
        let data = try c.changes(on: "sel", timeout: 1).first
        XCTAssertEqual(data?["record"]?.objectValue.map { Set($0.keys) }, ["id", "title"])
        XCTAssertEqual(data?["columns"]?.arrayValue?.compactMap { $0["name"]?.stringValue }.sorted(), ["id", "title"])
    }

    func testReplacedAndExpiredTokensCloseTheChannel() throws {
        let c = try client()
        let (_, subscribed) = try joinBinding(c, "t", ["event": "*", "schema": "public", "table": "posts"])
        XCTAssertEqual(subscribed?.payload["status"], "ok")
        _ = c.push(topic: "realtime:t", event: "access_token", payload: ["access_token": "garbage"])
        XCTAssertEqual(
            try c.next { $0.event == "system" }?.payload,
            ["extension": "system", "status": "error", "message": "The token provided is not a valid JWT", "channel": "t"])
        XCTAssertNotNil(try c.next { $0.event == "phx_close" && $0.topic == "realtime:t" })

        // A token that runs out while subscribed: the next event is not delivered, the channel closes.
        let short = backend.accessToken(for: "c0000000-0000-4000-8000-000000000002", expiresIn: 60)
        let reply = try c.join("u", accessToken: short, postgresChanges: [["event": "*", "schema": "public", "table": "posts"]])
        XCTAssertEqual(reply?.payload["status"], "ok")
        _ = try c.next { $0.event == "system" && $0.topic == "realtime:u" }
        clock.advance(by: 75)
        try backend.database.insert("posts", [postRow("c2000000-0000-4000-8000-0000000000e4", ["neighborhood_id": .string(north)])])
        XCTAssertEqual(try c.next { $0.event == "system" && $0.topic == "realtime:u" }?.payload["message"], "Token has expired 15 seconds ago")
        XCTAssertNotNil(try c.next { $0.event == "phx_close" && $0.topic == "realtime:u" })
        XCTAssertNil(try c.next(timeout: 0.5) { $0.event == "postgres_changes" })
        XCTAssertEqual(backend.realtime.joinedTopics, [])
    }

    func testPrivateAndPublicTopicsOfOneNameAreApart() throws {
        let pub = try client(), priv = try client()
        _ = try pub.join("desk")
        let j = priv.push(topic: "realtime:desk", event: "phx_join", payload: ["config": ["private": true], "access_token": .string(backend.serviceRoleKey)])
        XCTAssertEqual(try priv.reply(to: j)?.payload["status"], "ok")
        func post(_ body: String, key: String) throws -> Int {
            try backend.handle(HTTPRequest(method: "POST", path: "/realtime/v1/api/broadcast", headers: ["apikey": key], body: Data(body.utf8))).status
        }
        XCTAssertEqual(try post(#"{"messages":[{"topic":"desk","event":"p","payload":{"n":1},"private":true}]}"#, key: backend.anonKey), 202)
        XCTAssertNil(try priv.next(timeout: 0.3) { $0.event == "broadcast" }, "anon may not write to a private topic")
        XCTAssertEqual(try post(#"{"messages":[{"topic":"desk","event":"p","payload":{"n":2},"private":true}]}"#, key: backend.serviceRoleKey), 202)
        XCTAssertEqual(try priv.next { $0.event == "broadcast" }?.payload["payload"], ["n": 2])
        XCTAssertNil(try pub.next(timeout: 0.3) { $0.event == "broadcast" }, "a private message does not reach the public topic")
    }
}

/// Filter evaluation cases, each with the expected answer of PostgreSQL's operators; run against
/// the real evaluator and a mutant that ignores `not.`.
final class RealtimeFilterTests: XCTestCase {
    typealias Evaluator = (RealtimeFilter, [String: JSONValue]) -> Bool

    static func violations(_ evaluate: Evaluator) -> [String] {
        let row: [String: JSONValue] = ["n": 5, "s": "Hello", "b": true, "z": .null]
        let cases: [(String, Bool)] = [
            ("n=eq.5", true), ("n=neq.5", false), ("n=lt.6", true), ("n=lte.5", true), ("n=gt.5", false), ("n=gte.6", false),
            ("n=in.(1,5)", true), ("n=not.in.(1,5)", false), ("s=like.H%o", true), ("s=like.h%", false), ("s=ilike.h%", true),
            ("s=match.^H.l", true), ("s=imatch.^h", true), ("s=not.eq.Hello", false), ("b=is.true", true), ("b=is.false", false),
            ("z=is.null", true), ("z=not.is.null", false), ("z=eq.1", false), ("z=neq.1", false), ("z=not.eq.1", false),
            ("z=isdistinct.1", true), ("n=isdistinct.5", false), ("n=gt.1,s=eq.Hello", true), ("n=gt.1,s=eq.x", false),
            ("s=eq.\"Hello\"", true), ("missing=eq.1", false)
        ]
        var out: [String] = []
        for (text, want) in cases {
            guard case .success(let f) = RealtimeFilter.parse(text) else { out.append("\(text) did not parse"); continue }
            if evaluate(f, row) != want { out.append("\(text) gave \(!want), PostgreSQL gives \(want)") }
        }
        return out
    }

    func testEvaluatorAgreesWithPostgres() {
        XCTAssertEqual(Self.violations { $0.matches($1) }, [])
    }

    func testAnEvaluatorIgnoringNotIsRejected() {
        let mutant: Evaluator = { f, row in
            RealtimeFilter(
                conditions: f.conditions.map {
                    var c = $0; c.negate = false; return c
                }
            ).matches(row)
        }
        XCTAssertFalse(Self.violations(mutant).isEmpty)
    }

    func testParseErrorsAreRealtimes() {
        func error(_ s: String) -> String? { if case .failure(let e) = RealtimeFilter.parse(s) { return e.message }; return nil }
        XCTAssertEqual(error("a=eq"), #"Error parsing `filter` params: ["eq"]"#)
        XCTAssertEqual(error("a=foo.1"), #"Error parsing `filter` params: ["foo", "1"]"#)
        XCTAssertNil(error("   "))
        XCTAssertNil(error("a=in.(\"x,y\",z)"))
        if case .success(let f) = RealtimeFilter.parse("a=in.(\"x,y\",z),b=eq.1") { XCTAssertEqual(f.conditions.count, 2) } else { XCTFail() }
    }
}
