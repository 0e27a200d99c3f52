import Foundation

/// Supabase Realtime over the loopback server's WebSockets: the Phoenix protocol of
/// `/realtime/v1/websocket` (heartbeat, `phx_join` on `realtime:<name>`, `access_token`,
/// `phx_leave`, broadcast) and postgres_changes from the mock's database, each event re-checked
/// under the subscriber's claims as `realtime.apply_rls` does (supabase/realtime,
/// lib/realtime/tenants/repo/migrations/*apply_rls*): INSERT and UPDATE reach a subscriber whose
/// SELECT policies see the new row; DELETE cannot be checked against a row that is gone, so it
/// reaches every matching subscriber with the primary key only when RLS is on; a role that may
/// not select the table gets `"errors": ["Error 401: Unauthorized"]` and no record.
///
/// Changes are fanned out on one serial queue in commit order (the database hands them over
/// under its lock; the RLS checks run after it is released).
public final class RealtimeService: @unchecked Sendable {
    private let database: Database
    private let jwtSecret: String
    private let clock: Clock
    private let lock = NSLock()
    private var publication: RealtimePublication
    private var clients: [WebSocketConnection: Client] = [:]
    private let fanOut = DispatchQueue(label: "realtime.postgres_changes")

    /// One socket: its serializer, its apikey's claims and its channels by topic.
    final class Client {
        let version: PhoenixMessage.Version
        let apikeyAuth: AuthContext
        var channels: [String: Channel] = [:]
        init(version: PhoenixMessage.Version, apikeyAuth: AuthContext) { self.version = version; self.apikeyAuth = apikeyAuth }
    }

    /// A joined channel.
    struct Channel {
        var topic: String
        var joinRef: String?
        var auth: AuthContext
        var bindings: [Binding]
        var broadcastSelf: Bool
        var broadcastAck: Bool
        /// The presence key (`config.presence.key`, else a fresh id) and what is tracked.
        var presenceKey: String = ""
        var presenceMeta: [String: JSONValue]?
        var presenceRef: String = ""
    }

    /// One postgres_changes binding with its server-assigned id.
    struct Binding {
        var id: Int64
        var event: String
        var schema: String
        var table: String?
        var filter: RealtimeFilter?
    }

    /// Whether a subscriber sees a row: the SELECT policies under its claims. Replaceable only to
    /// prove the suites reject a feed that skips RLS.
    public typealias RowVisibility = @Sendable (_ database: Database, _ table: String, _ row: [String: JSONValue], _ auth: AuthContext) -> Bool
    private let visibility: RowVisibility

    /// The SELECT policies of the database, as `realtime.apply_rls` runs them.
    public static let selectPolicies: RowVisibility = { db, table, row, auth in
        (try? db.allows(.select, table: table, row: row, as: auth)) ?? false
    }

