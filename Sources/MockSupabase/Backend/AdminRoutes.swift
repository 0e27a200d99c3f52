import Foundation

/// The mock's own control routes, for test suites in any language (as WireMock's `/__admin`):
/// `POST /__admin/reset` puts the backend back to its fixtures, `GET /__admin/inbox?email=ADDRESS`
/// lists the e-mails GoTrue would have sent that address. Both need the service-role key (as
/// `apikey` and bearer token), so a client holding the anon key or a user's session cannot reach
/// them. They are the mock's, not Supabase's: a real project answers them 404.
extension MockSupabase {
    func handleAdminRoute(_ request: HTTPRequest) -> HTTPResponse {
        if let refused = checkAPIKey(request) { return refused }
        guard let token = bearer(request), let ctx = try? verify(token: token), ctx.bypassesRLS else {
            return .json(403, ["message": "the /__admin routes need the service-role key"])
        }
        switch (request.method, request.path) {
        case ("POST", "/__admin/reset"):
            do { try reset() } catch {
                return .json(500, ["message": .string("reset failed: \(error)")])
            }
            return .json(200, ["message": "reset to the fixtures"])
        case ("GET", "/__admin/inbox"):
            guard let email = request.queryValue("email"), !email.isEmpty else {
                return .json(400, ["message": "email is required: GET /__admin/inbox?email=ADDRESS"])
            }
            let origin = "http://" + (request.headers["Host"] ?? "127.0.0.1")
            let mails = sentEmails(to: email).reversed().map { m -> JSONValue in
                var o: [String: JSONValue] = [
                    "to": .string(m.to), "type": .string(m.type), "otp": .string(m.otp),
                    "token_hash": .string(m.tokenHash)
                ]
                o["action_link"] = m.actionLink.map { .string(origin + $0) } ?? .null
                return .object(o)
            }
            return .json(200, .array(Array(mails)))
        case (_, "/__admin/reset"), (_, "/__admin/inbox"):
            return .json(405, ["message": "method not allowed"])
        default:
            return .json(404, ["message": "no Route matched with those values"])
        }
    }
}
