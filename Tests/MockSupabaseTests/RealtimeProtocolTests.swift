import MockBinding
import Foundation
import XCTest
@testable import MockSupabase

/// The Phoenix protocol of the mock's Realtime as the official clients speak it, and the shape of
/// postgres_changes events (supabase/realtime: realtime_channel.ex, apply_rls).
final class RealtimeProtocolTests: XCTestCase {
    var backend: MockSupabase!
    var server: HTTPServer!

    override func setUpWithError() throws {
        backend = try MockSupabase(contracts: ContractsLocator.app("civicforge"), clock: ManualClock(), ids: SeededIDGenerator(seed: 9))
        server = HTTPServer(backend: backend, configuration: .init(threads: 2))
        try server.start()
    }

    override func tearDown() { server.stop() }

    func postRow(_ id: String, _ changes: [String: JSONValue] = [:]) -> [String: JSONValue] {
        var r = backend.configuration.spec.fixtures.rows("posts").first?.objectValue ?? [:]
        r["created_at"] = nil
        r["updated_at"] = nil
        r["id"] = .string(id)
        for (k, v) in changes { r[k] = v }
        return r
    }

    func testUpgradeNeedsAnApikey() throws {
        // RealtimeWeb.UserSocket.handle_error: 401 with {"error": …}; Phoenix refuses an unknown vsn with a bare 403.
        let refused = try WebSocketClient(port: server.port, target: "/realtime/v1/websocket?vsn=1.0.0")
        XCTAssertEqual(refused.handshakeStatus, 401)
        let forged = try WebSocketClient(port: server.port, target: "/realtime/v1/websocket?vsn=1.0.0&apikey=a.b.c")
        XCTAssertEqual(forged.handshakeStatus, 401)
        let wrongVsn = try WebSocketClient(port: server.port, target: "/realtime/v1/websocket?apikey=\(backend.anonKey)&vsn=9.9.9")
        XCTAssertEqual(wrongVsn.handshakeStatus, 403)
    }

    func testHeartbeatJoinReplyAndSubscribedInBothVersions() throws {
        for version in [PhoenixMessage.Version.v1, .v2] {
            let client = try RealtimeClient(port: server.port, apikey: backend.anonKey, version: version)
            let hb = client.push(topic: "phoenix", event: "heartbeat", payload: .object([:]))
            let beat = try client.reply(to: hb)
            XCTAssertEqual(beat?.payload, ["status": "ok", "response": [:]])
            let binding: JSONValue = [
                "event": "INSERT", "schema": "public", "table": "posts", "filter": "neighborhood_id=eq.c1000000-0000-4000-8000-000000000001"
            ]
            let reply = try client.join("board", accessToken: backend.accessToken(persona: "ben"), postgresChanges: [binding])
            XCTAssertEqual(reply?.payload["status"], "ok")
            guard case .array(let echoed)? = reply?.payload["response"]?["postgres_changes"], echoed.count == 1 else {
                return XCTFail("no echoed bindings: \(String(describing: reply))")
            }
            XCTAssertEqual(echoed[0]["table"], "posts")
            XCTAssertEqual(echoed[0]["filter"], binding["filter"])
            XCTAssertNotNil(echoed[0]["id"]?.doubleValue, "the server assigns each binding an id")
            let system = try client.next { $0.event == "system" }
            XCTAssertEqual(system?.payload, ["extension": "postgres_changes", "status": "ok", "message": "Subscribed to PostgreSQL", "channel": "board"])
            XCTAssertNil(system?.ref)
        }
    }

