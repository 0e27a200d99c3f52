import MockBinding
import Foundation
import MockSupabase
import XCTest

/// The documents' realtime rules, over a real WebSocket to the mock's Realtime: who receives a
/// change is decided by RLS under each subscriber's claims (Contracts/<app>/realtime.json and
/// policies.json).
enum RealtimeGate {
    /// A backend of `app` served over loopback with Realtime; `visibility` replaces the RLS check
    /// only to prove the cases reject a feed that skips it.
    static func serve(_ app: String, visibility: RealtimeService.RowVisibility? = nil) throws -> (MockSupabase, HTTPServer) {
        let (backend, server, _) = try serveFeed(app, visibility: visibility)
        return (backend, server)
    }

    /// `serve`, with the Realtime service whose feed the sockets receive.
    static func serveFeed(_ app: String, visibility: RealtimeService.RowVisibility? = nil) throws -> (MockSupabase, HTTPServer, RealtimeService) {
        let folder = ContractsLocator.app(app)
        let backend = try MockSupabase(contracts: folder, clock: ManualClock(), ids: SeededIDGenerator(seed: 5))
        let service: RealtimeService
        if let visibility {
            service = RealtimeService(
                database: backend.database, jwtSecret: backend.configuration.jwtSecret, clock: backend.configuration.clock,
                publication: try RealtimePublication.load(folder: folder), visibility: visibility)
        } else {
            service = backend.realtime
        }
        let server = HTTPServer(configuration: .init(threads: 2), handler: { try backend.handle($0) }, webSocket: service.acceptor)
        try server.start()
        return (backend, server, service)
    }

    /// Joins `realtime:<name>` as a persona, listening to every event of `table`.
    static func subscribe(_ backend: MockSupabase, _ server: HTTPServer, persona: String, table: String) throws -> RealtimeClient {
        let client = try RealtimeClient(port: server.port, apikey: backend.anonKey)
        let reply = try client.join(
            "gate-\(persona)", accessToken: backend.accessToken(persona: persona),
            postgresChanges: [["event": "*", "schema": "public", "table": .string(table)]])
        guard reply?.payload["status"] == .string("ok") else { throw WebSocketClient.Failure(description: "join refused: \(String(describing: reply))") }
        return client
    }

    /// The ids of rows of INSERT events a subscriber received of every change `service` has
    /// fanned out so far (`RealtimeService.flush`, then a heartbeat's reply as the barrier:
    /// what has not arrived before it never will; `timeout` bounds the wait for that reply).
    static func insertedIDs(_ client: RealtimeClient, _ persona: String, timeout: Double) throws -> Set<String> {
        guard let changes = try client.changesBeforeHeartbeat(on: "gate-\(persona)", timeout: timeout) else {
            throw WebSocketClient.Failure(description: "\(persona): no heartbeat reply within \(timeout) s")
        }
        return Set(changes.compactMap { d in d["type"] == .string("INSERT") ? d["record"]?["id"]?.stringValue : nil })
    }

    /// `insertedIDs` of several subscribers, once `service` has handed every change committed
    /// so far to their sockets.
    static func insertedIDs(_ subscribers: [(client: RealtimeClient, name: String)], of service: RealtimeService, timeout: Double) throws -> [Set<String>] {
        service.flush()
        return try subscribers.map { try insertedIDs($0.client, $0.name, timeout: timeout) }
    }

    /// A fixture row of `table` with `changes` applied (a new id).
    static func row(_ backend: MockSupabase, _ table: String, like id: String, _ changes: [String: JSONValue]) -> [String: JSONValue] {
        var r = backend.configuration.spec.fixtures.rows(table).first { $0["id"]?.stringValue == id }?.objectValue ?? [:]
        for k in ["created_at", "updated_at"] { r[k] = nil }
        for (k, v) in changes { r[k] = v }
        return r
    }

    /// CivicForge §2/§3: a neighbour sees a new post and response of their neighbourhood, a member
    /// of another neighbourhood does not, a hidden post reaches only its author. Violations, or [].
    static func civicForgeViolations(visibility: RealtimeService.RowVisibility? = nil) throws -> [String] {
        let (backend, server, service) = try serveFeed("civicforge", visibility: visibility)
        defer { server.stop() }
        let who = ["ben", "omar", "cal"]
        var posts: [String: RealtimeClient] = [:], responses: [String: RealtimeClient] = [:]
        for p in who {
            posts[p] = try subscribe(backend, server, persona: p, table: "posts")
            responses[p + "r"] = try RealtimeClient(port: server.port, apikey: backend.anonKey)
            _ = try responses[p + "r"]!.join(
                "gate-\(p)r", accessToken: backend.accessToken(persona: p),
                postgresChanges: [["event": "INSERT", "schema": "public", "table": "responses"]])
        }
        let visible = "c2000000-0000-4000-8000-0000000000a1", hidden = "c2000000-0000-4000-8000-0000000000a2"
        let response = "c3000000-0000-4000-8000-0000000000a3"
        try backend.database.insert(
            "posts", [row(backend, "posts", like: "c2000000-0000-4000-8000-000000000001", ["id": .string(visible), "title": "Need a ladder"])])
        try backend.database.insert(
            "posts",
            [
                row(
                    backend, "posts", like: "c2000000-0000-4000-8000-000000000003",
                    ["id": .string(hidden), "title": "Hidden", "hidden": true])
            ])
        let firstResponse = backend.configuration.spec.fixtures.rows("responses").first?.objectValue ?? [:]
        var r = firstResponse
        for k in ["created_at", "updated_at"] { r[k] = nil }
        r["id"] = .string(response)
        r["post_id"] = .string(visible)
        r["responder_id"] = "c0000000-0000-4000-8000-000000000002"
        r["status"] = firstResponse["status"] ?? "pending"
        try backend.database.insert("responses", [r])
        var out: [String] = []
        let postWants: [(String, Set<String>)] = [("ben", [visible]), ("omar", []), ("cal", [visible, hidden])]
        let responseWants: [(String, Set<String>)] = [("ben", [response]), ("omar", [])]
        let got = try insertedIDs(postWants.map { (posts[$0.0]!, $0.0) } + responseWants.map { (responses[$0.0 + "r"]!, $0.0 + "r") }, of: service, timeout: 5)
        for ((persona, want), g) in zip(postWants, got) where g != want {
            out.append("\(persona) received posts \(g.sorted()), expected \(want.sorted())")
        }
        for ((p, want), g) in zip(responseWants, got.dropFirst(postWants.count)) where g != want {
            out.append("\(p) received responses \(g.sorted()), expected \(want.sorted())")
        }
        return out
    }

