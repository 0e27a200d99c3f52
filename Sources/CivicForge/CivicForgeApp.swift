import Foundation
@_exported import MockBinding // a client importing the app gets its mock backend and the rule machinery

/// CivicForge: its contracts folder and the server-side pieces it plugs into the mock.
public enum CivicForgeApp: ContractApp, AppModule {
    /// The contracts folder name.
    public static let name = "civicforge"
    /// The display name.
    public static let title = "CivicForge"

    /// The payloads, GoTrue's session and the push function's bodies (the table models are
    /// added by name); the models code their own timestamps, so Foundation's plain coders do.
    package static var modelRegistry: ModelRegistry {
        var r = ModelRegistry()
        r.register(AuthSession.self); r.register(PushDispatch.self); r.register(WebhookPayload.self)
        r.register(NewProfile.self); r.register(NewPost.self); r.register(NewPostPhoto.self); r.register(NewResponse.self)
        r.register(ResponseDecision.self); r.register(NewThanks.self); r.register(NewFlag.self)
        r.register(RedeemInvitationRequest.self); r.register(DeviceTokenRegistration.self)
        r.register(OTPRequest.self); r.register(VerifyOTPRequest.self)
        return r
    }

    /// Registers the app's database function, triggers and push-notifications Edge Function
    /// with the rules of Contracts/civicforge/rules.json and notifications.json.
    ///
    /// If a rules file cannot be read, nothing half-configured is served: every write to a table
    /// with a trigger, the database function and the Edge Function answer with the file, JSON
    /// path and problem (XX000 / HTTP 500), so the error surfaces on the first call, not as a crash.
    public static func register(on backend: MockSupabase) {
        do {
            try install(
                on: backend, rules: CivicForgeRules.load(folder: backend.configuration.spec.folder),
                notifications: NotificationRules.load(folder: backend.configuration.spec.folder))
        } catch {
            registerUnreadable("\(error)", on: backend)
        }
    }

    static func registerUnreadable(_ message: String, on backend: MockSupabase) {
        for table in ["profiles", "posts", "responses", "post_flags", "thanks", "invitations"] {
            backend.registerTrigger("\(table)_contracts_unreadable", on: table, timing: .before, events: [.insert, .update, .delete]) { _ in
                throw PostgresError("XX000", message)
            }
        }
        backend.registerRPC(
            RPCFunction(name: CivicForgeInvitations.functionName, parameters: [RPCParameter("invite_code", .text)], returns: .scalar(.text), volatile: true) {
                _ in
                throw PostgresError("XX000", message)
            })
        backend.registerFunction("push-notifications") { _ in .json(500, ["error": .string(message), "code": "contracts_unreadable"]) }
    }

    /// The triggers, in the order the SQL migration creates them.
    package static func triggers(_ rules: CivicForgeRules, schema: DatabaseSchema) throws -> [CivicForgeTrigger] {
        try rules.validate(against: schema)
        var out: [CivicForgeTrigger] = []
        for g in rules.serverManaged {
            out.append(
                CivicForgeTrigger(
                    "\(g.table)_guard_server_columns", g.table, .before, [.insert, .update],
                    CivicForgeTriggers.guardServerColumns(g, table: schema.table(g.table)!, error: rules.serverManagedError)))
        }
        for t in schema.tables where t.schema == "public" && t.columnIndex("updated_at") != nil {
            out.append(CivicForgeTrigger("\(t.name)_set_updated_at", t.name, .before, [.update], CivicForgeTriggers.setUpdatedAt()))
        }
        out.append(CivicForgeTrigger("profiles_create_companions", "profiles", .after, [.insert], CivicForgeTriggers.createCompanions()))
        out.append(CivicForgeTrigger("posts_fill_neighborhood", "posts", .before, [.insert], CivicForgeTriggers.fillPostNeighborhood()))
        out.append(CivicForgeTrigger("post_flags_auto_hide", "post_flags", .after, [.insert], CivicForgeTriggers.autoHide(rules)))
        out.append(CivicForgeTrigger("thanks_add_reputation", "thanks", .after, [.insert], CivicForgeTriggers.addReputation(rules)))
        out.append(CivicForgeTrigger("invitations_fill_defaults", "invitations", .before, [.insert], CivicForgeTriggers.fillInvitationDefaults(rules)))
        return out
    }

    /// Registers everything with explicit rules (tests pass altered rules to show they matter).
    /// `outbox` receives the database webhooks' requests (pg_net's queue); `deliver` sends them.
    package static func install(
        on backend: MockSupabase, rules: CivicForgeRules, notifications: NotificationRules? = nil,
        outbox: WebhookOutbox = WebhookOutbox()
    ) throws {
        let schema = backend.configuration.spec.schema
        let n = try notifications ?? NotificationRules.load(folder: backend.configuration.spec.folder)
        for t in try triggers(rules, schema: schema) + CivicForgeWebhooks.triggers(n, outbox: outbox) {
            backend.registerTrigger(t.name, on: t.table, timing: t.timing, events: t.events, handler: t.handler)
        }
        backend.registerRPC(CivicForgeInvitations.function(rules, profileColumns: schema.table("profiles")!.columns))
        backend.registerFunction(n.function, verifyJWT: true, CivicForgePush.handler(n))
    }
}

/// A row trigger of CivicForge: where and when it fires, and its body.
package struct CivicForgeTrigger {
    /// The trigger's name (as in the SQL migration).
    package var name: String
    package var table: String
    /// BEFORE or AFTER.
    package var timing: TriggerTiming
    /// The events that fire it.
    package var events: Set<TriggerEvent>
    /// The body.
    package var handler: TriggerHandler

    package init(_ name: String, _ table: String, _ timing: TriggerTiming, _ events: Set<TriggerEvent>, _ handler: @escaping TriggerHandler) {
        self.name = name
        self.table = table
        self.timing = timing
        self.events = events
        self.handler = handler
    }
}