    /// A service over `database`, verifying tokens with `jwtSecret`.
    public init(database: Database, jwtSecret: String, clock: Clock, publication: RealtimePublication = .empty,
                visibility: @escaping RowVisibility = RealtimeService.selectPolicies) {
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

    /// The published tables.
    public var publishedTables: RealtimePublication { lock.lock(); defer { lock.unlock() }; return publication }

    /// Replaces the published tables (e.g. from `Contracts/<app>/realtime.json`).
    public func publish(_ publication: RealtimePublication) { lock.lock(); self.publication = publication; lock.unlock() }

    /// Whether any socket has joined a channel with postgres_changes bindings.
    var hasSubscribers: Bool {
        lock.lock(); defer { lock.unlock() }
        return clients.values.contains { $0.channels.values.contains { !$0.bindings.isEmpty } }
    }

    /// Sockets open now.
    public var connectedClients: Int { lock.lock(); defer { lock.unlock() }; return clients.count }

    /// Waits until changes committed so far have been fanned out (for tests that assert silence).
    public func flush() { fanOut.sync {} }

    // MARK: Upgrade

    /// The acceptor for `HTTPServer`: `/realtime/v1/websocket?apikey=…&vsn=1.0.0|2.0.0`.
    /// A missing or invalid apikey is refused with 403, as Realtime's socket `connect` refusing
    /// makes Phoenix answer; an unknown vsn with 400.
    public var acceptor: WebSocketAcceptor {
        { request in
            let path = request.path.hasSuffix("/") ? String(request.path.dropLast()) : request.path
            guard path == "/realtime/v1/websocket" || path == "/realtime/v1/websocket/websocket" else { return .pass }
            guard let version = PhoenixMessage.Version(rawValue: request.queryValue("vsn") ?? "1.0.0") else {
                return .reject(.json(400, ["message": "unsupported vsn"]))
            }
            guard let key = request.queryValue("apikey") ?? request.headers["apikey"], let auth = try? self.verify(key) else {
                return .reject(.json(403, ["message": "Invalid or missing apikey"]))
            }
            return .accept(SocketSession(service: self, version: version, auth: auth))
        }
    }

    /// Binds one socket's serializer and apikey to the shared service.
    final class SocketSession: WebSocketSession, @unchecked Sendable {
        let service: RealtimeService
        let version: PhoenixMessage.Version
        let auth: AuthContext
        init(service: RealtimeService, version: PhoenixMessage.Version, auth: AuthContext) {
            self.service = service; self.version = version; self.auth = auth
        }
        func opened(_ connection: WebSocketConnection) { service.open(connection, version, auth) }
        func received(_ message: WebSocketMessage, on connection: WebSocketConnection) { service.received(message, on: connection) }
        func closed(_ connection: WebSocketConnection, code: UInt16?) { service.closed(connection, code: code) }
    }

    func verify(_ token: String) throws -> AuthContext {
        let claims = try JWT.verify(token, secret: jwtSecret, now: clock.now())
        return AuthContext(role: claims["role"]?.stringValue ?? "anon", claims: claims)
    }

    // MARK: WebSocketSession

    func open(_ connection: WebSocketConnection, _ version: PhoenixMessage.Version, _ auth: AuthContext) {
        lock.lock(); clients[connection] = Client(version: version, apikeyAuth: auth); lock.unlock()
    }

    func closed(_ connection: WebSocketConnection, code: UInt16?) {
        lock.lock()
        let gone = clients.removeValue(forKey: connection)
        lock.unlock()
        for ch in gone?.channels.values ?? [:].values { presenceLeft(ch) }
    }

    func received(_ message: WebSocketMessage, on connection: WebSocketConnection) {
        lock.lock()
        let client = clients[connection]
        lock.unlock()
        guard let client else { return }
        guard case .text(let text) = message, let m = PhoenixMessage.decode(text, version: client.version) else {
            return  // Phoenix drops frames it cannot decode as a message of the socket's serializer
        }
        func reply(_ status: String, _ response: JSONValue, topic: String? = nil) {
            send(connection, client, PhoenixMessage(topic: topic ?? m.topic, event: "phx_reply",
                                                    payload: ["status": .string(status), "response": response], ref: m.ref, joinRef: m.joinRef))
        }
        if m.topic == "phoenix" {
            if m.event == "heartbeat" { reply("ok", .object([:])) }
            return
        }
        switch m.event {
        case "phx_join": join(m, connection, client, reply)
        case "phx_leave":
            lock.lock(); let had = client.channels.removeValue(forKey: m.topic); lock.unlock()
            reply("ok", .object([:]))
            if let had {
                presenceLeft(had)
                send(connection, client, PhoenixMessage(topic: m.topic, event: "phx_close", payload: .object([:]), ref: had.joinRef, joinRef: had.joinRef))
            }
        case "access_token": updateToken(m, connection, client)
        case "broadcast": broadcast(m, connection, client, reply)
        case "presence": presence(m, connection, client, reply)
        default:
            lock.lock(); let joined = client.channels[m.topic] != nil; lock.unlock()
            if !joined { reply("error", ["reason": "unmatched topic"]) }
        }
    }

    private func send(_ connection: WebSocketConnection, _ client: Client, _ m: PhoenixMessage) {
        connection.send(text: m.encode(client.version))
    }

    /// The reason Realtime gives when a token is refused (RealtimeChannel.Logging `"Code: message"`).
    func tokenError(_ error: Error) -> String {
        switch error as? JWTError {
        case .expired?: return "InvalidJWTToken: Token has expired"
        case .invalidSignature?: return "JwtSignatureError: Failed to validate JWT signature"
        default: return "MalformedJWT: The token provided is not a valid JWT"
        }
    }

    // MARK: Join

    private func join(_ m: PhoenixMessage, _ connection: WebSocketConnection, _ client: Client, _ reply: (String, JSONValue, String?) -> Void) {
        guard m.topic.hasPrefix("realtime:") else { return reply("error", ["reason": "unmatched topic"], nil) }
        let name = String(m.topic.dropFirst("realtime:".count))
        guard !name.isEmpty else { return reply("error", ["reason": "TopicNameRequired: You must provide a topic name"], nil) }
        let auth: AuthContext
        if let token = m.payload["access_token"]?.stringValue ?? m.payload["user_token"]?.stringValue, !token.hasPrefix("sb_") {
            do { auth = try verify(token) } catch { return reply("error", ["reason": .string(tokenError(error))], nil) }
        } else {
            auth = client.apikeyAuth
        }
        let config = m.payload["config"]
        var bindings: [Binding] = []
        var echoed: [JSONValue] = []
        if case .array(let list)? = config?["postgres_changes"] {
            for entry in list where entry != .null {
                let filterText = entry["filter"]?.stringValue
                var filter: RealtimeFilter?
                if let filterText, !filterText.isEmpty {
                    switch RealtimeFilter.parse(filterText) {
                    case .success(let f): filter = f
                    case .failure(let e):
                        // Realtime joins, then reports the subscription failure as a system message.
                        reply("error", ["reason": .string(e.message)], nil)
                        return
                    }
                }
                let id = Self.bindingID(entry)
                bindings.append(Binding(id: id, event: entry["event"]?.stringValue ?? "*", schema: entry["schema"]?.stringValue ?? "public",
                                        table: entry["table"]?.stringValue, filter: filter))
                var e = entry.objectValue ?? [:]
                e["id"] = .int(id)
                echoed.append(.object(e))
            }
        }
        let channel = Channel(topic: m.topic, joinRef: m.joinRef ?? m.ref, auth: auth, bindings: bindings,
                              broadcastSelf: config?["broadcast"]?["self"] == .bool(true),
                              broadcastAck: config?["broadcast"]?["ack"] == .bool(true))
        var joined = channel
        let key = config?["presence"]?["key"]?.stringValue ?? ""
        joined.presenceKey = key.isEmpty ? UUID().uuidString.lowercased() : key
        lock.lock(); client.channels[m.topic] = joined; lock.unlock()
        reply("ok", ["postgres_changes": .array(echoed)], nil)
        if !bindings.isEmpty {
            send(connection, client, PhoenixMessage(topic: m.topic, event: "system",
                                                    payload: ["extension": "postgres_changes", "status": "ok",
                                                              "message": "Subscribed to PostgreSQL", "channel": .string(name)],
                                                    joinRef: m.joinRef))
        }
        if config?["presence"]?["enabled"] == .bool(true) {
            send(connection, client, PhoenixMessage(topic: m.topic, event: "presence_state", payload: .object(presenceState(m.topic)), joinRef: m.joinRef))
        }
    }

    /// A binding's id: a stable hash of its parameters in 0..<2^27, as `:erlang.phash2/1` gives
    /// (the value differs from Erlang's; clients only match it against the events' `ids`).
    static func bindingID(_ params: JSONValue) -> Int64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in params.serialized().utf8 { h = (h ^ UInt64(b)) &* 0x0000_0100_0000_01B3 }
        return Int64(h % (1 << 27))
    }

