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

    /// Loads the three files from a contracts folder (`Contracts/naarscars`), once per folder
    /// while `LoadedSpecs` are bound (`contracts verify` boots a backend per kind and case
    /// group, and each registration reads these files).
    package static func load(folder: URL = ContractsLocator.app(NaarsCarsApp.name)) throws -> NaarsCarsContracts {
        try LoadedSpecs.value("naarscars-contracts", folder: folder) {
            func file<T: Decodable>(_ name: String) throws -> T {
                try SpecNode.decode(T.self, from: folder.appendingPathComponent(name), displayName: "Contracts/naarscars/\(name)")
            }
            return NaarsCarsContracts(rules: try file("rules.json"), functions: try file("functions.json"), errors: try file("errors.json"))
        }
    }
}

/// A coded error message template of rules.json (`{name}` placeholders).
package struct RuleError: Sendable, Equatable {
    /// SQLSTATE raised (`42501`, `P0001`, …).
    package var code: String
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
}

extension NaarsCarsRules: Decodable {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case app, source, decisions, requestLifecycle, adminFields, messageUpdate, inviteCodes, newProfile, reviewPost, pendingReviewTitle, errors
    }
    enum LifecycleKeys: String, CodingKey, CaseIterable {
        case tables, statusColumn, ownerColumn, claimerColumn, initialStatus, completedStatus, completedDecision, nonOwnerMayChange
        case immutableColumns, transitions
    }
    enum AdminKeys: String, CodingKey, CaseIterable { case decision, table, columns }
    enum MessageKeys: String, CodingKey, CaseIterable { case decision, table, clientMayChange }
    enum InviteKeys: String, CodingKey, CaseIterable { case decision, immutableColumns }
    enum ProfileKeys: String, CodingKey, CaseIterable { case decision, nameMetadataKey }
    enum PostKeys: String, CodingKey, CaseIterable { case decision, title, content, star }

    /// rules.json: the lifecycle on the fixed columns (FR-003/FR-004) ending in a final status,
    /// and every error key the triggers and functions raise.
    package init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let l = try c.nestedContainer(keyedBy: LifecycleKeys.self, forKey: .requestLifecycle)
        lifecycleTables = try l.decode([String].self, forKey: .tables)
        for (k, v) in [(LifecycleKeys.statusColumn, "status"), (.ownerColumn, "user_id"), (.claimerColumn, "claimed_by")]
        where try l.decode(String.self, forKey: k) != v {
            throw l.fail(k, "expected '\(v)' (the column names are fixed by FR-003/FR-004)")
        }
        initialStatus = try l.decode(String.self, forKey: .initialStatus)
        completedStatus = try l.decode(String.self, forKey: .completedStatus)
        nonOwnerMayChange = Set(try l.decode([String].self, forKey: .nonOwnerMayChange))
        immutableColumns = try l.decode([String].self, forKey: .immutableColumns)
        let transitions = try l.decode([StatusTransition].self, forKey: .transitions)
        let completed = completedStatus
        if transitions.contains(where: { $0.from == completed }) {
            throw l.fail(.completedStatus, "'\(completed)' has outgoing transitions; it must be final")
        }
        self.transitions = transitions
        let admin = try c.nestedContainer(keyedBy: AdminKeys.self, forKey: .adminFields)
        _ = try admin.decode(String.self, forKey: .table)
        adminColumns = try admin.decode([String].self, forKey: .columns)
        let message = try c.nestedContainer(keyedBy: MessageKeys.self, forKey: .messageUpdate)
        _ = try message.decode(String.self, forKey: .table)
        messageClientColumns = Set(try message.decode([String].self, forKey: .clientMayChange))
        inviteImmutableColumns = try c.nestedContainer(keyedBy: InviteKeys.self, forKey: .inviteCodes).decode([String].self, forKey: .immutableColumns)
        nameMetadataKey = try c.nestedContainer(keyedBy: ProfileKeys.self, forKey: .newProfile).decode(String.self, forKey: .nameMetadataKey)
        let post = try c.nestedContainer(keyedBy: PostKeys.self, forKey: .reviewPost)
        reviewPostTitle = try post.decode(String.self, forKey: .title)
        reviewPostContent = try post.decode(String.self, forKey: .content)
        reviewStar = try post.decode(String.self, forKey: .star)
        pendingReviewTitle = try c.decode([String: String].self, forKey: .pendingReviewTitle)
        errors = try c.decode([String: RuleError].self, forKey: .errors)
        for k in Self.requiredErrors where errors[k] == nil { throw c.fail(.errors, "missing error '\(k)'") }
    }
}