    func testJoinErrorsAsTheServerSendsThem() throws {
        let client = try RealtimeClient(port: server.port, apikey: backend.anonKey)
        let empty = try client.reply(to: client.push(topic: "realtime:", event: "phx_join", payload: ["config": [:]]))
        XCTAssertEqual(empty?.payload, ["status": "error", "response": ["reason": "TopicNameRequired: You must provide a topic name"]])
        let bad = try client.join("x", accessToken: "not-a-jwt")
        XCTAssertEqual(bad?.payload, ["status": "error", "response": ["reason": "MalformedJWT: The token provided is not a valid JWT"]])
        let unjoined = try client.reply(to: client.push(topic: "realtime:never", event: "broadcast", payload: [:]))
        XCTAssertEqual(unjoined?.payload["status"], "error")
    }

    func testEventShapeFiltersAndDeleteCarriesThePrimaryKey() throws {
        let client = try RealtimeClient(port: server.port, apikey: backend.anonKey)
        let north = "c1000000-0000-4000-8000-000000000001", south = "c1000000-0000-4000-8000-000000000002"
        let reply = try client.join(
            "f", accessToken: backend.accessToken(persona: "ana"),
            postgresChanges: [["event": "*", "schema": "public", "table": "posts", "filter": .string("neighborhood_id=eq.\(north)")]])
        let id = reply?.payload["response"]?["postgres_changes"]?.arrayValue?.first?["id"]
        _ = try client.next { $0.event == "system" }
        let all = try RealtimeClient(port: server.port, apikey: backend.anonKey)
        _ = try all.join("all", accessToken: backend.accessToken(persona: "ana"), postgresChanges: [["event": "DELETE", "schema": "public", "table": "posts"]])
        let a = "c2000000-0000-4000-8000-0000000000f1", b = "c2000000-0000-4000-8000-0000000000f2"
        try backend.database.insert("posts", [postRow(a, ["neighborhood_id": .string(north)])])
        try backend.database.insert("posts", [postRow(b, ["neighborhood_id": .string(south)])])
        try backend.database.update("posts", set: ["title": "Changed"], where: .eq("id", a))
        try backend.database.delete("posts", where: .eq("id", a))
        guard let m = try client.next(where: { $0.event == "postgres_changes" }) else { return XCTFail("no INSERT") }
        XCTAssertEqual(m.payload["ids"], .array([id ?? .null]))
        let insert = m.payload["data"]
        XCTAssertEqual(insert?["type"], "INSERT")
        XCTAssertEqual(insert?["record"]?["id"], .string(a))
        XCTAssertEqual(insert?["commit_timestamp"], "2026-01-01T00:00:00.000Z")
        XCTAssertEqual(insert?["errors"], .null)
        XCTAssertTrue(insert?["columns"]?.arrayValue?.contains(["name": "id", "type": "uuid"]) ?? false)
        let rest = try client.changes(on: "f", timeout: 1)
        // The southside insert is filtered out; a DELETE is filtered on its old row, which with the
        // default replica identity holds the primary key only, so a filter on another column
        // never matches it (apply_rls: is_visible_through_filters(old_columns, …)).
        XCTAssertEqual(rest.map { $0["type"]?.stringValue ?? "?" }, ["UPDATE"])
        XCTAssertEqual(rest.first?["old_record"], ["id": .string(a)], "default replica identity: the primary key")
        let deletes = try all.changes(on: "all", timeout: 1)
        XCTAssertEqual(deletes.count, 1)
        XCTAssertEqual(deletes.first?["old_record"], ["id": .string(a)])
        XCTAssertNil(deletes.first?["record"])
    }

    func testLeaveAndBroadcastSelfAck() throws {
        let one = try RealtimeClient(port: server.port, apikey: backend.anonKey)
        let two = try RealtimeClient(port: server.port, apikey: backend.anonKey, version: .v2)
        _ = try one.join("room", broadcastSelf: true, broadcastAck: true)
        _ = try two.join("room")
        let ref = one.push(topic: "realtime:room", event: "broadcast", payload: ["type": "broadcast", "event": "cursor", "payload": ["x": 1]])
        XCTAssertEqual(try one.reply(to: ref)?.payload["status"], "ok")
        XCTAssertEqual(try two.next { $0.event == "broadcast" }?.payload["payload"], ["x": 1])
        XCTAssertEqual(try one.next { $0.event == "broadcast" }?.payload["event"], "cursor", "self: true echoes")
        let leave = two.push(topic: "realtime:room", event: "phx_leave", payload: [:])
        XCTAssertEqual(try two.reply(to: leave)?.payload["status"], "ok")
        XCTAssertNotNil(try two.next { $0.event == "phx_close" })
    }

