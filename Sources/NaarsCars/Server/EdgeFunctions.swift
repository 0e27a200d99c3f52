import Foundation
import MockBinding

/// FR-019's edge functions: send-push-notification (FR-020, EDGE-001/002), cleanup-tokens
/// (EDGE-003) and refresh-leaderboard, with the callers and body rules of functions.json.
extension NaarsCarsServer {
    func registerEdgeFunctions(on backend: MockSupabase) {
        let server = self
        let bodies: [String: @Sendable (FunctionCall) throws -> HTTPResponse] = [
            "send-push-notification": { try server.sendPush($0) },
            "cleanup-tokens": { .json(200, ["deleted": .int(Int64(try server.cleanupStaleTokens($0.backend.database)))]) },
            "refresh-leaderboard": { call in
                let rows = try server.leaderboard(call.backend.database, .serviceRole, windowDays: nil).count
                return .json(200, ["materialized": false, "rows": .int(Int64(rows))])
            }
        ]
        for f in functions.edgeFunctions {
            guard let body = bodies[f.name] else {
                backend.registerFunction(f.name) { _ in .json(501, ["error": .string("\(f.name) is declared in functions.json but not implemented")]) }
                continue
            }
            backend.registerFunction(f.name, verifyJWT: f.verifyJWT) { call in
                if let refusal = try server.refuse(f, call) { return refusal }
                return try body(call)
            }
        }
    }

    func edgeError(_ status: Int, _ key: String, _ values: [String: String] = [:]) -> HTTPResponse {
        .json(status, ["error": .string(functions.edgeError(key, values))])
    }

    /// 405 for another method, 403 for a caller functions.json does not list.
    func refuse(_ f: EdgeFunctionContract, _ call: FunctionCall) throws -> HTTPResponse? {
        if call.request.method != f.method { return edgeError(405, "method", ["method": call.request.method]) }
        let db = call.backend.database
        let ok = try f.callers.contains { c in
            switch c {
            case "service_role": return call.auth.bypassesRLS
            case "approved_user": return try Self.profileFlag(db, call.auth, "approved")
            default: return false
            }
        }
        return ok ? nil : edgeError(403, "forbidden", ["function": f.name, "callers": f.callers.joined(separator: ", ")])
    }

    /// Validates the body against functions.json's request fields: a precise 400 otherwise.
    func validate(_ f: EdgeFunctionContract, _ body: JSONValue) -> HTTPResponse? {
        guard case .object(let o) = body else { return edgeError(400, "bodyNotObject") }
        let known = Set(f.required.map(\.name) + f.optional.map(\.name))
        if let extra = o.keys.sorted().first(where: { !known.contains($0) }) { return edgeError(400, "unknownField", ["field": extra]) }
        func ok(_ v: JSONValue, _ kind: String) -> Bool {
            switch kind {
            case "uuid": return v.stringValue.flatMap(SQLValue.canonicalUUID) != nil
            case "string": return v.stringValue != nil
            case "integer": if case .int(let i) = v { return i >= 0 }; return false
            case "object": return v.objectValue != nil
            default: return false
            }
        }
        let kinds = ["uuid": "a uuid", "string": "a string", "integer": "a non-negative integer", "object": "an object"]
        for (name, kind) in f.required {
            guard let v = o[name], !v.isNull else { return edgeError(400, "missingField", ["field": name]) }
            if !ok(v, kind) { return edgeError(400, "wrongType", ["field": name, "kind": kinds[kind] ?? kind]) }
        }
        for (name, kind) in f.optional {
            if let v = o[name], !v.isNull, !ok(v, kind) { return edgeError(400, "wrongType", ["field": name, "kind": kinds[kind] ?? kind]) }
        }
        return nil
    }

    /// send-push-notification: every token of the user to APNs; invalid ones deleted; the log.
    func sendPush(_ call: FunctionCall) throws -> HTTPResponse {
        guard let f = functions.edge("send-push-notification") else { return edgeError(500, "method", ["method": call.request.method]) }
        let body = try call.json()
        if let bad = validate(f, body) { return bad }
        let request = try JSONDecoder().decode(PushNotificationRequest.self, from: body.data())
        let user = request.userId.rawValue
        let apnsSpec = functions.apns
        var aps: [String: JSONValue] = ["alert": ["title": .string(request.title), "body": .string(request.body)], "sound": .string(apnsSpec.sound)]
        if let badge = request.badge { aps["badge"] = .int(Int64(badge)) }
        var payload = request.data ?? [:]
        payload["aps"] = .object(aps)
        let headers = ["apns-topic": apnsSpec.topic, "apns-push-type": apnsSpec.pushType, "apns-priority": String(apnsSpec.priority)]
        let db = call.backend.database
        let tokens = try db.rows("push_tokens", where: .eq("user_id", user), order: [OrderTerm(column: "created_at"), OrderTerm(column: "id")])
        var results: [JSONValue] = []
        var sent = 0, failed = 0, removed = 0
        for t in tokens {
            guard let id = t["id"]?.stringValue, let token = t["token"]?.stringValue else { continue }
            let answer = apns.send(deviceToken: token, payload: .object(payload), headers: headers)
            let remove = apnsSpec.removeOn.contains { $0.status == answer.status && $0.reason == answer.reason }
            if remove { try db.delete("push_tokens", where: .eq("id", id), as: .serviceRole); removed += 1 }
            if answer.status == 200 { sent += 1 } else { failed += 1 }
            results.append([
                "token_id": .string(id), "device_id": t["device_id"] ?? .null, "status": .int(Int64(answer.status)),
                "reason": answer.reason.map(JSONValue.string) ?? .null, "removed": .bool(remove)
            ])
        }
        return .json(
            200,
            [
                "user_id": .string(user), "sent": .int(Int64(sent)), "failed": .int(Int64(failed)),
                "removed": .int(Int64(removed)), "results": .array(results)
            ])
    }
}
