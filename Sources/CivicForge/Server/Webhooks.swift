import Foundation
import MockSupabase
import MockBinding

/// The mock's pg_net for CivicForge's database webhooks (sql/005_webhooks.sql): the
/// `<table>_push_<event>` triggers queue a request here, and `deliver` is pg_net's worker,
/// sending each to its Edge Function with the service-role key.
package final class WebhookOutbox: @unchecked Sendable {
    /// One queued request (`net.http_request_queue`).
    package struct Request: Sendable, Equatable {
        /// The trigger that queued it.
        package var trigger: String
        /// The Edge Function (`/functions/v1/<function>`).
        package var function: String
        /// The webhook payload `{type, table, schema, record, old_record}`.
        package var payload: JSONValue
    }

    private let lock = NSLock()
    private var queued: [Request] = []
    /// Most requests kept undelivered; older ones are dropped (a backend nobody delivers for, like
    /// `contracts serve`, must not grow without bound).
    package let capacity: Int

    package init(capacity: Int = 10_000) { self.capacity = max(1, capacity) }

    /// Requests not yet delivered, oldest first.
    package var pending: [Request] { lock.withLock { queued } }

    func append(_ r: Request) {
        lock.withLock {
            queued.append(r)
            if queued.count > capacity { queued.removeFirst(queued.count - capacity) }
        }
    }

    /// Sends every queued request to `backend` (POST /functions/v1/<function>, service role) and
    /// empties the queue. A request whose INSERTed row is gone (the statement failed after the
    /// trigger ran) is dropped unsent, as pg_net never sees a rolled-back request.
    package func deliver(to backend: MockSupabase) -> [(request: Request, response: HTTPResponse)] {
        let batch: [Request] = lock.withLock {
            let b = queued; queued = []; return b
        }
        var out: [(request: Request, response: HTTPResponse)] = []
        for r in batch {
            if r.payload["type"] == "INSERT", let table = r.payload["table"]?.stringValue, let id = r.payload["record"]?["id"]?.stringValue,
                ((try? backend.database.rows(table, where: .eq("id", id))) ?? []).isEmpty
            {
                continue
            }
            let req = HTTPRequest(
                method: "POST", path: "/functions/v1/\(r.function)",
                headers: ["apikey": backend.anonKey, "Authorization": "Bearer \(backend.serviceRoleKey)", "Content-Type": "application/json"],
                body: r.payload.data())
            if let res = try? backend.handle(req) { out.append((r, res)) }
        }
        return out
    }
}

/// CivicForge's database webhooks, one trigger per event of notifications.json, as the SQL
/// creates them (same names, timing and events; an UPDATE event only when the status moves into
/// `statusIn`, the SQL's WHEN clause).
package enum CivicForgeWebhooks {
    /// The triggers queueing into `outbox`.
    package static func triggers(_ rules: NotificationRules, outbox: WebhookOutbox) -> [CivicForgeTrigger] {
        rules.events.map { e in
            let name = "\(e.table)_push_\(e.name)"
            let update = e.operation == "UPDATE"
            return CivicForgeTrigger(name, e.table, .after, update ? [.update] : [.insert]) { ctx in
                if update {
                    let new = ctx.new?["status"] ?? .null
                    guard new != (ctx.old?["status"] ?? .null), let s = new.stringValue, e.statusIn.contains(s) else { return }
                }
                let payload: JSONValue = .object([
                    "type": .string(update ? "UPDATE" : "INSERT"), "table": .string(e.table), "schema": "public",
                    "record": ctx.new.map(JSONValue.object) ?? .null, "old_record": update ? (ctx.old.map(JSONValue.object) ?? .null) : .null
                ])
                outbox.append(.init(trigger: name, function: rules.function, payload: payload))
            }
        }
    }
}

/// The conformance suite of the webhooks on a CivicForge backend with its outbox.
public enum CivicForgeWebhookConformance {
    /// Violations: a new response, a response accepted, a thanks and an AI match each queue one
    /// request whose delivery answers with its notifications.json event; an edit that leaves the
    /// status alone queues nothing; a refused write queues nothing.
    package static func violations(backend b: MockSupabase, outbox: WebhookOutbox, rules: NotificationRules) -> [String] {
        var out: [String] = []
        let db = b.database
        func id(_ persona: String) -> String { b.configuration.spec.fixtures.persona(persona)?.id ?? "" }
        func auth(_ persona: String) -> AuthContext { .user(id(persona), email: b.configuration.spec.fixtures.persona(persona)?.email) }
        func expect(_ label: String, events: [String], _ write: () throws -> Void) {
            do { try write() } catch { out.append("\(label): the write failed: \(error)"); return }
            let delivered = outbox.deliver(to: b)
            let got = delivered.map { $0.response.jsonBody?["event"]?.stringValue ?? "HTTP \($0.response.status)" }
            if got != events { out.append("\(label): the webhook delivered \(got), expected \(events)") }
        }
        guard let couch = try? db.rows("posts", where: .eq("author_id", id("ana"))).first?["id"]?.stringValue,
            let other = try? db.rows("posts").first(where: { $0["id"]?.stringValue != couch })?["id"]?.stringValue
        else {
            return ["fixtures: ana has no post"]
        }
        func event(_ table: String, _ op: String) -> [String] { rules.events.filter { $0.table == table && $0.operation == op }.map(\.name) }
        let fresh = "c4000000-0000-4000-8000-0000000000f1"
        expect("a new response", events: event("responses", "INSERT")) {
            _ = try db.insert("responses", [["id": .string(fresh), "post_id": .string(couch), "responder_id": .string(id("tova")), "message": "On my way"]])
        }
        expect("a response edited without a status change", events: []) {
            _ = try db.update("responses", set: ["message": "On my way, 10 min"], where: .eq("id", fresh))
        }
        expect("a response accepted", events: event("responses", "UPDATE")) {
            _ = try db.update("responses", set: ["status": "accepted"], where: .eq("id", fresh), as: auth("ana"))
        }
        expect("a thanks", events: event("thanks", "INSERT")) {
            _ = try db.insert("thanks", [["post_id": .string(couch), "from_user_id": .string(id("ana")), "to_user_id": .string(id("tova"))]])
        }
        expect("an AI match", events: event("ai_matches", "INSERT")) {
            let taken = Set(((try? db.rows("ai_matches", where: .eq("post_id", couch))) ?? []).compactMap { $0["matched_post_id"]?.stringValue })
            let target = ((try? db.rows("posts")) ?? []).compactMap { $0["id"]?.stringValue }.first { $0 != couch && !taken.contains($0) } ?? other
            _ = try db.insert("ai_matches", [["post_id": .string(couch), "matched_post_id": .string(target), "score": 0.9]])
        }
        // A refused write (tova, tier 1, responding: RLS) queues nothing.
        expect("a refused response", events: []) {
            do { _ = try db.insert("responses", [["post_id": .string(other), "message": "refused"]], as: auth("tova")) } catch {}
        }
        return out
    }
}
