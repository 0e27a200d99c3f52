import Foundation

/// Who a request acts as, the one actor type on the wire: no credentials, the anon key, the
/// service-role key, or a fixture persona's access token. Files name it `none`, `anon`,
/// `service_role` or the persona (`WireActor(name:)`).
package enum WireActor: Sendable, Hashable, CustomStringConvertible {
    /// No `apikey`, no `Authorization`.
    case none
    /// The anon key as `apikey` and bearer token.
    case anon
    /// The service-role key as `apikey` and bearer token.
    case serviceRole
    /// The anon key as `apikey`, the persona's access token as bearer token.
    case persona(String)

    package init(name: String) {
        switch name {
        case "none": self = .none
        case "anon": self = .anon
        case "service_role": self = .serviceRole
        default: self = .persona(name)
        }
    }

    /// `none`, `anon`, `service_role` or the persona's name.
    package var name: String {
        switch self {
        case .none: return "none"
        case .anon: return "anon"
        case .serviceRole: return "service_role"
        case .persona(let p): return p
        }
    }

    package var description: String { name }
}

/// Where an actor's credentials come from: a backend's keys and its personas' tokens. The one
/// place that decides which `apikey` and `Authorization` an actor sends
/// (`WireCredentials.headers(for:)`).
package protocol WireCredentials: Sendable {
    var anonKey: String { get }
    var serviceRoleKey: String { get }
    /// A persona's access token, nil when it has none (unknown, not signed in).
    func accessToken(persona: String) -> String?
}

/// A persona without an access token where one is needed.
package struct MissingTokenError: Error, CustomStringConvertible, Sendable {
    package var persona: String
    package var description: String { "no access token for persona '\(persona)'" }
}

extension WireCredentials {
    /// The `apikey` and `Authorization` fields of an actor; throws `MissingTokenError` for a
    /// persona without a token.
    package func headers(for actor: WireActor) throws -> HTTPHeaders {
        switch actor {
        case .none: return [:]
        case .anon: return ["apikey": anonKey, "Authorization": "Bearer \(anonKey)"]
        case .serviceRole: return ["apikey": serviceRoleKey, "Authorization": "Bearer \(serviceRoleKey)"]
        case .persona(let p):
            guard let t = accessToken(persona: p) else { throw MissingTokenError(persona: p) }
            return ["apikey": anonKey, "Authorization": "Bearer \(t)"]
        }
    }
}

/// One request as every rule kind sends it: method, path, query, headers, body, and the actor
/// whose credentials the transport attaches (fields the request names itself win).
package struct WireRequest: Sendable {
    /// How the query is held.
    package enum Query: Sendable {
        /// Name/value pairs, decoded (`RLSCase.request`, the client components); each part is
        /// percent-encoded on its own on the wire.
        case items([(name: String, value: String)])
        /// A query string as a contract file writes it (`select=id,name&continent=eq.Oceania`),
        /// sent as written with only the characters a URL cannot carry encoded.
        case written(String)
    }

    /// Upper-case method.
    package var method: String
    /// The path (`/rest/v1/cities`).
    package var path: String
    package var query: Query
    /// Header fields (an `apikey` or `Authorization` here replaces the actor's).
    package var headers: HTTPHeaders
    /// The body (empty: none).
    package var body: Data
    /// Whose credentials are attached.
    package var actor: WireActor

    /// A request from its parts.
    package init(method: String, path: String, query: Query = .items([]), headers: HTTPHeaders = [:], body: Data = Data(), actor: WireActor) {
        self.method = method.uppercased()
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
        self.actor = actor
    }

    /// A request from an `HTTPRequest` (its decoded query pairs) and an actor.
    package init(_ request: HTTPRequest, as actor: WireActor) {
        self.init(method: request.method, path: request.path, query: .items(request.query), headers: request.headers, body: request.body, actor: actor)
    }

    /// The fields sent: the actor's credentials (unless the request names them), then the
    /// request's own fields.
    package func fields(_ credentials: some WireCredentials) throws -> HTTPHeaders {
        var h = HTTPHeaders()
        for f in try credentials.headers(for: actor) where headers[f.name] == nil { h.add(f.name, f.value) }
        for f in headers { h.add(f.name, f.value) }
        return h
    }

    /// The request as a backend's `handle` receives it, credentials attached (a written query
    /// decoded as a server decodes it).
    package func httpRequest(_ credentials: some WireCredentials) throws -> HTTPRequest {
        let h = try fields(credentials)
        switch query {
        case .items(let items): return HTTPRequest(method: method, path: path, query: items, headers: h, body: body)
        case .written(let q): return HTTPRequest(method: method, target: path + (q.isEmpty ? "" : "?" + q), headers: h, body: body)
        }
    }

    /// Characters a query name or value keeps as they are; everything else is percent-encoded
    /// (so `&`, `=`, `+`, `#` and `%` inside a value cannot be misread).
    static let queryValueAllowed = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~,()*:")

    /// A query string from name/value pairs, each part percent-encoded.
    package static func queryString(_ pairs: [(name: String, value: String)]) -> String {
        pairs.map {
            ($0.name.addingPercentEncoding(withAllowedCharacters: queryValueAllowed) ?? $0.name) + "="
                + ($0.value.addingPercentEncoding(withAllowedCharacters: queryValueAllowed) ?? $0.value)
        }.joined(separator: "&")
    }

    /// Percent-encodes the characters a written query string may not carry raw (spaces,
    /// quotes, …) while keeping PostgREST's syntax (`=`, `&`, `,`, `.`, `(`, `)`, `*`, `:`) readable.
    package static func encodeWritten(_ q: String) -> String {
        var allowed = CharacterSet.urlQueryAllowed
        allowed.remove(charactersIn: "+\"#")
        return q.addingPercentEncoding(withAllowedCharacters: allowed) ?? q
    }

    /// The encoded query string sent on the wire (nil: none).
    package var encodedQuery: String? {
        switch query {
        case .items(let items): return items.isEmpty ? nil : WireRequest.queryString(items)
        case .written(let q): return q.isEmpty ? nil : WireRequest.encodeWritten(q)
        }
    }
}
