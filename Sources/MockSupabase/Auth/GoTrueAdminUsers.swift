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

    /// `GET /admin/users?page=&per_page=&filter=`: `{"users": [...], "aud": "authenticated"}`, newest
    /// first, as GoTrue's page mode answers it (internal/api/pagination.go, `adminUsers` in
    /// internal/api/admin.go): `page` (default 1) and `per_page` (default 50) parsed as unsigned
    /// integers (anything else is 400 "Bad Pagination Parameters"); `X-Total-Count` is the number
    /// of matching users; `Link` always has `rel="last"` (the page count, 0 when there are no
    /// users) and, while pages remain, `rel="next"` first. Their URLs are the request's path as
    /// GoTrue sees it (behind the gateway: `/admin/users`) with the query re-encoded in key order,
    /// as Go's `url.Values.Encode` does. `filter` keeps users whose e-mail contains it (`LIKE`) or
    /// whose `full_name` contains it ignoring case (`ILIKE`).
    func adminListUsers(_ request: HTTPRequest) -> HTTPResponse {
        // nil: the value is absent (the default applies); a non-number is GoTrue's 400.
        func unsigned(_ name: String) -> UInt64?? {
            guard let raw = request.queryValue(name), !raw.isEmpty else { return .some(nil) }
            return UInt64(raw).map { .some($0) } ?? nil
        }
        for name in ["page", "per_page"] where unsigned(name) == nil {
            let raw = request.queryValue(name) ?? ""
            return authError(400, "validation_failed", "Bad Pagination Parameters: strconv.ParseUint: parsing \"\(raw)\": invalid syntax")
        }
        let page: UInt64 = (unsigned("page") ?? nil) ?? 1
        let perPage: UInt64 = (unsigned("per_page") ?? nil) ?? 50
        // pagination.go divides by per_page: 0 panics there, and the recoverer answers 500.
        guard perPage > 0 else { return authError(500, "unexpected_failure", "Internal Server Error") }
        let filter = request.queryValue("filter") ?? ""
        let all = ((try? database.rows("auth.users", where: nil)) ?? []).filter { u in
            guard !filter.isEmpty else { return true }
            let email = u["email"]?.stringValue ?? ""
            let name = u["raw_user_meta_data"]?["full_name"]?.stringValue ?? ""
            return email.contains(filter) || name.lowercased().contains(filter.lowercased())
        }.sorted {
            ($0["created_at"]?.stringValue ?? "", $0["id"]?.stringValue ?? "") > ($1["created_at"]?.stringValue ?? "", $1["id"]?.stringValue ?? "")
        }
        // pop's Paginate treats a page below 1 as 1; the headers keep the page as given.
        let offset = Int(min(UInt64(Int.max / 2), (max(page, 1) - 1) * perPage))
        let slice = all.dropFirst(offset).prefix(Int(min(perPage, UInt64(Int.max / 2))))
        let total = UInt64(all.count)
        let pages = total / perPage + (total % perPage > 0 ? 1 : 0)
        var query = request.query.map { ($0.name, $0.value) }
        func link(page p: UInt64) -> String {
            query.removeAll { $0.0 == "page" }
            query.append(("page", String(p)))
            // GoTrue sees the path without the gateway's `/auth/v1` prefix.
            let path = request.path.hasPrefix("/auth/v1") ? String(request.path.dropFirst("/auth/v1".count)) : request.path
            return "<" + path + "?" + GoQuery.encode(query) + ">"
        }
        var header = ""
        if pages > page { header += link(page: page + 1) + "; rel=\"next\", " }
        header += link(page: pages) + "; rel=\"last\""
        var h: HTTPHeaders = ["Content-Type": "application/json"]
        h["Link"] = header
        h["X-Total-Count"] = String(total)
        return .json(200, ["users": .array(slice.map(userJSON)), "aud": "authenticated"], headers: h)
    }

    /// `POST /admin/users`: `{email, password, email_confirm, user_metadata, app_metadata}`.
    func adminCreateUser(_ request: HTTPRequest) -> HTTPResponse {
        guard let body = authBody(request) else { return badJSON }
        let email = body["email"]?.stringValue?.trimmingCharacters(in: .whitespaces).lowercased() ?? ""
        guard !email.isEmpty || !(body["phone"]?.stringValue ?? "").isEmpty else {
            return authError(400, "validation_failed", "Cannot create a user without either an email or phone")
        }
        if email.isEmpty { return authError(400, "phone_provider_disabled", "Phone logins are disabled") }
        guard MockSupabase.validEmail(email) else { return authError(400, "validation_failed", "Unable to validate email address: invalid format") }
        let password = body["password"]?.stringValue
        if let weak = password.flatMap(weakPassword) { return weak }
        let id = body["id"]?.stringValue.flatMap(SQLValue.canonicalUUID) ?? configuration.ids.uuid()
        var app: [String: JSONValue] = ["provider": "email", "providers": ["email"]]
        for (k, v) in body["app_metadata"]?.objectValue ?? [:] { app[k] = v }
        var row: [String: JSONValue] = [
            "id": .string(id), "email": .string(email), "raw_app_meta_data": .object(app),
            "raw_user_meta_data": body["user_metadata"] ?? body["data"] ?? [:]
        ]
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
        guard let body = authBody(request) else { return badJSON }
        let id = user["id"]?.stringValue ?? ""
        var set: [String: JSONValue] = [:]
        if let e = body["email"]?.stringValue?.trimmingCharacters(in: .whitespaces).lowercased(), !e.isEmpty, e != user["email"]?.stringValue {
            guard MockSupabase.validEmail(e) else { return authError(400, "validation_failed", "Unable to validate email address: invalid format") }
            if findUser(email: e) != nil { return authError(422, "email_exists", "A user with this email address has already been registered") }
            set["email"] = .string(e)
        }
        if let p = body["password"]?.stringValue {
            if let weak = weakPassword(p) { return weak }
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
