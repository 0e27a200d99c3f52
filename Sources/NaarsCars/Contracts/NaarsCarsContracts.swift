import Foundation
import MockBinding

/// Naar's Cars' own contract files beyond schema/policies/fixtures/storage: the domain rules the
/// triggers enforce (`rules.json`), the database and edge functions (`functions.json`) and the
/// AppError catalog (`errors.json`). Every number and message the app's server pieces use comes
/// from here; decoding is strict (unknown keys are errors naming file and JSON path).
package struct NaarsCarsContracts: Sendable {
    /// rules.json.
    package var rules: NaarsCarsRules
    /// functions.json.
    package var functions: NaarsCarsFunctions
    /// errors.json.
    package var errors: AppErrorCatalog

    /// Loads the three files from a contracts folder (`Contracts/naarscars`).
    package static func load(folder: URL = ContractsLocator.app(NaarsCarsApp.name)) throws -> NaarsCarsContracts {
        func node(_ name: String) throws -> SpecNode {
            try SpecNode.load(folder.appendingPathComponent(name), displayName: "Contracts/naarscars/\(name)")
        }
        return NaarsCarsContracts(
            rules: try NaarsCarsRules.decode(try node("rules.json")),
            functions: try NaarsCarsFunctions.decode(try node("functions.json")),
            errors: try AppErrorCatalog.decode(try node("errors.json")))
    }
}

/// A coded error message template of rules.json (`{name}` placeholders).
package struct RuleError: Sendable, Equatable {
    /// SQLSTATE raised (`42501`, `P0001`, …).
    package var code: String
    /// The message template.
    package var message: String

    /// The error with placeholders filled in.
    package func error(_ values: [String: String] = [:]) -> PostgresError {
        PostgresError(code, RuleError.fill(message, values))
    }

    /// Replaces `{key}` by its value.
    package static func fill(_ template: String, _ values: [String: String]) -> String {
        var out = template
        for (k, v) in values { out = out.replacingOccurrences(of: "{\(k)}", with: v) }
        return out
    }
}

/// One allowed status change of a request.
package struct StatusTransition: Sendable, Equatable {
    /// What `claimed_by` must do in the transition.
    package enum ClaimedBy: String, Sendable, Equatable {
        /// Becomes the caller (a claim).
        case caller
        /// Stays as it was (and set).
        case keep
        /// Becomes NULL (an unclaim).
        case clear
    }
    /// Who may make the change.
    package enum Actor: String, Sendable, Equatable {
        /// The request's `user_id`.
        case owner
        /// The request's claimer (for a claim: the caller becoming it).
        case claimer
    }
    /// Status before.
    package var from: String
    /// Status after.
    package var to: String
    /// Who may do it.
    package var by: [Actor]
    /// What happens to claimed_by.
    package var claimedBy: ClaimedBy
    /// The document's or the decision's words.
    package var doc: String
}

