import Foundation
import MockSupabase
import MockBinding

/// A coded error a CivicForge database function raises: SQLSTATE and message, from rules.json.
package struct CivicForgeErrorSpec: Sendable, Equatable {
    /// The SQLSTATE (`CFI01`, `42501`).
    package var code: String
    /// The message, possibly with `{placeholders}`.
    package var message: String

    /// The error as the database raises it, placeholders filled in.
    package func error(_ values: [String: String] = [:]) -> PostgresError {
        var m = message
        for (k, v) in values { m = m.replacingOccurrences(of: "{\(k)}", with: v) }
        return PostgresError(code, m)
    }
}

extension CivicForgeErrorSpec: Decodable {}

/// Columns of one table a client may not write (see rules.json `serverManagedColumns`).
package struct ServerManagedColumns: Sendable, Equatable {
    package var table: String
    /// Columns whose value only the server sets: a client's INSERT must leave the default, its UPDATE must not change them.
    package var columns: [String]
    /// Columns a client sets on INSERT and may never change.
    package var immutable: [String]
}

extension ServerManagedColumns: Decodable {
    enum CodingKeys: String, CodingKey { case table, columns, immutable }
    package init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        table = try c.decode(String.self, forKey: .table)
        columns = try c.decode([String].self, forKey: .columns)
        immutable = try c.decodeIfPresent([String].self, forKey: .immutable) ?? []
    }
}

/// CivicForge's domain rules: Contracts/civicforge/rules.json.
package struct CivicForgeRules: Sendable, Equatable {
    /// Distinct flags that hide a post (FLAG_THRESHOLD_HIDE).
    package var flagThresholdHide: Int
    /// The review_status a post gets when it is hidden.
    package var reviewStatusWhenHidden: String
    /// Reputation points a thanks gives its recipient.
    package var pointsPerThanks: Int
    /// The trust tier an invitation grants.
    package var invitationGrantsTier: Int
    /// Days an invitation stays valid.
    package var invitationValidDays: Int
    /// Characters of an invitation code.
    package var invitationCodeLength: Int
    /// redeem_invitation's errors by key (`notFound`, `expired`, …).
    package var invitationErrors: [String: CivicForgeErrorSpec]
    /// The error a guard trigger raises.
    package var serverManagedError: CivicForgeErrorSpec
    /// Guarded columns per table.
    package var serverManaged: [ServerManagedColumns]

    /// The invitation error of a key; a missing key is a contract error caught when loading.
    package func invitationError(_ key: String) -> PostgresError {
        invitationErrors[key]?.error() ?? PostgresError("XX000", "rules.json has no invitations.errors.\(key)")
    }

    /// The keys redeem_invitation needs in `invitations.errors`.
    package static let invitationErrorKeys = ["notFound", "noProfile", "ownInvitation", "alreadyRedeemed", "expired", "otherNeighborhood", "alreadyTier"]

    /// Loads `rules.json` from an app folder (default: Contracts/civicforge).
    package static func load(folder: URL = ContractsLocator.app(CivicForgeApp.name)) throws -> CivicForgeRules {
        // Once per folder while `LoadedSpecs` are bound: every backend's registration reads it.
        try LoadedSpecs.value("civicforge-rules", folder: folder) {
            try SpecNode.decode(CivicForgeRules.self, from: folder.appendingPathComponent("rules.json"), displayName: "Contracts/civicforge/rules.json")
        }
    }

    /// Checks the rules against the schema: guarded tables and columns exist, guarded columns
    /// have literal defaults, the review status is a label of `review_status`.
    package func validate(against schema: DatabaseSchema) throws {
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

/// `moderation` of rules.json.
private struct ModerationSection: Decodable, ContractChecked {
    var flagThresholdHide: Int
    var reviewStatusWhenHidden: String
    func validate(_ decoder: Decoder) throws {
        guard flagThresholdHide >= 1 else { throw decoder.fail("flagThresholdHide", "must be at least 1") }
    }
}

/// `reputation` of rules.json.
private struct ReputationSection: Decodable { var pointsPerThanks: Int }

/// `invitations` of rules.json: every error redeem_invitation raises, and no other.
private struct InvitationsSection: Decodable {
    var grantsTier: Int, validDays: Int, codeLength: Int
    var errors: [String: CivicForgeErrorSpec]
    enum CodingKeys: String, CodingKey, CaseIterable { case source, decisions, decision, errors, codeLength, grantsTier, validDays }
    init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        errors = try c.decode([String: CivicForgeErrorSpec].self, forKey: .errors)
        let known = CivicForgeRules.invitationErrorKeys
        for k in known where errors[k] == nil { throw c.fail(.errors, "missing error '\(k)'") }
        for k in errors.keys.sorted() where !known.contains(k) { throw c.fail(.errors, "unknown error '\(k)' (known: \(known.joined(separator: ", ")))") }
        codeLength = try c.decode(Int.self, forKey: .codeLength)
        guard codeLength >= 4 else { throw c.fail(.codeLength, "must be at least 4") }
        grantsTier = try c.decode(Int.self, forKey: .grantsTier)
        validDays = try c.decode(Int.self, forKey: .validDays)
    }
}

/// `serverManagedColumns` of rules.json.
private struct ServerManaged: Decodable {
    var error: CivicForgeErrorSpec
    var tables: [ServerManagedColumns]
}

extension CivicForgeRules: Decodable {
    enum CodingKeys: String, CodingKey, CaseIterable { case app, source, moderation, reputation, invitations, serverManagedColumns }
    package init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let m = try c.decode(ModerationSection.self, forKey: .moderation)
        let points = try c.decode(ReputationSection.self, forKey: .reputation).pointsPerThanks
        let inv = try c.decode(InvitationsSection.self, forKey: .invitations)
        let sm = try c.decode(ServerManaged.self, forKey: .serverManagedColumns)
        self.init(
            flagThresholdHide: m.flagThresholdHide, reviewStatusWhenHidden: m.reviewStatusWhenHidden,
            pointsPerThanks: points,
            invitationGrantsTier: inv.grantsTier, invitationValidDays: inv.validDays, invitationCodeLength: inv.codeLength,
            invitationErrors: inv.errors, serverManagedError: sm.error, serverManaged: sm.tables)
    }
}
