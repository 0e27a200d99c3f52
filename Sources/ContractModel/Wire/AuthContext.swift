import Foundation

/// Who a request or a database call acts as: PostgREST's role and the JWT claims
/// (`request.jwt.claims` in SQL).
package struct AuthContext: Sendable, Equatable {
    /// `anon`, `authenticated` or `service_role`.
    package var role: String
    /// The verified JWT claims (`sub`, `role`, `email`, `aud`, `exp`, …).
    package var claims: [String: JSONValue]

    package init(role: String, claims: [String: JSONValue] = [:]) {
        self.role = role
        self.claims = claims
    }

    /// `auth.uid()`: the `sub` claim, if it is a uuid.
    package var userID: String? { claims["sub"]?.stringValue.flatMap(SQLValue.canonicalUUID) }
    /// The `email` claim.
    package var email: String? { claims["email"]?.stringValue }
    /// Whether row-level security is bypassed (service role).
    package var bypassesRLS: Bool { role == "service_role" }

    package static let anon = AuthContext(role: "anon", claims: ["role": "anon"])
    /// The service role (bypasses RLS).
    package static let serviceRole = AuthContext(role: "service_role", claims: ["role": "service_role"])
    package static func user(_ id: String, email: String? = nil) -> AuthContext {
        var c: [String: JSONValue] = ["sub": .string(id), "role": "authenticated", "aud": "authenticated"]
        if let email { c["email"] = .string(email) }
        return AuthContext(role: "authenticated", claims: c)
    }
}