    /// Naar's Cars: a message reaches the conversation's participants only, a notification its owner.
    static func naarsCarsViolations(visibility: RealtimeService.RowVisibility? = nil) throws -> [String] {
        let (backend, server, service) = try serveFeed("naarscars", visibility: visibility)
        defer { server.stop() }
        var messages: [String: RealtimeClient] = [:], notes: [String: RealtimeClient] = [:]
        for p in ["bob", "dave"] { messages[p] = try subscribe(backend, server, persona: p, table: "messages") }
        for p in ["bob", "carol"] {
            notes[p + "n"] = try RealtimeClient(port: server.port, apikey: backend.anonKey)
            _ = try notes[p + "n"]!.join(
                "gate-\(p)n", accessToken: backend.accessToken(persona: p),
                postgresChanges: [["event": "*", "schema": "public", "table": "notifications"]])
        }
        let message = "3e550000-0000-4000-8000-0000000000a1", note = "4071f000-0000-4000-8000-0000000000a2"
        try backend.database.insert(
            "messages",
            [
                row(
                    backend, "messages", like: "3e550000-0000-4000-8000-000000000001",
                    ["id": .string(message), "content": "On my way"])
            ])
        try backend.database.insert(
            "notifications",
            [
                row(
                    backend, "notifications", like: "4071f000-0000-4000-8000-000000000001",
                    ["id": .string(note), "title": "Ride claimed"])
            ])
        var out: [String] = []
        let messageWants: [(String, Set<String>)] = [("bob", [message]), ("dave", [])]
        let noteWants: [(String, Set<String>)] = [("bob", [note]), ("carol", [])]
        let got = try insertedIDs(messageWants.map { (messages[$0.0]!, $0.0) } + noteWants.map { (notes[$0.0 + "n"]!, $0.0 + "n") }, of: service, timeout: 5)
        for ((p, want), g) in zip(messageWants, got) where g != want {
            out.append("\(p) received messages \(g.sorted()), expected \(want.sorted())")
        }
        for ((p, want), g) in zip(noteWants, got.dropFirst(messageWants.count)) where g != want {
            out.append("\(p) received notifications \(g.sorted()), expected \(want.sorted())")
        }
        return out
    }
}

extension RealtimeGate {
    /// Shvil "Online: Real-time sync": an adventure's changes reach its owner, not another user.
    static func shvilViolations(visibility: RealtimeService.RowVisibility? = nil) throws -> [String] {
        let (backend, server, service) = try serveFeed("shvil", visibility: visibility)
        defer { server.stop() }
        var clients: [String: RealtimeClient] = [:]
        for p in ["noa", "eli"] { clients[p] = try subscribe(backend, server, persona: p, table: "adventures") }
        let id = "5a000000-0000-4000-8000-0000000000a1"
        try backend.database.insert(
            "adventures",
            [
                row(
                    backend, "adventures", like: "5a000000-0000-4000-8000-000000000001",
                    ["id": .string(id), "title": "Sunset ride"])
            ])
        var out: [String] = []
        let wants: [(String, Set<String>)] = [("noa", [id]), ("eli", [])]
        for ((p, want), got) in zip(wants, try insertedIDs(wants.map { (clients[$0.0]!, $0.0) }, of: service, timeout: 5)) where got != want {
            out.append("\(p) received adventures \(got.sorted()), expected \(want.sorted())")
        }
        return out
    }
}

final class ShvilRealtimeTests: GateTestCase {
    func testAdventureChangesReachTheirOwner() throws {
        XCTAssertEqual(try RealtimeGate.shvilViolations(), [])
    }

    func testAFeedThatSkipsRLSIsRejected() throws {
        XCTAssertFalse(try RealtimeGate.shvilViolations(visibility: { _, _, _, _ in true }).isEmpty)
    }
}

final class CivicForgeRealtimeTests: GateTestCase {
    func testNeighbourhoodBoardReachesOnlyWhomRLSAllows() throws {
        XCTAssertEqual(try RealtimeGate.civicForgeViolations(), [])
    }

    func testAFeedThatSkipsRLSIsRejected() throws {
        XCTAssertFalse(try RealtimeGate.civicForgeViolations(visibility: { _, _, _, _ in true }).isEmpty)
    }
}

final class NaarsCarsRealtimeTests: GateTestCase {
    func testMessagesReachParticipantsAndNotificationsTheirOwner() throws {
        XCTAssertEqual(try RealtimeGate.naarsCarsViolations(), [])
    }

    func testAFeedThatSkipsRLSIsRejected() throws {
        XCTAssertFalse(try RealtimeGate.naarsCarsViolations(visibility: { _, _, _, _ in true }).isEmpty)
    }
}
