import MockBinding
import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
import MockSupabase
import XCTest

/// The one way to the wire: the same `WireRequest` gives the same answer in process, through the
/// URLProtocol and over loopback HTTP, credentials attached in one place.
final class WireSenderTests: XCTestCase {
    func testCredentialsOfEachActor() throws {
        let backend = try RLSTestApp.backend().0
        XCTAssertEqual(try backend.headers(for: .none), [:])
        XCTAssertEqual(try backend.headers(for: .anon)["apikey"], backend.anonKey)
        XCTAssertEqual(try backend.headers(for: .anon)["Authorization"], "Bearer \(backend.anonKey)")
        XCTAssertEqual(try backend.headers(for: .serviceRole)["apikey"], backend.serviceRoleKey)
        XCTAssertEqual(try backend.headers(for: .persona("amy"))["apikey"], backend.anonKey)
        let amy = try XCTUnwrap(try backend.headers(for: .persona("amy"))["Authorization"])
        XCTAssertTrue(amy.hasPrefix("Bearer ey") && amy != "Bearer \(backend.anonKey)", amy)
        XCTAssertThrowsError(try backend.headers(for: .persona("nobody")))
        XCTAssertEqual(WireActor(name: "none"), WireActor.none)
        XCTAssertEqual(WireActor(name: "service_role"), .serviceRole)
        XCTAssertEqual(WireActor(name: "amy"), .persona("amy"))
        // The request's own fields win over the actor's.
        let own = WireRequest(method: "get", path: "/rest/v1/notes", headers: ["Authorization": "Bearer x"], actor: .anon)
        let fields = try own.fields(backend)
        XCTAssertEqual(fields.values("Authorization"), ["Bearer x"])
        XCTAssertEqual(fields["apikey"], backend.anonKey)
        XCTAssertEqual(own.method, "GET")
    }

    func testQueryEncodings() {
        XCTAssertEqual(
            WireRequest(method: "GET", path: "/", query: .items([("name", "eq.a&b=c+d%")]), actor: .none).encodedQuery,
            "name=eq.a%26b%3Dc%2Bd%25")
        XCTAssertEqual(
            WireRequest(method: "GET", path: "/", query: .written("select=id,name&name=eq.a b"), actor: .none).encodedQuery,
            "select=id,name&name=eq.a%20b")
        XCTAssertNil(WireRequest(method: "GET", path: "/", actor: .none).encodedQuery)
    }

    /// Three senders, one answer per request; a sender that drops the credentials (a mutant) is
    /// caught by the persona's read.
    func testTheSendersAgree() throws {
        let (backend, _) = try RLSTestApp.backend()
        let server = HTTPServer(backend: backend)
        try server.start()
        defer { server.stop() }
        let senders: [(String, any WireSender)] = [
            ("in-process", InProcessSender(backend: backend)),
            ("URLProtocol", URLSessionSender(backend: backend)),
            ("loopback", URLSessionSender.loopback(port: server.port, credentials: backend, timeout: 10))
        ]
        let requests = [
            WireRequest(method: "GET", path: "/rest/v1/notes", query: .items([("select", "id,body"), ("order", "id")]), actor: .persona("amy")),
            WireRequest(method: "GET", path: "/rest/v1/notes", query: .written("select=id&order=id"), actor: .anon),
            WireRequest(method: "GET", path: "/rest/v1/notes", query: .items([("select", "id")]), actor: .none),
            WireRequest(method: "GET", path: "/rest/v1/notes", query: .items([("select", "id"), ("id", "eq.\(RLSTestApp.amyNote)")]), actor: .serviceRole)
        ]
        for r in requests {
            let answers = try senders.map { name, s in (name, try s.send(r)) }
            for (name, a) in answers.dropFirst() {
                XCTAssertEqual(a.status, answers[0].1.status, "\(name) \(r.path) as \(r.actor)")
                XCTAssertEqual(a.jsonBody, answers[0].1.jsonBody, "\(name) \(r.path) as \(r.actor)")
            }
        }
        let amy = try InProcessSender(backend: backend).send(requests[0])
        XCTAssertFalse(amy.jsonBody?.arrayValue?.isEmpty ?? true, "amy sees her notes")
        let dropped = InProcessSender(credentials: backend) { r in
            var stripped = r
            stripped.headers["Authorization"] = nil
            return try backend.handle(stripped)
        }
        XCTAssertNotEqual(try dropped.send(requests[0]).jsonBody, amy.jsonBody, "mutant: without the token amy's notes are hidden")
    }

    /// The request's header dictionary built in one go is the one Foundation's `setValue` /
    /// `addValue` leave, field by field: names capitalized, a repeat joined with ",", case-variant
    /// names merged; a value with CR, LF or NUL goes through Foundation (which drops it). A
    /// builder that keeps a repeat's last value only (a mutant) is caught.
    func testHeaderFieldsAsFoundationSetsThem() throws {
        func foundation(_ fields: HTTPHeaders) -> [String: String]? {
            var req = URLRequest(url: URL(string: "https://example.test/")!)
            var seen = Set<String>()
            for f in fields {
                if seen.insert(f.name.lowercased()).inserted {
                    req.setValue(f.value, forHTTPHeaderField: f.name)
                } else {
                    req.addValue(f.value, forHTTPHeaderField: f.name)
                }
            }
            return req.allHTTPHeaderFields
        }
        var repeated = HTTPHeaders()
        repeated.add("apikey", "k")
        repeated.add("authorization", "Bearer a.b.c")
        repeated.add("Prefer", "return=representation")
        repeated.add("prefer", "count=exact")
        repeated.add("X-Client-Info", "supabase-swift/2.0 (é)")
        repeated.add("content-type", "application/json")
        for fields in [repeated, HTTPHeaders(), ["Range": "0-9", "Accept": "text/csv"]] {
            XCTAssertEqual(try XCTUnwrap(URLSessionSender.plainHeaderFields(fields)), foundation(fields) ?? [:])
        }
        XCTAssertEqual(URLSessionSender.plainHeaderFields(repeated)?["Prefer"], "return=representation,count=exact")
        XCTAssertNil(URLSessionSender.plainHeaderFields(["X-Bad": "a\r\nb"]), "left to Foundation")
        let mutant = Dictionary(repeated.map { ($0.name.capitalized, $0.value) }, uniquingKeysWith: { _, last in last })
        XCTAssertNotEqual(mutant, foundation(repeated), "mutant: a repeat's last value only")
    }
}