extension RuleError: Decodable {}

extension StatusTransition: Decodable {
    enum CodingKeys: String, CodingKey, CaseIterable { case from, to, by, claimedBy, doc }
    /// `{"from", "to", "by": [owner | claimer], "claimedBy": caller | keep | clear, "doc"}`.
    package init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        by = try c.decode([String].self, forKey: .by).enumerated().map { i, s in
            guard let a = Actor(rawValue: s) else { throw c.fail([CodingKeys.by, AnyKey(intValue: i)!], "unknown actor (owner, claimer)") }
            return a
        }
        let cb = try c.decode(String.self, forKey: .claimedBy)
        guard let claimedBy = ClaimedBy(rawValue: cb) else { throw c.fail(.claimedBy, "unknown claimedBy (caller, keep, clear)") }
        self.claimedBy = claimedBy
        from = try c.decode(String.self, forKey: .from)
        to = try c.decode(String.self, forKey: .to)
        doc = try c.decodeIfPresent(String.self, forKey: .doc) ?? ""
    }
}

/// A database function's contract.
package struct RPCContract: Sendable {
    package struct Parameter: Sendable {
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
        case void
        /// One value of a SQL type.
        case scalar(String)
        /// `TABLE(...)` with these (name, type) columns.
        case table([(name: String, type: String)])
    }
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
    package var edgeFunctions: [EdgeFunctionContract]
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
    package func edge(_ name: String) -> EdgeFunctionContract? { edgeFunctions.first { $0.name == name } }
}

extension NaarsCarsFunctions: Decodable {
    enum CodingKeys: String, CodingKey, CaseIterable { case app, source, decisions, rpc, pushTokens, leaderboard, edgeFunctions, apns, edgeErrors }
    enum PushTokenKeys: String, CodingKey, CaseIterable { case source, staleAfterDays }
    enum LeaderboardKeys: String, CodingKey, CaseIterable {
        case absentAs, decision, timeFilters, defaultTimeFilter, defaultLimit, maxLimit, ratingDecimals
    }
    enum EdgeErrorKeys: String, CodingKey, CaseIterable { case decision, method, forbidden, bodyNotObject, missingField, wrongType, unknownField }

    /// functions.json: the database functions, the numbers of push tokens and the leaderboard
    /// (the default time filter one of the filters), the edge functions, APNs and the edge
    /// functions' error templates (every one present).
    package init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        rpcs = try c.decode([RPCContract].self, forKey: .rpc)
        staleTokenDays = try c.nestedContainer(keyedBy: PushTokenKeys.self, forKey: .pushTokens).decode(Int.self, forKey: .staleAfterDays)
        let l = try c.nestedContainer(keyedBy: LeaderboardKeys.self, forKey: .leaderboard)
        absentAs = try l.decode(Int.self, forKey: .absentAs)
        timeFilters = try l.decode([String: Int?].self, forKey: .timeFilters)
        defaultTimeFilter = try l.decode(String.self, forKey: .defaultTimeFilter)
        guard timeFilters[defaultTimeFilter] != nil else { throw l.fail(.defaultTimeFilter, "not one of timeFilters") }
        defaultLimit = try l.decode(Int.self, forKey: .defaultLimit)
        maxLimit = try l.decode(Int.self, forKey: .maxLimit)
        ratingDecimals = try l.decode(Int.self, forKey: .ratingDecimals)
        edgeFunctions = try c.decode([EdgeFunctionContract].self, forKey: .edgeFunctions)
        apns = try c.decode(APNsContract.self, forKey: .apns)
        let e = try c.nestedContainer(keyedBy: EdgeErrorKeys.self, forKey: .edgeErrors)
        edgeErrors = [:]
        for k in EdgeErrorKeys.allCases where k != .decision { edgeErrors[k.rawValue] = try e.decode(String.self, forKey: k) }
    }
}

extension RPCContract: Decodable {
    enum CodingKeys: String, CodingKey, CaseIterable { case name, params, returns, security, volatility, callers, doc, decision }
    /// One database function: parameters of known types, `void` / `{"scalar"}` / `{"table"}`,
    /// security, volatility and callers from their lists.
    package init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        params = try c.decode([Parameter].self, forKey: .params)
        returns = try c.decode(Returns.self, forKey: .returns)
        security = try c.decode(String.self, forKey: .security)
        guard ["definer", "invoker"].contains(security) else { throw c.fail(.security, "expected definer or invoker") }
        volatility = try c.decode(String.self, forKey: .volatility)
        guard ["stable", "immutable", "volatile"].contains(volatility) else { throw c.fail(.volatility, "expected stable, immutable or volatile") }
        callers = try c.decodeIfPresent(String.self, forKey: .callers) ?? "any"
        guard ["any", "self", "involved", "service_role"].contains(callers) else { throw c.fail(.callers, "expected any, self, involved or service_role") }
        name = try c.decode(String.self, forKey: .name)
    }
}

