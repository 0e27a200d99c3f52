import Foundation

/// A small Supabase Realtime client over `WebSocketClient`, for the gate's own cases on Linux
/// (supabase-swift's client needs URLSessionWebSocketTask, which FoundationNetworking lacks).
/// It speaks vsn 1.0.0 or 2.0.0, joins channels as the official clients do, and collects what
/// the server pushes.
package final class RealtimeClient: @unchecked Sendable {
    package let socket: WebSocketClient
    package let version: PhoenixMessage.Version
    private var nextRef = 0
    /// Messages received and not yet taken.
    private var inbox: [PhoenixMessage] = []

    /// Connects to `/realtime/v1/websocket?apikey=…&vsn=…` on 127.0.0.1:`port`.
    package init(port: UInt16, apikey: String, version: PhoenixMessage.Version = .v1) throws {
        socket = try WebSocketClient(port: port, target: "/realtime/v1/websocket?apikey=\(apikey)&vsn=\(version.rawValue)")
        self.version = version
        guard socket.handshakeStatus == 101 else {
            throw WebSocketClient.Failure(description: "upgrade refused: \(socket.handshakeHead)")
        }
    }

    /// Sends a message with a fresh ref; returns the ref.
    @discardableResult
    package func push(topic: String, event: String, payload: JSONValue, joinRef: String? = nil) -> String {
        nextRef += 1
        let ref = String(nextRef)
        socket.send(
            text: PhoenixMessage(topic: topic, event: event, payload: payload, ref: ref, joinRef: joinRef ?? (event == "phx_join" ? ref : nil)).encode(version))
        return ref
    }

    /// The next message matching `predicate` within `timeout` seconds (others stay queued).
    package func next(timeout: Double = 5, where predicate: (PhoenixMessage) -> Bool) throws -> PhoenixMessage? {
        if let i = inbox.firstIndex(where: predicate) { return inbox.remove(at: i) }
        let deadline = Date(timeIntervalSinceNow: timeout)
        while deadline.timeIntervalSinceNow > 0 {
            guard let frame = try socket.receive(timeout: deadline.timeIntervalSinceNow) else { return nil }
            guard case .text(let text) = frame, let m = PhoenixMessage.decode(text, version: version) else { continue }
            if predicate(m) { return m }
            inbox.append(m)
        }
        return nil
    }

    /// The reply to `ref`.
    package func reply(to ref: String, timeout: Double = 5) throws -> PhoenixMessage? {
        try next(timeout: timeout) { $0.event == "phx_reply" && $0.ref == ref }
    }

    /// Joins `realtime:<name>` with postgres_changes bindings; returns the join reply.
    package func join(
        _ name: String, accessToken: String? = nil, postgresChanges: [JSONValue] = [],
        broadcastSelf: Bool = false, broadcastAck: Bool = false
    ) throws -> PhoenixMessage? {
        var payload: [String: JSONValue] = [
            "config": [
                "broadcast": ["self": .bool(broadcastSelf), "ack": .bool(broadcastAck)], "presence": ["key": ""],
                "postgres_changes": .array(postgresChanges), "private": false
            ]
        ]
        if let accessToken { payload["access_token"] = .string(accessToken) }
        let ref = push(topic: "realtime:" + name, event: "phx_join", payload: .object(payload))
        return try reply(to: ref)
    }

    /// postgres_changes `data` objects on a topic that arrive before the reply to a heartbeat
    /// sent now. Once the server has handed every change of interest to its sockets
    /// (`RealtimeService.flush()`), that reply is queued behind them on this socket (one
    /// ordered write queue per connection), so a change not received by then never comes:
    /// silence is proved without waiting out a quiet period. Nil when no reply comes within
    /// `timeout` seconds.
    package func changesBeforeHeartbeat(on name: String, timeout: Double = 5) throws -> [JSONValue]? {
        let ref = push(topic: "phoenix", event: "heartbeat", payload: .object([:]))
        guard try reply(to: ref, timeout: timeout) != nil else { return nil }
        var out: [JSONValue] = []
        inbox.removeAll { m in
            guard m.topic == "realtime:" + name && m.event == "postgres_changes" else { return false }
            out.append(m.payload["data"] ?? .null)
            return true
        }
        return out
    }

    /// postgres_changes `data` objects received within `timeout` seconds on a topic.
    package func changes(on name: String, timeout: Double) throws -> [JSONValue] {
        var out: [JSONValue] = []
        while let m = try next(timeout: timeout, where: { $0.topic == "realtime:" + name && $0.event == "postgres_changes" }) {
            out.append(m.payload["data"] ?? .null)
        }
        return out
    }
}
