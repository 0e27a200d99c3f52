import Foundation
import MockSupabase
import MockBinding

/// Contracts/shvil/errors.json `session`: what a client does when PostgREST refuses its access
/// token (§Data Protection "JWT tokens with refresh mechanism").
package struct SessionRefreshRule: Sendable, Equatable {
    /// The status that means "the access token is expired or invalid" (PostgREST PGRST301/303).
    package var refreshOnStatus: Int
    /// The GoTrue grant that renews the session.
    package var grantType: String
    /// Refreshes a single request may trigger before it gives up.
    package var maxRefreshesPerRequest: Int
    /// The error a request ends with when the refresh fails or the retry is refused again.
    package var onFailure: AppError
}

extension SessionRefreshRule: Decodable {
    enum CodingKeys: String, CodingKey, CaseIterable { case decision, onFailure, maxRefreshesPerRequest, refreshOnStatus, grantType }
    package init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let f = try c.decode(String.self, forKey: .onFailure)
        guard let e = AppError(id: f) else { throw c.fail(.onFailure, "'\(f)' is not an AppError (category.kind)") }
        onFailure = e
        maxRefreshesPerRequest = try c.decode(Int.self, forKey: .maxRefreshesPerRequest)
        guard maxRefreshesPerRequest >= 1 else { throw c.fail(.maxRefreshesPerRequest, "must be at least 1: a refresh mechanism refreshes") }
        refreshOnStatus = try c.decode(Int.self, forKey: .refreshOnStatus)
        grantType = try c.decode(String.self, forKey: .grantType)
    }
}

/// The tokens a signed-in client holds.
public struct SessionTokens: Sendable, Equatable {
    /// The JWT sent as `Authorization: Bearer`.
    public var accessToken: String
    /// The single-use token that renews it.
    public var refreshToken: String
    public init(accessToken: String, refreshToken: String) { self.accessToken = accessToken; self.refreshToken = refreshToken }
}

/// A client's request executor: sends a PostgREST request with the session's access token, and
/// renews the session as `SessionRefreshRule` says. The implementation under test of
/// `ShvilTokenRefreshConformance`.
public protocol SessionRequestExecutor: AnyObject {
    /// The tokens it holds now (rotated by a refresh), nil once the session is lost.
    var tokens: SessionTokens? { get }
    /// Sends `request` (without Authorization: the executor adds it). Returns the final response,
    /// or throws an `AppError` (a transport failure as `SyncTransportError`).
    func send(_ request: HTTPRequest) throws -> HTTPResponse
}

/// The reference executor: on `refreshOnStatus` it refreshes once (POST /auth/v1/token
/// grant_type=refresh_token, keeping the rotated refresh token) and retries the request once
/// with the new access token; a failed refresh or a second refusal ends the session with
/// `onFailure`. Mirrors supabase-swift, whose PostgREST calls take the session (refreshed when
/// expired) before each request (Sources/Auth/AuthClient.swift `session`).
package final class RefreshingExecutor: SessionRequestExecutor {
    package let rule: SessionRefreshRule
    /// The project's anon key.
    package let apiKey: String
    /// Performs one HTTP request.
    package let transport: (HTTPRequest) throws -> HTTPResponse
    /// The current tokens.
    package private(set) var tokens: SessionTokens?

    package init(rule: SessionRefreshRule, apiKey: String, tokens: SessionTokens, transport: @escaping (HTTPRequest) throws -> HTTPResponse) {
        self.rule = rule; self.apiKey = apiKey; self.tokens = tokens; self.transport = transport
    }

    func authorized(_ request: HTTPRequest, _ token: String) -> HTTPRequest {
        var r = request
        r.headers.set("apikey", apiKey)
        r.headers.set("Authorization", "Bearer \(token)")
        return r
    }

    /// Renews the session; false when GoTrue refuses the refresh token.
    func refresh() throws -> Bool {
        guard let t = tokens else { return false }
        let body = JSONValue.object(["refresh_token": .string(t.refreshToken)]).data()
        let res = try transport(
            HTTPRequest(
                method: "POST", path: "/auth/v1/token", query: [(name: "grant_type", value: rule.grantType)],
                headers: ["apikey": apiKey, "Content-Type": "application/json"], body: body))
        guard res.status == 200, let access = res.jsonBody?["access_token"]?.stringValue,
            let refresh = res.jsonBody?["refresh_token"]?.stringValue
        else { return false }
        tokens = SessionTokens(accessToken: access, refreshToken: refresh)
        return true
    }

    /// Sends, refreshing at most `maxRefreshesPerRequest` times.
    package func send(_ request: HTTPRequest) throws -> HTTPResponse {
        var refreshes = 0
        while true {
            guard let t = tokens else { throw rule.onFailure }
            let res = try transport(authorized(request, t.accessToken))
            guard res.status == rule.refreshOnStatus else { return res }
            guard refreshes < rule.maxRefreshesPerRequest, try refresh() else {
                tokens = nil
                throw rule.onFailure
            }
            refreshes += 1
        }
    }
}