/// rules.json: the request lifecycle, protected columns, the review post template and the
/// messages of every error the triggers and functions raise.
package struct NaarsCarsRules: Sendable {
    /// Tables following the lifecycle (`rides`, `favors`).
    package var lifecycleTables: [String]
    /// Status of a new request.
    package var initialStatus: String
    /// The final status: the request was fulfilled.
    package var completedStatus: String
    /// Columns someone other than the owner may change.
    package var nonOwnerMayChange: Set<String>
    /// Columns no client changes.
    package var immutableColumns: [String]
    /// Allowed transitions.
    package var transitions: [StatusTransition]
    /// Columns of profiles only admins change.
    package var adminColumns: [String]
    /// Columns of messages clients may change.
    package var messageClientColumns: Set<String>
    /// Columns of invite_codes that never change.
    package var inviteImmutableColumns: [String]
    /// The raw_user_meta_data key a new profile's name comes from.
    package var nameMetadataKey: String
    /// Review post title template (`{reviewer}`, `{fulfiller}`).
    package var reviewPostTitle: String
    /// Review post content template (`{stars}`, `{comment}`).
    package var reviewPostContent: String
    /// The star character.
    package var reviewStar: String
    /// Pending review title templates by request type (`ride`, `favor`).
    package var pendingReviewTitle: [String: String]
    /// Error templates by key.
    package var errors: [String: RuleError]

    /// The error template of a key (a missing key is a contract error surfaced at load time).
    package func error(_ key: String, _ values: [String: String] = [:]) -> PostgresError {
        (errors[key] ?? RuleError(code: "XX000", message: "missing error '\(key)' in rules.json")).error(values)
    }

    /// The transition from one status to another, if allowed.
    package func transition(from: String, to: String) -> StatusTransition? {
        transitions.first { $0.from == from && $0.to == to }
    }

    static let requiredErrors = [
        "request_not_open", "invalid_transition", "transition_actor", "claim_not_caller", "claimer_changed",
        "unclaim_not_cleared", "claimed_by_without_status", "owner_only_column", "admin_fields", "message_column",
        "read_by_other", "invite_code_reused", "invite_code_immutable", "invite_code_own", "not_self",
        "not_participant", "not_involved", "not_approved", "one_request", "request_not_found",
        "invalid_time_filter", "invalid_limit", "service_role_only", "immutable_column"
    ]

    /// Decodes rules.json.
    package static func decode(_ root: SpecNode) throws -> NaarsCarsRules {
        try root.object { o in
            _ = o.optional("app"); _ = o.optional("source"); _ = o.optional("decisions")
            let lc = try o.required("requestLifecycle")
            let (tables, initial, completed, nonOwner, immutable, transitions) = try lc.object {
                l -> ([String], String, String, Set<String>, [String], [StatusTransition]) in
                let tables = try l.required("tables").strings()
                for (k, v) in [("statusColumn", "status"), ("ownerColumn", "user_id"), ("claimerColumn", "claimed_by")] {
                    let n = try l.required(k)
                    guard try n.string() == v else { throw n.fail("expected '\(v)' (the column names are fixed by FR-003/FR-004)") }
                }
                let initial = try l.required("initialStatus").string()
                let completed = try l.required("completedStatus").string()
                _ = l.optional("completedDecision")
                let nonOwner = Set(try l.required("nonOwnerMayChange").strings())
                let immutable = try l.required("immutableColumns").strings()
                let ts = try l.required("transitions").array().map { t in
                    try t.object { to -> StatusTransition in
                        let by = try to.required("by").array().map { n -> StatusTransition.Actor in
                            guard let a = StatusTransition.Actor(rawValue: try n.string()) else { throw n.fail("unknown actor (owner, claimer)") }
                            return a
                        }
                        let cbNode = try to.required("claimedBy")
                        guard let cb = StatusTransition.ClaimedBy(rawValue: try cbNode.string()) else {
                            throw cbNode.fail("unknown claimedBy (caller, keep, clear)")
                        }
                        return StatusTransition(
                            from: try to.required("from").string(), to: try to.required("to").string(),
                            by: by, claimedBy: cb, doc: try to.optional("doc")?.string() ?? "")
                    }
                }
                if ts.contains(where: { $0.from == completed }) {
                    throw try l.required("completedStatus").fail("'\(completed)' has outgoing transitions; it must be final")
                }
                return (tables, initial, completed, nonOwner, immutable, ts)
            }
            let admin = try o.required("adminFields").object { a -> [String] in
                _ = a.optional("decision"); _ = try a.required("table").string()
                return try a.required("columns").strings()
            }
            let msg = try o.required("messageUpdate").object { m -> Set<String> in
                _ = m.optional("decision"); _ = try m.required("table").string()
                return Set(try m.required("clientMayChange").strings())
            }
            let invite = try o.required("inviteCodes").object { i -> [String] in
                _ = i.optional("decision")
                return try i.required("immutableColumns").strings()
            }
            let nameKey = try o.required("newProfile").object { n -> String in
                _ = n.optional("decision")
                return try n.required("nameMetadataKey").string()
            }
            let post = try o.required("reviewPost").object { p -> (String, String, String) in
                _ = p.optional("decision")
                return (try p.required("title").string(), try p.required("content").string(), try p.required("star").string())
            }
            var pending: [String: String] = [:]
            for (k, v) in try o.required("pendingReviewTitle").map() { pending[k] = try v.string() }
            var errors: [String: RuleError] = [:]
            let errNode = try o.required("errors")
            for (k, v) in try errNode.map() {
                errors[k] = try v.object { e in RuleError(code: try e.required("code").string(), message: try e.required("message").string()) }
            }
            for k in requiredErrors where errors[k] == nil { throw errNode.fail("missing error '\(k)'") }
            return NaarsCarsRules(
                lifecycleTables: tables, initialStatus: initial, completedStatus: completed, nonOwnerMayChange: nonOwner, immutableColumns: immutable,
                transitions: transitions, adminColumns: admin, messageClientColumns: msg, inviteImmutableColumns: invite,
                nameMetadataKey: nameKey,
                reviewPostTitle: post.0, reviewPostContent: post.1, reviewStar: post.2,
                pendingReviewTitle: pending, errors: errors)
        }
    }
}