    private func updateToken(_ m: PhoenixMessage, _ connection: WebSocketConnection, _ client: Client) {
        guard let token = m.payload["access_token"]?.stringValue, !token.hasPrefix("sb_") else { return }
        do {
            let auth = try verify(token)
            lock.lock(); client.channels[m.topic]?.auth = auth; lock.unlock()
        } catch {
            // RealtimeChannel.shutdown_response: a system error, then the channel stops.
            lock.lock(); let had = client.channels.removeValue(forKey: m.topic); lock.unlock()
            send(connection, client, PhoenixMessage(topic: m.topic, event: "system",
                                                    payload: ["extension": "system", "status": "error", "message": .string(tokenError(error)),
                                                              "channel": .string(String(m.topic.dropFirst("realtime:".count)))],
                                                    joinRef: had?.joinRef))
            send(connection, client, PhoenixMessage(topic: m.topic, event: "phx_close", payload: .object([:]), ref: had?.joinRef, joinRef: had?.joinRef))
        }
    }

    // MARK: Broadcast

    private func broadcast(_ m: PhoenixMessage, _ connection: WebSocketConnection, _ client: Client, _ reply: (String, JSONValue, String?) -> Void) {
        lock.lock()
        guard let mine = client.channels[m.topic] else { lock.unlock(); return reply("error", ["reason": "unmatched topic"], nil) }
        var targets: [(WebSocketConnection, Client, Channel)] = []
        for (conn, other) in clients {
            guard let ch = other.channels[m.topic] else { continue }
            if conn == connection && !mine.broadcastSelf { continue }
            targets.append((conn, other, ch))
        }
        lock.unlock()
        for (conn, other, ch) in targets {
            send(conn, other, PhoenixMessage(topic: m.topic, event: "broadcast", payload: m.payload, joinRef: ch.joinRef))
        }
        if mine.broadcastAck { reply("ok", .object([:]), nil) }
    }

