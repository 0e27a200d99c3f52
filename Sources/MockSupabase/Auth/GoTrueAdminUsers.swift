import Foundation

/// GoTrue's admin user routes (`internal/api/admin.go`), for the service role: `GET/POST
/// /admin/users`, `GET/PUT/DELETE /admin/users/{id}`.
extension MockSupabase {
    /// `requireAdminCredentials`: a bearer token whose role is the service role.
    func requireAdmin(_ request: HTTPRequest) -> HTTPResponse? {
        guard let a = request.headers["Authorization"], a.lowercased().hasPrefix("bearer "), a.count > 7 else {
            return authError(401, "no_authorization", "This endpoint requires a valid Bearer token")
        }
        guard let ctx = try? verify(token: String(a.dropFirst(7))) else {
            return authError(403, "bad_jwt", "invalid JWT: unable to parse or verify signature, token signature is invalid")
        }
        return ctx.bypassesRLS ? nil : authError(403, "not_admin", "User not allowed")
    }

    func routeAdminUsers(_ request: HTTPRequest, path: String) -> HTTPResponse? {
        guard path == "/admin/users" || path.hasPrefix("/admin/users/") else { return nil }
        if let denied = requireAdmin(request) { return denied }
        if path == "/admin/users" {
            switch request.method {
            case "GET": return adminListUsers(request)
            case "POST": return adminCreateUser(request)
            default: return nil
            }
        }
        let raw = String(path.dropFirst("/admin/users/".count))
        guard !raw.contains("/") else { return nil }
        guard let id = SQLValue.canonicalUUID(raw) else { return authError(404, "validation_failed", "user_id must be an UUID") }
        guard let user = findUser(id: id) else { return authError(404, "user_not_found", "User not found") }
        switch request.method {
        case "GET": return .json(200, userJSON(user), headers: ["Content-Type": "application/json"])
        case "PUT": return adminUpdateUser(request, user)
        case "DELETE":
            do { _ = try database.delete("auth.users", where: .eq("id", id)) } catch {
                return authError(500, "unexpected_failure", "Database error deleting user")
            }
            return .json(200, [:], headers: ["Content-Type": "application/json"])
        default: return nil
        }
    }

    /// `GET /admin/users?page=&per_page=`: `{"users": [...], "aud": "authenticated"}` newest first,
    /// with `X-Total-Count`.
    func adminListUsers(_ request: HTTPRequest) -> HTTPResponse {
        let page = max(1, Int(request.queryValue("page") ?? "") ?? 1)
        let perPage = max(1, Int(request.queryValue("per_page") ?? "") ?? 50)
        let all = ((try? database.rows("auth.users", where: nil)) ?? []).sorted {
            ($0["created_at"]?.stringValue ?? "", $0["id"]?.stringValue ?? "") > ($1["created_at"]?.stringValue ?? "", $1["id"]?.stringValue ?? "")
        }
        let slice = all.dropFirst((page - 1) * perPage).prefix(perPage)
        var h: HTTPHeaders = ["Content-Type": "application/json"]
        h["X-Total-Count"] = String(all.count)
        return .json(200, ["users": .array(slice.map(userJSON)), "aud": "authenticated"], headers: h)
    }