/// A database function's contract.
package struct RPCContract: Sendable {
    /// A parameter.
    package struct Parameter: Sendable {
        /// Name.
        package var name: String
        /// SQL type name.
        package var type: String
        /// Default (JSON), when the parameter has one.
        package var defaultValue: JSONValue?
        /// Whether it has a default (a `null` default counts).
        package var hasDefault: Bool
    }
    /// Result shape.
    package enum Returns: Sendable {
        /// `void`.
        case void
        /// One value of a SQL type.
        case scalar(String)
        /// `TABLE(...)` with these (name, type) columns.
        case table([(name: String, type: String)])
    }
    /// Name.
    package var name: String
    /// Parameters in order.
    package var params: [Parameter]
    /// Result.
    package var returns: Returns
    /// `definer` or `invoker`.
    package var security: String
    /// `stable`, `immutable` or `volatile`.
    package var volatility: String
    /// Who may call it: `any`, `self` (the user named by user_id), `involved`, `service_role`.
    package var callers: String
}

/// An edge function's contract.
package struct EdgeFunctionContract: Sendable {
    /// Name (`send-push-notification`).
    package var name: String
    /// HTTP method accepted.
    package var method: String
    /// Whether Supabase verifies the JWT before the body runs.
    package var verifyJWT: Bool
    /// Who may call: `service_role`, `approved_user`.
    package var callers: [String]
    /// Required body fields and their kinds (`uuid`, `string`, `integer`, `object`).
    package var required: [(name: String, kind: String)]
    /// Optional body fields and their kinds.
    package var optional: [(name: String, kind: String)]
}

/// APNs settings and the fake's deterministic rules.
package struct APNsContract: Sendable {
    /// `apns-topic`.
    package var topic: String
    /// `apns-push-type`.
    package var pushType: String
    /// `apns-priority`.
    package var priority: Int
    /// `aps.sound`.
    package var sound: String
    /// Answers that remove the token: (status, reason).
    package var removeOn: [(status: Int, reason: String)]
    /// Fake: a well-formed token has this many lowercase hex digits.
    package var fakeTokenHexLength: Int
    /// Fake: well-formed tokens with this prefix are reported Unregistered.
    package var fakeUnregisteredPrefix: String
}

