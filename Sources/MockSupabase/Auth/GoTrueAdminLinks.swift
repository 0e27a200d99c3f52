import Foundation

/// `POST /admin/generate_link` (supabase/auth `internal/api/mail.go` `adminGenerateLink`): the
/// service role makes the link and code an e-mail would carry, without sending it. Types
/// `magiclink` (creating the user when unknown), `recovery`, `signup` (with a password).
extension MockSupabase {
    func adminGenerateLink(_ request: HTTPRequest) -> HTTPResponse {
        guard let a = request.headers["Authorization"], a.lowercased().hasPrefix("bearer ") else {
            return authError(401, "no_authorization", "This endpoint requires a valid Bearer token")
        }
        guard let ctx = try? verify(token: String(a.dropFirst(7))) else {
            return authError(403, "bad_jwt", "invalid JWT: unable to parse or verify signature, token signature is invalid")
        }
        guard ctx.bypassesRLS else { return authError(403, "not_admin", "User not allowed") }
        guard let body = authBody(request) else { return badJSON }
        let type = body["type"]?.stringValue ?? ""
        let email = body["email"]?.stringValue?.trimmingCharacters(in: .whitespaces).lowercased() ?? ""
        guard MockSupabase.validEmail(email) else { return authError(400, "validation_failed", "Unable to validate email address: invalid format") }
        var user = findUser(email: email)
        let kind: GoTrueFlows.TokenKind
        switch type {
        case "magiclink", "recovery":
            kind = .recovery
            if user == nil {
                guard type == "magiclink" else { return authError(404, "user_not_found", "User with this email not found") }
                let id = configuration.ids.uuid()
                _ = try? database.insert(
                    "auth.users",
                    [
                        [
                            "id": .string(id), "email": .string(email),
                            "raw_app_meta_data": ["provider": "email", "providers": ["email"]],
                            "raw_user_meta_data": body["data"] ?? [:]
                        ]
                    ], as: .serviceRole)
                user = findUser(id: id)
            }
        case "signup":
            kind = .confirmation
            if let u = user, isConfirmed(u) { return authError(422, "email_exists", "A user with this email address has already been registered") }
            if user == nil {
                let password = body["password"]?.stringValue ?? ""
                if let weak = weakPassword(password) { return weak }
                let id = configuration.ids.uuid()
                _ = try? database.insert(
                    "auth.users",
                    [
                        [
                            "id": .string(id), "email": .string(email),
                            "encrypted_password": .string(GoTrueState.hashPassword(password, salt: id)),
                            "raw_app_meta_data": ["provider": "email", "providers": ["email"]],
                            "raw_user_meta_data": body["data"] ?? [:]
                        ]
                    ], as: .serviceRole)
                user = findUser(id: id)
            }
        default:
            return authError(400, "validation_failed", "Invalid email action link type requested: \(type)")
        }
        guard let user else { return authError(500, "unexpected_failure", "Database error finding user") }
        let redirectTo = body["redirect_to"]?.stringValue.flatMap { authSettings.isRedirectAllowed($0) ? $0 : nil } ?? authSettings.siteURL
        let sent: SentEmail
        do { sent = try issueEmailToken(user: user, kind: kind, type: type, pkce: false, redirectTo: redirectTo, deliver: false).get() } catch {
            return error.response
        }
        let base = request.headers["Host"].map { "http://\($0)" } ?? "http://127.0.0.1"
        guard case .object(var o) = userJSON(findUser(id: user["id"]?.stringValue ?? "") ?? user) else { return authError(500, "unexpected_failure", "") }
        o["action_link"] = .string(base + (sent.actionLink ?? ""))
        o["email_otp"] = .string(sent.otp)
        o["hashed_token"] = .string(sent.tokenHash)
        o["verification_type"] = .string(type)
        o["redirect_to"] = .string(redirectTo)
        return .json(200, .object(o), headers: ["Content-Type": "application/json"])
    }
}
