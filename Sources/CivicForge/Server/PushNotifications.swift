import Foundation
import MockSupabase
import MockBinding

/// Contracts/civicforge/notifications.json: which database events notify whom, how urgently.
package struct NotificationRules: Sendable, Equatable {
    /// Who receives an event.
    package enum Recipient: String, Sendable, CaseIterable {
        /// The author of the record's post (`post_id`).
        case postAuthor = "post_author"
        /// The record's responder (`responder_id`).
        case responder
        /// The record's thanks recipient (`to_user_id`).
        case thanksRecipient = "thanks_recipient"
    }

    /// One row of §4's notification table.
    package struct Event: Sendable, Equatable {
        /// The event's name (also its notification_preferences column).
        package var name: String
        /// The table whose change fires it.
        package var table: String
        /// INSERT or UPDATE.
        package var operation: String
        /// For UPDATE: the new status values that fire it (the status must change).
        package var statusIn: [String]
        /// Who receives it.
        package var recipient: Recipient
        /// High, medium or low.
        package var priority: String
        /// The notification_preferences column that switches it.
        package var preference: String
    }

    /// The Edge Function's name.
    package var function: String
    /// Events in file order.
    package var events: [Event]
    /// apns-priority by priority name.
    package var apnsPriority: [String: Int]
    /// Deep link template with `{post_id}`.
    package var deepLink: String

    /// Loads notifications.json.
    package static func load(folder: URL = ContractsLocator.app(CivicForgeApp.name)) throws -> NotificationRules {
        // Once per folder while `LoadedSpecs` are bound: every backend's registration reads it.
        try LoadedSpecs.value("civicforge-notifications", folder: folder) {
            try SpecNode.decode(
                NotificationRules.self, from: folder.appendingPathComponent("notifications.json"),
                displayName: "Contracts/civicforge/notifications.json")
        }
    }
}

extension NotificationRules.Event: Decodable {
    enum CodingKeys: String, CodingKey, CaseIterable { case doc, recipient, priority, operation, event, table, statusIn, preference }
    package init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let r = try c.decode(String.self, forKey: .recipient)
        guard let recipient = NotificationRules.Recipient(rawValue: r) else {
            throw c.fail(.recipient, "unknown recipient '\(r)' (\(NotificationRules.Recipient.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        self.recipient = recipient
        priority = try c.decode(String.self, forKey: .priority)
        let priorities = decoder.contractState?.values["notifications.apnsPriority"] as? [String: Int] ?? [:]
        guard priorities[priority] != nil else { throw c.fail(.priority, "no apnsPriority for '\(priority)'") }
        operation = try c.decode(String.self, forKey: .operation)
        guard ["INSERT", "UPDATE"].contains(operation) else { throw c.fail(.operation, "expected INSERT or UPDATE") }
        name = try c.decode(String.self, forKey: .event)
        table = try c.decode(String.self, forKey: .table)
        statusIn = try c.decodeIfPresent([String].self, forKey: .statusIn) ?? []
        preference = try c.decode(String.self, forKey: .preference)
    }
}

extension NotificationRules: Decodable {
    enum CodingKeys: String, CodingKey, CaseIterable { case app, source, decisions, apnsPriority, events, function, deepLink }
    package init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        apnsPriority = try c.decode([String: Int].self, forKey: .apnsPriority)
        decoder.contractState?.values["notifications.apnsPriority"] = apnsPriority
        events = try c.decode([Event].self, forKey: .events)
        function = try c.decode(String.self, forKey: .function)
        deepLink = try c.decode(String.self, forKey: .deepLink)
    }
}

/// Supabase's database-webhook body.
package struct WebhookPayload: Codable, Equatable, Sendable, ColumnEncodable {
    /// INSERT, UPDATE or DELETE.
    package var type: String
    package var table: String
    /// `public`.
    package var schema: String
    /// NEW.
    package var record: JSONValue?
    package var oldRecord: JSONValue?

    /// Every key is written (null for an absent record), as the webhook sends it.
    package static var columns: [String] { CodingKeys.allCases.map(\.rawValue) }
    enum CodingKeys: String, CodingKey, CaseIterable { case type, table, schema, record, oldRecord = "old_record" }
}