    /// `POST /admin/users`: `{email, password, email_confirm, user_metadata, app_metadata}`.
    func adminCreateUser(_ request: HTTPRequest) -> HTTPResponse {
        guard let body = authBody(request) else { return authError(400, "bad_json", "Could not parse request body as JSON: invalid character") }
        let email = body["email"]?.stringValue?.trimmingCharacters(in: .whitespaces).lowercased() ?? ""
        guard !email.isEmpty || !(body["phone"]?.stringValue ?? "").isEmpty else {
            return authError(400, "validation_failed", "Cannot create a user without either an email or phone")
        }
        if email.isEmpty { return authError(400, "phone_provider_disabled", "Phone logins are disabled") }
        guard MockSupabase.validEmail(email) else { return authError(400, "validation_failed", "Unable to validate email address: invalid format") }
        let password = body["password"]?.stringValue
        if let p = password, p.count < configuration.minimumPasswordLength {
            return authError(422, "weak_password", "Password should be at least \(configuration.minimumPasswordLength) characters.",
                             extra: ["weak_password": ["reasons": ["length"]]])
        }
        let id = body["id"]?.stringValue.flatMap(SQLValue.canonicalUUID) ?? configuration.ids.uuid()
        var app: [String: JSONValue] = ["provider": "email", "providers": ["email"]]
        for (k, v) in body["app_metadata"]?.objectValue ?? [:] { app[k] = v }
        var row: [String: JSONValue] = ["id": .string(id), "email": .string(email), "raw_app_meta_data": .object(app),
                                        "raw_user_meta_data": body["user_metadata"] ?? body["data"] ?? [:]]
        if let p = password { row["encrypted_password"] = .string(GoTrueState.hashPassword(p, salt: id)) }
        if body["email_confirm"]?.boolValue == true { row["email_confirmed_at"] = .string(nowTimestamp()) }
        do {
            let created = try database.atomically { () throws -> Bool in
                if findUser(email: email) != nil { return false }
                _ = try database.insert("auth.users", [row], as: .serviceRole)
                return true
            }
            if !created { return authError(422, "email_exists", "A user with this email address has already been registered") }
        } catch { return authError(500, "unexpected_failure", "Database error creating new user") }
        guard let user = findUser(id: id) else { return authError(500, "unexpected_failure", "Database error creating new user") }
        return .json(200, userJSON(user), headers: ["Content-Type": "application/json"])
    }

    /// `PUT /admin/users/{id}`: e-mail, password, metadata, `email_confirm`.
    func adminUpdateUser(_ request: HTTPRequest, _ user: [String: JSONValue]) -> HTTPResponse {
        guard let body = authBody(request) else { return authError(400, "bad_json", "Could not parse request body as JSON: invalid character") }
        let id = user["id"]?.stringValue ?? ""
        var set: [String: JSONValue] = [:]
        if let e = body["email"]?.stringValue?.trimmingCharacters(in: .whitespaces).lowercased(), !e.isEmpty, e != user["email"]?.stringValue {
            guard MockSupabase.validEmail(e) else { return authError(400, "validation_failed", "Unable to validate email address: invalid format") }
            if findUser(email: e) != nil { return authError(422, "email_exists", "A user with this email address has already been registered") }
            set["email"] = .string(e)
        }
        if let p = body["password"]?.stringValue {
            if p.count < configuration.minimumPasswordLength {
                return authError(422, "weak_password", "Password should be at least \(configuration.minimumPasswordLength) characters.",
                                 extra: ["weak_password": ["reasons": ["length"]]])
            }
            set["encrypted_password"] = .string(GoTrueState.hashPassword(p, salt: id))
        }
        if case .object(let patch)? = body["user_metadata"] {
            var meta = user["raw_user_meta_data"]?.objectValue ?? [:]
            for (k, v) in patch { meta[k] = v }
            set["raw_user_meta_data"] = .object(meta)
        }
        if case .object(let patch)? = body["app_metadata"] {
            var meta = user["raw_app_meta_data"]?.objectValue ?? [:]
            for (k, v) in patch { meta[k] = v }
            set["raw_app_meta_data"] = .object(meta)
        }
        if body["email_confirm"]?.boolValue == true, !isConfirmed(user) { set["email_confirmed_at"] = .string(nowTimestamp()) }
        set["updated_at"] = .string(nowTimestamp())
        do { _ = try database.update("auth.users", set: set, where: .eq("id", id)) } catch {
            return authError(500, "unexpected_failure", "Error updating user")
        }
        return .json(200, userJSON(findUser(id: id) ?? user), headers: ["Content-Type": "application/json"])
    }
}
