import Foundation

/// Joining, leaving and re-authorising channels, after supabase/realtime's
/// lib/realtime_web/channels/realtime_channel.ex (`join/3`, `handle_in("access_token", …)`,
/// `handle_info(:confirm_token, …)`, `handle_info(:postgres_subscribe, …)`) and
/// lib/extensions/postgres_cdc_rls/subscriptions.ex (`parse_subscription_params/1`, `create/5`).
extension RealtimeService {
    /// `phx_join` on `realtime:<name>`.
    ///
    /// In order: a topic name is required; the token (`access_token` or `user_token` of the
    /// payload, an `sb_` key or none meaning the socket's apikey) must verify with `role` and
    /// `exp`; a private channel needs a read policy on `realtime.messages`. The reply then echoes
    /// each postgres_changes binding with its id, and only afterwards are the bindings parsed
    /// and subscribed: a bad filter or an unpublished table is a `system` error on a joined
    /// channel (the join itself succeeded), success a `system` "Subscribed to PostgreSQL".
    func join(_ m: PhoenixMessage, _ connection: WebSocketConnection, _ client: Client, _ reply: Reply) {
        guard m.topic.hasPrefix("realtime:") else { return reply("error", ["reason": "unmatched topic"]) }
        let name = String(m.topic.dropFirst("realtime:".count))
        guard !name.isEmpty else { return reply("error", ["reason": "TopicNameRequired: You must provide a topic name"]) }
        // Phoenix replaces a channel joined again on the same topic (`:duplicate_join`).
        lock.lock(); let previous = client.channels.removeValue(forKey: m.topic); lock.unlock()
        if let previous { presenceLeft(previous) }

        let given = m.payload["access_token"]?.stringValue ?? m.payload["user_token"]?.stringValue
        let token = (given == nil || given!.hasPrefix("sb_")) ? client.apikey : given!
        let auth: AuthContext
        do { auth = try verify(token) } catch {
            return reply("error", ["reason": .string((error as? RealtimeTokenError)?.joinReason ?? "MalformedJWT: The token provided is not a valid JWT")])
        }
        let config = m.payload["config"]
        let isPrivate = config?["private"] == .bool(true) || config?["private"] == .string("true")
        if isPrivate, !channelPolicyAllows(auth) {
            return reply("error", ["reason": .string("Unauthorized: You do not have permissions to read from this Channel topic: \(name)")])
        }
        // The new API sends `config`; the old one derives one binding from the topic
        // (`schema[:table[:filter]]`), as `pg_change_params(false, …)` does.
        var params: [JSONValue] = []
        if let config {
            if case .array(let list)? = config["postgres_changes"] { params = list.filter { $0 != .null } }
        } else {
            let parts = name.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
            var p: [String: JSONValue] = ["schema": .string(parts[0])]
            if parts.count > 1 { p["table"] = .string(parts[1]) }
            if parts.count > 2 { p["filter"] = .string(parts[2]) }
            params = [.object(p)]
        }
        let echoed: [JSONValue] = params.map { p in
            var e = p.objectValue ?? [:]
            e["id"] = .int(Self.bindingID(p))
            return .object(e)
        }
        var channel = Channel(
            topic: m.topic, name: name, joinRef: m.joinRef ?? m.ref, token: token, auth: auth, bindings: [],
            broadcastSelf: Self.flag(config?["broadcast"]?["self"]), broadcastAck: Self.flag(config?["broadcast"]?["ack"]),
            isPrivate: isPrivate)
        let key = config?["presence"]?["key"]?.stringValue ?? ""
        channel.presenceKey = key.isEmpty ? UUID().uuidString.lowercased() : key
        lock.lock(); client.channels[m.topic] = channel; lock.unlock()
        reply("ok", ["postgres_changes": .array(echoed)])

        if !params.isEmpty {
            switch subscribe(params) {
            case .success(let bindings):
                lock.lock(); client.channels[m.topic]?.bindings = bindings; lock.unlock()
                system(
                    connection, client, topic: m.topic, joinRef: channel.joinRef, extension: "postgres_changes", status: "ok",
                    message: "Subscribed to PostgreSQL")
            case .failure(let e):
                system(connection, client, topic: m.topic, joinRef: channel.joinRef, extension: "postgres_changes", status: "error", message: e.message)
            }
        }
        if Self.flag(config?["presence"]?["enabled"]) {
            send(
                connection, client,
                PhoenixMessage(
                    topic: m.topic, event: "presence_state", payload: .object(presenceState(m.topic, isPrivate: isPrivate)), joinRef: channel.joinRef))
        }
    }