/// The conformance suite of a `SessionRequestExecutor`, run against a Shvil mock backend over its
/// HTTP handler: an empty result means it conforms.
public enum ShvilTokenRefreshConformance {
    /// Builds the executor under test from the rule, the anon key, a signed-in session and a
    /// transport.
    package typealias Factory = (SessionRefreshRule, String, SessionTokens, @escaping (HTTPRequest) throws -> HTTPResponse) -> any SessionRequestExecutor

    /// One recorded request.
    struct Sent { var path: String; var query: String; var authorization: String? }

    /// Violations of `rule` by executors `make` builds. Scenarios: a fresh token (no refresh); an
    /// expired token (one refresh, one retry with the new token, rotated refresh token kept, and a
    /// second expiry handled the same way); a revoked refresh token (`onFailure`, no retry); a
    /// retry refused again (exactly `maxRefreshesPerRequest` refreshes, then `onFailure`); a
    /// non-401 refusal (no refresh).
    package static func violations(rule: SessionRefreshRule, persona: String = "noa", folder: URL? = nil, make: Factory) -> [String] {
        var out: [String] = []
        func world() throws -> (MockSupabase, ManualClock, SessionTokens) {
            let clock = ManualClock(InteractionReplay.defaultStartTime)
            let b = try ShvilApp.makeBackend(clock: clock, ids: SeededIDGenerator(seed: 0x5E55), folder: folder)
            guard let p = b.configuration.spec.fixtures.persona(persona) else {
                throw SpecError(file: "Contracts/shvil/fixtures.json", path: "$.personas", message: "no persona '\(persona)'")
            }
            let res = try b.handle(
                HTTPRequest(
                    method: "POST", path: "/auth/v1/token", query: [(name: "grant_type", value: "password")],
                    headers: ["apikey": b.anonKey, "Content-Type": "application/json"],
                    body: JSONValue.object(["email": .string(p.email), "password": .string(p.password)]).data()))
            guard let a = res.jsonBody?["access_token"]?.stringValue, let r = res.jsonBody?["refresh_token"]?.stringValue else {
                throw SpecError(file: "Contracts/shvil/fixtures.json", path: "$.personas", message: "\(persona) cannot sign in: \(res.text)")
            }
            return (b, clock, SessionTokens(accessToken: a, refreshToken: r))
        }
        var lastIssued: String?
        let read = HTTPRequest(method: "GET", path: "/rest/v1/adventures", query: [(name: "select", value: "id")], headers: ["Accept": "application/json"])
        func run(
            _ label: String, expire: Bool = false, transportOverride: ((HTTPRequest, MockSupabase) throws -> HTTPResponse?)? = nil,
            before: ((MockSupabase, SessionTokens) throws -> Void)? = nil,
            check: ([Sent], Result<HTTPResponse, Error>, (any SessionRequestExecutor), MockSupabase, ManualClock) -> [String]
        ) {
            do {
                let (b, clock, tokens) = try world()
                try before?(b, tokens)
                var sent: [Sent] = []
                lastIssued = nil
                let transport: (HTTPRequest) throws -> HTTPResponse = { r in
                    sent.append(
                        Sent(path: r.path, query: r.query.map { "\($0.name)=\($0.value)" }.joined(separator: "&"), authorization: r.headers["Authorization"]))
                    guard sent.count <= 20 else { throw SyncTransportError("more than 20 requests for one call: a refresh loop") }
                    if let o = try transportOverride?(r, b) { return o }
                    let res = try b.handle(r)
                    if r.path == "/auth/v1/token", let t = res.jsonBody?["refresh_token"]?.stringValue { lastIssued = t }
                    return res
                }
                let ex = make(rule, b.anonKey, tokens, transport)
                if expire { clock.advance(by: Double(b.configuration.accessTokenLifetime + 1)) }
                let result = Result { try ex.send(read) }
                out += check(sent, result, ex, b, clock).map { "\(label): \($0)" }
            } catch {
                out.append("\(label): setup failed: \(error)")
            }
        }
        let refreshes = { (s: [Sent]) in s.filter { $0.path == "/auth/v1/token" }.count }
        run("fresh token") { sent, result, _, _, _ in
            var v: [String] = []
            if refreshes(sent) != 0 { v.append("refreshed \(refreshes(sent)) times with a valid token") }
            if (try? result.get())?.status != 200 { v.append("expected 200, got \(result)") }
            return v
        }
        run("expired access token", expire: true) { sent, result, ex, b, clock in
            var v: [String] = []
            if refreshes(sent) != 1 { v.append("\(refreshes(sent)) refreshes, expected exactly 1 (\(rule.refreshOnStatus) then grant_type=\(rule.grantType))") }
            if let t = sent.first(where: { $0.path == "/auth/v1/token" }), t.query != "grant_type=\(rule.grantType)" { v.append("refresh sent as \(t.query)") }
            guard case .success(let res) = result, res.status == 200 else { return v + ["the retried request did not succeed: \(result)"] }
            let rest = sent.filter { $0.path.hasPrefix("/rest/") }
            if rest.count != 2 { v.append("\(rest.count) REST requests, expected the original and one retry") }
            if let last = rest.last, last.authorization != ex.tokens.map({ "Bearer \($0.accessToken)" }) {
                v.append("the retry did not carry the new access token")
            }
            if rest.count == 2, rest[0].authorization == rest[1].authorization { v.append("the retry reused the expired token") }
            // The tokens it holds are the ones GoTrue returned last (the rotated refresh token).
            if let issued = lastIssued, ex.tokens?.refreshToken != issued { v.append("the rotated refresh token GoTrue returned is not the one held") }
            // A second expiry is handled the same way.
            clock.advance(by: Double(b.configuration.accessTokenLifetime + 1))
            if (try? ex.send(read))?.status != 200 { v.append("after a second expiry the request failed") }
            return v
        }
        run(
            "refresh token revoked", expire: true,
            before: { b, t in
                _ = try b.handle(
                    HTTPRequest(
                        method: "POST", path: "/auth/v1/logout", query: [(name: "scope", value: "global")],
                        headers: ["apikey": b.anonKey, "Authorization": "Bearer \(t.accessToken)"]))
            }
        ) { sent, result, ex, _, _ in
            var v: [String] = []
            if refreshes(sent) != 1 { v.append("\(refreshes(sent)) refreshes, expected 1 attempt") }
            switch result {
            case .failure(let e as AppError) where e == rule.onFailure: break
            default: v.append("ended with \(result), expected \(rule.onFailure.id)")
            }
            if sent.filter({ $0.path.hasPrefix("/rest/") }).count != 1 { v.append("the request was retried without a session") }
            if ex.tokens != nil { v.append("the lost session is still held") }
            return v
        }
        run(
            "retry refused again",
            transportOverride: { r, _ in
                r.path.hasPrefix("/rest/")
                    ? HTTPResponse(
                        status: 401, headers: ["Content-Type": "application/json"],
                        body: JSONValue.object(["code": "PGRST301", "message": "JWT expired", "details": .null, "hint": .null]).data()) : nil
            }
        ) { sent, result, _, _, _ in
            var v: [String] = []
            if refreshes(sent) != rule.maxRefreshesPerRequest { v.append("\(refreshes(sent)) refreshes, expected \(rule.maxRefreshesPerRequest) then give up") }
            switch result {
            case .failure(let e as AppError) where e == rule.onFailure: break
            default: v.append("ended with \(result), expected \(rule.onFailure.id)")
            }
            return v
        }
        run(
            "forbidden is not expiry",
            transportOverride: { r, _ in
                r.path.hasPrefix("/rest/")
                    ? HTTPResponse(
                        status: 403, headers: ["Content-Type": "application/json"],
                        body: JSONValue.object(["code": "42501", "message": "permission denied for table adventures", "details": .null, "hint": .null]).data())
                    : nil
            }
        ) { sent, result, _, _, _ in
            var v: [String] = []
            if refreshes(sent) != 0 { v.append("refreshed on 403") }
            if (try? result.get())?.status != 403 { v.append("expected the 403 back, got \(result)") }
            return v
        }
        return out
    }
}
