import Foundation

/// Broadcast and presence, after supabase/realtime's
/// lib/realtime_web/channels/realtime_channel/broadcast_handler.ex, presence_handler.ex and
/// lib/realtime/tenants/batch_broadcast.ex. A private channel and a public one of the same name
/// are different topics (`Tenants.tenant_topic(…, public?)`): a message reaches only channels of
/// its own kind.
extension RealtimeService {
    /// The sockets joined to `topic` as a channel of the given kind.
    func members(_ topic: String, isPrivate: Bool) -> [(WebSocketConnection, Client, Channel)] {
        lock.lock(); defer { lock.unlock() }
        return clients.compactMap { conn, client in
            client.channels[topic].flatMap { $0.isPrivate == isPrivate ? (conn, client, $0) : nil }
        }
    }

    /// A `broadcast` from a channel: to every member of the topic (the sender too with
    /// `broadcast.self`), answered only with `broadcast.ack`. A private channel's sender needs
    /// the INSERT policy (`channelPolicyAllows`).
    func broadcast(_ m: PhoenixMessage, _ connection: WebSocketConnection, _ client: Client, _ reply: Reply) {
        lock.lock(); let mine = client.channels[m.topic]; lock.unlock()
        guard let mine else { return }
        if mine.isPrivate, !channelPolicyAllows(mine.auth) { return }
        for (conn, other, ch) in members(m.topic, isPrivate: mine.isPrivate) where conn != connection || mine.broadcastSelf {
            send(conn, other, PhoenixMessage(topic: m.topic, event: "broadcast", payload: m.payload, joinRef: ch.joinRef))
        }
        if mine.broadcastAck { reply("ok", .object([:])) }
    }

    /// `POST /realtime/v1/api/broadcast` with `{"messages": [{"topic", "event", "payload", "private"?}]}`:
    /// each message reaches the channels of `realtime:<topic>` of its kind as a `broadcast`
    /// `{"type":"broadcast","event","payload"}`; 202 with no body (BroadcastController). The
    /// token is `Authorization: Bearer` else `apikey`, refused with 401 `{"message":"Unauthorized"}`
    /// (plugs/auth_tenant.ex); an invalid body is 422 with Ecto's errors (ChangesetView); a
    /// private message the token may not write is dropped without an error.
    package func handleBroadcastAPI(_ request: HTTPRequest) -> HTTPResponse {
        guard request.method == "POST" else { return .json(404, ["message": "Not Found"]) }
        let bearer = request.headers["Authorization"].flatMap { value -> String? in
            let parts = value.split(separator: " ", omittingEmptySubsequences: false)
            return parts.count == 2 && parts[0].lowercased() == "bearer" ? String(parts[1]) : nil
        }
        guard let token = bearer ?? request.headers["apikey"], let auth = try? verify(token) else {
            return .json(401, ["message": "Unauthorized"])
        }
        let body = (try? JSONValue.parse(request.body)) ?? .null
        guard case .array(let messages)? = body["messages"], !messages.isEmpty else {
            return .json(422, ["errors": ["messages": ["can't be blank"]]])
        }
        var errors: [JSONValue] = [], invalid = false
        for message in messages {
            var e: [String: JSONValue] = [:]
            for field in ["topic", "event"] where message[field]?.stringValue == nil {
                e[field] = [message[field] == nil || message[field] == .null ? "can't be blank" : "is invalid"]
            }
            if message["payload"] == nil || message["payload"] == .null {
                e["payload"] = ["can't be blank"]
            } else if message["payload"]?.objectValue == nil {
                e["payload"] = ["is invalid"]
            }
            invalid = invalid || !e.isEmpty
            errors.append(.object(e))
        }
        if invalid { return .json(422, ["errors": ["messages": .array(errors)]]) }
        for message in messages {
            let topic = "realtime:" + (message["topic"]?.stringValue ?? "")
            let isPrivate = Self.flag(message["private"])
            if isPrivate, !channelPolicyAllows(auth) { continue }
            let payload: JSONValue = ["type": "broadcast", "event": message["event"] ?? .null, "payload": message["payload"] ?? .object([:])]
            for (conn, client, ch) in members(topic, isPrivate: isPrivate) {
                send(conn, client, PhoenixMessage(topic: topic, event: "broadcast", payload: payload, joinRef: ch.joinRef))
            }
        }
        return HTTPResponse(status: 202)
    }

    // MARK: Presence

    /// `{key: {metas: [{phx_ref, …meta}]}}` of everyone tracked on a topic.
    func presenceState(_ topic: String, isPrivate: Bool) -> [String: JSONValue] {
        var state: [String: [JSONValue]] = [:]
        for (_, _, ch) in members(topic, isPrivate: isPrivate) {
            guard let meta = ch.presenceMeta else { continue }
            var m = meta
            m["phx_ref"] = .string(ch.presenceRef)
            state[ch.presenceKey, default: []].append(.object(m))
        }
        return state.mapValues { ["metas": .array($0)] }
    }

    /// Sends a `presence_diff` to every socket on the topic (the tracker's own included).
    func presenceDiff(_ topic: String, isPrivate: Bool, joins: [String: JSONValue], leaves: [String: JSONValue]) {
        for (conn, client, ch) in members(topic, isPrivate: isPrivate) {
            send(
                conn, client,
                PhoenixMessage(topic: topic, event: "presence_diff", payload: ["joins": .object(joins), "leaves": .object(leaves)], joinRef: ch.joinRef))
        }
    }

    func presenceEntry(_ ch: Channel) -> [String: JSONValue] {
        var m = ch.presenceMeta ?? [:]
        m["phx_ref"] = .string(ch.presenceRef)
        return [ch.presenceKey: ["metas": [.object(m)]]]
    }

    /// Announces that a channel that tracked presence has gone.
    func presenceLeft(_ ch: Channel) {
        guard ch.presenceMeta != nil else { return }
        presenceDiff(ch.topic, isPrivate: ch.isPrivate, joins: [:], leaves: presenceEntry(ch))
    }

    /// `{"type": "presence", "event": "track"|"untrack", "payload": meta}`; a track payload that
    /// is not a map is refused with "Presence track payload must be a map" (PresenceHandler).
    func presence(_ m: PhoenixMessage, _ connection: WebSocketConnection, _ client: Client, _ reply: Reply) {
        lock.lock()
        guard var ch = client.channels[m.topic] else { lock.unlock(); return }
        let before = ch.presenceMeta == nil ? nil : ch
        switch m.payload["event"]?.stringValue?.lowercased() {
        case "track":
            guard let meta = (m.payload["payload"] ?? .object([:])).objectValue else {
                lock.unlock()
                return reply("error", ["reason": "Presence track payload must be a map"])
            }
            ch.presenceMeta = meta
            ch.presenceRef = String(UInt64.random(in: 1...UInt64(Int64.max)), radix: 36)
        case "untrack":
            ch.presenceMeta = nil
        default:
            lock.unlock()
            return reply("error", .object([:]))
        }
        client.channels[m.topic] = ch
        lock.unlock()
        reply("ok", .object([:]))
        let joins = ch.presenceMeta == nil ? [:] : presenceEntry(ch)
        let leaves = before.map(presenceEntry) ?? [:]
        if !joins.isEmpty || !leaves.isEmpty { presenceDiff(m.topic, isPrivate: ch.isPrivate, joins: joins, leaves: leaves) }
    }
}