    /// Ecto's boolean cast as Realtime's FlexibleBoolean accepts it (`true`, `"true"`).
    static func flag(_ v: JSONValue?) -> Bool { v == .bool(true) || v == .string("true") }

    /// Whether a token may read a private channel: Realtime asks the RLS policies of
    /// `realtime.messages` (SELECT with `realtime.topic()`, extension `broadcast`/`presence`).
    /// None of the five documents uses private channels, so no app defines such a policy
    /// (Contracts/FORMAT.md, realtime.json): only a role that bypasses RLS may join one, as on a
    /// Supabase project with RLS on `realtime.messages` and no policy.
    func channelPolicyAllows(_ auth: AuthContext) -> Bool { auth.bypassesRLS }

    /// Parses every binding and subscribes it to a published table; the first failure is the
    /// text of the `system` error Realtime sends (`{:malformed_subscription_params, …}` or
    /// `{:subscription_insert_failed, …}`).
    func subscribe(_ params: [JSONValue]) -> Result<[Binding], RealtimeSpecError> {
        lock.lock(); let published = publication; lock.unlock()
        var out: [Binding] = []
        for p in params {
            var binding: Binding
            do { binding = try Self.parseBinding(p).get() } catch { return .failure(error) }
            let tables = database.schema.tables.filter { t in
                published.tables[t.qualifiedName] != nil && (binding.schema == "*" || binding.schema == t.schema)
                    && (binding.table == "*" || binding.table == t.name)
            }
            let logged = Self.paramsToLog(binding)
            guard !tables.isEmpty else {
                return .failure(
                    RealtimeSpecError(
                        message:
                            "Unable to subscribe to changes with given parameters. Please check Realtime is enabled for the given connect parameters: [\(logged)]"
                    ))
            }
            for t in tables {
                let problem =
                    binding.filter.validate(t)
                    ?? binding.selected.flatMap { sel in
                        sel.first { c in !t.columns.contains { $0.name == c } }.map { "invalid column for select \($0)" }
                    }
                if let problem {
                    return .failure(
                        RealtimeSpecError(
                            message:
                                "Unable to subscribe to changes with given parameters. An exception happened so please check your connect parameters: [\(logged)]. Exception: ERROR P0001 (raise_exception) \(problem)"
                        ))
                }
            }
            // One table: its uuid columns compare as uuids (`castingUUIDs`).
            if tables.count == 1 { binding.filter = binding.filter.castingUUIDs(in: tables[0]) }
            out.append(binding)
        }
        return .success(out)
    }

    /// `parse_subscription_params/1`.
    static func parseBinding(_ p: JSONValue) -> Result<Binding, RealtimeSpecError> {
        let o = p.objectValue ?? [:]
        let event = (o["event"]?.stringValue?.uppercased()).flatMap { ["INSERT", "UPDATE", "DELETE"].contains($0) ? $0 : nil } ?? "*"
        var selected: [String]?
        switch o["select"] {
        case .array(let cols)?:
            let names = cols.compactMap(\.stringValue)
            selected = names.isEmpty ? nil : names
        case .string?:
            return .failure(
                RealtimeSpecError(message: "Error parsing `select` params: expected a list of column name strings, e.g. select: [\"col1\", \"col2\"]"))
        default: break
        }
        let schema = o["schema"]?.stringValue, table = o["table"]?.stringValue, filterText = o["filter"]?.stringValue
        var filter = RealtimeFilter(conditions: [])
        let s: String, t: String
        if let schema, let table, let filterText {
            do { filter = try RealtimeFilter.parse(filterText).get() } catch { return .failure(error) }
            (s, t) = (schema, table)
        } else if let schema, let table, o["filter"] == nil {
            (s, t) = (schema, table)
        } else if let schema, o["table"] == nil, o["filter"] == nil {
            (s, t) = (schema, "*")
        } else if let table, o["schema"] == nil, o["filter"] == nil {
            (s, t) = ("public", table)
        } else {
            return .failure(
                RealtimeSpecError(
                    message: "No subscription params provided. Please provide at least a `schema` or `table` to subscribe to: \(elixirInspect(p))"))
        }
        if selected != nil, s == "*" || t == "*" {
            return .failure(
                RealtimeSpecError(message: "Column selection is not supported for wildcard subscriptions. Provide an explicit schema and table name."))
        }
        return .success(Binding(id: bindingID(p), event: event, schema: s, table: t, filter: filter, selected: selected))
    }

    /// `params_to_log/1` as it reads in the message: `event: "*", schema: "public", …`.
    static func paramsToLog(_ b: Binding) -> String {
        let filters = b.filter.conditions.map { c in
            "{\"\(c.column)\", \"\(c.op.rawValue)\", \"\(c.op == .in ? "{" + c.values.joined(separator: ",") + "}" : c.values.first ?? "")\", \(c.negate)}"
        }
        let select = b.selected.map { RealtimeFilter.inspect($0) } ?? "nil"
        return "event: \"\(b.event)\", schema: \"\(b.schema)\", table: \"\(b.table)\", filters: [\(filters.joined(separator: ", "))], select: \(select)"
    }

