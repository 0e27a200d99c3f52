import Foundation
import MockSupabase
import ContractKit

/// A coded error a CivicForge database function raises: SQLSTATE and message, from rules.json.
public struct CivicForgeErrorSpec: Sendable, Equatable {
    /// The SQLSTATE (`CFI01`, `42501`).
    public var code: String
    /// The message, possibly with `{placeholders}`.
    public var message: String

    /// The error as the database raises it, placeholders filled in.
    public func error(_ values: [String: String] = [:]) -> PostgresError {
        var m = message
        for (k, v) in values { m = m.replacingOccurrences(of: "{\(k)}", with: v) }
        return PostgresError(code, m)
    }

    static func decode(_ node: SpecNode) throws -> CivicForgeErrorSpec {
        try node.object { o in
            CivicForgeErrorSpec(code: try o.required("code").string(), message: try o.required("message").string())
        }
    }
}

/// Columns of one table a client may not write (see rules.json `serverManagedColumns`).
public struct ServerManagedColumns: Sendable, Equatable {
    /// The table.
    public var table: String
    /// Columns whose value only the server sets: a client's INSERT must leave the default, its UPDATE must not change them.
    public var columns: [String]
    /// Columns a client sets on INSERT and may never change.
    public var immutable: [String]
}

/// CivicForge's domain rules: Contracts/civicforge/rules.json.
public struct CivicForgeRules: Sendable, Equatable {
    /// Distinct flags that hide a post (FLAG_THRESHOLD_HIDE).
    public var flagThresholdHide: Int
    /// The review_status a post gets when it is hidden.
    public var reviewStatusWhenHidden: String
    /// Reputation points a thanks gives its recipient.
    public var pointsPerThanks: Int
    /// The trust tier an invitation grants.
    public var invitationGrantsTier: Int
    /// Days an invitation stays valid.
    public var invitationValidDays: Int
    /// Characters of an invitation code.
    public var invitationCodeLength: Int
    /// redeem_invitation's errors by key (`notFound`, `expired`, …).
    public var invitationErrors: [String: CivicForgeErrorSpec]
    /// The error a guard trigger raises.
    public var serverManagedError: CivicForgeErrorSpec
    /// Guarded columns per table.
    public var serverManaged: [ServerManagedColumns]

    /// The invitation error of a key; a missing key is a contract error caught when loading.
    public func invitationError(_ key: String) -> PostgresError {
        invitationErrors[key]?.error() ?? PostgresError("XX000", "rules.json has no invitations.errors.\(key)")
    }

    /// The keys redeem_invitation needs in `invitations.errors`.
    public static let invitationErrorKeys = ["notFound", "noProfile", "ownInvitation", "alreadyRedeemed", "expired", "otherNeighborhood", "alreadyTier"]

    /// Loads `rules.json` from an app folder (default: Contracts/civicforge).
    public static func load(folder: URL = ContractsLocator.app(CivicForgeApp.name)) throws -> CivicForgeRules {
        try decode(SpecNode.load(folder.appendingPathComponent("rules.json"), displayName: "Contracts/civicforge/rules.json"))
    }

    /// Decodes rules.json strictly (unknown keys are errors naming the path).
    public static func decode(_ root: SpecNode) throws -> CivicForgeRules {
        try root.object { o in
            _ = o.optional("app"); _ = o.optional("source")
            let (threshold, review) = try o.required("moderation").object { m -> (Int, String) in
                _ = m.optional("source"); _ = m.optional("decision")
                let t = try m.required("flagThresholdHide")
                let v = try t.int()
                guard v >= 1 else { throw t.fail("must be at least 1") }
                return (v, try m.required("reviewStatusWhenHidden").string())
            }
            let points = try o.required("reputation").object { r -> Int in
                _ = r.optional("decision"); _ = r.optional("source")
                return try r.required("pointsPerThanks").int()
            }
            let inv = try o.required("invitations").object { i -> (Int, Int, Int, [String: CivicForgeErrorSpec]) in
                _ = i.optional("source"); _ = i.optional("decisions"); _ = i.optional("decision")
                let errNode = try i.required("errors")
                var errors: [String: CivicForgeErrorSpec] = [:]
                for (k, n) in try errNode.map() { errors[k] = try CivicForgeErrorSpec.decode(n) }
                for k in invitationErrorKeys where errors[k] == nil { throw errNode.fail("missing error '\(k)'") }
                for k in errors.keys where !invitationErrorKeys.contains(k) { throw errNode.fail("unknown error '\(k)' (known: \(invitationErrorKeys.joined(separator: ", ")))") }
                let len = try i.required("codeLength")
                guard try len.int() >= 4 else { throw len.fail("must be at least 4") }
                return (try i.required("grantsTier").int(), try i.required("validDays").int(), try len.int(), errors)
            }
            let (err, managed) = try o.required("serverManagedColumns").object { s -> (CivicForgeErrorSpec, [ServerManagedColumns]) in
                _ = s.optional("decision")
                let e = try CivicForgeErrorSpec.decode(try s.required("error"))
                let tables = try s.required("tables").array().map { t in
                    try t.object { to in
                        ServerManagedColumns(table: try to.required("table").string(), columns: try to.required("columns").strings(),
                                             immutable: try to.optional("immutable")?.strings() ?? [])
                    }
                }
                return (e, tables)
            }
            return CivicForgeRules(flagThresholdHide: threshold, reviewStatusWhenHidden: review, pointsPerThanks: points,
                                   invitationGrantsTier: inv.0, invitationValidDays: inv.1, invitationCodeLength: inv.2,
                                   invitationErrors: inv.3, serverManagedError: err, serverManaged: managed)
        }
    }

    /// Checks the rules against the schema: guarded tables and columns exist, guarded columns
    /// have literal defaults, the review status is a label of `review_status`.
    public func validate(against schema: DatabaseSchema) throws {
        let file = "Contracts/civicforge/rules.json"
        for (i, g) in serverManaged.enumerated() {
            let path = "$.serverManagedColumns.tables[\(i)]"
            guard let t = schema.table(g.table) else { throw SpecError(file: file, path: path, message: "unknown table '\(g.table)'") }
            for c in g.columns + g.immutable where t.columnIndex(c) == nil {
                throw SpecError(file: file, path: path, message: "unknown column '\(c)' of table '\(g.table)'")
            }
            for c in g.columns {
                guard case .value? = t.columns[t.columnIndex(c)!].defaultValue else {
                    throw SpecError(file: file, path: path, message: "server-managed column '\(c)' needs a literal default in schema.json")
                }
            }
        }
        guard schema.enums["review_status"]?.contains(reviewStatusWhenHidden) == true else {
            throw SpecError(file: file, path: "$.moderation.reviewStatusWhenHidden", message: "'\(reviewStatusWhenHidden)' is not a review_status label")
        }
    }
}