/// The function's answer: the event recognised (null for none) and its deliveries.
package struct PushDispatch: Codable, Equatable, Sendable, ColumnEncodable {
    package var event: String?
    /// Deliveries, by token.
    package var deliveries: [Delivery]
    /// `event` is written as null when there is none.
    package static var columns: [String] { ["event", "deliveries"] }

    /// One APNs delivery the function makes.
    package struct Delivery: Codable, Equatable, Sendable {
        /// The recipient.
        package var userId: String
        package var token: String
        /// ios, android, web.
        package var platform: DevicePlatform
        /// apns-priority.
        package var apnsPriority: Int
        /// The universal link the tap opens.
        package var deepLink: String
        enum CodingKeys: String, CodingKey { case userId = "user_id", token, platform, apnsPriority = "apns_priority", deepLink = "deep_link" }
    }
}

/// The `push-notifications` Edge Function (§4): webhook payload in, APNs deliveries out.
package enum CivicForgePush {
    /// The event a payload is, if any.
    package static func event(of p: WebhookPayload, rules: NotificationRules) -> NotificationRules.Event? {
        rules.events.first { e in
            guard e.table == p.table, e.operation == p.type else { return false }
            guard e.operation == "UPDATE" else { return true }
            let new = p.record?["status"]?.stringValue, old = p.oldRecord?["status"]?.stringValue
            return new != old && e.statusIn.contains(new ?? "")
        }
    }

    /// Deliveries for a payload, read from the database as the service role.
    package static func dispatch(_ p: WebhookPayload, rules: NotificationRules, database db: Database) throws -> PushDispatch {
        guard let e = event(of: p, rules: rules), let record = p.record else { return PushDispatch(event: nil, deliveries: []) }
        let postID = record["post_id"]?.stringValue ?? ""
        let recipient: String?
        switch e.recipient {
        case .postAuthor: recipient = try db.rows("posts", where: .eq("id", postID)).first?["author_id"]?.stringValue
        case .responder: recipient = record["responder_id"]?.stringValue
        case .thanksRecipient: recipient = record["to_user_id"]?.stringValue
        }
        guard let user = recipient else { return PushDispatch(event: e.name, deliveries: []) }
        let prefs = try db.rows("notification_preferences", where: .eq("user_id", user)).first
        if prefs?[e.preference] == .bool(false) { return PushDispatch(event: e.name, deliveries: []) }
        let link = rules.deepLink.replacingOccurrences(of: "{post_id}", with: postID)
        let tokens = try db.rows("device_tokens", where: .eq("user_id", user), order: [OrderTerm(column: "token")])
        return PushDispatch(
            event: e.name,
            deliveries: tokens.map { t in
                PushDispatch.Delivery(
                    userId: user, token: t["token"]?.stringValue ?? "", platform: DevicePlatform(rawValue: t["platform"]?.stringValue ?? "") ?? .ios,
                    apnsPriority: rules.apnsPriority[e.priority] ?? 0, deepLink: link)
            })
    }

    /// The function for the mock: service role only (403 otherwise), 400 for a body that is not a webhook payload.
    package static func handler(_ rules: NotificationRules) -> FunctionHandler {
        { call in
            guard call.auth.role == "service_role" else {
                return .json(403, ["error": "push-notifications is called by database webhooks with the service role"])
            }
            let payload: WebhookPayload
            do { payload = try JSONDecoder().decode(WebhookPayload.self, from: call.request.body) } catch {
                return .json(400, ["error": .string("not a database webhook payload: \(error)")])
            }
            let out = try dispatch(payload, rules: rules, database: call.backend.database)
            return .json(200, try JSONValueEncoder.encode(out))
        }
    }
}