/// functions.json: signatures, numbers and edge functions.
package struct NaarsCarsFunctions: Sendable {
    /// Database functions in file order.
    package var rpcs: [RPCContract]
    /// EDGE-003: tokens not refreshed for this many days are stale.
    package var staleTokenDays: Int
    /// get_leaderboard's default time_filter.
    package var defaultTimeFilter: String
    /// get_leaderboard's default limit.
    package var defaultLimit: Int
    /// get_leaderboard's largest limit.
    package var maxLimit: Int
    /// Decimals of average ratings.
    package var ratingDecimals: Int
    /// What a user with no reviews or no fulfilled requests shows as average, count and rank key
    /// (FR-015's `COALESCE(…, 0)`).
    package var absentAs: Int = 0
    /// Window lengths in days by time_filter (nil: no window).
    package var timeFilters: [String: Int?]
    /// Edge functions.
    package var edgeFunctions: [EdgeFunctionContract]
    /// APNs.
    package var apns: APNsContract
    /// Edge-function error message templates by key (`method`, `forbidden`, `bodyNotObject`,
    /// `missingField`, `wrongType`, `unknownField`).
    package var edgeErrors: [String: String]

    /// An edge-function error message.
    package func edgeError(_ key: String, _ values: [String: String] = [:]) -> String {
        RuleError.fill(edgeErrors[key] ?? key, values)
    }

    /// A database function by name.
    package func rpc(_ name: String) -> RPCContract? { rpcs.first { $0.name == name } }
    /// An edge function by name.
    package func edge(_ name: String) -> EdgeFunctionContract? { edgeFunctions.first { $0.name == name } }

    /// Decodes functions.json.
    package static func decode(_ root: SpecNode) throws -> NaarsCarsFunctions {
        try root.object { o in
            _ = o.optional("app"); _ = o.optional("source"); _ = o.optional("decisions")
            let rpcs = try o.required("rpc").array().map { r in
                try r.object { ro -> RPCContract in
                    let params = try ro.required("params").array().map { p in
                        try p.object { po -> RPCContract.Parameter in
                            let t = try po.required("type")
                            guard SQLType.parse(try t.string(), enums: [:]) != nil else { throw t.fail("unknown type '\(try t.string())'") }
                            let has = po.has("default")
                            return RPCContract.Parameter(
                                name: try po.required("name").string(), type: try t.string(),
                                defaultValue: has ? (po.optional("default")?.value ?? .null) : nil, hasDefault: has)
                        }
                    }
                    let rn = try ro.required("returns")
                    let returns: RPCContract.Returns
                    if case .string(let s) = rn.value {
                        guard s == "void" else { throw rn.fail("expected \"void\", {\"scalar\": type} or {\"table\": [columns]}") }
                        returns = .void
                    } else {
                        returns = try rn.object { x -> RPCContract.Returns in
                            if let s = x.optional("scalar") { return .scalar(try s.string()) }
                            let cols = try x.required("table").array().map { c in
                                try c.object { co in (name: try co.required("name").string(), type: try co.required("type").string()) }
                            }
                            return .table(cols)
                        }
                    }
                    let sec = try ro.required("security")
                    guard ["definer", "invoker"].contains(try sec.string()) else { throw sec.fail("expected definer or invoker") }
                    let vol = try ro.required("volatility")
                    guard ["stable", "immutable", "volatile"].contains(try vol.string()) else { throw vol.fail("expected stable, immutable or volatile") }
                    let callersNode = ro.optional("callers")
                    let callers = try callersNode?.string() ?? "any"
                    guard ["any", "self", "involved", "service_role"].contains(callers) else {
                        throw callersNode!.fail("expected any, self, involved or service_role")
                    }
                    _ = ro.optional("doc"); _ = ro.optional("decision")
                    return RPCContract(
                        name: try ro.required("name").string(), params: params, returns: returns,
                        security: try sec.string(), volatility: try vol.string(), callers: callers)
                }
            }
            let stale = try o.required("pushTokens").object { p -> Int in
                _ = p.optional("source")
                return try p.required("staleAfterDays").int()
            }
            var absentAs = 0
            let lb = try o.required("leaderboard").object { l -> (String, Int, Int, Int, [String: Int?]) in
                absentAs = try l.required("absentAs").int()
                _ = l.optional("decision")
                var filters: [String: Int?] = [:]
                for (k, v) in try l.required("timeFilters").map() {
                    filters[k] = v.value.isNull ? .some(nil) : .some(try v.int())
                }
                let def = try l.required("defaultTimeFilter")
                guard filters[try def.string()] != nil else { throw def.fail("not one of timeFilters") }
                return (
                    try def.string(), try l.required("defaultLimit").int(), try l.required("maxLimit").int(),
                    try l.required("ratingDecimals").int(), filters
                )
            }
            let edges = try o.required("edgeFunctions").array().map { e in
                try e.object { eo -> EdgeFunctionContract in
                    var req: [(String, String)] = [], opt: [(String, String)] = []
                    if let r = eo.optional("request") {
                        try r.object { ro in
                            if let q = ro.optional("required") { req = try q.map().map { ($0.key, try $0.node.string()) } }
                            if let q = ro.optional("optional") { opt = try q.map().map { ($0.key, try $0.node.string()) } }
                        }
                    }
                    _ = eo.optional("decision"); _ = eo.optional("trigger")
                    return EdgeFunctionContract(
                        name: try eo.required("name").string(), method: try eo.required("method").string(),
                        verifyJWT: try eo.required("verifyJWT").bool(), callers: try eo.required("callers").strings(),
                        required: req, optional: opt)
                }
            }
            let apns = try o.required("apns").object { a -> APNsContract in
                _ = a.optional("decision")
                let remove = try a.required("removeOn").array().map { r in
                    try r.object { ro in (status: try ro.required("status").int(), reason: try ro.required("reason").string()) }
                }
                let fake = try a.required("fake").object { f -> (Int, String) in
                    _ = f.optional("decision")
                    return (try f.required("tokenHexLength").int(), try f.required("unregisteredPrefix").string())
                }
                return APNsContract(
                    topic: try a.required("topic").string(), pushType: try a.required("pushType").string(),
                    priority: try a.required("priority").int(), sound: try a.required("sound").string(),
                    removeOn: remove, fakeTokenHexLength: fake.0, fakeUnregisteredPrefix: fake.1)
            }
            var edgeErrors: [String: String] = [:]
            let ee = try o.required("edgeErrors")
            try ee.object { eo in
                _ = eo.optional("decision")
                for k in ["method", "forbidden", "bodyNotObject", "missingField", "wrongType", "unknownField"] {
                    edgeErrors[k] = try eo.required(k).string()
                }
            }
            var functions = NaarsCarsFunctions(
                rpcs: rpcs, staleTokenDays: stale, defaultTimeFilter: lb.0, defaultLimit: lb.1, maxLimit: lb.2,
                ratingDecimals: lb.3, timeFilters: lb.4, edgeFunctions: edges, apns: apns, edgeErrors: edgeErrors)
            functions.absentAs = absentAs
            return functions
        }
    }
}
