import Foundation

/// postgres_changes from the mock's database, shaped and filtered as supabase/realtime's
/// `realtime.apply_rls` (lib/realtime/tenants/repo/migrations/20260709120000_fix_apply_rls_filter_role_leak.ex)
/// and `realtime.list_changes` (…/20260326120000_list_changes_with_slot_count.ex) do, then sent
/// as `{"ids": [binding ids], "data": …}` (lib/extensions/postgres_cdc_rls/message_dispatcher.ex).
///
/// - A role without SELECT on the table gets, for INSERT and UPDATE, only
///   `{"schema","table","type","columns":[],"commit_timestamp":null,"errors":["Error 401: Unauthorized"]}`
///   plus an empty `record` (and `old_record` for UPDATE), on every binding of the table and
///   event whatever its filter.
/// - Otherwise a binding whose filter passes (for DELETE, the new row or the old identity)
///   gets the change if RLS is off, if it is a DELETE (which cannot be checked against a row
///   that is gone), or if the SELECT policies under its claims see the new row.
/// - `record` on INSERT/UPDATE, `old_record` on UPDATE/DELETE: the replica identity's columns
///   (the primary key unless `full`), and only the primary key on a DELETE when RLS is on.
/// - `select` narrows `columns`, `record` and `old_record` to those columns and the primary key.
/// - `commit_timestamp` is `YYYY-MM-DDTHH:MM:SS.mmmZ`; `errors` is null.
extension RealtimeService {
    func deliver(_ changes: [RowChange]) {
        let (published, snapshot) = lock.withLock { (publication, clients.map { ($0.key, $0.value, Array($0.value.channels.values)) }) }
        let stamp = ISO8601DateFormatter()
        stamp.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        stamp.timeZone = TimeZone(identifier: "UTC")
        let policies = database.policies
        var expiredChecked = Set<String>()
        for change in changes {
            let t = change.table
            guard let identity = published.tables[t.qualifiedName] else { continue }
            let event = change.event.rawValue
            let rls = policies.table(t.name)?.rlsEnabled ?? false
            let pk = Set(t.primaryKey)
            let newRow = change.new
            let identityRow: [String: JSONValue]? = change.old.map { old in identity == .full ? old : old.filter { pk.contains($0.key) } }
            // One serialization per distinct payload of this change (subscribers with the same
            // binding ids and `select` get the same bytes; only topic and join_ref differ).
            var encoded: [DataKey: String] = [:]
            for (conn, client, channels) in snapshot {
                for ch in channels {
                    let candidates = ch.bindings.filter { b in
                        (b.schema == "*" || b.schema == t.schema) && (b.table == "*" || b.table == t.name) && (b.event == "*" || b.event == event)
                    }
                    guard !candidates.isEmpty else { continue }
                    // The channel's token is re-confirmed before anything more reaches it.
                    let key = "\(conn.hashValue)|\(ch.topic)"
                    if !expiredChecked.contains(key) {
                        expiredChecked.insert(key)
                        if expired(ch.topic, conn, client) { continue }
                    }
                    let role = ch.auth.role
                    let mayRead = ch.auth.bypassesRLS || (t.schema == "public" && policies.table(t.name)?.revoked[role]?.contains(.select) != true)
                    if !mayRead, change.event == .delete {
                        // The DELETE branch of apply_rls: no column is selectable, so the lists are empty.
                        let ids = candidates.filter { b in identityRow.map(b.filter.matches) ?? false }.map { JSONValue.int($0.id) }
                        guard !ids.isEmpty else { continue }
                        let data: [String: JSONValue] = [
                            "schema": .string(t.schema), "table": .string(t.name), "type": .string(event), "columns": [],
                            "commit_timestamp": .string(stamp.string(from: change.commitTime)), "errors": .null, "old_record": .object([:])
                        ]
                        send(
                            conn, client,
                            PhoenixMessage(
                                topic: ch.topic, event: "postgres_changes", payload: ["ids": .array(ids), "data": .object(data)], joinRef: ch.joinRef))
                        continue
                    }
                    if !mayRead {
                        var data: [String: JSONValue] = [
                            "schema": .string(t.schema), "table": .string(t.name), "type": .string(event),
                            "columns": [], "commit_timestamp": .null, "errors": ["Error 401: Unauthorized"],
                            "record": .object([:])
                        ]
                        if change.event == .update { data["old_record"] = .object([:]) }
                        send(
                            conn, client,
                            PhoenixMessage(
                                topic: ch.topic, event: "postgres_changes",
                                payload: ["ids": .array(candidates.map { .int($0.id) }), "data": .object(data)], joinRef: ch.joinRef))
                        continue
                    }
                    let matching = candidates.filter { b in
                        (newRow.map(b.filter.matches) ?? false) || (change.event == .delete && (identityRow.map(b.filter.matches) ?? false))
                    }
                    guard !matching.isEmpty else { continue }
                    if change.event != .delete, rls, let new = newRow, !ch.auth.bypassesRLS {
                        guard visibility(database, t.name, new, ch.auth) else { continue }
                    }
                    // One message per distinct `select` (apply_rls's inner loop).
                    var groups: [[String]?: [Int64]] = [:]
                    for b in matching { groups[b.selected.map { Array(Set($0)).sorted() }, default: []].append(b.id) }
                    for (selected, ids) in groups.sorted(by: { ($0.key?.joined(separator: ",") ?? "") < ($1.key?.joined(separator: ",") ?? "") }) {
                        func keep(_ name: String) -> Bool { selected == nil || selected!.contains(name) || pk.contains(name) }
                        var data: [String: JSONValue] = [
                            "schema": .string(t.schema), "table": .string(t.name), "type": .string(event),
                            "commit_timestamp": .string(stamp.string(from: change.commitTime)), "errors": .null
                        ]
                        data["columns"] = .array(t.columns.filter { keep($0.name) }.map { ["name": .string($0.name), "type": .string($0.type.typname)] })
                        if let new = newRow { data["record"] = .object(new.filter { keep($0.key) }) }
                        if change.event != .insert, let old = identityRow {
                            data["old_record"] = .object(old.filter { keep($0.key) && (change.event != .delete || !rls || pk.contains($0.key)) })
                        }
                        let key = DataKey(selected: selected, ids: ids)
                        let payload =
                            encoded[key]
                            ?? {
                                let text = JSONValue.object(["ids": .array(ids.map(JSONValue.int)), "data": .object(data)]).serialized()
                                encoded[key] = text
                                return text
                            }()
                        conn.send(
                            text: PhoenixMessage.encode(client.version, topic: ch.topic, event: "postgres_changes", payloadJSON: payload, joinRef: ch.joinRef))
                    }
                }
            }
        }
    }
    /// What makes one change's payload differ between subscribers.
    struct DataKey: Hashable {
        var selected: [String]?
        var ids: [Int64]
    }
}
