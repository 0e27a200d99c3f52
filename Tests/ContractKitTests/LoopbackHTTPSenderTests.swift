import Foundation
import MockBinding
import MockSupabase
import XCTest

@testable import ContractKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `LoopbackHTTPSender`, the live path's own HTTP/1.1 client: the same answers as a URLSession
/// from the served mock, and each way an answer's end is found (RFC 9112 section 6.3) against a
/// server that answers with bytes written here.
final class LoopbackHTTPSenderTests: XCTestCase {
    /// A loopback server answering each request of each connection with the next of `answers`
    /// (raw bytes; nil: close the connection without answering), recording what it received.
    final class ScriptedServer: @unchecked Sendable {
        let fd: Int32
        let port: UInt16
        private let lock = NSLock()
        private var script: [[UInt8]?]
        private(set) var requests: [String] = []
        private(set) var connections = 0

        init(_ answers: [String?]) throws {
            script = answers.map { $0.map { Array($0.utf8) } }
            #if canImport(Darwin)
                let fd = socket(AF_INET, SOCK_STREAM, 0)
            #else
                let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            #endif
            var addr = sockaddr_in()
            addr.sin_family = sa_family_t(AF_INET)
            addr.sin_port = 0
            addr.sin_addr.s_addr = in_addr_t(0x7F00_0001).bigEndian
            var len = socklen_t(MemoryLayout<sockaddr_in>.size)
            _ = withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, len) } }
            listen(fd, 8)
            _ = withUnsafeMutablePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) } }
            self.fd = fd
            port = UInt16(bigEndian: addr.sin_port)
            Thread.detachNewThread { [self] in self.acceptLoop() }
        }

        func stop() { shutdown(fd, Int32(SHUT_RDWR)); close(fd) }

        func next() -> [UInt8]?? {
            lock.lock(); defer { lock.unlock() }
            return script.isEmpty ? .none : .some(script.removeFirst())
        }

        func acceptLoop() {
            while true {
                let c = accept(fd, nil, nil)
                if c < 0 { return }
                lock.lock(); connections += 1; lock.unlock()
                Thread.detachNewThread { [self] in self.serve(c) }
            }
        }

        func serve(_ c: Int32) {
            defer { close(c) }
            var buffer: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 4096)
            while true {
                // One request: the head, then Content-Length bytes.
                var headEnd: Int?
                while headEnd == nil {
                    if let r = buffer.indices.dropLast(3).first(where: { buffer[$0..<$0 + 4] == [13, 10, 13, 10] }) { headEnd = r + 4; break }
                    let n = chunk.withUnsafeMutableBytes { recv(c, $0.baseAddress!, $0.count, 0) }
                    if n <= 0 { return }
                    buffer += chunk[0..<n]
                }
                let head = String(decoding: buffer[0..<headEnd!], as: UTF8.self)
                let length =
                    head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("content-length:") }
                    .flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) } ?? 0
                while buffer.count < headEnd! + length {
                    let n = chunk.withUnsafeMutableBytes { recv(c, $0.baseAddress!, $0.count, 0) }
                    if n <= 0 { return }
                    buffer += chunk[0..<n]
                }
                lock.lock(); requests.append(String(decoding: buffer[0..<headEnd! + length], as: UTF8.self)); lock.unlock()
                buffer.removeFirst(headEnd! + length)
                guard case .some(.some(let answer)) = next() else { return }
                _ = answer.withUnsafeBytes { send(c, $0.baseAddress!, $0.count, 0) }
                if String(decoding: answer, as: UTF8.self).lowercased().contains("connection: close") { return }
            }
        }
    }

    struct Keys: WireCredentials {
        var anonKey = "anon-key", serviceRoleKey = "service-key"
        func accessToken(persona: String) -> String? { persona == "amy" ? "amy-token" : nil }
    }

    func sender(_ s: ScriptedServer) throws -> LoopbackHTTPSender {
        try XCTUnwrap(LoopbackHTTPSender(baseURL: URL(string: "http://127.0.0.1:\(s.port)")!, timeout: 5))
    }

    func testOnlyPlainHTTPToThisMachine() {
        XCTAssertNotNil(LoopbackHTTPSender(baseURL: URL(string: "http://localhost:54321")!, timeout: 5))
        XCTAssertNil(LoopbackHTTPSender(baseURL: URL(string: "https://127.0.0.1:54321")!, timeout: 5))
        XCTAssertNil(LoopbackHTTPSender(baseURL: URL(string: "http://example.supabase.co")!, timeout: 5))
    }

    /// Each framing of an answer, on one connection as long as the answers allow it.
    func testEachWayAnAnswerEnds() throws {
        let server = try ScriptedServer([
            "HTTP/1.1 200 OK\r\nContent-Length: 5\r\nX-A: 1\r\nX-A: 2\r\n\r\nhello",
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3;ext=1\r\nabc\r\nA\r\n0123456789\r\n0\r\nX-Trailer: t\r\n\r\n",
            "HTTP/1.1 200 OK\r\nContent-Length: 7\r\n\r\n",
            "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 201 Created\r\nContent-Length: 2\r\n\r\n{}",
            "HTTP/1.1 204 No Content\r\n\r\n",
            "HTTP/1.1 200 OK\r\nConnection: close\r\n\r\nto the close",
            "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n"
        ])
        defer { server.stop() }
        let s = try sender(server)
        func send(_ method: String, _ path: String = "/rest/v1/notes", body: String = "") throws -> HTTPResponse {
            try s.send(WireRequest(method: method, path: path, body: Data(body.utf8), actor: .anon), credentials: Keys())
        }
        let plain = try send("GET")
        XCTAssertEqual(plain.status, 200)
        XCTAssertEqual(plain.text, "hello")
        XCTAssertEqual(plain.headers.values("X-A"), ["1", "2"], "a repeated field stays repeated")
        XCTAssertEqual(try send("GET").text, "abc0123456789", "chunks joined, extension and trailer left out")
        XCTAssertEqual(try send("HEAD").body, Data(), "a HEAD answer has no body whatever its Content-Length")
        let created = try send("POST", body: "[{\"id\":1}]")
        XCTAssertEqual(created.status, 201, "the interim 100 is not the answer")
        XCTAssertEqual(created.text, "{}")
        XCTAssertEqual(try send("DELETE").status, 204)
        XCTAssertEqual(server.connections, 1, "one connection kept alive")
        XCTAssertEqual(try send("GET").text, "to the close")
        XCTAssertEqual(try send("GET").status, 404)
        XCTAssertEqual(server.connections, 2, "a new connection after Connection: close")
        // What went out: the target encoded as URLSessionSender encodes it, Host, the actor's
        // fields, Content-Length with a body.
        let post = server.requests[3]
        XCTAssertTrue(post.hasPrefix("POST /rest/v1/notes HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\n"), post)
        XCTAssertTrue(post.contains("\r\napikey: anon-key\r\n"), post)
        XCTAssertTrue(post.contains("\r\nContent-Length: 10\r\n\r\n[{\"id\":1}]"), post)
        XCTAssertFalse(server.requests[0].lowercased().contains("content-length"), server.requests[0])
    }

    /// A kept connection the server closed while idle: the request goes again on a new one; a
    /// server that closes a new connection without answering is an error.
    func testAConnectionClosedWhileIdleIsReplaced() throws {
        let server = try ScriptedServer(["HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\na", nil, "HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\nb", nil])
        defer { server.stop() }
        let s = try sender(server)
        let r = WireRequest(method: "GET", path: "/auth/v1/health", actor: .none)
        XCTAssertEqual(try s.send(r, credentials: Keys()).text, "a")
        XCTAssertEqual(try s.send(r, credentials: Keys()).text, "b")
        XCTAssertEqual(server.connections, 2)
        XCTAssertThrowsError(try s.send(r, credentials: Keys()))
    }

    /// Against the served mock, the answers a URLSession gets; a persona's token attached. A
    /// sender that drops the token (a mutant) is caught by the persona's read.
    func testTheServedMockAnswersAsThroughAURLSession() throws {
        let (backend, _) = try RLSTestApp.backend()
        let server = HTTPServer(backend: backend)
        try server.start()
        defer { server.stop() }
        let raw = try XCTUnwrap(LoopbackHTTPSender(baseURL: URL(string: "http://127.0.0.1:\(server.port)")!, timeout: 10))
        let session = URLSessionSender.loopback(port: server.port, credentials: backend, timeout: 10)
        let requests = [
            WireRequest(method: "GET", path: "/rest/v1/notes", query: .items([("select", "id,body"), ("order", "id")]), actor: .persona("amy")),
            WireRequest(method: "GET", path: "/rest/v1/notes", query: .written("select=id&order=id"), actor: .anon),
            WireRequest(method: "HEAD", path: "/rest/v1/notes", query: .items([("select", "id")]), actor: .serviceRole),
            WireRequest(method: "GET", path: "/rest/v1/no such table", actor: .serviceRole)
        ]
        for r in requests {
            let (a, b) = (try raw.send(r, credentials: backend), try session.send(r))
            XCTAssertEqual(a.status, b.status, "\(r.method) \(r.path)")
            XCTAssertEqual(a.body, b.body, "\(r.method) \(r.path)")
            XCTAssertEqual(a.headers["Content-Type"], b.headers["Content-Type"], "\(r.method) \(r.path)")
        }
        let amy = try raw.send(requests[0], credentials: backend)
        XCTAssertFalse(amy.jsonBody?.arrayValue?.isEmpty ?? true, "amy sees her notes")
        struct NoTokens: WireCredentials {
            let keys: any WireCredentials
            var anonKey: String { keys.anonKey }
            var serviceRoleKey: String { keys.serviceRoleKey }
            func accessToken(persona: String) -> String? { persona == "amy" ? keys.anonKey : nil }
        }
        XCTAssertNotEqual(
            try raw.send(requests[0], credentials: NoTokens(keys: backend)).jsonBody, amy.jsonBody, "mutant: without amy's token her notes are hidden")
    }
}