extension RPCContract.Parameter: Decodable {
    enum CodingKeys: String, CodingKey, CaseIterable { case name, type, `default` }
    /// `{"name", "type", "default"}`; a `null` default counts as a default.
    package init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        type = try c.decode(String.self, forKey: .type)
        guard SQLType.parse(type, enums: [:]) != nil else { throw c.fail(.type, "unknown type '\(type)'") }
        hasDefault = c.contains(.default)
        defaultValue = hasDefault ? (try c.decodeIfPresent(JSONValue.self, forKey: .default) ?? .null) : nil
        name = try c.decode(String.self, forKey: .name)
    }
}

extension RPCContract.Returns: Decodable {
    enum CodingKeys: String, CodingKey { case scalar, table }
    enum ColumnKeys: String, CodingKey, CaseIterable { case name, type }
    /// `"void"`, `{"scalar": type}` or `{"table": [{"name", "type"}]}`.
    package init(from decoder: Decoder) throws {
        if case .string(let s) = try decoder.singleValueContainer().decode(JSONValue.self) {
            guard s == "void" else { throw decoder.fail("expected \"void\", {\"scalar\": type} or {\"table\": [columns]}") }
            self = .void
            return
        }
        let c = try decoder.container(keyedBy: CodingKeys.self)
        if let s = try c.decodeIfPresent(String.self, forKey: .scalar) {
            self = .scalar(s)
            return
        }
        var columns = try c.nestedUnkeyedContainer(forKey: .table)
        var out: [(name: String, type: String)] = []
        while !columns.isAtEnd {
            let column = try columns.nestedContainer(keyedBy: ColumnKeys.self)
            out.append((try column.decode(String.self, forKey: .name), try column.decode(String.self, forKey: .type)))
        }
        self = .table(out)
    }
}

extension EdgeFunctionContract: Decodable {
    enum CodingKeys: String, CodingKey, CaseIterable { case name, method, verifyJWT, callers, request, decision, trigger }
    enum RequestKeys: String, CodingKey { case required, optional }
    /// One edge function: method, JWT verification, callers, and the body's required and
    /// optional fields with their kinds.
    package init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        required = []
        optional = []
        if try c.decodeNil(forKey: .request) == false {
            let r = try c.nestedContainer(keyedBy: RequestKeys.self, forKey: .request)
            required = try (r.decodeIfPresent([String: String].self, forKey: .required) ?? [:]).sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
            optional = try (r.decodeIfPresent([String: String].self, forKey: .optional) ?? [:]).sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        }
        name = try c.decode(String.self, forKey: .name)
        method = try c.decode(String.self, forKey: .method)
        verifyJWT = try c.decode(Bool.self, forKey: .verifyJWT)
        callers = try c.decode([String].self, forKey: .callers)
    }
}

extension APNsContract: Decodable {
    enum CodingKeys: String, CodingKey, CaseIterable { case decision, removeOn, fake, topic, pushType, priority, sound }
    enum RemoveKeys: String, CodingKey, CaseIterable { case status, reason }
    enum FakeKeys: String, CodingKey, CaseIterable { case decision, tokenHexLength, unregisteredPrefix }
    /// APNs' headers and the fake's rules: the answers that remove a token, a token's length and
    /// the prefix of tokens reported unregistered.
    package init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        var remove = try c.nestedUnkeyedContainer(forKey: .removeOn)
        removeOn = []
        while !remove.isAtEnd {
            let r = try remove.nestedContainer(keyedBy: RemoveKeys.self)
            removeOn.append((try r.decode(Int.self, forKey: .status), try r.decode(String.self, forKey: .reason)))
        }
        let fake = try c.nestedContainer(keyedBy: FakeKeys.self, forKey: .fake)
        fakeTokenHexLength = try fake.decode(Int.self, forKey: .tokenHexLength)
        fakeUnregisteredPrefix = try fake.decode(String.self, forKey: .unregisteredPrefix)
        topic = try c.decode(String.self, forKey: .topic)
        pushType = try c.decode(String.self, forKey: .pushType)
        priority = try c.decode(Int.self, forKey: .priority)
        sound = try c.decode(String.self, forKey: .sound)
    }
}
