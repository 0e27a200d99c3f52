import Foundation
import MockSupabase

/// `redeem_invitation(invite_code text) returns profiles` (SECURITY DEFINER): marks an
/// invitation redeemed by the caller and raises the caller's trust tier (§2 "Enter code to
/// upgrade to tier 2"). Checks and errors in the order rules.json documents.
package enum CivicForgeInvitations {
    package static let functionName = "redeem_invitation"

    /// The database function for the mock.
    package static func function(_ rules: CivicForgeRules, profileColumns: [ColumnSchema]) -> RPCFunction {
        RPCFunction(name: functionName, parameters: [RPCParameter("invite_code", .text)], returns: .row(profileColumns), volatile: true) { call in
            try redeem(code: call.arguments["invite_code"]?.stringValue ?? "", auth: call.auth, database: call.database, rules: rules)
        }
    }

    /// Redeems `code` for the caller; returns the caller's updated profile.
    package static func redeem(code raw: String, auth: AuthContext, database db: Database, rules: CivicForgeRules) throws -> JSONValue {
        guard auth.role == "authenticated", let me = auth.userID else {
            throw PostgresError("42501", "permission denied for function \(functionName)")
        }
        let code = raw.trimmingCharacters(in: .whitespacesAndNewlines).uppercased()
        return try db.atomically {
            guard let inv = try db.rows("invitations", as: .serviceRole, where: .eq("code", code)).first else {
                throw rules.invitationError("notFound")
            }
            guard let profile = try db.rows("profiles", as: .serviceRole, where: .eq("id", me)).first else {
                throw rules.invitationError("noProfile")
            }
            if inv["inviter_id"]?.stringValue == me { throw rules.invitationError("ownInvitation") }
            if !(inv["redeemed_by"] ?? .null).isNull { throw rules.invitationError("alreadyRedeemed") }
            let now = PGTime.micros(db.clock.now())
            if let e = inv["expires_at"]?.stringValue, let exp = PGTime.parseTimestamp(e, assumeUTC: true), exp <= now {
                throw rules.invitationError("expired")
            }
            if inv["neighborhood_id"] != profile["neighborhood_id"] { throw rules.invitationError("otherNeighborhood") }
            if (profile["trust_tier"]?.intValue ?? 0) >= Int64(rules.invitationGrantsTier) { throw rules.invitationError("alreadyTier") }
            let stamp = JSONValue.string(PGTime.formatTimestamp(now, withZone: true))
            try db.update(
                "invitations", set: ["redeemed_by": .string(me), "redeemed_at": stamp], where: .eq("id", inv["id"]?.stringValue ?? ""), as: .serviceRole)
            let updated = try db.update("profiles", set: ["trust_tier": .int(Int64(rules.invitationGrantsTier))], where: .eq("id", me), as: .serviceRole)
            return .object(updated.first ?? profile)
        }
    }
}