    // MARK: Broadcast over HTTP

    /// `POST /realtime/v1/api/broadcast` with `{"messages": [{"topic", "event", "payload"}]}`:
    /// each message reaches the sockets joined to `realtime:<topic>` as a `broadcast`; answers 202
    /// with no body (Realtime's BroadcastController). A missing or invalid apikey is 401.
    public func handleBroadcastAPI(_ request: HTTPRequest) -> HTTPResponse {
        guard request.method == "POST" else { return .json(405, ["message": "method not allowed"]) }
        let bearer = request.headers["Authorization"].flatMap { $0.hasPrefix("Bearer ") ? String($0.dropFirst(7)) : nil }
        guard let token = bearer ?? request.headers["apikey"], (try? verify(token)) != nil else {
            return .json(401, ["message": "Invalid token"])
        }
        guard let body = try? JSONValue.parse(request.body), case .array(let messages)? = body["messages"],
              messages.allSatisfy({ $0["topic"]?.stringValue != nil && $0["event"]?.stringValue != nil }) else {
            return .json(400, ["message": "messages must be a list of {topic, event, payload}"])
        }
        for message in messages {
            let topic = "realtime:" + (message["topic"]?.stringValue ?? "")
            lock.lock()
            let targets = clients.compactMap { conn, client in client.channels[topic].map { (conn, client, $0.joinRef) } }
            lock.unlock()
            let payload: JSONValue = ["type": "broadcast", "event": message["event"] ?? .null, "payload": message["payload"] ?? .object([:])]
            for (conn, client, joinRef) in targets {
                send(conn, client, PhoenixMessage(topic: topic, event: "broadcast", payload: payload, joinRef: joinRef))
            }
        }
        return HTTPResponse(status: 202)
    }

    // MARK: Presence

    /// `{key: {metas: [{phx_ref, …meta}]}}` of everyone tracked on a topic.
    private func presenceState(_ topic: String) -> [String: JSONValue] {
        lock.lock(); defer { lock.unlock() }
        var state: [String: [JSONValue]] = [:]
        for client in clients.values {
            guard let ch = client.channels[topic], let meta = ch.presenceMeta else { continue }
            var m = meta
            m["phx_ref"] = .string(ch.presenceRef)
            state[ch.presenceKey, default: []].append(.object(m))
        }
        return state.mapValues { ["metas": .array($0)] }
    }

    /// Sends a `presence_diff` to every socket on the topic (the tracker's own included).
    private func presenceDiff(_ topic: String, joins: [String: JSONValue], leaves: [String: JSONValue]) {
        lock.lock()
        let targets = clients.compactMap { conn, client in client.channels[topic].map { (conn, client, $0.joinRef) } }
        lock.unlock()
        for (conn, client, joinRef) in targets {
            send(conn, client, PhoenixMessage(topic: topic, event: "presence_diff", payload: ["joins": .object(joins), "leaves": .object(leaves)], joinRef: joinRef))
        }
    }

    private func presenceEntry(_ ch: Channel) -> [String: JSONValue] {
        var m = ch.presenceMeta ?? [:]
        m["phx_ref"] = .string(ch.presenceRef)
        return [ch.presenceKey: ["metas": [.object(m)]]]
    }

    /// Announces that a channel that tracked presence has gone.
    private func presenceLeft(_ ch: Channel) {
        guard ch.presenceMeta != nil else { return }
        presenceDiff(ch.topic, joins: [:], leaves: presenceEntry(ch))
    }

