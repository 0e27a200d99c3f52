import Foundation
import MockSupabase
import MockBinding

/// The conformance suite of the magic link's redirect allow-list (Contracts/civicforge/auth.json
/// `site_url`, `redirect_urls`; §3 Magic Link step 3, Deep Linking `/auth/callback`) on a GoTrue
/// reached over HTTP.
///
/// GoTrue validates `redirect_to` when the link is requested and again when it is opened
/// (`utilities.GetReferrer` → `IsRedirectURLValid`, supabase/auth internal/utilities/request.go):
/// a URL on the Site URL's host or matching an allow-list pattern is kept; any other falls back
/// to the Site URL, without an error. So a foreign `redirect_to` never receives the session.
public enum CivicForgeRedirectConformance {
    /// One probe: the redirect asked for and where the session must land.
    public struct Probe: Sendable, Equatable {
        /// `redirect_to` as the client sends it (nil: none).
        public var requested: String?
        /// The URL the link must redirect to (before `#`).
        public var expected: String
        /// Why.
        public var label: String
    }

    /// The probes auth.json implies: every listed redirect URL lands as asked; a foreign host, a
    /// look-alike host ending in the site's, another scheme, and no redirect_to all land on the
    /// Site URL.
    public static func probes(siteURL: String, redirectURLs: [String]) -> [Probe] {
        let host = URLComponents(string: siteURL)?.host ?? ""
        var out = redirectURLs.filter { !$0.contains("*") }.map { Probe(requested: $0, expected: $0, label: "listed \($0)") }
        let path = redirectURLs.first.flatMap { URLComponents(string: $0)?.path } ?? "/auth/callback"
        out.append(Probe(requested: "https://attacker.example\(path)", expected: siteURL, label: "a foreign host"))
        out.append(Probe(requested: "https://\(host).attacker.example\(path)", expected: siteURL, label: "a look-alike host"))
        out.append(Probe(requested: "civicforge-evil://\(host)\(path)", expected: siteURL, label: "an unlisted scheme"))
        out.append(Probe(requested: nil, expected: siteURL, label: "no redirect_to"))
        return out
    }

    /// Violations by the GoTrue behind `send`: for each probe a new address asks for a magic link
    /// (`POST /auth/v1/otp?redirect_to=…`, as supabase-swift's `signInWithOTP(email:redirectTo:)`
    /// sends it), and the link from `inbox` is opened with the same `redirect_to`; the e-mailed
    /// link and the 303 must both name the expected URL, and the session goes only there.
    public static func violations(
        probes: [Probe], apiKey: String, send: (HTTPRequest) throws -> HTTPResponse,
        inbox: (String) -> SentEmail?
    ) -> [String] {
        var out: [String] = []
        for (i, p) in probes.enumerated() {
            let email = "redirect-probe-\(i)@civicforge.test"
            var query: [(name: String, value: String)] = []
            if let r = p.requested { query.append((name: "redirect_to", value: r)) }
            guard
                let asked = try? send(
                    HTTPRequest(
                        method: "POST", path: "/auth/v1/otp", query: query,
                        headers: ["apikey": apiKey, "Content-Type": "application/json"],
                        body: JSONValue.object(["email": .string(email), "create_user": true]).data())),
                asked.status == 200
            else { out.append("\(p.label): /otp refused"); continue }
            guard let link = inbox(email)?.actionLink, let components = URLComponents(string: link) else {
                out.append("\(p.label): no link e-mailed"); continue
            }
            let linked = components.queryItems?.first { $0.name == "redirect_to" }?.value
            if linked != p.expected { out.append("\(p.label): the e-mailed link redirects to \(linked ?? "nothing"), expected \(p.expected)") }
            var items = (components.queryItems ?? []).filter { $0.name != "redirect_to" }.map { (name: $0.name, value: $0.value ?? "") }
            if let r = p.requested { items.append((name: "redirect_to", value: r)) }
            guard let opened = try? send(HTTPRequest(method: "GET", path: components.path, query: items, headers: ["apikey": apiKey])) else {
                out.append("\(p.label): opening the link failed"); continue
            }
            let location = opened.headers["Location"] ?? ""
            let target = String(location.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
            if opened.status != 303 || target != p.expected {
                out.append("\(p.label): opening the link answered \(opened.status) to \(target.isEmpty ? "nowhere" : target), expected 303 to \(p.expected)")
            } else if !location.contains("access_token=") {
                out.append("\(p.label): the redirect carries no session")
            }
        }
        return out
    }
}