    func testPresenceTrackStateDiffAndLeave() throws {
        let one = try RealtimeClient(port: server.port, apikey: backend.anonKey)
        let two = try RealtimeClient(port: server.port, apikey: backend.anonKey)
        let join1 = one.push(topic: "realtime:lobby", event: "phx_join", payload: ["config": ["presence": ["key": "ana", "enabled": true]]])
        XCTAssertEqual(try one.reply(to: join1)?.payload["status"], "ok")
        XCTAssertEqual(try one.next { $0.event == "presence_state" }?.payload, [:])
        let track = one.push(topic: "realtime:lobby", event: "presence", payload: ["type": "presence", "event": "track", "payload": ["online_at": "now"]])
        XCTAssertEqual(try one.reply(to: track)?.payload["status"], "ok")
        let diff = try one.next { $0.event == "presence_diff" }
        XCTAssertEqual(diff?.payload["joins"]?["ana"]?["metas"]?.arrayValue?.first?["online_at"], "now")
        let join2 = two.push(topic: "realtime:lobby", event: "phx_join", payload: ["config": ["presence": ["key": "ben", "enabled": true]]])
        _ = try two.reply(to: join2)
        let state = try two.next { $0.event == "presence_state" }
        XCTAssertNotNil(state?.payload["ana"]?["metas"]?.arrayValue?.first?["phx_ref"]?.stringValue)
        two.socket.disconnect()
        _ = one.push(topic: "realtime:lobby", event: "presence", payload: ["type": "presence", "event": "untrack"])
        let left = try one.next { $0.event == "presence_diff" && $0.payload["leaves"]?["ana"] != nil }
        XCTAssertNotNil(left)
    }

    func testBroadcastOverHTTP() throws {
        let listener = try RealtimeClient(port: server.port, apikey: backend.anonKey)
        _ = try listener.join("news")
        let body = Data(#"{"messages":[{"topic":"news","event":"flash","payload":{"n":1}}]}"#.utf8)
        let refused = try backend.handle(HTTPRequest(method: "POST", path: "/realtime/v1/api/broadcast", body: body))
        XCTAssertEqual(refused.status, 401)
        let sent = try backend.handle(HTTPRequest(method: "POST", path: "/realtime/v1/api/broadcast", headers: ["apikey": backend.serviceRoleKey], body: body))
        XCTAssertEqual(sent.status, 202)
        let got = try listener.next { $0.event == "broadcast" }
        XCTAssertEqual(got?.payload, ["type": "broadcast", "event": "flash", "payload": ["n": 1]])
        let bad = try backend.handle(
            HTTPRequest(method: "POST", path: "/realtime/v1/api/broadcast", headers: ["apikey": backend.anonKey], body: Data("{}".utf8)))
        XCTAssertEqual(bad.status, 422)
        XCTAssertEqual(try JSONValue.parse(bad.body), ["errors": ["messages": ["can't be blank"]]])
        let noTopic = try backend.handle(
            HTTPRequest(
                method: "POST", path: "/realtime/v1/api/broadcast", headers: ["apikey": backend.anonKey],
                body: Data(#"{"messages":[{"event":"e","payload":{}},{"topic":"t","event":"e","payload":{}}]}"#.utf8)))
        XCTAssertEqual(noTopic.status, 422)
        XCTAssertEqual(try JSONValue.parse(noTopic.body), ["errors": ["messages": [["topic": ["can't be blank"]], [:]]]])
    }
}
