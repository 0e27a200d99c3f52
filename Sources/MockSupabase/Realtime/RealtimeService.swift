import Foundation

/// Supabase Realtime over the loopback server's WebSockets: the Phoenix protocol of
/// `/realtime/v1/websocket` (heartbeat, `phx_join` on `realtime:<name>`, `access_token`,
/// `phx_leave`, broadcast, presence) and postgres_changes from the mock's database, each event
/// re-checked under the subscriber's claims as `realtime.apply_rls` does (RealtimeChanges.swift).
/// Joining and tokens follow supabase/realtime's lib/realtime_web/channels/realtime_channel.ex
/// (RealtimeJoin.swift).
///
/// Changes are fanned out on one serial queue in commit order (the database hands them over
/// under its lock; the RLS checks run after it is released).
package final class RealtimeService: @unchecked Sendable {
    let database: Database
    let jwtSecret: String
    let clock: WallClock
    let lock = NSLock()
    var publication: RealtimePublication
    var clients: [WebSocketConnection: Client] = [:]
    private let fanOut = DispatchQueue(label: "realtime.postgres_changes")

    /// One socket: its serializer, its apikey (the `tenant_token`) with its claims, and its
    /// channels by topic.
    final class Client {
        let version: PhoenixMessage.Version
        let apikey: String
        let apikeyAuth: AuthContext
        var channels: [String: Channel] = [:]
        init(version: PhoenixMessage.Version, apikey: String, apikeyAuth: AuthContext) {
            self.version = version; self.apikey = apikey; self.apikeyAuth = apikeyAuth
        }
    }

    struct Channel {
        var topic: String
        /// The topic without `realtime:` (Realtime's `channel_name`, what `system` messages carry).
        var name: String
        var joinRef: String?
        /// The token the channel runs under and its claims.
        var token: String
        var auth: AuthContext
        var bindings: [Binding]
        var broadcastSelf: Bool
        var broadcastAck: Bool
        /// `config.private`: broadcast and presence authorised by policies on `realtime.messages`.
        var isPrivate: Bool
        /// The presence key (`config.presence.key`, else a fresh id) and what is tracked.
        var presenceKey: String = ""
        var presenceMeta: [String: JSONValue]?
        var presenceRef: String = ""
    }

    /// One postgres_changes binding with its id (what the join reply and the events carry).
    struct Binding {
        var id: Int64
        /// `*`, `INSERT`, `UPDATE` or `DELETE` (Realtime upper-cases the client's word; others are `*`).
        var event: String
        var schema: String
        /// A table name, or `*`.
        var table: String
        var filter: RealtimeFilter
        /// `select`: the columns a subscriber asked for (the primary key always comes too).
        var selected: [String]?
    }

    /// Whether a subscriber sees a row: the SELECT policies under its claims. Replaceable only to
    /// prove the suites reject a feed that skips RLS.
    package typealias RowVisibility = @Sendable (_ database: Database, _ table: String, _ row: [String: JSONValue], _ auth: AuthContext) -> Bool
    let visibility: RowVisibility

    /// The SELECT policies of the database, as `realtime.apply_rls` runs them.
    package static let selectPolicies: RowVisibility = { db, table, row, auth in
        (try? db.allows(.select, table: table, row: row, as: auth)) ?? false
    }

    /// A service over `database`, verifying tokens with `jwtSecret`.
    package init(
        database: Database, jwtSecret: String, clock: WallClock, publication: RealtimePublication = .empty,
        visibility: @escaping RowVisibility = RealtimeService.selectPolicies
    ) {
        self.visibility = visibility
        self.database = database
        self.jwtSecret = jwtSecret
        self.clock = clock
        self.publication = publication
        database.addChangeListener { [weak self] changes in
            // Under the database lock: only look at who listens and enqueue.
            guard let self, self.hasSubscribers else { return }
            self.fanOut.async { self.deliver(changes) }
        }
    }

    /// Replaces the published tables (e.g. from `Contracts/<app>/realtime.json`).
    package func publish(_ publication: RealtimePublication) { lock.lock(); self.publication = publication; lock.unlock() }

    /// Whether any socket has joined a channel with postgres_changes bindings.
    var hasSubscribers: Bool {
        lock.lock(); defer { lock.unlock() }
        return clients.values.contains { $0.channels.values.contains { !$0.bindings.isEmpty } }
    }

    /// Topics joined now over every socket, one entry per joined channel (sorted).
    package var joinedTopics: [String] {
        lock.lock(); defer { lock.unlock() }
        return clients.values.flatMap { $0.channels.keys }.sorted()
    }

    /// Waits until changes committed so far have been fanned out (for tests that assert silence).
    package func flush() { fanOut.sync {} }

    // MARK: Upgrade

    /// The acceptor for `HTTPServer`: `/realtime/v1/websocket?apikey=…&vsn=1.0.0|2.0.0`.
    /// An unknown vsn is a 403 with no body (Phoenix's transport when the socket's serializer
    /// cannot be negotiated); a missing or refused apikey is Realtime's `UserSocket.handle_error`:
    /// 401 `{"error": …}` (the key may also come in `x-api-key`).
    package var acceptor: WebSocketAcceptor {
        { request in
            let path = request.path.hasSuffix("/") ? String(request.path.dropLast()) : request.path
            guard path == "/realtime/v1/websocket" || path == "/realtime/v1/websocket/websocket" else { return .pass }
            guard let version = PhoenixMessage.Version(rawValue: request.queryValue("vsn") ?? "1.0.0") else {
                return .reject(HTTPResponse(status: 403))
            }
            guard let key = request.headers["x-api-key"] ?? request.queryValue("apikey") ?? request.headers["apikey"] else {
                return .reject(.json(401, ["error": "API key is missing"]))
            }
            do {
                let auth = try self.verify(key)
                return .accept(SocketSession(service: self, version: version, apikey: key, auth: auth))
            } catch {
                return .reject(.json(401, ["error": .string((error as? RealtimeTokenError)?.upgradeMessage ?? "Error connecting to Realtime")]))
            }
        }
    }

    /// Binds one socket's serializer and apikey to the shared service.
    final class SocketSession: WebSocketSession, @unchecked Sendable {
        let service: RealtimeService
        let version: PhoenixMessage.Version
        let apikey: String
        let auth: AuthContext
        init(service: RealtimeService, version: PhoenixMessage.Version, apikey: String, auth: AuthContext) {
            self.service = service; self.version = version; self.apikey = apikey; self.auth = auth
        }
        func opened(_ connection: WebSocketConnection) { service.open(connection, Client(version: version, apikey: apikey, apikeyAuth: auth)) }
        func received(_ message: WebSocketMessage, on connection: WebSocketConnection) { service.received(message, on: connection) }
        func closed(_ connection: WebSocketConnection, code: UInt16?) { service.closed(connection, code: code) }
    }

    /// The claims of a token Realtime accepts (RealtimeToken.swift), as the database sees them.
    func verify(_ token: String) throws -> AuthContext {
        let claims = try RealtimeTokenError.verify(token, secret: jwtSecret, now: clock.now())
        return AuthContext(role: claims["role"]?.stringValue ?? "anon", claims: claims)
    }

    // MARK: WebSocketSession

    func open(_ connection: WebSocketConnection, _ client: Client) { lock.withLock { clients[connection] = client } }

    func closed(_ connection: WebSocketConnection, code: UInt16?) {
        let gone = lock.withLock { clients.removeValue(forKey: connection) }
        for ch in gone?.channels.values ?? [:].values { presenceLeft(ch) }
    }

    /// The reply helper handed to the handlers: `phx_reply` to the message being handled.
    typealias Reply = (_ status: String, _ response: JSONValue) -> Void

    /// The `phx_reply` to one push (its topic, `ref` and `join_ref`), sent on its connection.
    func replier(_ connection: WebSocketConnection, _ client: Client, topic: String, ref: String?, joinRef: String?) -> Reply {
        { status, response in
            self.send(
                connection, client,
                PhoenixMessage(
                    topic: topic, event: "phx_reply", payload: ["status": .string(status), "response": response], ref: ref, joinRef: joinRef))
        }
    }

    func received(_ message: WebSocketMessage, on connection: WebSocketConnection) {
        guard let client = lock.withLock({ clients[connection] }) else { return }
        if case .binary(let bytes) = message { return receivedBinary(bytes, on: connection, client) }
        guard case .text(let text) = message, let m = PhoenixMessage.decode(text, version: client.version) else {
            return // Phoenix drops frames it cannot decode as a message of the socket's serializer
        }
        let reply = replier(connection, client, topic: m.topic, ref: m.ref, joinRef: m.joinRef)
        if m.topic == "phoenix" && m.event == "heartbeat" {
            reply("ok", .object([:]))
            expireChannels(connection, client)
            return
        }
        if m.event == "phx_join" { return join(m, connection, client, reply) }
        lock.lock(); let joined = client.channels[m.topic] != nil; lock.unlock()
        // Phoenix.Socket (`handle_in(nil, …)`) acknowledges `phx_leave` of a topic the socket has
        // not joined, and answers anything else on it with `unmatched topic`.
        guard joined else {
            return m.event == "phx_leave" ? reply("ok", .object([:])) : reply("error", ["reason": "unmatched topic"])
        }
        guard !expired(m.topic, connection, client) else { return }
        switch m.event {
        case "phx_leave": leave(m, connection, client, reply)
        case "access_token": updateToken(m, connection, client)
        case "broadcast": broadcast(m, connection, client, reply)
        case "presence": presence(m, connection, client, reply)
        default: break // RealtimeChannel.handle_in/3: an unexpected message is logged, not answered
        }
    }

    func send(_ connection: WebSocketConnection, _ client: Client, _ m: PhoenixMessage) {
        connection.send(text: m.encode(client.version))
    }

    /// A `system` message (`push_system_message/5`).
    func system(
        _ connection: WebSocketConnection, _ client: Client, topic: String, joinRef: String?,
        extension ext: String, status: String, message: String
    ) {
        send(
            connection, client,
            PhoenixMessage(
                topic: topic, event: "system",
                payload: [
                    "extension": .string(ext), "status": .string(status), "message": .string(message),
                    "channel": .string(String(topic.dropFirst("realtime:".count)))
                ],
                joinRef: joinRef))
    }
}