    /// `{"type": "presence", "event": "track"|"untrack", "payload": meta}`.
    private func presence(_ m: PhoenixMessage, _ connection: WebSocketConnection, _ client: Client, _ reply: (String, JSONValue, String?) -> Void) {
        lock.lock()
        guard var ch = client.channels[m.topic] else { lock.unlock(); return reply("error", ["reason": "unmatched topic"], nil) }
        let before = ch.presenceMeta == nil ? nil : ch
        switch m.payload["event"]?.stringValue {
        case "track":
            ch.presenceMeta = m.payload["payload"]?.objectValue ?? [:]
            ch.presenceRef = String(UInt64.random(in: 1...UInt64(Int64.max)), radix: 36)
        case "untrack":
            ch.presenceMeta = nil
        default:
            lock.unlock()
            return reply("error", ["reason": "unknown presence event"], nil)
        }
        client.channels[m.topic] = ch
        lock.unlock()
        reply("ok", .object([:]), nil)
        let joins = ch.presenceMeta == nil ? [:] : presenceEntry(ch)
        let leaves = before.map(presenceEntry) ?? [:]
        if !joins.isEmpty || !leaves.isEmpty { presenceDiff(m.topic, joins: joins, leaves: leaves) }
    }

    // MARK: postgres_changes

    private func deliver(_ changes: [RowChange]) {
        lock.lock()
        let published = publication
        let snapshot = clients.map { ($0.key, $0.value, Array($0.value.channels.values)) }
        lock.unlock()
        let stamp = ISO8601DateFormatter()
        stamp.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        stamp.timeZone = TimeZone(identifier: "UTC")
        let policies = database.policies
        for change in changes {
            let t = change.table
            guard let identity = published.tables[t.qualifiedName] else { continue }
            let (changeNew, changeOld) = (change.new, change.old)
            let rls = policies.table(t.name)?.rlsEnabled ?? false
            let pk = Set(t.primaryKey)
            let oldRow: [String: JSONValue]? = changeOld.map { old in
                identity == .full ? old : old.filter { pk.contains($0.key) }
            }
            for (conn, client, channels) in snapshot {
                for ch in channels {
                    let ids = ch.bindings.filter { b in
                        b.schema == t.schema && (b.table == nil || b.table == "*" || b.table == t.name)
                            && (b.event == "*" || b.event == change.event.rawValue)
                            && (b.filter.map { f in (changeNew.map(f.matches) ?? false) || (change.event == .delete && (oldRow.map(f.matches) ?? false)) } ?? true)
                    }.map(\.id)
                    guard !ids.isEmpty else { continue }
                    var data: [String: JSONValue] = ["schema": .string(t.schema), "table": .string(t.name), "type": .string(change.event.rawValue)]
                    let role = ch.auth.role
                    if !ch.auth.bypassesRLS, policies.table(t.name)?.revoked[role]?.contains(.select) == true || t.schema != "public" {
                        data["errors"] = ["Error 401: Unauthorized"]
                        data["columns"] = []
                        data["commit_timestamp"] = .string(stamp.string(from: change.commitTime))
                        send(conn, client, PhoenixMessage(topic: ch.topic, event: "postgres_changes", payload: ["ids": .array(ids.map(JSONValue.int)), "data": .object(data)], joinRef: ch.joinRef))
                        continue
                    }
                    if change.event != .delete, rls, let new = changeNew {
                        guard visibility(database, t.name, new, ch.auth) else { continue }
                    }
                    data["commit_timestamp"] = .string(stamp.string(from: change.commitTime))
                    data["columns"] = .array(t.columns.map { ["name": .string($0.name), "type": .string(Self.typname($0.type))] })
                    data["errors"] = .null
                    if let new = changeNew { data["record"] = .object(new) }
                    if change.event != .insert, var old = oldRow {
                        if change.event == .delete && rls { old = old.filter { pk.contains($0.key) } }
                        data["old_record"] = .object(old)
                    }
                    send(conn, client, PhoenixMessage(topic: ch.topic, event: "postgres_changes",
                                                      payload: ["ids": .array(ids.map(JSONValue.int)), "data": .object(data)], joinRef: ch.joinRef))
                }
            }
        }
    }

    /// `pg_type.typname` of a column type (what Realtime's `columns` list carries).
    static func typname(_ type: SQLType) -> String {
        switch type {
        case .uuid: return "uuid"
        case .text: return "text"
        case .smallint: return "int2"
        case .integer: return "int4"
        case .bigint: return "int8"
        case .real: return "float4"
        case .double: return "float8"
        case .numeric: return "numeric"
        case .boolean: return "bool"
        case .timestamptz: return "timestamptz"
        case .timestamp: return "timestamp"
        case .date: return "date"
        case .time: return "time"
        case .jsonb: return "jsonb"
        case .json: return "json"
        case .enumeration(let name, _): return name
        case .array(let t): return "_" + typname(t)
        }
    }
}