    /// Elixir's `inspect` of a decoded JSON map (`%{"a" => 1}`), for the no-params message.
    static func elixirInspect(_ v: JSONValue) -> String {
        switch v {
        case .object(let o): return "%{" + o.keys.sorted().map { "\"\($0)\" => \(elixirInspect(o[$0]!))" }.joined(separator: ", ") + "}"
        case .array(let a): return "[" + a.map(elixirInspect).joined(separator: ", ") + "]"
        case .null: return "nil"
        default: return v.serialized()
        }
    }

    /// A binding's id: a stable hash of its parameters in 0..<2^27, as `:erlang.phash2/1` gives
    /// (the value differs from Erlang's; clients only match it against the events' `ids`).
    static func bindingID(_ params: JSONValue) -> Int64 {
        Int64(SeededRandom.fnv1a(params.serialized().utf8) % (1 << 27))
    }

    // MARK: Leave

    /// `phx_leave`: ok, then `phx_close` (Phoenix closes a channel that leaves normally).
    func leave(_ m: PhoenixMessage, _ connection: WebSocketConnection, _ client: Client, _ reply: Reply) {
        lock.lock(); let had = client.channels.removeValue(forKey: m.topic); lock.unlock()
        reply("ok", .object([:]))
        if let had {
            presenceLeft(had)
            send(connection, client, PhoenixMessage(topic: m.topic, event: "phx_close", payload: .object([:]), ref: had.joinRef, joinRef: had.joinRef))
        }
    }

    /// `shutdown_response/2`: a `system` error with `message`, then the channel stops and
    /// Phoenix sends `phx_close`.
    func shutdown(_ topic: String, _ connection: WebSocketConnection, _ client: Client, message: String) {
        lock.lock(); let had = client.channels.removeValue(forKey: topic); lock.unlock()
        guard let had else { return }
        presenceLeft(had)
        system(connection, client, topic: topic, joinRef: had.joinRef, extension: "system", status: "error", message: message)
        send(connection, client, PhoenixMessage(topic: topic, event: "phx_close", payload: .object([:]), ref: had.joinRef, joinRef: had.joinRef))
    }

    // MARK: Tokens

    /// `access_token`: an `sb_` key, the same token or none changes nothing; a token that
    /// verifies replaces the channel's claims (later events are checked under them); any other
    /// shuts the channel down with the message without its code.
    func updateToken(_ m: PhoenixMessage, _ connection: WebSocketConnection, _ client: Client) {
        guard let token = m.payload["access_token"]?.stringValue, !token.hasPrefix("sb_") else { return }
        lock.lock(); let current = client.channels[m.topic]; lock.unlock()
        guard let current, current.token != token else { return }
        do {
            let auth = try verify(token)
            if current.isPrivate, !channelPolicyAllows(auth) {
                return shutdown(m.topic, connection, client, message: "You no longer have permission to read from this Channel topic: \(current.name)")
            }
            lock.lock(); client.channels[m.topic]?.auth = auth; client.channels[m.topic]?.token = token; lock.unlock()
        } catch {
            shutdown(m.topic, connection, client, message: (error as? RealtimeTokenError)?.message ?? "The token provided is not a valid JWT")
        }
    }

    /// Realtime re-confirms a channel's token on a timer that fires when it expires
    /// (`handle_info(:confirm_token, …)`): the channel is shut down with "Token has expired N
    /// seconds ago". The mock makes the same check whenever the channel would next act —
    /// a message on it, a heartbeat of its socket, an event for it — so no event reaches a
    /// channel whose token has expired. Returns whether `topic` was shut down.
    @discardableResult
    func expired(_ topic: String, _ connection: WebSocketConnection, _ client: Client) -> Bool {
        lock.lock(); let ch = client.channels[topic]; lock.unlock()
        guard let ch, let exp = ch.auth.claims["exp"]?.doubleValue else { return false }
        let now = clock.now().timeIntervalSince1970.rounded(.down)
        guard exp <= now else { return false }
        shutdown(topic, connection, client, message: RealtimeTokenError.expired(secondsAgo: Int(now - exp)).message)
        return true
    }

    /// `expired` for every channel of a socket.
    func expireChannels(_ connection: WebSocketConnection, _ client: Client) {
        lock.lock(); let topics = Array(client.channels.keys); lock.unlock()
        for t in topics { expired(t, connection, client) }
    }
}
